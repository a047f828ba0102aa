#!/bin/sh
# Every SelRep LLC organization of configs/selrep/ (the seed's Table I
# system: 64 SMs, 64 LLC slices, HBM) runs btree at size tiny, whose CTAs
# all read the tree's top levels, to a drained end, with epochs short
# enough (1000 cycles) that selrep and adaptive decide several times. The
# model's own invariants (no line outside the slices its degree reaches,
# checked every epoch_cycles, at every kernel boundary and at the end; no
# replica fetched for anything but a read-only load) stop a run that
# breaks them. About 3 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in "$SRC"/configs/selrep/*.ini; do
    name=$(basename "$cfg" .ini)
    "$GMSIM" run --config "$cfg" --workload btree --size tiny --quiet \
        -o selrep.epoch_cycles=1000 --stats "$T/s.json"
    python3 - "$T/s.json" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); name = sys.argv[2]
assert s["status"] == "done", s["status"]
c = s["conservation"]
assert c["requests_created"] == c["requests_completed"] > 0 and c["requests_in_flight"] == 0, c
for n, v in s["networks"].items():
    assert v["packets_injected"] == v["packets_ejected"], (n, v)
assert s["dram"]["reads"] == s["l2"]["dram_reads"]
d = s["design"]
assert d["kind"] == "selrep"
assert sum(d["slice_requests"]) == d["llc_requests"] > 0
assert 0 < d["ro_requests"] <= d["llc_requests"]
assert sum(d["degree_cycles"]) == s["summary"]["core_cycles"]
assert sum(d["degree_epochs"]) == d["epochs"]
# loads that are not read-only exist, yet every replica fetch came from a
# read-only load (the model stops the run otherwise: status would not be
# "done"); replicas created = flushed + evicted + resident
assert d["llc_requests"] > d["ro_requests"]
assert d["replicas_evicted"] >= 0 and d["replicas_resident"] >= 0, d
assert d["replicas_created"] == (d["replicas_flushed"] + d["replicas_evicted"]
                                 + d["replicas_resident"])
assert d["placement_checks"] >= 2
# per-channel HBM figures add up to the system's totals; per-level H-Xbar
# utilization is a fraction, and every flit injected is ejected
ch = d["hbm_channels"]
assert len(ch) == s["dram"]["channels"] == 32
assert sum(c["reads"] for c in ch) == s["dram"]["reads"]
assert sum(c["writes"] for c in ch) == s["dram"]["writes"]
assert all(0 <= c["row_hit_rate"] <= 1 and c["bandwidth_gbs"] <= 18.76 for c in ch), ch
# every channel ticks on every DRAM edge, so the per-channel bandwidths
# add up to the system's (bytes over the mean channel cycles)
bw = s["dram"]["bandwidth_gbs"]
assert bw > 0 and abs(sum(c["bandwidth_gbs"] for c in ch) - bw) < 1e-6 * bw, bw
for lvl in ("request", "reply"):
    h = d["hxbar"][lvl]
    assert h["inject_flits"] == h["eject_flits"] > 0, h
    for k in ("inject_utilization", "level_link_utilization", "eject_utilization"):
        assert 0 < h[k] <= 1, (lvl, k, h)
org = d["org"]
if org == "Shared":
    # one home slice per line: nothing ever goes anywhere else
    assert d["replica_requests"] == d["replicas_created"] == d["replicas_flushed"] == 0, d
    assert d["epochs"] == 0
elif org in ("Private", "Static-d4"):
    assert d["replica_requests"] > 0 and d["replicas_created"] > 0, d
    assert d["epochs"] == 0
else:
    assert d["epochs"] >= 5, d["epochs"]
    assert len(d["epoch_log"]) == d["epochs"]
print("%-10s %7d cycles  hit rate %.3f  replica requests %6d  degrees %s"
      % (name, s["summary"]["core_cycles"], d["llc_hit_rate"], d["replica_requests"],
         d["degree_epochs"]))
PY
done
