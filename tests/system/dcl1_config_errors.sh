#!/bin/sh
# Invalid DC-L1 combinations are configuration errors that name the keys
# involved (exit status 1), never a crash or a silent fallback.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
expect() { # pattern args...
    pat=$1; shift
    "$GMSIM" run --workload gemm --size tiny --quiet "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 1 ] || ! grep -q -- "$pat" "$T/err"; then
        echo "FAIL: '$*' -> exit $rc, stderr:"; cat "$T/err"; fail=1
    else
        echo "ok: $(head -n1 "$T/err")"
    fi
}
D="$SRC/configs/dcl1"
expect "\[dcl1\] nodes = 30 does not divide \[core\] num_cores = 80" --config "$D/pr40.ini" -o dcl1.nodes=30
expect "\[l2\] slices = 32 is not a multiple" --config "$D/sh40_c10.ini" -o dcl1.clusters=2
expect "\[dcl1\] nodes = 40 is not a multiple of \[dcl1\] clusters = 3" --config "$D/sh40_c10.ini" -o dcl1.clusters=3
expect "\[dcl1\] clusters = 10 is only used with \[dcl1\] sharing = clustered" --config "$D/sh40.ini" -o dcl1.clusters=10
expect "\[dcl1\] nodes = 100 exceeds \[core\] num_cores = 80" --config "$D/sh40.ini" -o dcl1.nodes=100
expect "\[dcl1\] node_size = 1000" --config "$D/sh40.ini" -o dcl1.node_size=1000
expect "\[dcl1\] boost = 2" --config "$D/sh40_c10_boost.ini" -o dcl1.boost=2
expect "\[dcl1\] sharing = ring" --config "$D/sh40.ini" -o dcl1.sharing=ring
printf '[design]\nkind = dcl1\n[dcl1]\nnodes = 40\nsharing = clustered\nclusters = 20\nnode_queue = 0\n' > "$T/q.ini"
expect "q.ini:7.*node_queue" --config "$T/q.ini"
# configs of the one-section era get a message naming the new place
printf '[design]\ndesign = dcl1\n' > "$T/old1.ini"
expect "old1.ini:2: \[design\] design is now \[design\] kind" --config "$T/old1.ini"
printf '[design]\nkind = dcl1\nnodes = 40\n' > "$T/old2.ini"
expect "old2.ini:3: \[design\] nodes moved to \[dcl1\] nodes" --config "$T/old2.ini"
expect "\[design\] kind = nosuch" -o design.kind=nosuch
# the baseline does not look at the DC-L1 keys
"$GMSIM" run --config "$SRC/configs/small.ini" --workload gemm --size tiny --quiet -o dcl1.nodes=3 -o dcl1.clusters=7 || { echo "FAIL: baseline rejected unused [dcl1] keys"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: invalid DC-L1 configurations rejected" || exit 1
