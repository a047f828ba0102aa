#!/bin/sh
# Sectored L1 ([l1] sectored = 1, issue 22) end to end at size tiny, on the
# baseline (small.ini) and one DC-L1 point: runs complete with every
# request answered, each load sector is one of hit, merge, miss, fills
# move sectors (kmeans, one sector of each line per warp load, moves far
# fewer bytes than whole lines), and [l1] sectored = 0 given explicitly
# changes no byte of the statistics.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in small.ini dcl1/sh40_c10_boost.ini; do
    for s in 0 1; do
        "$GMSIM" run --config "$SRC/configs/$cfg" --workload kmeans --size tiny --quiet \
            -o l1.sectored=$s --stats "$T/k$s.json"
    done
    "$GMSIM" run --config "$SRC/configs/$cfg" --workload kmeans --size tiny --quiet \
        --stats "$T/default.json"
    cmp "$T/default.json" "$T/k0.json" || { echo "FAIL: $cfg: sectored = 0 differs from the default"; exit 1; }
    python3 - "$T/k0.json" "$T/k1.json" "$cfg" <<'PY'
import json, sys
line, sec = (json.load(open(p)) for p in sys.argv[1:3])
cfg = sys.argv[3]
def check(ok, what):
    if not ok:
        print(f"FAIL: {cfg}: {what}"); sys.exit(1)
for name, j in (("line", line), ("sectored", sec)):
    l1 = j["l1"]; s = l1["sectors"]
    check(j["conservation"]["requests_in_flight"] == 0, f"{name}: requests in flight")
    check(s["accesses"] == s["hits"] + s["merges"] + s["misses"], f"{name}: sector identity")
    check(s["accesses"] == l1["sectors_by_kind"]["load"], f"{name}: sector accesses")
    check(s["fill_bytes"] == 32 * s["fill_sectors"], f"{name}: fill bytes")
check(line["l1"]["sectors"]["fill_bytes"] == 128 * line["l1"]["fills"], "line mode fills whole lines")
check(line["l1"]["sectors"]["sector_miss_lines"] == 0, "line mode has no sector misses")
check(line["l1"]["reservation_fails"]["sector_pending"] == 0, "line mode refuses no sector")
check(sec["l1"]["sectors"]["sector_miss_lines"] > 0, "sectored kmeans has sector misses")
lb, sb = line["l1"]["sectors"]["fill_bytes"], sec["l1"]["sectors"]["fill_bytes"]
check(2 * sb < lb, f"sectored fill bytes {sb} not well below line fill bytes {lb}")
print(f"{cfg}: kmeans tiny L1 fill bytes line {lb} sectored {sb}; cycles "
      f"{line['summary']['core_cycles']} -> {sec['summary']['core_cycles']}")
PY
done
echo "PASS: sectored L1 end to end"
