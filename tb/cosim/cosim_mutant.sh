#!/bin/sh
# The checker can fail inside a system run: with NoC#1's request routers of
# Sh40+C10 realized by a mutated RTL (Mutation 3: a credit lost when one
# is returned and one spent in the same cycle) the run must stop with a
# divergence naming the instance, cycle, port and field, exit 4, and leave
# a waveform; an unknown pattern and a size without a model are errors.
# Args: gmsim gmsim-cosim gmsim-cosim-mutant SRCDIR.
set -eu
GMSIM=$1 COSIM=$2 MUTANT=$3 SRC=$4
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
rc=0
"$MUTANT" run --config "$SRC/configs/dcl1/sh40_c10.ini" --workload gemm --size tiny --quiet \
    --rtl 'noc1-request-*' 2> log || rc=$?
[ "$rc" = 4 ] || { cat log; echo "FAIL: exit status $rc, want 4"; exit 1; }
grep -q "co-simulation: RTL of noc1-request-[0-9]* diverged from the C router at network cycle [0-9]*.*port .* field .* expected 0x[0-9a-f]* actual 0x[0-9a-f]*" log ||
    { cat log; echo "FAIL: no divergence report"; exit 1; }
ls cosim_noc1-request-*.fst > /dev/null 2>&1 || { cat log; echo "FAIL: no waveform"; exit 1; }
grep "diverged" log | head -1
if "$COSIM" run --config "$SRC/configs/dcl1/sh40_c10.ini" --workload gemm --size tiny \
    --rtl 'nosuch-*' > /dev/null 2> log; then echo "FAIL: empty pattern accepted"; exit 1; fi
grep -q "no router instance matches" log || { cat log; exit 1; }
if "$COSIM" run --config "$SRC/configs/dcl1/pr40.ini" --workload gemm --size tiny \
    --rtl noc1 > /dev/null 2> log; then echo "FAIL: a size without a model accepted"; exit 1; fi
grep -q "no Verilated model of 2x1" log || { cat log; exit 1; }
if "$GMSIM" run --workload gemm --size tiny --rtl all > /dev/null 2> log; then
    echo "FAIL: plain gmsim accepted --rtl"; exit 1
fi
grep -q "gmsim-cosim" log
echo "PASS: cosim_mutant"
