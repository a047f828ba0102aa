#!/bin/sh
# scripts/compare-accelsim on Accel-Sim logs written for the test (in
# GPGPU-Sim 4's output format: counters repeated after each kernel, one
# log with cache breakdowns, one with totals only) and gmsim runs of
# three kernels on the V100 peer config: every Accel-Sim value is the
# last one printed, every gmsim value is the statistics JSON's, every
# ratio is their quotient, and the summary's geometric mean and Pearson r
# match an independent computation; a missing counter, a missing JSON and
# an empty directory are errors.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
CMP="$SRC/scripts/compare-accelsim"
mkdir "$T/r"
for k in gemm kmeans reduction; do
    "$GMSIM" run --config "$SRC/configs/peers/v100.ini" --workload $k --size tiny --quiet \
        --stats "$T/r/$k.gmsim.json"
done
# kernel 1's block, then the whole run's (the values the tool must take)
log() { # name cycles winsts l1acc l1miss l1sm l1pend l2acc l2miss l2pend dram lat breakdown
    cat > "$T/r/$1.accelsim.log" <<LOG
GPGPU-Sim: *** simulation thread starting and spinning waiting for work ***
gpu_sim_cycle = 1000
gpu_tot_sim_cycle = 1000
gpgpu_n_tot_w_icount = 10
L1D_total_cache_accesses = 1
L1D_total_cache_misses = 1
L2_total_cache_accesses = 1
L2_total_cache_misses = 1
total dram reads = 1
averagemflatency = 1
gpu_sim_cycle = 7
gpu_tot_sim_cycle = $2
gpu_tot_ipc =      12.5000
gpgpu_n_tot_w_icount = $3
L1D_total_cache_accesses = $4
L1D_total_cache_misses = $5
L1D_total_cache_miss_rate = 0.5000
L1D_total_cache_pending_hits = $7
L2_total_cache_accesses = $8
L2_total_cache_misses = $9
L2_total_cache_pending_hits = ${10}
total dram reads = ${11}
total dram writes = 5
averagemflatency = ${12}
LOG
    if [ "${13}" = 1 ]; then
        cat >> "$T/r/$1.accelsim.log" <<LOG
Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 900
Total_core_cache_stats_breakdown[GLOBAL_ACC_R][MISS] = $5
Total_core_cache_stats_breakdown[GLOBAL_ACC_R][SECTOR_MISS] = $6
Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED] = $7
Total_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = $4
LOG
    fi
}
log gemm 150000 800000 90000 20000 3000 400 30000 5000 60 4000 310 1
log kmeans 600000 2500000 300000 120000 0 900 200000 9000 10 8000 640 0
log reduction 40000 90000 12000 6000 0 30 7000 3000 5 2500 270 0
python3 "$CMP" "$T/r" --json "$T/out.json" > "$T/out.txt"
cat "$T/out.txt"
python3 - "$T" <<'PY'
import json, math, sys
T = sys.argv[1]
out = json.load(open(f"{T}/out.json"))
want_as = {  # what the logs' last blocks say (breakdown: MISS + SECTOR_MISS)
    "gemm": [150000, 800000, 90000, 23000, 400, 30000, 5000, 60, 4000, 310],
    "kmeans": [600000, 2500000, 300000, 120000, 900, 200000, 9000, 10, 8000, 640],
    "reduction": [40000, 90000, 12000, 6000, 30, 7000, 3000, 5, 2500, 270]}
paths = ["summary.core_cycles", "summary.warp_insts", "l1.sectors.accesses", "l1.sectors.misses",
         "l1.sectors.merges", "l2.sectors.accesses", "l2.sectors.misses", "l2.sectors.merges",
         "dram.reads", "summary.avg_mem_latency"]
def at(doc, p):
    for k in p.split("."):
        doc = doc[k]
    return doc
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
for name, want in want_as.items():
    rows = out["traces"][name]
    doc = json.load(open(f"{T}/r/{name}.gmsim.json"))
    rows = [r for r in rows if r["metric"] != "warp IPC"]
    if len(rows) != len(want):
        fail(f"{name}: {len(rows)} rows")
    for r, a, p in zip(rows, want, paths):
        g = at(doc, p)
        if r["accelsim"] != a:
            fail(f"{name}: {r['metric']}: Accel-Sim {r['accelsim']} want {a}")
        if r["gmsim"] != g:
            fail(f"{name}: {r['metric']}: gmsim {r['gmsim']} want {g}")
        if abs(r["ratio"] - g / a) > 1e-12:
            fail(f"{name}: {r['metric']}: ratio {r['ratio']}")
    if "global loads" not in out["traces"][name][3]["metric"] and name == "gemm":
        fail("gemm's L1 counters must come from the breakdown")
cyc = [(want_as[n][0], json.load(open(f"{T}/r/{n}.gmsim.json"))["summary"]["core_cycles"])
       for n in sorted(want_as)]
gm = math.prod(g / a for a, g in cyc) ** (1 / 3)
xs, ys = [a for a, _ in cyc], [g for _, g in cyc]
mx, my = sum(xs) / 3, sum(ys) / 3
r = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / math.sqrt(
    sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))
s = out["summary"]
if abs(s["cycles_ratio_geomean"] - gm) > 1e-9 or abs(s["cycles_pearson_r"] - r) > 1e-9:
    fail(f"summary {s} want geomean {gm} r {r}")
print(f"compare-accelsim: 3 traces checked, cycles ratio geomean {gm:.3f}, r {r:.3f}")
PY
# errors: a counter missing, a log without its JSON, an empty directory
mkdir "$T/bad" "$T/empty"
grep -v "gpgpu_n_tot_w_icount" "$T/r/gemm.accelsim.log" > "$T/bad/gemm.accelsim.log"
cp "$T/r/gemm.gmsim.json" "$T/bad/"
if python3 "$CMP" "$T/bad" > "$T/e1" 2>&1; then echo "FAIL: missing counter accepted"; exit 1; fi
grep -q "gpgpu_n_tot_w_icount" "$T/e1" || { cat "$T/e1"; echo "FAIL: message"; exit 1; }
rm "$T/bad/gemm.gmsim.json"
if python3 "$CMP" "$T/bad" > "$T/e2" 2>&1; then echo "FAIL: missing JSON accepted"; exit 1; fi
grep -q "gemm.gmsim.json" "$T/e2" || { cat "$T/e2"; echo "FAIL: message"; exit 1; }
if python3 "$CMP" "$T/empty" > "$T/e3" 2>&1; then echo "FAIL: empty dir accepted"; exit 1; fi
echo "PASS: compare-accelsim"
