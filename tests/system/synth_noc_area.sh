#!/bin/sh
# scripts/noc-area without synthesis: a cache holding made-up router
# results (area = 1000 * N * M um^2) must give NoC areas equal to the
# sums over the DC-L1 paper's topologies, whether the networks come from
# the real `gmsim topology` (the routers a run builds), from a stand-in
# gmsim printing one network, or from the config's [design] kind and [dcl1] keys when
# gmsim cannot be run.
# Args: gmsim path, source dir.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$SRC/scripts"
/usr/bin/python3 - "$T/cache.json" <<'PY'
import sys
from synth_lib import cache as C, flow, runner, sweeps
c = C.Cache(sys.argv[1])
files = flow.find_sources(sweeps.XBAR_TOP, [runner.SELFTEST_DIR])
h = C.sources_hash(files)
yv = runner.versions(flow.DEFAULT_LIBERTY)["yosys"]
sizes = [(80, 32), (32, 80), (2, 1), (1, 2), (40, 32), (32, 40), (80, 40), (40, 80),
         (8, 4), (4, 8), (10, 8), (8, 10)]
for n, m in sizes:
    p = sweeps.router_params(n, m, sweeps.XBAR_FIXED)
    k = C.key(sweeps.XBAR_TOP, p, flow.DEFAULT_LIBERTY, flow.DEFAULT_ABC_DELAY_PS, yv, True)
    c.put(k, {"area_um2": 1000.0 * n * m, "fmax_mhz": 100.0, "cells": 1, "flip_flops": 1,
              "params": dict(p), "sources_sha256": h, "critical_path_ns": 10.0})
PY
NA="$SRC/scripts/noc-area --router-top st_xbar --cache $T/cache.json --no-synth"
# The paper's four designs from the internal table / config keys.
$NA --gmsim /nonexistent --json "$T/a.json" > "$T/a.md" 2> "$T/a.err"
$NA --gmsim /nonexistent --config "$SRC/configs/dcl1/sh40_c10.ini" --json "$T/b.json" > /dev/null 2> "$T/b.err"
grep -q "does not exist\|not found" "$T/b.err" || { echo "FAIL: fallback not reported"; cat "$T/b.err"; exit 1; }
# A stand-in gmsim whose topology command prints one network.
cat > "$T/gmsim" <<'SH'
#!/bin/sh
[ "$1" = topology ] || { echo "gmsim: unknown command '$1'"; exit 1; }
echo '{"design":"sh40_c10","networks":[{"name":"noc1_req","routers":[{"inputs":8,"outputs":4,"count":10}]}]}'
SH
chmod +x "$T/gmsim"
$NA --gmsim "$T/gmsim" --config "$SRC/configs/dcl1/sh40_c10.ini" --json "$T/c.json" > /dev/null 2> "$T/c.err"
for d in baseline pr40 sh40 sh40_c10; do
    $NA --gmsim "$GMSIM" --config "$SRC/configs/dcl1/$d.ini" --json "$T/real-$d.json" > /dev/null 2> "$T/real.err"
done
/usr/bin/python3 - "$T/a.json" "$T/b.json" "$T/c.json" "$T"/real-*.json <<'PY'
import json, sys
a, b, c = (json.load(open(p))["designs"] for p in sys.argv[1:4])
real = [json.load(open(p))["designs"][0] for p in sys.argv[4:]]
want = {"baseline": 2 * 80 * 32, "pr40": 40 * 2 * 2 + 2 * 40 * 32,
        "sh40": 2 * 80 * 40 + 2 * 40 * 32, "sh40_c10": 10 * 2 * 32 + 4 * 2 * 80}
got = {d["design"]: d["area_um2"] / 1000 for d in a}
assert got == want, (got, want)
assert b[0]["area_um2"] / 1000 == want["sh40_c10"] and "[dcl1] keys" in b[0]["source"], b
assert abs(b[0]["relative_to_baseline"] - want["sh40_c10"] / want["baseline"]) < 1e-3
assert c[0]["area_um2"] / 1000 == 10 * 32 and "topology" in c[0]["source"], c
# gmsim's display names ("Pr40", "Sh40+C10") come back normalized, with
# the paper's claim beside each.
for d in real:
    assert "topology" in d["source"], d
    assert d["area_um2"] / 1000 == want[d["design"]], (d, want)
    assert d["paper_relative"] is not None and d["paper_claim"], d
print("ok: noc-area sums", got)
PY
# A size missing from the cache is an error with --no-synth.
/usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); d['entries']={k:v for k,v in d['entries'].items() if 'NumIn=8,NumOut=4' not in k}
json.dump(d,open(sys.argv[1],'w'))" "$T/cache.json"
if $NA --gmsim /nonexistent > /dev/null 2> "$T/d.err"; then echo "FAIL: missing size accepted"; exit 1; fi
grep -q "8x4 is not in the cache" "$T/d.err" || { cat "$T/d.err"; exit 1; }
echo "PASS: synth_noc_area"
