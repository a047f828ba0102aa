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
expect "\[design\] nodes = 30 does not divide \[core\] num_cores = 80" --config "$D/pr40.ini" -o design.nodes=30
expect "\[l2\] slices = 32 is not a multiple" --config "$D/sh40_c10.ini" -o design.clusters=2
expect "\[design\] nodes = 40 is not a multiple of \[design\] clusters = 3" --config "$D/sh40_c10.ini" -o design.clusters=3
expect "\[design\] clusters = 10 is only used with \[design\] sharing = clustered" --config "$D/sh40.ini" -o design.clusters=10
expect "\[design\] nodes = 100 exceeds \[core\] num_cores = 80" --config "$D/sh40.ini" -o design.nodes=100
expect "\[design\] node_size = 1000" --config "$D/sh40.ini" -o design.node_size=1000
expect "\[design\] boost = 2" --config "$D/sh40_c10_boost.ini" -o design.boost=2
expect "\[design\] sharing = ring" --config "$D/sh40.ini" -o design.sharing=ring
printf '[design]\ndesign = dcl1\nnodes = 40\nsharing = clustered\nclusters = 20\nnode_queue = 0\n' > "$T/q.ini"
expect "q.ini:6.*node_queue" --config "$T/q.ini"
# the baseline does not look at the DC-L1 keys
"$GMSIM" run --config "$SRC/configs/small.ini" --workload gemm --size tiny --quiet -o design.nodes=3 -o design.clusters=7 || { echo "FAIL: baseline rejected unused [design] keys"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: invalid DC-L1 configurations rejected" || exit 1
