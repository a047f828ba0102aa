#!/bin/sh
# The ATA tag array checker can fail inside a system run: with every
# cluster's aggregated tag array realized by a mutated RTL (Mutation 2: the
# sector check dropped, so a line holding only some of the asked sectors
# is a hit) the run must stop with a divergence naming the instance,
# block cycle, port and field in hex, exit 4, and leave a waveform; a
# pattern matching no instance and an array size without a model are
# errors.
# Args: gmsim-cosim gmsim-cosim-mutant SRCDIR.
set -eu
COSIM=$1 MUTANT=$2 SRC=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
rc=0
"$MUTANT" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny --quiet \
    --rtl 'ata.*' 2> log || rc=$?
[ "$rc" = 4 ] || { cat log; echo "FAIL: exit status $rc, want 4"; exit 1; }
grep -q "co-simulation: RTL of ata.tags-[0-9]* diverged from the C tag array block at block cycle [0-9]* ([0-9]* fields*): port hit\[0\] field hit_vec expected 0x[0-9a-f]* actual 0x[0-9a-f]*" log ||
    { cat log; echo "FAIL: no divergence report"; exit 1; }
ls cosim_ata.tags-*.fst > /dev/null 2>&1 || { cat log; echo "FAIL: no waveform"; exit 1; }
grep "diverged" log | head -1
if "$COSIM" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny \
    --rtl 'ata.tags-9' > /dev/null 2> log; then echo "FAIL: empty pattern accepted"; exit 1; fi
grep -q "no router instance matches" log || { cat log; exit 1; }
if "$COSIM" run --config "$SRC/configs/ata/ata.ini" --workload btree --size tiny \
    -o l1.assoc=32 --rtl 'ata.*' > /dev/null 2> log; then
    echo "FAIL: a size without a model accepted"; exit 1
fi
grep -q "no Verilated tag array of 10 arrays x 16 sets x 32 ways" log || { cat log; exit 1; }
echo "PASS: cosim_ata_mutant"
