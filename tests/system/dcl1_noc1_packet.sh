#!/bin/sh
# NoC#1 packet format keys ([dcl1] noc1_header, noc1_flit_bytes) change the
# NoC#1 flit counts exactly as hand-computed. Every NoC#1 packet carries
# 32k bytes (k = sectors: a load request carries none and its reply k, a
# store request k and its ack none; gemm has no atomics), so with header h
# and flit width f one request plus its reply cost
#   noc, 32 B: 1 + (k+1) = k+2      none, 32 B: 1 + k = k+1
#   noc, 16 B: 1 + (2k+1) = 2k+2    none, 16 B: 1 + 2k = 2k+1
# (a packet is at least one flit; [noc] header_bytes = 8). Summed over the
# L line requests with S sectors in all (the core's counters):
#   S + 2L,  S + L,  2S + 2L,  2S + L   flits in NoC#1 request + reply.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for cfg in sh40 pr40 sh40_c10_boost; do
    for fmt in "noc 32" "none 32" "noc 16" "none 16"; do
        set -- $fmt
        "$GMSIM" run --config "$SRC/configs/dcl1/$cfg.ini" --workload gemm --size tiny --quiet \
            -o dcl1.noc1_header="$1" -o dcl1.noc1_flit_bytes="$2" \
            --stats "$T/$cfg-$1-$2.json"
    done
    python3 - "$T" "$cfg" <<'PY'
import json, sys
d, cfg = sys.argv[1], sys.argv[2]
want = {("noc", 32): (1, 2), ("none", 32): (1, 1), ("noc", 16): (2, 2), ("none", 16): (2, 1)}
for (h, f), (a, b) in want.items():
    s = json.load(open("%s/%s-%s-%d.json" % (d, cfg, h, f)))
    n, c = s["networks"], s["core"]
    S, L = c["sector_requests"], c["line_requests"]
    got = n["noc1_request"]["flits_injected"] + n["noc1_reply"]["flits_injected"]
    exp = a * S + b * L
    if got != exp:
        sys.exit("FAIL: %s noc1_header=%s noc1_flit_bytes=%d: NoC#1 flits %d, expected "
                 "%d*S + %d*L = %d (S=%d, L=%d)" % (cfg, h, f, got, a, b, exp, S, L))
    if n["noc1_request"]["packets_injected"] != L or n["noc1_reply"]["packets_injected"] != L:
        sys.exit("FAIL: %s: NoC#1 packets are not one per line request each way" % cfg)
print("PASS: %s NoC#1 flits as computed for four packet formats" % cfg)
PY
done
# bad values are refused with the key and the allowed range
if "$GMSIM" run --config "$SRC/configs/dcl1/sh40.ini" --workload gemm --size tiny --quiet \
        -o dcl1.noc1_flit_bytes=2 > "$T/out" 2>&1; then
    echo "FAIL: noc1_flit_bytes = 2 accepted"; exit 1
fi
grep -q "noc1_flit_bytes" "$T/out" || { echo "FAIL: no key in: $(cat "$T/out")"; exit 1; }
if "$GMSIM" run --config "$SRC/configs/dcl1/sh40.ini" --workload gemm --size tiny --quiet \
        -o dcl1.noc1_header=some > "$T/out" 2>&1; then
    echo "FAIL: noc1_header = some accepted"; exit 1
fi
grep -q "noc1_header" "$T/out" || { echo "FAIL: no key in: $(cat "$T/out")"; exit 1; }
echo "PASS: NoC#1 packet format keys"
