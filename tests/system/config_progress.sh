#!/bin/sh
# Configurations that cannot make progress are bad input (exit 1, with the
# key and its allowed range), found before simulating, each rule at its
# boundary: the last legal value runs to completion, the first illegal one
# is rejected. Legal but extreme configurations are slow, not deadlocked:
# the watchdog's derived bound does not fire on them, an explicit [sim]
# watchdog_cycles still does. Resource keys have upper bounds.
# docs/reliability.md, "Configurations that cannot make progress".
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
S="--config $SRC/configs/small.ini --workload reduction --size tiny --quiet"
H="--config $SRC/configs/hbm.ini --workload reduction --size tiny --quiet"
expect() { # expected-exit pattern gmsim-arguments...
    want=$1 pat=$2; shift 2
    "$GMSIM" run "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne "$want" ] || { [ -n "$pat" ] && ! grep -q -- "$pat" "$T/err"; }; then
        echo "FAIL: 'gmsim run $*' -> exit $rc (want $want, '$pat'), stderr:"
        cat "$T/err"; fail=1
    else
        echo "ok ($rc): $* ${pat:+-> $(head -c 160 "$T/err")}"
    fi
}

# Refresh (issue 13: tRFC 61 with tREFI 62..101 livelocked, reported by
# the watchdog as a deadlock in the L2). GDDR5: 28 + 15 + 12 + 61 + 12.
expect 1 "\[dram\] tREFI = 101 leaves no time.*or in 128\.\.1000000" $S \
    -o dram.tREFI=101 -o dram.tRFC=61
expect 1 "\[dram\] tREFI = 127 leaves no time" $S -o dram.tREFI=127
expect 0 "" $S -o dram.tREFI=128
expect 0 "" $S -o dram.tREFI=0
# HBM: 17 + 15 + 7 + 153 + 7
expect 1 "\[dram\] tREFI = 198 .*in 199\.\.1000000 with \[dram\] standard = hbm" $H \
    -o dram.tREFI=198
expect 0 "" $H -o dram.tREFI=199
# an ACT->ACT rule longer than the row cycle: tFAW + tRCD
expect 1 "tREFI = 411 .*tFAW 400" $S -o dram.tFAW=400 -o dram.tREFI=411
expect 0 "" $S -o dram.tFAW=400 -o dram.tREFI=412

# A CTA must fit one core: reduction's CTAs are 256 threads, 8 warps.
expect 1 "workload reduction: kernel 0 (reduce) .*\[core\] max_warps = 7 must be at least 8" \
    $S -o core.max_warps=7 -o core.max_ctas=7
expect 0 "" $S -o core.max_warps=8
# cta_policy = block puts cta_block = 2 CTAs on one core at once
expect 1 "cta_block = 2 of them on one core at once: 16 warps, more than \[core\] max_warps = 15" \
    $S -o core.cta_policy=block -o core.max_warps=15
expect 0 "" $S -o core.cta_policy=block -o core.max_warps=16

# Slow is not stuck. 4096-byte headers on 4-byte flits: requests wait
# over 100000 cycles in the L1 miss queues; the derived bound (540672)
# lets the run go on to the cycle limit (exit 3; it would finish at 3.5
# million cycles), while an explicit watchdog_cycles = 100000 still calls
# it a deadlock (exit 2). The same for tRAS = 65535 (without refresh: a row
# held that long would span many refresh intervals; derived bound
# 50904576; finishes at about 600000 cycles).
expect 3 "stopped at the cycle limit" $S -o noc.header_bytes=4096 -o noc.flit_bytes=4 \
    --max-cycles 250000
expect 2 "deadlock: request .* in the L1 miss queue" $S -o noc.header_bytes=4096 \
    -o noc.flit_bytes=4 -o sim.watchdog_cycles=100000 --max-cycles 250000
R="-o dram.tRAS=65535 -o dram.tRC=65535 -o dram.tRP=0 -o dram.tREFI=0"
expect 3 "stopped at the cycle limit" $S $R --max-cycles 300000
expect 2 "deadlock: request" $S $R -o sim.watchdog_cycles=100000 --max-cycles 300000

# Resource bounds (issue 13: 16M node MSHRs cost 7.3 GB on this run).
expect 1 "\[dcl1\] node_mshr_entries = 16777216: must be in 0\.\.65536" $S \
    -o design.kind=dcl1 -o dcl1.nodes=8 -o dcl1.node_mshr_entries=16777216
expect 0 "" $S -o design.kind=dcl1 -o dcl1.nodes=8 -o dcl1.node_mshr_entries=65536
expect 1 "\[l1\] size = 8M: must be in 128\.\.4M" $S -o l1.size=8M
expect 1 "\[l2\] slices x \[l2\] size = 32 x 67108864 = 2147483648 bytes" \
    --workload reduction --size tiny --quiet -o l2.size=64M

[ $fail -eq 0 ] && echo "PASS: unprogressable configurations rejected at their boundaries" || exit 1
