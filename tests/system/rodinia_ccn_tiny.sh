#!/bin/sh
# leukocyte and heartwall (the CCN seed's Rodinia kernels) run end to end
# at size tiny on configs/small.ini: the run finishes, every memory
# request is completed and none is left in flight, and the simulator
# executes exactly the warp instructions the workload walk counts
# (gmsim list-workloads), so no warp is lost or repeated.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$GMSIM" list-workloads --size tiny > "$T/list"
for w in leukocyte heartwall; do
    "$GMSIM" run --config "$SRC/configs/small.ini" --workload $w --size tiny --quiet \
        --stats "$T/$w.json"
    # warp-insts: the fourth column after the size (the suite has spaces)
    want=$(awk -v w=$w '$1 == w { for (i = 2; i <= NF; i++) if ($i == "tiny") { print $(i + 4); exit } }' "$T/list")
    [ -n "$want" ] || { echo "FAIL: $w not listed"; exit 1; }
    python3 - "$T/$w.json" "$want" "$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want, w = int(sys.argv[2]), sys.argv[3]
c = d["conservation"]
bad = []
if d["status"] != "done":
    bad.append("status %s" % d["status"])
if c["requests_created"] != c["requests_completed"] or c["requests_in_flight"]:
    bad.append("requests %s" % c)
if d["summary"]["warp_insts"] != want:
    bad.append("warp_insts %d, walk %d" % (d["summary"]["warp_insts"], want))
if bad:
    sys.exit("FAIL: %s: %s" % (w, "; ".join(bad)))
PY
done
echo "PASS: leukocyte and heartwall tiny complete, conserve requests, run every warp instruction"
