#!/bin/sh
# Every ATA config of configs/ata/ (the seed's Table II system as private,
# decoupled-sharing and ATA, and ATA on the 80-core DC-L1 baseline) runs
# btree at size tiny, whose CTAs all read the tree's top levels (high
# inter-core locality), to a drained end. Checked: conservation, the
# design's load accounting (every load counted once as local hit / local
# merge / remote hit / remote merge / L2 miss, and that equals the L1 load
# accesses; primary misses = remote hits + L2 misses where remote hits
# fetch), the organization's rules (private: nothing remote; decoupled: a
# line in at most one L1 per cluster; ata: remote hits happen, every remote
# read is served or sent to L2, the hit-vector histogram covers every load)
# and the run-time invariant (no remote hit whose target lacked the line).
# The ATA run is repeated: its statistics must be byte-identical. About 2 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in "$SRC"/configs/ata/*.ini; do
    name=$(basename "$cfg" .ini)
    "$GMSIM" run --config "$cfg" --workload btree --size tiny --quiet --stats "$T/s.json"
    python3 - "$T/s.json" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); name = sys.argv[2]
assert s["status"] == "done", s["status"]
c = s["conservation"]
assert c["requests_created"] == c["requests_completed"] > 0 and c["requests_in_flight"] == 0, c
for n, v in s["networks"].items():
    assert v["packets_injected"] == v["packets_ejected"], (n, v)
d, l1 = s["design"], s["l1"]
assert d["kind"] == "ata"
loads = l1["accesses_by_kind"]["load"]
outcomes = (d["local_hits"] + d["local_merges"] + d["remote_hits"] + d["remote_merges"]
            + d["l2_misses"])
assert outcomes == loads > 0, (outcomes, loads)
assert d["local_hits"] + d["remote_hits"] - (d["remote_hits"] if d["org"] == "ATA" else 0) \
    == l1["hits"], (d, l1["hits"])
assert d["invariant_violations"] == 0, d
# the RTL twin's C block, kept in step with the L1 tag arrays, agreed on
# every hit vector and every victim
assert d["tag_block_checks"] > 0 and d["tag_block_mismatches"] == 0, d
# the seed's per-instruction L1 latency: every load instruction timed
assert d["l1_access_latency_instructions"] > 0 and d["l1_access_latency_untracked"] == 0, d
assert d["l1_access_latency_max"] >= d["l1_load_latency_max"], d
org = d["org"]
k = d["cluster_size"]
if org == "private":
    assert d["remote_hits"] == d["remote_merges"] == d["remote_served"] == 0, d
    assert d["remote_dirty_to_l2"] == 0
    assert d["l2_misses"] == l1["misses"]
    assert s["networks"]["cluster_request"]["packets_injected"] == 0
elif org == "decoupled":
    assert d["remote_hits"] > 0 and d["remote_served"] == 0 and d["remote_dirty_to_l2"] == 0, d
    assert d["l2_misses"] == l1["misses"]
    # one home per line and cluster: never more copies than clusters
    assert s["copies"]["max_copies"] <= s["config"]["core"]["clusters"], s["copies"]
else:
    assert d["remote_hits"] > 0, d
    assert d["remote_served"] + d["remote_dirty_to_l2"] == d["remote_hits"], d
    assert d["remote_hits"] + d["l2_misses"] == l1["misses"], (d, l1["misses"])
    # with remote_fill = 1 every primary miss, remote or L2, ends in a fill
    assert l1["fills"] == l1["misses"], l1
    assert len(d["hit_vector_population"]) == k + 1
    assert sum(d["hit_vector_population"]) == loads
    assert s["networks"]["cluster_request"]["packets_injected"] == d["remote_hits"]
print("%-10s %7d cycles  loads %6d  local %6d  remote %5d  L2 %6d  dirty->L2 %3d  "
      "L1 access latency %.1f" % (name, s["summary"]["core_cycles"], loads,
                           d["local_hits"] + d["local_merges"],
                           d["remote_hits"] + d["remote_merges"], d["l2_misses"],
                           d["remote_dirty_to_l2"], d["l1_access_latency_avg"]))
PY
done
# the keys the seed leaves open: one comparator port per cluster, no local
# fill of remote data, 3 data banks (not a power of two)
"$GMSIM" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny --quiet \
    -o ata.tag_ports=1 -o ata.remote_fill=0 -o ata.banks=3 --stats "$T/k.json"
python3 - "$T/k.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); d, l1 = s["design"], s["l1"]
assert s["status"] == "done" and d["tag_port_refusals"] > 0, d
assert d["remote_hits"] > 0 and d["tag_block_mismatches"] == 0, d
# every fill comes from L2 now: remote data is handed over without a copy
assert l1["fills"] == d["l2_misses"] + d["remote_dirty_to_l2"], (l1["fills"], d)
print("tag_ports=1 remote_fill=0 banks=3: %d cycles, %d comparator-port refusals, %d remote hits"
      % (s["summary"]["core_cycles"], d["tag_port_refusals"], d["remote_hits"]))
PY
"$GMSIM" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny --quiet \
    --stats "$T/a.json"
"$GMSIM" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny --quiet \
    --stats "$T/b.json"
cmp "$T/a.json" "$T/b.json"
# cross-key rules of [ata]
bad() {
    if "$GMSIM" run --config "$SRC/configs/ata/ata.ini" --workload gemm --size tiny --quiet \
        "$@" 2>"$T/err"; then
        echo "FAIL: accepted $*"; exit 1
    fi
    grep -q "$EXPECT" "$T/err" || { echo "FAIL: $*: $(cat "$T/err")"; exit 1; }
}
EXPECT="tag_ports = 3 exceeds the 2 cores" bad -o core.clusters=15 -o ata.tag_ports=3
EXPECT="home_granule = 384 must be a power of two" bad -o ata.home_granule=384
EXPECT="tag_ports = 11 exceeds the 10 cores" bad -o ata.tag_ports=11
EXPECT="banks = 17" bad -o ata.banks=17
EXPECT="at most 32" bad -o core.clusters=1 -o core.num_cores=33
echo "PASS: ata configurations"
