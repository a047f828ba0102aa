#!/bin/sh
# A configuration that deadlocks on purpose (DRAM channel 1 never issues a
# command) must be detected by the watchdog, exit with status 2 and name
# the stuck request and where it is.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$GMSIM" run --config "$SRC/configs/small.ini" --workload gemm --size tiny --quiet \
    -o sim.fault_stall_dram=1 -o sim.watchdog_cycles=20000 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc -eq 2 ] || { echo "FAIL: exit status $rc, expected 2"; exit 1; }
grep -q "deadlock: request #[0-9]*" "$T/err" || { echo "FAIL: no stuck request named"; exit 1; }
grep -q "[0-9]* in DRAM controller 1[,]" "$T/err" || { echo "FAIL: the pile in DRAM controller 1 is not named"; exit 1; }
echo "PASS: deadlock reported"
