#!/bin/sh
# The shadow-tag checker can fail inside a system run: with every CCN
# node's shadow tags realized by a mutated RTL (Mutation 2: a lookup does
# not see the same cycle's tag writes) the run must stop with a divergence
# naming the instance, cycle, port and field, exit 4, and leave a waveform.
# Args: gmsim-cosim-mutant SRCDIR.
set -eu
MUTANT=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
rc=0
"$MUTANT" run --config "$SRC/configs/ccn/ccn_b.ini" --workload btree --size tiny --quiet \
    --rtl 'ccn-shadow-*' 2> log || rc=$?
[ "$rc" = 4 ] || { cat log; echo "FAIL: exit status $rc, want 4"; exit 1; }
grep -q "co-simulation: RTL of ccn-shadow-[0-9]* diverged from the C shadow tags at cycle [0-9]*.*port .* field .* expected 0x[0-9a-f]* actual 0x[0-9a-f]*" log ||
    { cat log; echo "FAIL: no divergence report"; exit 1; }
ls cosim_ccn-shadow-*.fst > /dev/null 2>&1 || { cat log; echo "FAIL: no waveform"; exit 1; }
grep "diverged" log | head -1
echo "PASS: cosim_ccn_mutant"
