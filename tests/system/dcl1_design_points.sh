#!/bin/sh
# Every DC-L1 design point of configs/dcl1/ (the real 80- and 120-core
# systems) runs gemm at size tiny to completion, drained, and its
# statistics obey the conservation identities and the design's bound on
# copies per line. About 10 s in all.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in "$SRC"/configs/dcl1/*.ini; do
    name=$(basename "$cfg" .ini)
    "$GMSIM" run --config "$cfg" --workload gemm --size tiny --quiet --stats "$T/s.json"
    python3 - "$T/s.json" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); name = sys.argv[2]
assert s["status"] == "done", s["status"]
c = s["conservation"]
assert c["requests_created"] == c["requests_completed"] > 0 and c["requests_in_flight"] == 0, c
l1, core = s["l1"], s["core"]
assert l1["accesses"] == core["line_requests"], (l1["accesses"], core["line_requests"])
assert l1["hits"] + l1["misses"] + l1["mshr_merges"] + l1["bypass"] + l1["store_misses"] + l1["store_hits"] == l1["accesses"], l1
nets = s["networks"]
for n, v in nets.items():
    assert v["packets_injected"] == v["packets_ejected"], (n, v)
d = s["design"]
l2net = "noc2" if d["kind"] == "dcl1" else "noc"
assert nets[l2net + "_request"]["packets_injected"] == nets[l2net + "_reply"]["packets_injected"]
assert s["dram"]["reads"] == s["l2"]["dram_reads"]
cp = s["copies"]
assert 1 <= cp["max_copies"] <= cp["max_copies_allowed"], cp
if d["kind"] == "dcl1":
    # every line request crosses NoC#1 once each way
    assert nets["noc1_request"]["packets_injected"] == core["line_requests"]
    assert nets["noc1_reply"]["packets_injected"] == core["line_requests"]
    assert cp["max_copies_allowed"] == d["clusters"]
    sp = d["latency_split"]
    parts = sp["noc1"] + sp["node"] + sp["noc2"] + sp["l2"] + sp["dram"]
    assert abs(parts - core["avg_mem_latency"]) < 1e-6 * core["avg_mem_latency"], (parts, core)
    q = d["queues"]
    for k in ("q1", "q2", "q3", "q4"):
        assert q[k]["max_occupancy"] <= q["depth"], q
    assert q["q1"]["pushes"] == q["q2"]["pushes"] == core["line_requests"], q
    assert q["q3"]["pushes"] == q["q4"]["pushes"], q
    assert d["queue_protocol_errors"] == 0
    if d["sharing"] == "shared":
        assert cp["max_copies"] == 1, cp
else:
    assert sorted(nets) == ["noc_reply", "noc_request"], sorted(nets)
print("ok: %-16s %-16s IPC %.3f  L1 miss %.3f  copies %.2f (max %d of %d)" % (
    name, d["name"], s["summary"]["ipc"], s["summary"]["l1_miss_rate"],
    cp["copies_per_line"], cp["max_copies"], cp["max_copies_allowed"]))
PY
done
echo "PASS: every DC-L1 design point"
