#!/bin/sh
# Skipping settled RTL edges (VlModel::clock, docs/cosim.md "Speed") must
# skip some edges of a mostly idle network and change nothing: with and
# without it (GM_COSIM_EVAL_EVERY_EDGE=1) the run compares the same number
# of router-cycles, matches every cycle, and writes the pure-C statistics.
# Args: gmsim gmsim-cosim SRCDIR.
set -eu
GMSIM=$1 COSIM=$2 SRC=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
run="run --config $SRC/configs/dcl1/sh40_c10_boost.ini --workload reduction --size tiny --quiet"
"$GMSIM" $run --stats c.json
"$COSIM" $run --stats skip.json --rtl noc1 2> skip.log || { cat skip.log; exit 1; }
GM_COSIM_EVAL_EVERY_EDGE=1 "$COSIM" $run --stats every.json --rtl noc1 2> every.log ||
    { cat every.log; exit 1; }
for m in skip every; do
    grep -q "RTL matched the C routers every cycle" $m.log || { cat $m.log; exit 1; }
    cmp c.json $m.json || { echo "FAIL: $m: statistics differ from pure C"; exit 1; }
done
skipped=$(sed -n 's/^gmsim-cosim: \([0-9]*\) RTL clock edges skipped.*/\1/p' skip.log)
[ -n "$skipped" ] && [ "$skipped" -gt 0 ] || { cat skip.log; echo "FAIL: no edge skipped"; exit 1; }
! grep -q "skipped" every.log || { cat every.log; echo "FAIL: skipped with every edge asked"; exit 1; }
cycles() { sed -n 's/.*instances*, \([0-9]*\) router-cycles compared.*/\1/p' "$1"; }
[ "$(cycles skip.log)" = "$(cycles every.log)" ] && [ -n "$(cycles skip.log)" ] ||
    { cat skip.log every.log; echo "FAIL: compared counts differ"; exit 1; }
echo "ok: $skipped of $(cycles skip.log) router edges skipped, statistics identical"
