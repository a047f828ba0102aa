#!/bin/sh
# Accel-Sim traces end to end (docs/traces.md).
#  1. gemm, atax and reduction (size tiny) exported with `gmsim trace export`
#     and run as trace:DIR/kernelslist.g give the statistics of the built-in
#     run byte for byte, except the "workload" line; every other built-in
#     workload exports and reads back the same stream (but for read-only
#     flags where the 128 B line rule differs from the kernel's own).
#  2. The public traces (../shared/traces) run to completion on
#     configs/small.ini, and for vectoradd and matrixmul the statistics agree
#     with counts taken from the trace text with awk: warp and thread
#     instructions, global loads and stores (one L1 access each: awk checks
#     that every access stays inside one 128 B line), and DRAM reads = the
#     distinct 128 B lines the loads touch.
#  3. Bad input: exit status 1 and a message naming the file.
# Arguments: the gmsim binary and the source directory.
set -eu
GMSIM=$1 SRC=$2
CFG="$SRC/configs/small.ini"
TRACES="$SRC/../shared/traces"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# json FILE EXPR: one value of the statistics (python3 reads the JSON).
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# ---- 1. export and read back --------------------------------------------
for w in gemm atax reduction; do
    "$GMSIM" trace export --workload $w --size tiny --seed 7 --out "$T/$w" > "$T/$w.out" ||
        fail "$w: export failed"
    grep -q "identical" "$T/$w.out" || fail "$w: export did not read back identical: $(cat "$T/$w.out")"
    "$GMSIM" run --config "$CFG" --workload "trace:$T/$w/kernelslist.g" --size tiny --seed 7 \
        --quiet --stats "$T/a.json" || fail "$w: trace run failed"
    "$GMSIM" run --config "$CFG" --workload $w --size tiny --seed 7 --quiet --stats "$T/b.json" ||
        fail "$w: built-in run failed"
    [ "$(json "$T/a.json" 'd["workload"]')" = "trace:$T/$w/kernelslist.g" ] ||
        fail "$w: workload field of the trace run"
    [ "$(json "$T/b.json" 'd["workload"]')" = "$w" ] || fail "$w: workload field"
    # --size does not apply to a trace: the run says "trace" (and the table
    # "(trace)"), the built-in run its size.
    [ "$(json "$T/a.json" 'd["size"]')" = "trace" ] || fail "$w: size field of the trace run"
    [ "$(json "$T/b.json" 'd["size"]')" = "tiny" ] || fail "$w: size field"
    # Exact: the files without their top-level "workload" and "size" lines
    # are the same bytes.
    grep -v '^	"workload":	\|^	"size":	' "$T/a.json" > "$T/a.rest"
    grep -v '^	"workload":	\|^	"size":	' "$T/b.json" > "$T/b.rest"
    [ $(($(wc -l < "$T/a.json") - $(wc -l < "$T/a.rest"))) -eq 2 ] || fail "$w: no workload or size line"
    cmp -s "$T/a.rest" "$T/b.rest" || { diff "$T/a.rest" "$T/b.rest" | head; fail "$w: statistics differ"; }
    echo "ok: $w trace statistics identical to the built-in run ($(json "$T/a.json" 'd["summary"]["core_cycles"]') cycles)"
done

# Every built-in workload exports and reads back; `trace export` exits 4 if
# anything but read-only flags differs (flags follow the 128 B line rule).
for w in $("$GMSIM" list-workloads | awk 'NR > 1 { print $1 }' | sort -u); do
    rm -rf "$T/all"
    "$GMSIM" trace export --workload $w --size tiny --out "$T/all" > "$T/all.out" 2>&1 ||
        fail "$w: export or read-back failed: $(cat "$T/all.out")"
done
echo "ok: every built-in workload (size tiny) reads back from its trace"

# ---- 2. public traces -----------------------------------------------------
[ -d "$TRACES" ] || fail "no public traces at $TRACES"
for list in "$TRACES"/*/kernelslist.g "$TRACES"/*/*/kernelslist.g; do
    [ -f "$list" ] || continue
    "$GMSIM" run --config "$CFG" --workload "trace:$list" --quiet --stats "$T/f.json" ||
        fail "$list: run failed"
    [ "$(json "$T/f.json" 'd["status"]')" = done ] || fail "$list: not done"
done
echo "ok: every public trace runs to completion"

# Counts from the text of a version-4 trace without line numbers:
# PC mask ndst [dst] opcode nsrc [src...] width [format base stride|...].
count() {
    awk '
    function hex(s,   v, i, c) {
        sub(/^0x/, "", s); v = 0
        for (i = 1; i <= length(s); i++) {
            c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
            v = v * 16 + c
        }
        return v
    }
    function popcount(m,   n) { n = 0; while (m > 0) { n += m % 2; m = int(m / 2) } return n }
    /^insts = / { insts += $3; next }
    /^[0-9a-f]+ [0-9a-f]+ [0-9]+ / {
        lanes = popcount(hex($2)); threads += lanes
        op = $(4 + $3); nsrc = $(5 + $3); w = $(6 + $3 + nsrc)
        if (op !~ /^(LDG|STG)/) next
        if (lanes == 0) next
        mem++; if (op ~ /^LDG/) ldg++; else stg++
        if ($(7 + $3 + nsrc) != 1) { bad++; next }      # base+stride only here
        base = hex($(8 + $3 + nsrc)); stride = $(9 + $3 + nsrc)
        first = int(base / 128); last = int((base + (lanes - 1) * stride + w - 1) / 128)
        if (first != last) bad++                          # more than one line
        if (op ~ /^LDG/) lines[sprintf("%.0f", first)] = 1
    }
    END {
        n = 0; for (l in lines) n++
        printf "%d %d %d %d %d %d %d\n", insts, threads, mem, ldg, stg, n, bad
    }' "$1"
}

for fx in vectoradd matrixmul; do
    set -- $(count "$TRACES/$fx/kernel-1.traceg")
    insts=$1 threads=$2 mem=$3 ldg=$4 stg=$5 lines=$6 bad=$7
    [ "$bad" -eq 0 ] || fail "$fx: an access the awk count cannot take as one line"
    [ "$ldg" -gt 0 ] && [ "$stg" -gt 0 ] || fail "$fx: no loads or stores counted"
    "$GMSIM" run --config "$CFG" --workload "trace:$TRACES/$fx/kernelslist.g" --quiet --stats "$T/f.json"
    got=$(json "$T/f.json" '"%d %d %d %d %d %d" % (d["core"]["warp_insts"], d["core"]["thread_insts"], d["core"]["mem_insts"], d["l1"]["accesses_by_kind"]["load"], d["l1"]["accesses_by_kind"]["store"], d["dram"]["reads"])')
    want="$insts $threads $mem $ldg $stg $lines"
    [ "$got" = "$want" ] || fail "$fx: statistics '$got', from the text '$want' (warp insts, thread insts, memory insts, L1 loads, L1 stores, DRAM reads)"
    echo "ok: $fx: $insts warp instructions, $ldg loads, $stg stores, $lines DRAM reads, as the text says"
done

# ---- 3. bad input -----------------------------------------------------------
printf 'kernel-1.traceg\n' > "$T/kernelslist.g"
printf -- '-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n' > "$T/kernel-1.traceg"
rc=0; "$GMSIM" run --config "$CFG" --workload "trace:$T/kernelslist.g" --quiet 2> "$T/err" || rc=$?
[ $rc -eq 1 ] || fail "truncated trace: exit status $rc"
grep -q "kernel-1.traceg:9: warp 0 of thread block 0,0,0: 1 instruction line missing" "$T/err" ||
    fail "truncated trace: message '$(cat "$T/err")'"
rc=0; "$GMSIM" run --workload "trace:$T/none/kernelslist.g" --quiet 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && grep -q "none/kernelslist.g: cannot open: No such file or directory" "$T/err" || fail "missing list: $rc $(cat "$T/err")"
rc=0; "$GMSIM" trace export --workload nosuch --out "$T/x" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && grep -q "unknown workload 'nosuch'" "$T/err" || fail "unknown workload: $rc"
rc=0; "$GMSIM" trace export --workload gemm 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && grep -q -- "--out DIR is required" "$T/err" || fail "export without --out: $rc"
echo "ok: bad input gives exit status 1 and names the file"
echo "PASS: trace export, import and public traces"
