#!/bin/sh
# Every shared-L1 config of configs/sharedl1/ (the seed's Table I system at
# SF 1..16 with rr and clustered CTA placement, and SF 2/4/8 on the 80-core
# baseline) runs hotspot at size tiny, whose neighbouring CTAs share halo
# rows, to a drained end. Checked per run: conservation, the 3C classes
# add up to the primary misses, no fill ever left a line twice in its
# shared L1 (the design's invariant, checked at every fill), at most one
# copy of a line per sharing group, every access went through a port,
# inter-core merges exist exactly when cores share. Across runs: SF 1 is the
# baseline design step for step (same cycles, caches, networks, event
# hash); the compulsory misses fall as SF grows (each shared L1 sees the
# first touches of SF cores once; measured on these runs, whose CTA
# placement may shift with timing). The clustered CTA policy also runs
# under the DC-L1 and SelRep designs; bad [sharedl1] values are refused.
# About 2 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in "$SRC"/configs/sharedl1/*.ini; do
    name=$(basename "$cfg" .ini)
    "$GMSIM" run --config "$cfg" --workload hotspot --size tiny --quiet --stats "$T/$name.json"
done
"$GMSIM" run --config "$SRC/configs/sharedl1/sf1.ini" -o design.kind=baseline \
    --workload hotspot --size tiny --quiet --stats "$T/baseline.json"
# the classifier decides nothing; the other key values build and drain
mkdir "$T/var"
"$GMSIM" run --config "$SRC/configs/sharedl1/sf4.ini" -o sharedl1.classify=0 \
    --workload hotspot --size tiny --quiet --stats "$T/var/noclassify.json"
"$GMSIM" run --config "$SRC/configs/sharedl1/sf4.ini" -o sharedl1.grow=ways \
    -o sharedl1.l2_links=group --workload hotspot --size tiny --quiet --stats "$T/var/ways.json"
# bad [sharedl1] values are refused before anything runs (exit 1, the key named)
bad() {
    if "$GMSIM" run --config "$SRC/configs/small.ini" -o design.kind=sharedl1 "$@" \
        --workload gemm --size tiny --quiet 2>"$T/err"; then
        echo "accepted: $*"; exit 1
    fi
    grep -q "$EXPECT" "$T/err" || { echo "wrong message for $*:"; cat "$T/err"; exit 1; }
}
EXPECT="sf = 3 must be 1, 2, 4, 8 or 16" bad -o sharedl1.sf=3
EXPECT="sf = 16 must divide \[core\] num_cores = 8" bad -o sharedl1.sf=16
EXPECT="256" bad -o sharedl1.sf=8 -o sharedl1.grow=ways -o l1.assoc=64
# clustered placement works with every design
for cfg in dcl1/sh40_c10_boost selrep/shared; do
    "$GMSIM" run --config "$SRC/configs/$cfg.ini" -o core.cta_policy=clustered \
        --workload hotspot --size tiny --quiet --stats "$T/var/$(basename $cfg).json"
done
python3 - "$T" <<'PY'
import json, os, sys
T = sys.argv[1]
runs = {}
for f in sorted(os.listdir(T)):
    if f.endswith(".json") and f != "baseline.json" and not os.path.isdir(os.path.join(T, f)):
        runs[f[:-5]] = json.load(open(os.path.join(T, f)))
assert len(runs) == 13, sorted(runs)
for name, s in runs.items():
    assert s["status"] == "done", (name, s["status"])
    c = s["conservation"]
    assert c["requests_created"] == c["requests_completed"] > 0, (name, c)
    assert c["requests_in_flight"] == 0, (name, c)
    for n, v in s["networks"].items():
        assert v["packets_injected"] == v["packets_ejected"], (name, n, v)
    d = s["design"]
    assert d["kind"] == "sharedl1"
    sf = d["sf"]
    ncores = len(d["port_accesses"])
    assert d["l1_caches"] * sf == ncores, (name, d["l1_caches"], sf, ncores)
    m = d["miss_3c"]
    assert m["classified"]
    assert m["compulsory"] + m["capacity"] + m["conflict"] == d["load_misses"] > 0, (name, m)
    assert d["invariant_errors"] == 0 and d["fills_checked"] == s["l1"]["fills"] > 0, (name, d)
    assert s["copies"]["max_copies"] <= d["l1_caches"] == s["copies"]["max_copies_allowed"]
    assert sum(d["port_accesses"]) == s["l1"]["accesses"], name
    assert d["load_hits"] + d["load_misses"] + d["mshr_merges"] == d["load_accesses"], name
    if sf == 1:
        assert d["inter_core_merges"] == 0, name
    else:
        assert 0 < d["inter_core_merges"] <= d["mshr_merges"], (name, d["inter_core_merges"])
    print("%-18s SF%-2d %7d cycles  hit %.3f (+merges %.3f)  3C %5d/%5d/%5d  mem %6d  "
          "inter-core %5d  L2 contention %6d"
          % (name, sf, s["summary"]["core_cycles"], d["hit_rate"], d["hit_rate_with_merges"],
             m["compulsory"], m["capacity"], m["conflict"], d["memory_accesses"],
             d["inter_core_merges"], d["l2_contention"]))
# SF 1 is the baseline design: only the design section may differ
b = json.load(open(os.path.join(T, "baseline.json")))
s1 = runs["sf1"]
for k in ("summary", "kernels", "core", "l1", "l2", "dram", "networks", "copies",
          "conservation", "event_hash"):
    assert s1[k] == b[k], ("SF1 differs from baseline in", k)
n = json.load(open(os.path.join(T, "var", "noclassify.json")))
for k in ("summary", "core", "l1", "l2", "dram", "networks", "event_hash"):
    assert n[k] == runs["sf4"][k], ("classify changes timing:", k)
assert n["design"]["miss_3c"]["classified"] is False
w = json.load(open(os.path.join(T, "var", "ways.json")))
assert w["status"] == "done" and w["conservation"]["requests_in_flight"] == 0
wd = w["design"]
assert (wd["l1_sets"], wd["l1_assoc"], wd["l2_links_per_l1"]) == (32, 16, 1), wd
assert wd["invariant_errors"] == 0 and wd["inter_core_merges"] > 0
for other in ("sh40_c10_boost", "shared"):
    o = json.load(open(os.path.join(T, "var", other + ".json")))
    assert o["status"] == "done" and o["conservation"]["requests_in_flight"] == 0, other
    assert o["config"]["core"]["cta_policy"] == "clustered", other
# compulsory misses: a shared L1 takes the first touch of a line once for
# its SF cores, so on these runs they fall as SF grows
for pol in ("", "_clustered"):
    comp = [runs["sf%d%s" % (sf, pol)]["design"]["miss_3c"]["compulsory"]
            for sf in (1, 2, 4, 8, 16)]
    assert comp == sorted(comp, reverse=True) and comp[0] > comp[-1], (pol, comp)
PY
