#!/bin/sh
# scripts/bsr (the SelRep seed's BSR, found offline): btree at size tiny
# under static degrees 1 and 16. Degree 1 must behave as the shared
# organization (same cycle count as configs/selrep/shared.ini, measured
# here separately), and the best degree must be the one with the fewest
# cycles in the JSON, ties to the smaller. About 2 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$SRC/scripts/bsr" --gmsim "$GMSIM" --config "$SRC/configs/selrep/static4.ini" \
    --degrees 1,16 -j 2 --out "$T/bsr.json" btree
"$GMSIM" run --config "$SRC/configs/selrep/shared.ini" --workload btree --size tiny --quiet \
    --stats "$T/shared.json"
python3 - "$T/bsr.json" "$T/shared.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["kernels"]["btree"]
shared = json.load(open(sys.argv[2]))["summary"]["core_cycles"]
c = {int(d): v for d, v in b["cycles"].items()}
assert set(c) == {1, 16}, c
assert c[1] == shared, (c[1], shared)
want = 1 if c[1] <= c[16] else 16
assert b["best_degree"] == want and b["best_cycles"] == c[want], b
assert c[1] != c[16], c   # replication changes the run
print("bsr ok: btree d1=%d (= shared) d16=%d best %d" % (c[1], c[16], want))
PY
