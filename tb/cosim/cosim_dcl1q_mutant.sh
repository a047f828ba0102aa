#!/bin/sh
# The DC-L1 node queue checker can fail inside a system run: with every
# node's queues realized by a mutated RTL (Mutation 1: the Q2 round robin
# between cache replies and bypassed replies frozen) Sh40+C10 gemm must
# stop with a divergence naming the instance, node cycle, port and field
# in hex, exit 4, and leave a waveform.
# Args: gmsim-cosim-mutant SRCDIR.
set -eu
MUTANT=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
rc=0
"$MUTANT" run --config "$SRC/configs/dcl1/sh40_c10.ini" --workload gemm --size tiny --quiet \
    --rtl 'dcl1q-*' 2> log || rc=$?
[ "$rc" = 4 ] || { cat log; echo "FAIL: exit status $rc, want 4"; exit 1; }
grep -q "co-simulation: RTL of dcl1q-[0-9]* diverged from the C node queues at node cycle [0-9]* ([0-9]* fields*): port .* field .* expected 0x[0-9a-f]* actual 0x[0-9a-f]*" log ||
    { cat log; echo "FAIL: no divergence report"; exit 1; }
ls cosim_dcl1q-*.fst > /dev/null 2>&1 || { cat log; echo "FAIL: no waveform"; exit 1; }
grep "diverged" log | head -1
echo "PASS: cosim_dcl1q_mutant"
