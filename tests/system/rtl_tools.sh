#!/bin/sh
# Tool acceptance of the RTL (SPEC section 5): Verilator 5.006 lint
# (-Wall, waivers in rtl/lint.vlt) of the router, the DC-L1 node queues and
# of each primitive over
# several parameterizations (sizes 1, 2, powers of two, non-powers of two,
# the 80x32 baseline, the mutants); Yosys 0.23 synthesis of a small router and
# of the node queues; Icarus 11 compile (-g2012). Any warning fails.
# Usage: rtl_tools.sh GMSIM SOURCE_DIR (the arguments of every system test).
set -eu
src=${2:?usage: rtl_tools.sh GMSIM SOURCE_DIR}
rtl=$src/rtl
files="$rtl/gm_onehot_mux.sv $rtl/gm_rr_search.sv $rtl/gm_onehot_enc.sv $rtl/gm_rr_arb.sv $rtl/gm_fifo.sv $rtl/gm_islip.sv $rtl/gm_router.sv $rtl/gm_dcl1_queues.sv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

lint() {  # lint TOP PARAMS...
    top=$1
    shift
    gs=""
    for p in "$@"; do gs="$gs -G$p"; done
    # shellcheck disable=SC2086
    if verilator --lint-only -Wall -I"$rtl" --top-module "$top" $gs "$rtl/lint.vlt" $files \
        >"$tmp/lint.log" 2>&1; then
        echo "lint ok: $top $*"
    else
        echo "FAILURE: lint $top $*"
        cat "$tmp/lint.log"
        fail=1
    fi
}

router() {  # router NumIn NumOut NumVcs VcDepth Stages Iters [Mutation]: both forms
    for split in 0 1; do
        lint gm_router NumIn=$1 NumOut=$2 NumVcs=$3 VcDepth=$4 Stages=$5 Iters=$6 Mutation=${7:-0} \
            Split=$split
    done
}

router 1 1 1 1 1 1
router 2 1 2 3 2 2
router 1 2 2 1 1 1
router 8 4 4 4 1 1
router 10 8 2 5 3 3
router 5 3 3 3 2 2
router 7 5 5 7 4 4
router 80 32 4 4 1 1
router 4 3 2 2 1 2 1
router 4 3 2 2 1 2 2
router 4 3 2 2 1 2 3
for n in 1 2 3 8; do lint gm_rr_arb N=$n NumArbs=3; done
for d in 1 2 3 4 5; do lint gm_fifo Width=7 Depth=$d NumFifos=2; done
lint gm_onehot_mux N=1 Width=1
lint gm_onehot_mux N=5 Width=9
lint gm_islip NumReq=1 NumRes=1 NumGroups=1 Iters=1
lint gm_islip NumReq=5 NumRes=3 NumGroups=1 Iters=2
lint gm_islip NumReq=12 NumRes=3 NumGroups=4 Iters=3
lint gm_islip NumReq=1 NumRes=1 NumGroups=1 Iters=1 Split=1
lint gm_islip NumReq=12 NumRes=3 NumGroups=4 Iters=3 Split=1
for n in 1 2 3 8; do lint gm_rr_search N=$n; lint gm_onehot_enc N=$n; done
for d in 1 2 3 4 7; do lint gm_dcl1_queues Depth=$d; done
lint gm_dcl1_queues Depth=2 Mutation=1

# Yosys 0.23: -defer elaborates only with the parameters set by chparam
# (the required parameters default to 0 outside Verilator).
for split in 0 1; do
if yosys -q -l "$tmp/yosys.log" -p "read_verilog -defer -sv -I$rtl $files;
        chparam -set NumIn 3 -set NumOut 2 -set NumVcs 2 -set VcDepth 2 -set Stages 2 -set Iters 2 -set Split $split gm_router;
        synth -top gm_router; stat" >/dev/null 2>&1 &&
   ! grep -E -i "^(warning|error)|ERROR:" "$tmp/yosys.log" >/dev/null; then
    cells=$(sed -n '/=== design hierarchy ===/,$p' "$tmp/yosys.log" | grep "Number of cells" | tail -1 | awk '{print $4}')
    echo "yosys ok: gm_router 3x2 vcs 2 depth 2 stages 2 iters 2 split $split, $cells cells"
else
    echo "FAILURE: yosys (split $split)"
    grep -E -i "warning|error" "$tmp/yosys.log" | head -20 || true
    fail=1
fi
done

if yosys -q -l "$tmp/yosys-q.log" -p "read_verilog -defer -sv -I$rtl $files;
        chparam -set Depth 3 gm_dcl1_queues; synth -top gm_dcl1_queues; stat" >/dev/null 2>&1 &&
   ! grep -E -i "^(warning|error)|ERROR:" "$tmp/yosys-q.log" >/dev/null; then
    cells=$(grep "Number of cells" "$tmp/yosys-q.log" | tail -1 | awk '{print $4}')
    echo "yosys ok: gm_dcl1_queues depth 3, $cells cells"
else
    echo "FAILURE: yosys gm_dcl1_queues"
    grep -E -i "warning|error" "$tmp/yosys-q.log" | head -20 || true
    fail=1
fi

# Icarus 11.
if iverilog -g2012 -I"$rtl" -o "$tmp/router.vvp" -s gm_router \
        -P gm_router.NumIn=5 -P gm_router.NumOut=3 -P gm_router.NumVcs=3 \
        -P gm_router.VcDepth=3 -P gm_router.Stages=2 -P gm_router.Iters=2 \
        $files >"$tmp/iverilog.log" 2>&1 && [ ! -s "$tmp/iverilog.log" ]; then
    echo "icarus ok: gm_router 5x3 vcs 3"
else
    echo "FAILURE: icarus"
    cat "$tmp/iverilog.log"
    fail=1
fi

if iverilog -g2012 -I"$rtl" -o "$tmp/queues.vvp" -s gm_dcl1_queues -P gm_dcl1_queues.Depth=3 \
        $files >"$tmp/iverilog-q.log" 2>&1 && [ ! -s "$tmp/iverilog-q.log" ]; then
    echo "icarus ok: gm_dcl1_queues depth 3"
else
    echo "FAILURE: icarus gm_dcl1_queues"
    cat "$tmp/iverilog-q.log"
    fail=1
fi

[ $fail = 0 ] && echo "rtl tools: all passed"
exit $fail
