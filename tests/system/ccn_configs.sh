#!/bin/sh
# Every CCN config of configs/ccn/ (the seed's 15-SM Fermi-like system:
# baseline, CCN-B, CCN-RT, ideal, hop latencies 2..5; CCN-RT on the 80-core
# DC-L1 baseline) runs btree at size tiny, whose CTAs all read the tree's
# top levels (inter-core reuse), to a drained end with the shadow tags
# compared with their L1's tags at every cycle (ccn.check_every = 1). Then
# the throttler with short epochs on a kernel without reuse (reduction)
# and on btree, and the smallest queues (CCN buffer 1, ReqQ and RespQ 2,
# a CCN buffer head gives up after 20 cycles) under load: the bubble rule
# must keep the rings from deadlocking. The
# checks are identities the counters must obey whatever the timing:
#   - a ring request ends as a hit or as a miss after the whole ring;
#   - a hit's response retraces its request's hops: every total is even;
#   - request-ring packets = n * misses + request hops of the hits, and
#     response-ring packets = response hops of the hits (one packet a hop);
#   - every hit stole exactly one L1 data-array cycle. About 10 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
check() {
    python3 - "$T/s.json" "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); name = sys.argv[2]; expect = sys.argv[3]
assert s["status"] == "done", s["status"]
c = s["conservation"]
assert c["requests_created"] == c["requests_completed"] > 0 and c["requests_in_flight"] == 0, c
for n, v in s["networks"].items():
    assert v["packets_injected"] == v["packets_ejected"], (n, v)
d = s["design"]
line = "%-22s %7d cycles  ipc %6.2f" % (name, s["summary"]["core_cycles"], s["summary"]["ipc"])
if d["kind"] == "ccn":
    n = d["l1_caches"]
    hist = d["hops_histogram"]
    assert len(hist) == 2 * n
    assert d["ccn_injected"] == d["ccn_hits"] + d["ccn_misses"], d
    assert sum(hist) == d["ccn_hits"], d
    assert all(hist[h] == 0 for h in range(1, 2 * n, 2)), hist
    assert hist[0] == 0, hist           # never answered by the requester's own node
    req_hops = sum(h // 2 * k for h, k in enumerate(hist))
    nets = s["networks"]
    assert nets["ccn_request"]["packets_injected"] == n * d["ccn_misses"] + req_hops, (nets, d)
    assert nets["ccn_reply"]["packets_injected"] == req_hops, (nets, d)
    assert d["stolen_data_cycles"] == d["ccn_hits"]
    assert d["shadow_lookups"] >= d["ccn_hits"]
    v = d["variant"]
    if expect == "reuse" and v.startswith("CCN-ideal"):
        assert d["ideal_hits"] > 0 and d["ccn_injected"] == 0, d
    elif expect == "reuse":
        assert d["ccn_hits"] > 0 and d["ccn_misses"] > 0, d
    if expect == "throttle":
        assert sum(d["throttled_epochs"]) > 0 and d["to_l2_throttled"] > 0, d
    if expect == "nothrottle":
        assert sum(d["throttled_epochs"]) == 0 and d["to_l2_throttled"] == 0, d
    if expect == "stress":
        assert d["to_l2_cb_full"] > 0 and d["reqq_stall_respq_full"] > 0, d
        assert d["to_l2_cb_timeout"] > 0, d
    line += "  %s: %d in, %d hits, %d to L2 after a round, %.1f hops per hit" % (
        v, d["ccn_injected"], d["ccn_hits"], d["ccn_misses"], d["hops_per_hit"])
print(line)
PY
}
for cfg in "$SRC"/configs/ccn/*.ini; do
    name=$(basename "$cfg" .ini)
    "$GMSIM" run --config "$cfg" --workload btree --size tiny --quiet \
        -o ccn.check_every=1 --stats "$T/s.json"
    check "$name" reuse
done
RT="$SRC/configs/ccn/ccn_rt.ini"
"$GMSIM" run --config "$RT" --workload reduction --size tiny --quiet -o ccn.check_every=1 \
    -o ccn.rt_sample=2000 -o ccn.rt_period=20000 --stats "$T/s.json"
check rt-reduction throttle
"$GMSIM" run --config "$RT" --workload btree --size tiny --quiet -o ccn.rt_hmin_pct=0 \
    -o ccn.rt_sample=2000 -o ccn.rt_period=20000 --stats "$T/s.json"
check rt-hmin0-btree nothrottle
"$GMSIM" run --config "$SRC/configs/ccn/ccn_b.ini" --workload btree --size tiny --quiet \
    -o ccn.check_every=1 -o ccn.cb_entries=1 -o ccn.reqq_entries=2 -o ccn.respq_entries=2 \
    -o ccn.cb_timeout=20 \
    --stats "$T/s.json"
check b-smallest-queues stress
