#!/bin/sh
# The CCN rings built of ring stops ([ccn] ring = stop, the default) cost
# what docs/noc.md section 10 says, counted by hand: a packet of F flits
# over one hop of latency L takes L + F + 1 network cycles (the source
# stop's output register holds it F cycles, the link L, the destination
# stop's ring buffer 1). Every CCN ring packet makes one hop and the node
# reserves its slot before sending, so no packet ever waits: the request
# ring (one 4 B flit: 4 B header, 4 B flits) must show exactly L + 2 on
# average and at most, the response ring (a 128 B line in 32 B flits, no
# header: F = 4) exactly L + 5. With ring = router the same runs must
# cost at least the router pipeline's 8 + L (docs/noc.md 9.5). btree at
# size tiny, hop latencies 1, 3 and 5. About 3 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
check() {
    python3 - "$T/s.json" "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); ring = sys.argv[2]; L = int(sys.argv[3])
assert s["status"] == "done", s["status"]
rq, rs = s["networks"]["ccn_request"], s["networks"]["ccn_reply"]
assert rq["packets_injected"] > 0 and rs["packets_injected"] > 0, (rq, rs)
if ring == "stop":
    assert rq["avg_packet_latency"] == L + 2 == rq["max_packet_latency"], (L, rq)
    assert rs["avg_packet_latency"] == L + 5 == rs["max_packet_latency"], (L, rs)
else:
    assert rq["avg_packet_latency"] >= 8 + L and rs["avg_packet_latency"] >= 8 + L, (L, rq, rs)
print("ring %-6s L=%d request %.2f response %.2f cycles, ipc %.2f" % (
    ring, L, rq["avg_packet_latency"], rs["avg_packet_latency"], s["summary"]["ipc"]))
PY
}
for L in 1 3 5; do
    for ring in stop router; do
        "$GMSIM" run --config "$SRC/configs/ccn/ccn_b.ini" --workload btree --size tiny \
            --quiet -o ccn.ring=$ring -o ccn.hop_latency=$L -o ccn.check_every=1 \
            --stats "$T/s.json"
        check $ring $L
    done
done
