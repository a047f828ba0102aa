#!/bin/sh
# DC-L1 runs are deterministic: same configuration, workload and seed give
# byte-identical statistics (including the event hash), for a boosted
# clustered design (two clock domains in NoC#1/NoC#2) and a shared one.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in sh40_c10_boost sh40; do
    for i in a b; do
        "$GMSIM" run --config "$SRC/configs/dcl1/$cfg.ini" --workload gemm --size tiny --seed 5 --quiet --stats "$T/$i.json"
    done
    cmp "$T/a.json" "$T/b.json" || { echo "FAIL: $cfg: two runs differ"; exit 1; }
    grep -q '"latency_split"' "$T/a.json" || { echo "FAIL: $cfg: no DC-L1 statistics"; exit 1; }
done
echo "PASS: identical DC-L1 statistics across runs"
