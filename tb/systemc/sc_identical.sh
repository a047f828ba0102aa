#!/bin/sh
# gmsim-sc (the system run by the gm_system_sc module under sc_start) must
# give statistics byte-identical to gmsim run. The statistics JSON holds no
# host timings (docs/stats.md), so the whole file is compared; the run
# must also have finished (exit 0) and simulated something.
# Args: gmsim gmsim-sc SRCDIR CONFIG WORKLOAD SIZE
set -eu
GMSIM=$1 SC=$2 SRC=$3 CONFIG=$4 WORKLOAD=$5 SIZE=$6
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
run="run --config $SRC/configs/$CONFIG.ini --workload $WORKLOAD --size $SIZE --quiet"
"$GMSIM" $run --stats c.json
"$SC" $run --stats sc.json 2> log ||
    { cat log; echo "FAIL: $CONFIG $WORKLOAD: gmsim-sc failed"; exit 1; }
grep -q '"status":[[:space:]]*"done"' sc.json || { echo "FAIL: gmsim-sc run not done"; exit 1; }
cmp c.json sc.json || { diff c.json sc.json | head -20; echo "FAIL: $CONFIG $WORKLOAD $SIZE: statistics differ"; exit 1; }
cycles=$(sed -n 's/.*"core_cycles":[[:space:]]*\([0-9]*\).*/\1/p' sc.json | head -1)
[ -n "$cycles" ] && [ "$cycles" -gt 0 ] || { echo "FAIL: no core cycles in the statistics"; exit 1; }
echo "ok: $CONFIG $WORKLOAD $SIZE: gmsim-sc statistics identical to gmsim ($cycles core cycles)"
