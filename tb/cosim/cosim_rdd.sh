#!/bin/sh
# The SelRep RDD in RTL inside a system run (`--rtl selrep-rdd`): for org
# selrep and adaptive the run must match the C block every cycle and give
# statistics byte-identical to the pure-C run; with the bandwidth mutant
# (gmsim-cosim-rdd-mutant) the run must stop with a divergence (exit 4)
# and leave a waveform.
# Args: gmsim gmsim-cosim gmsim-cosim-rdd-mutant SRCDIR
set -eu
GMSIM=$1 COSIM=$2 MUTANT=$3 SRC=$4
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
for org in selrep adaptive; do
    run="run --config $SRC/configs/selrep/$org.ini --workload btree --size tiny --quiet
         -o selrep.epoch_cycles=1000"
    "$GMSIM" $run --stats c.json
    "$COSIM" $run --stats rtl.json --rtl selrep-rdd 2> log ||
        { cat log; echo "FAIL: $org: co-simulation failed"; exit 1; }
    grep -q "RTL matched the C RDD every cycle" log || { cat log; exit 1; }
    cmp c.json rtl.json || { echo "FAIL: $org: statistics differ"; exit 1; }
    epochs=$(python3 -c "import json; print(json.load(open('c.json'))['design']['epochs'])")
    [ "$epochs" -ge 5 ] || { echo "FAIL: $org: only $epochs epochs"; exit 1; }
    echo "ok: $org: $(grep 'RDD cycles compared' log | sed 's/gmsim-cosim: //'), $epochs epochs," \
         "statistics identical"
done
rc=0
"$MUTANT" run --config "$SRC/configs/selrep/selrep.ini" --workload btree --size tiny --quiet \
    -o selrep.epoch_cycles=1000 --rtl selrep-rdd 2> log || rc=$?
[ "$rc" = 4 ] || { cat log; echo "FAIL: mutant run exited $rc, want 4"; exit 1; }
grep -q "diverged from the C block at cycle [0-9]*: port bw\[0\] field bw" log ||
    { cat log; echo "FAIL: mutant not caught on the bandwidth"; exit 1; }
[ -s cosim_selrep-rdd.fst ] || { cat log; echo "FAIL: no waveform"; exit 1; }
echo "ok: mutant caught: $(grep -o 'diverged.*' log | head -1)"
