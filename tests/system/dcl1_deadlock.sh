#!/bin/sh
# The watchdog also covers DC-L1 systems: with DRAM channel 1 never issuing
# a command, a Sh40+C10 run must stop with exit status 2, name the stuck
# request and show the requests piled up in the DC-L1 nodes behind it.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$GMSIM" run --config "$SRC/configs/dcl1/sh40_c10.ini" --workload gemm --size tiny --quiet \
    -o sim.fault_stall_dram=1 -o sim.watchdog_cycles=20000 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc -eq 2 ] || { echo "FAIL: exit status $rc, expected 2"; exit 1; }
grep -q "deadlock: request #[0-9]*" "$T/err" || { echo "FAIL: no stuck request named"; exit 1; }
grep -q "in DRAM controller 1" "$T/err" || { echo "FAIL: DRAM controller 1 not named"; exit 1; }
grep -q "in DC-L1 node [0-9]" "$T/err" || { echo "FAIL: the requests waiting in nodes are not shown"; exit 1; }
echo "PASS: DC-L1 deadlock reported"
