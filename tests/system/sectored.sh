#!/bin/sh
# Sectored caches ([l1] sectored, [l2] sectored; issue 22) end to end at
# size tiny, on the baseline (small.ini) and one DC-L1 point: runs complete
# with every request answered, each sector a read asks for is one of hit,
# merge, miss at both levels, fills move sectors (kmeans, one sector of
# each line per warp load, moves far fewer bytes than whole lines), a
# sectored L2 asks DRAM for sectors, and sectored = 0 given explicitly
# changes no byte of the statistics.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in small.ini dcl1/sh40_c10_boost.ini; do
    for s in 0 1; do
        "$GMSIM" run --config "$SRC/configs/$cfg" --workload kmeans --size tiny --quiet \
            -o l1.sectored=$s -o l2.sectored=$s --stats "$T/k$s.json"
    done
    "$GMSIM" run --config "$SRC/configs/$cfg" --workload kmeans --size tiny --quiet \
        -o l1.sectored=1 --stats "$T/l1only.json"
    "$GMSIM" run --config "$SRC/configs/$cfg" --workload kmeans --size tiny --quiet \
        --stats "$T/default.json"
    cmp "$T/default.json" "$T/k0.json" || { echo "FAIL: $cfg: sectored = 0 differs from the default"; exit 1; }
    python3 - "$T/k0.json" "$T/k1.json" "$T/l1only.json" "$cfg" <<'PY'
import json, sys
line, sec, l1only = (json.load(open(p)) for p in sys.argv[1:4])
cfg = sys.argv[4]
def check(ok, what):
    if not ok:
        print(f"FAIL: {cfg}: {what}"); sys.exit(1)
for name, j in (("line", line), ("sectored", sec), ("l1 only", l1only)):
    l1 = j["l1"]; s = l1["sectors"]; s2 = j["l2"]["sectors"]
    check(j["conservation"]["requests_in_flight"] == 0, f"{name}: requests in flight")
    check(s["accesses"] == s["hits"] + s["merges"] + s["misses"], f"{name}: sector identity")
    check(s["accesses"] == l1["sectors_by_kind"]["load"], f"{name}: sector accesses")
    check(s["fill_bytes"] == 32 * s["fill_sectors"], f"{name}: fill bytes")
    check(s2["accesses"] == s2["hits"] + s2["merges"] + s2["misses"], f"{name}: L2 sector identity")
    check(s2["fill_sectors"] == s2["misses"], f"{name}: L2 installs what it fetched")
check(line["l1"]["sectors"]["fill_bytes"] == 128 * line["l1"]["fills"], "line mode fills whole lines")
check(line["l1"]["sectors"]["sector_miss_lines"] == 0, "line mode has no sector misses")
check(line["l1"]["reservation_fails"]["sector_pending"] == 0, "line mode refuses no sector")
check(line["l2"]["sectors"]["fill_sectors"] == 4 * line["l2"]["fills"], "line-mode L2 fills whole lines")
check(line["dram"]["read_bytes"] == 128 * line["l2"]["dram_reads"], "line-mode DRAM reads whole lines")
check(sec["l1"]["sectors"]["sector_miss_lines"] > 0, "sectored kmeans has sector misses")
check(sec["l2"]["sectors"]["fill_sectors"] < 4 * sec["l2"]["fills"], "sectored L2 fills sectors")
# A sectored L2 over a sectored L1 asks DRAM for single sectors, moved as
# 64 B atoms: at most 64 B per DRAM read here, never a whole line each.
check(sec["dram"]["read_bytes"] < 128 * sec["l2"]["dram_reads"], "sectored DRAM reads are partial")
check(l1only["dram"]["read_bytes"] == 128 * l1only["l2"]["dram_reads"], "line-mode L2 reads lines")
lb, sb = line["l1"]["sectors"]["fill_bytes"], sec["l1"]["sectors"]["fill_bytes"]
check(2 * sb < lb, f"sectored fill bytes {sb} not well below line fill bytes {lb}")
print(f"{cfg}: kmeans tiny L1 fill bytes line {lb} sectored {sb}; DRAM read bytes "
      f"{line['dram']['read_bytes']} -> {sec['dram']['read_bytes']}; cycles "
      f"{line['summary']['core_cycles']} -> {l1only['summary']['core_cycles']} (L1) -> "
      f"{sec['summary']['core_cycles']} (L1+L2)")
PY
done
echo "PASS: sectored caches end to end"
