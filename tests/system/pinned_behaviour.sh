#!/bin/sh
# Behaviour pinned byte for byte: configs at size tiny must give the event
# hash, cycle count and counters of tests/system/pinned.tsv (written and
# checked by scripts/pinned-table). A row changes only with a deliberate,
# documented change of behaviour.
#
# The default suite checks every kernel on the configs of the baseline,
# DC-L1, SelRep and the peers (the table taken before the architecture
# refactor, plus the kernels added since), and three kernels (gemm,
# reduction, btree) on every other design's configs. gemm_reload, the
# stream `gmsim bench` runs (outside the catalogue), is checked wherever
# gemm is: its rows are gemm's rows from before 2026-12-07, when the
# PolyBench accumulators stopped being reloaded. Kernels whose tiny
# run is long (radixsort: 3-4 M cycles on one core, its 16384 keys are the
# sample's minimum; myocyte: 3-5 M cycles, one step of its solver is 13 x
# 91 dependent loop trips) are checked on two core configs only, to keep
# the test near 10 CPU minutes.
# The whole table (every config x every kernel, 2592 rows, over 20 CPU minutes) is
# tests/pinned_full (cmake -DGM_PINNED_FULL=ON, make test-pinned-full);
# run it before changing anything on a timing path.
set -eu
GMSIM=$1 SRC=$2
cd "$SRC"
core=$(find configs -maxdepth 1 -name '*.ini'; find configs/dcl1 configs/selrep configs/peers -name '*.ini')
designs=$(find configs -mindepth 2 -name '*.ini' | grep -v -e '^configs/dcl1/' -e '^configs/selrep/' -e '^configs/peers/')
heavy=$(printf 'radixsort\nmyocyte')
light=$("$GMSIM" list-workloads | awk 'NR > 1 && NF { print $1 }' | grep -v -x -F "$heavy")
python3 scripts/pinned-table --gmsim "$GMSIM" --src "$SRC" --check tests/system/pinned.tsv \
    --configs $(echo "$core" | sort) --kernels $light gemm_reload
python3 scripts/pinned-table --gmsim "$GMSIM" --src "$SRC" --check tests/system/pinned.tsv \
    --configs configs/small.ini configs/dcl1/sh40_c10_boost.ini --kernels $heavy
python3 scripts/pinned-table --gmsim "$GMSIM" --src "$SRC" --check tests/system/pinned.tsv \
    --configs $(echo "$designs" | sort) --kernels gemm gemm_reload reduction btree
