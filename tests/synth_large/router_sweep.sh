#!/bin/sh
# The full router sweep (2x1 .. 80x40) through the synthesis flow: long
# (see docs/results/area-timing.md for the run times), so it is not in the
# default ctest suite. It checks, for every size, that the flip-flop count
# equals what the router's registers imply (docs/noc.md 5.2), and the
# DC-L1 paper's Figure 13b trend: the small crossbars (2x1, 8x4) reach a
# clearly higher fmax than 80x32 and 80x40, and area grows with size.
# Args: gmsim path (unused), source dir. Results come from and go to the
# cache docs/results/synth-cache.json unless SYNTH_CACHE names another.
set -eu
SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
CACHE=${SYNTH_CACHE:-$SRC/docs/results/synth-cache.json}
"$SRC/scripts/synth" --sweep router --large --jobs "${SYNTH_JOBS:-2}" --out "$T" --cache "$CACHE" > "$T/log"
cd "$SRC/scripts"
/usr/bin/python3 - "$T/router-sweep.json" <<'PY'
import json, sys
from synth_lib.router_regs import router_flops
rs = {r["label"]: r for r in json.load(open(sys.argv[1]))["results"]}
bad = 0
for lab, r in rs.items():
    p = {k: int(v) for k, v in r["params"].items()}
    want, _ = router_flops(p["NumIn"], p["NumOut"], p["NumVcs"], p["VcDepth"], p["Stages"])
    ok = r["flip_flops"] == want
    bad += not ok
    print("%-6s FFs %6d (want %6d) area %12.0f um^2 fmax %6.1f MHz %s"
          % (lab, r["flip_flops"], want, r["area_um2"], r["fmax_mhz"], "" if ok else "FAIL"))
for small in ("2x1", "8x4"):
    for big in ("80x32", "80x40"):
        ratio = rs[small]["fmax_mhz"] / rs[big]["fmax_mhz"]
        ok = ratio > 1.5
        bad += not ok
        print("fmax %s / %s = %.2f %s" % (small, big, ratio, "" if ok else "FAIL (want > 1.5)"))
order = ["2x1", "8x4", "10x8", "40x32", "80x32", "80x40"]
areas = [rs[l]["area_um2"] for l in order]
if areas != sorted(areas):
    print("FAIL: area does not grow with size: %s" % areas); bad += 1
sys.exit(1 if bad else 0)
PY
echo "PASS: router_sweep"
