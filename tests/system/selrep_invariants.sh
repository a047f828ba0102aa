#!/bin/sh
# The SelRep run-time invariants catch what they guard ([selrep] fault,
# docs/designs/selrep.md section 8a). btree at size tiny:
#  - over_degree under shared (degree 1): read-only loads go to the slices
#    of degree 16, so the placement check (every epoch_cycles) must stop
#    the run naming a line outside the slices degree 1 reaches;
#  - replicate_all under private: loads that are not read-only make
#    replicas, so the DRAM-side check must stop the run naming the slice;
#  - fault = none (the default) with the same options finishes.
# Exit status 4 is gmsim's "run did not finish". About 3 s.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
expect_stop() {  # config fault message
    set +e
    "$GMSIM" run --config "$SRC/configs/selrep/$1.ini" --workload btree --size tiny --quiet \
        -o selrep.epoch_cycles=1000 -o selrep.fault=$2 --stats "$T/s.json" 2> "$T/err"
    rc=$?
    set -e
    [ "$rc" -ne 0 ] || { echo "fault $2 under $1: run finished (rc 0)"; exit 1; }
    grep -q "$3" "$T/err" || { echo "fault $2 under $1: no '$3' in:"; cat "$T/err"; exit 1; }
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['status'] != 'done', s['status']" "$T/s.json"
    echo "fault $2 under $1 stopped: $(head -c 160 "$T/err")"
}
expect_stop shared over_degree "not reachable under degree 1"
expect_stop private replicate_all "for a request that is not a read-only load"
for cfg in shared private; do
    "$GMSIM" run --config "$SRC/configs/selrep/$cfg.ini" --workload btree --size tiny --quiet \
        -o selrep.epoch_cycles=1000 -o selrep.fault=none --stats "$T/s.json"
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['status'] == 'done', s['status']" "$T/s.json"
done
echo "selrep invariants ok"
