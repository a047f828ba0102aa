#!/bin/sh
# The DC-L1 work must leave the baseline bit-identical: the statistics of
# configs/small.ini on gemm and reduction (size tiny) must equal, field for
# field, the JSON the simulator wrote before DC-L1 existed
# (tests/system/dcl1_baseline_*_tiny.json), once the fields DC-L1 added are
# removed. Both documents are then printed the same way and compared with cmp.
# Regenerate the references only when a change of the baseline is intended:
#   gmsim run --config configs/small.ini --workload W --size tiny \
#       --stats tests/system/dcl1_baseline_W_tiny.json
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for w in gemm reduction; do
    "$GMSIM" run --config "$SRC/configs/small.ini" --workload $w --size tiny --quiet --stats "$T/new.json"
    python3 - "$T/new.json" "$SRC/tests/system/dcl1_baseline_${w}_tiny.json" "$T/a" "$T/b" <<'PY'
import json, sys
new, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# fields added with DC-L1 (docs/stats.md); everything else must be untouched
added_top = ["design", "networks", "dcl1"]
for k in added_top:
    new.pop(k, None)
new["config"].pop("design")
for k in ["max_copies", "max_copies_allowed"]:
    new["copies"].pop(k)
for doc, path in ((new, sys.argv[3]), (ref, sys.argv[4])):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
PY
    cmp "$T/a" "$T/b" || { echo "FAIL: baseline statistics of $w changed:"; diff "$T/b" "$T/a" | head -40; exit 1; }
    echo "ok: $w baseline unchanged"
done
echo "PASS: baseline bit-identical apart from added fields"
