#!/bin/sh
# A configuration that deadlocks on purpose (DRAM channel 1 never issues a
# command) must be detected by the watchdog in every design, exit with
# status 2, name the stuck request and show where the requests piled up:
# in DRAM controller 1, and for DC-L1 also in the nodes behind it.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
check() { # config, then grep patterns the report must contain
    cfg=$1; shift
    "$GMSIM" run --config "$SRC/configs/$cfg" --workload gemm --size tiny --quiet \
        -o sim.fault_stall_dram=1 -o sim.watchdog_cycles=20000 2>"$T/err"
    rc=$?
    cat "$T/err"
    [ $rc -eq 2 ] || { echo "FAIL: $cfg: exit status $rc, expected 2"; fail=1; }
    for pat in "deadlock: request #[0-9]*" "$@"; do
        grep -q "$pat" "$T/err" || { echo "FAIL: $cfg: report lacks '$pat'"; fail=1; }
    done
}
check small.ini "[0-9]* in DRAM controller 1[,]"
check dcl1/sh40_c10.ini "in DRAM controller 1" "in DC-L1 node [0-9]"
[ $fail -eq 0 ] && echo "PASS: deadlock reported in every design"
exit $fail
