#!/bin/sh
# Bad input gets a clear error naming file, line and key, and a non-zero
# exit; never a crash.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
expect() { # expected-exit pattern command...
    want=$1 pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne "$want" ] || ! grep -q -- "$pat" "$T/err"; then
        echo "FAIL: '$*' -> exit $rc, stderr:"; cat "$T/err"; fail=1
    else
        echo "ok: $(head -n1 "$T/err")"
    fi
}
printf '[l1]\nassoc = 4\nbogus = 3\n' > "$T/unknown.ini"
expect 1 "unknown.ini:3" "$GMSIM" run --config "$T/unknown.ini" --workload gemm --size tiny
printf '[l1]\n\nassoc = 0\n' > "$T/range.ini"
expect 1 "range.ini:3.*assoc" "$GMSIM" run --config "$T/range.ini" --workload gemm --size tiny
printf '[nosuch]\nx = 1\n' > "$T/section.ini"
expect 1 "section.ini:1: unknown section" "$GMSIM" run --config "$T/section.ini" --workload gemm --size tiny
printf '[core]\nwarp_sched = fifo\n' > "$T/enum.ini"
expect 1 "enum.ini:2.*warp_sched" "$GMSIM" run --config "$T/enum.ini" --workload gemm --size tiny
expect 1 "missing.ini" "$GMSIM" run --config "$T/missing.ini" --workload gemm --size tiny
expect 1 "\[l1\] size = 1000" "$GMSIM" run -o l1.size=1000 --workload gemm --size tiny
expect 1 "\[noc\] vcs = abc" "$GMSIM" run -o noc.vcs=abc --workload gemm --size tiny
expect 1 "no-such-kernel" "$GMSIM" run --workload no-such-kernel
expect 1 "--size" "$GMSIM" run --workload gemm --size huge
expect 1 "unknown command" "$GMSIM" frobnicate
[ $fail -eq 0 ] && echo "PASS: all bad inputs rejected" || exit 1
