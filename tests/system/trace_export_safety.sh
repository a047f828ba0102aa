#!/bin/sh
# `gmsim trace export` never destroys data (docs/reliability.md,
# docs/traces.md), and trace runs say what they are:
#  1. missing parents of --out are created;
#  2. a non-empty --out is refused (exit 1, nothing changed) unless --force;
#  3. with --force the trace is replaced, stale kernel-N.traceg(.xz) files
#     of a longer export are removed, other files are kept;
#  4. the directory a trace is read from is refused, even with --force and
#     under another spelling or a link, and so is a kernel file's directory;
#  5. a failed export (a file-size limit) leaves the directory byte for
#     byte as it was, with no temporary left behind;
#  6. a trace run is labelled "trace" (JSON "size" and the table), a
#     missing kernel file says why (strerror), and "1 instruction line
#     missing" is singular.
# Arguments: the gmsim binary and the source directory.
set -eu
GMSIM=$1 SRC=$2
. "$SRC/tests/system/lib/checks.sh"   # T, fail, clean, has, hasF
CFG="$SRC/configs/small.ini"
# listing DIR: every file with its checksum, to compare a directory.
listing() { (cd "$1" && find . -type f -o -type l | sort | xargs -r md5sum); }

# ---- 1. parents ------------------------------------------------------------
"$GMSIM" trace export --workload reduction --size tiny --out "$T/a/b/c" > /dev/null ||
    fail "export into a new nested directory"
[ "$(ls "$T/a/b/c" | tr '\n' ' ')" = "kernel-1.traceg kernel-2.traceg kernelslist.g " ] ||
    fail "files: $(ls -A "$T/a/b/c")"
touch "$T/file"
rc=0; "$GMSIM" trace export --workload reduction --size tiny --out "$T/file/x" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && has "Not a directory" || fail "parent is a file: $rc $(cat "$T/err")"

# ---- 2. non-empty without --force ------------------------------------------
mkdir "$T/keep"
echo "my notes" > "$T/keep/notes.txt"
listing "$T/keep" > "$T/before"
rc=0; "$GMSIM" trace export --workload reduction --size tiny --out "$T/keep" > "$T/out" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] || fail "non-empty directory: exit status $rc"
has "keep: not empty.*--force" || fail "non-empty directory: message $(cat "$T/err")"
listing "$T/keep" | cmp -s - "$T/before" || fail "non-empty directory: changed"
# An existing export is refused just the same.
listing "$T/a/b/c" > "$T/before"
rc=0; "$GMSIM" trace export --workload gemm --size tiny --out "$T/a/b/c" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] || fail "existing export overwritten without --force"
listing "$T/a/b/c" | cmp -s - "$T/before" || fail "existing export: changed"
# An empty existing directory is fine.
mkdir "$T/empty"
"$GMSIM" trace export --workload gemm --size tiny --out "$T/empty" > /dev/null || fail "empty directory"

# ---- 3. --force ---------------------------------------------------------------
# reduction has 2 kernels; stale files: kernel-3, kernel-9, kernel-01 and
# an xz kernel; notes.txt and kernel-x.traceg are not kernel files.
for f in kernel-3.traceg kernel-9.traceg kernel-01.traceg kernel-1.traceg.xz kernel-x.traceg; do
    echo stale > "$T/keep/$f"
done
"$GMSIM" trace export --workload reduction --size tiny --out "$T/keep" --force > "$T/out" ||
    fail "--force: $(cat "$T/out")"
grep -q "identical" "$T/out" || fail "--force: not read back identical"
[ "$(ls "$T/keep" | tr '\n' ' ')" = "kernel-1.traceg kernel-2.traceg kernel-x.traceg kernelslist.g notes.txt " ] ||
    fail "--force: files $(ls -A "$T/keep")"
[ "$(cat "$T/keep/notes.txt")" = "my notes" ] || fail "--force: notes.txt changed"
cmp -s "$T/keep/kernel-1.traceg" "$T/a/b/c/kernel-1.traceg" || fail "--force: kernel-1 not replaced"

# ---- 4. the directory being read ---------------------------------------------
listing "$T/a/b/c" > "$T/before"
ln -s "$T/a/b/c" "$T/link"
for out in "$T/a/b/c" "$T/a/b/c/" "$T/a/b/../b/c" "$T/link"; do
    rc=0
    "$GMSIM" trace export --workload "trace:$T/a/b/c/kernelslist.g" --out "$out" --force \
        > /dev/null 2> "$T/err" || rc=$?
    [ $rc -eq 1 ] || fail "export into the directory read ($out): exit status $rc"
    has "is read from this directory" || fail "($out): message $(cat "$T/err")"
done
listing "$T/a/b/c" | cmp -s - "$T/before" || fail "the trace being read was changed"
# A list in one directory whose kernels live in another (a list names its
# kernels "kernel...", relative to itself: here a link to the directory).
mkdir "$T/listonly"
ln -s ../a/b/c "$T/listonly/kernels"
printf 'kernels/kernel-1.traceg\nkernels/kernel-2.traceg\n' > "$T/listonly/kernelslist.g"
rc=0
"$GMSIM" trace export --workload "trace:$T/listonly/kernelslist.g" --out "$T/a/b/c" --force \
    > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && has "is read from this directory" || fail "kernel directory: $rc $(cat "$T/err")"
listing "$T/a/b/c" | cmp -s - "$T/before" || fail "the kernel directory being read was changed"
# ... and an export elsewhere works and is the same trace.
"$GMSIM" trace export --workload "trace:$T/listonly/kernelslist.g" --out "$T/copy" > /dev/null ||
    fail "export of a trace into a new directory"
cmp -s "$T/copy/kernel-2.traceg" "$T/a/b/c/kernel-2.traceg" || fail "re-export differs"

# ---- 5. a failed export changes nothing -------------------------------------
listing "$T/keep" > "$T/before"
(ulimit -f 64; rc=0; "$GMSIM" trace export --workload gemm --size tiny --out "$T/keep" --force \
    --no-verify > /dev/null || rc=$?; echo "exit status $rc") 2>&1 | cat > "$T/err"
has "^exit status 1$" || fail "export past the file-size limit: $(cat "$T/err")"
has "write error" || fail "export past the file-size limit: message $(cat "$T/err")"
listing "$T/keep" | cmp -s - "$T/before" || fail "a failed export changed the directory"
[ -z "$(ls -A "$T/keep" | grep '^\.')" ] || fail "temporaries left: $(ls -A "$T/keep")"

# ---- 6. trace runs: label, messages -------------------------------------------
"$GMSIM" run --config "$CFG" --workload "trace:$T/keep/kernelslist.g" --size standard \
    --stats "$T/s.json" > "$T/table"
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['size'] == 'trace', s['size']" \
    "$T/s.json" || fail "JSON size of a trace run"
grep -q "^workload trace:$T/keep/kernelslist.g (trace), " "$T/table" || fail "table: $(head -1 "$T/table")"
rm "$T/keep/kernel-2.traceg"
rc=0; "$GMSIM" run --config "$CFG" --workload "trace:$T/keep/kernelslist.g" --quiet 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && has "kernel-2.traceg: cannot open: No such file or directory" ||
    fail "missing kernel: $rc $(cat "$T/err")"
printf 'kernel-1.traceg\n' > "$T/kernelslist.g"
for n in 1 2; do
    printf -- '-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n0000 ffffffff 0 EXIT 0 0\n' \
        $((n + 1)) > "$T/kernel-1.traceg"
    rc=0; "$GMSIM" run --config "$CFG" --workload "trace:$T/kernelslist.g" --quiet 2> "$T/err" || rc=$?
    want="$n instruction lines missing"
    [ $n -eq 1 ] && want="1 instruction line missing"
    [ $rc -eq 1 ] && has "$want\$" || fail "truncated warp ($n): $rc $(cat "$T/err")"
done

echo "PASS: trace_export_safety"
