#!/bin/sh
# Tool acceptance of the CCN shadow tags (rtl/gm_shadow_tags.sv; SPEC
# section 5): Verilator 5.006 lint (-Wall --assert, waivers in
# rtl/lint.vlt) over sizes 1x1, 2x2, the seed's 32x4 with 26-bit tags,
# 96x4 with 24-bit tags, non-powers of two, the largest array and both
# mutants; Yosys 0.23 synthesis of a 3x5 array; Icarus 11 compile
# (-g2012). Any warning fails. Usage: rtl_tools_ccn.sh GMSIM SOURCE_DIR.
set -eu
src=${2:?usage: rtl_tools_ccn.sh GMSIM SOURCE_DIR}
rtl=$src/rtl
file=$rtl/gm_shadow_tags.sv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
lint() {  # lint Sets Ways TagW [Mutation]
    if verilator --lint-only -Wall --assert -I"$rtl" --top-module gm_shadow_tags \
        -GSets="$1" -GWays="$2" -GTagW="$3" -GMutation="${4:-0}" "$rtl/lint.vlt" "$file" \
        >"$tmp/lint.log" 2>&1; then
        echo "lint ok: gm_shadow_tags $1 x $2, $3-bit tags, mutation ${4:-0}"
    else
        echo "FAILURE: lint gm_shadow_tags $*"
        cat "$tmp/lint.log"
        fail=1
    fi
}
lint 1 1 1
lint 2 2 3
lint 32 4 26
lint 96 4 24
lint 3 5 7
lint 7 3 48
lint 65536 1 48
lint 2 2 3 1
lint 3 5 7 2
if yosys -q -l "$tmp/yosys.log" -p "read_verilog -defer -sv -I$rtl $file;
        chparam -set Sets 3 -set Ways 5 -set TagW 7 gm_shadow_tags;
        synth -top gm_shadow_tags; stat" >/dev/null 2>&1 &&
   ! grep -E -i "^(warning|error)|ERROR:" "$tmp/yosys.log" >/dev/null; then
    cells=$(grep "Number of cells" "$tmp/yosys.log" | tail -1 | awk '{print $4}')
    echo "yosys ok: gm_shadow_tags 3 x 5, 7-bit tags, $cells cells"
else
    echo "FAILURE: yosys gm_shadow_tags"
    grep -E -i "warning|error" "$tmp/yosys.log" | head -20 || true
    fail=1
fi
if iverilog -g2012 -I"$rtl" -o "$tmp/st.vvp" -s gm_shadow_tags -P gm_shadow_tags.Sets=3 \
        -P gm_shadow_tags.Ways=5 -P gm_shadow_tags.TagW=7 "$file" >"$tmp/iverilog.log" 2>&1 &&
   [ ! -s "$tmp/iverilog.log" ]; then
    echo "icarus ok: gm_shadow_tags 3 x 5"
else
    echo "FAILURE: icarus gm_shadow_tags"
    cat "$tmp/iverilog.log"
    fail=1
fi
[ $fail = 0 ] && echo "rtl tools (ccn): all passed"
exit $fail
