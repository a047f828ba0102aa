#!/bin/sh
# Same config, workload and seed twice: the statistics JSON must be
# byte-identical. A different seed must still run to completion.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for w in gemm reduction; do
    "$GMSIM" run --config "$SRC/configs/small.ini" --workload $w --size tiny --seed 7 --quiet --stats "$T/a.json"
    "$GMSIM" run --config "$SRC/configs/small.ini" --workload $w --size tiny --seed 7 --quiet --stats "$T/b.json"
    cmp "$T/a.json" "$T/b.json" || { echo "FAIL: $w: two runs differ"; exit 1; }
    [ -s "$T/a.json" ] || { echo "FAIL: empty stats"; exit 1; }
done
echo "PASS: identical statistics bytes across runs"
