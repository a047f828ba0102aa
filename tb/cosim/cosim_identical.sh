#!/bin/sh
# A co-simulated run (the instances matching PATTERN in Verilated RTL, the
# C blocks in shadow) must match the C blocks every cycle and give
# statistics byte-identical to the pure-C run. The statistics JSON holds
# no host timings (docs/stats.md), so the whole file is compared.
# Args: gmsim gmsim-cosim SRCDIR CONFIG WORKLOAD PATTERN INSTANCES [KEY=V]
# (size tiny; INSTANCES: how many instances PATTERN must put in RTL; KEY=V:
# one -o override for both runs).
set -eu
GMSIM=$1 COSIM=$2 SRC=$3 CONFIG=$4 WORKLOAD=$5 PATTERN=$6 INSTANCES=$7 OVERRIDE=${8:-}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
run="run --config $SRC/configs/$CONFIG.ini --workload $WORKLOAD --size tiny --quiet"
[ -z "$OVERRIDE" ] || run="$run -o $OVERRIDE"
"$GMSIM" $run --stats c.json
"$COSIM" $run --stats rtl.json --rtl "$PATTERN" 2> log ||
    { cat log; echo "FAIL: $CONFIG $WORKLOAD --rtl $PATTERN: co-simulation failed"; exit 1; }
grep -q "RTL matched the C .* every cycle" log || { cat log; exit 1; }
! grep -q "FAILURE" log || { cat log; exit 1; }
cmp c.json rtl.json || { echo "FAIL: $CONFIG $WORKLOAD --rtl $PATTERN: statistics differ"; exit 1; }
n=$(sed -n 's/.*gmsim-cosim: \([0-9]*\) instances*, .*compared.*/\1/p' log)
[ "$n" = "$INSTANCES" ] || { cat log; echo "FAIL: $n instances in RTL, want $INSTANCES"; exit 1; }
echo "ok: $CONFIG $WORKLOAD --rtl $PATTERN: $n instances in RTL, statistics identical" \
     "($(grep compared log | sed 's/^gmsim-cosim: //' | paste -sd ';' -))"
