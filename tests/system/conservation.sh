#!/bin/sh
# Every request created gets exactly one reply, and the run ends drained
# (the simulator's own end-of-run check must pass: exit status 0).
# Cross-checks the counters in the JSON independently of that check.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for w in gemm atax reduction; do
    "$GMSIM" run --config "$SRC/configs/small.ini" --workload $w --size tiny --quiet --stats "$T/s.json"
    python3 - "$T/s.json" "$w" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); w = sys.argv[2]
c = s["conservation"]
assert s["status"] == "done", s["status"]
assert c["requests_created"] == c["requests_completed"] > 0, c
assert c["requests_in_flight"] == 0, c
l1 = s["l1"]; core = s["core"]
# every coalesced line request reaches the L1 exactly once
assert l1["accesses"] == core["line_requests"], (l1["accesses"], core["line_requests"])
# hits + misses + merges + bypasses account for every L1 access
assert l1["hits"] + l1["misses"] + l1["mshr_merges"] + l1["bypass"] + l1["store_misses"] + l1["store_hits"] == l1["accesses"], l1
# networks: every packet injected was ejected
nets = s["networks"]
for n in ("noc_request", "noc_reply"):
    assert nets[n]["packets_injected"] == nets[n]["packets_ejected"], nets[n]
# the reply network carries one reply per request that left the L1
assert nets["noc_request"]["packets_injected"] == nets["noc_reply"]["packets_injected"]
# DRAM reads are L2 fills; writes are L2 write-backs
assert s["dram"]["reads"] == s["l2"]["dram_reads"], (s["dram"], s["l2"])
assert s["dram"]["writes"] == s["l2"]["writebacks"], (s["dram"], s["l2"])
print("PASS", w, c)
PY
done
