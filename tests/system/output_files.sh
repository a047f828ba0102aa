#!/bin/sh
# No result is lost or half-written (docs/reliability.md):
#  1. --stats goes through a temporary and a rename: a write that fails
#     (a file-size limit, ulimit -f) exits non-zero, names the file and
#     leaves an existing good file byte for byte as it was, with no
#     temporary left behind.
#  2. An unwritable --stats path (/proc/x/y, a directory, a missing
#     parent, a name in a read-only place) is an error before the
#     simulation starts: a run that would take minutes ends at once.
#  3. The replacement keeps the file's permission bits; a symbolic link
#     stays a link to the new contents; /dev/null is written in place.
#  4. --stats - writes only JSON on stdout; the table goes to stderr.
#  5. scripts/reproduce writes its CSVs the same way: under a file-size
#     limit it exits 1 and the previous results.csv is unchanged.
# Arguments: the gmsim binary and the source directory.
set -eu
GMSIM=$1 SRC=$2
. "$SRC/tests/system/lib/checks.sh"   # T, fail, clean, has, hasF
RUN="run --config $SRC/configs/small.ini --workload reduction --size tiny --quiet"
# A run that takes minutes (80 cores, GEMM standard) if it ever starts.
LONG="run --workload gemm --size standard --quiet"
is_json() { python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1"; }

# ---- 1. a failed write keeps the good file -----------------------------
mkdir "$T/d"
"$GMSIM" $RUN --stats "$T/d/s.json"
is_json "$T/d/s.json" || fail "first run: not JSON"
size=$(wc -c < "$T/d/s.json")
[ "$size" -gt 3000 ] || fail "the statistics are only $size bytes: the limit below would not bite"
cp "$T/d/s.json" "$T/good.json"
# 4 blocks (2 or 4 KiB, by shell) is below the file's size. The other
# seed makes the new contents differ, so a replaced file would show.
# The messages go through a pipe: the limit would cut a file they went to.
limited() {
    blocks=$1
    shift
    (ulimit -f "$blocks"; rc=0; "$@" || rc=$?; echo "exit status $rc") 2>&1 | cat > "$T/err"
}
limited 4 "$GMSIM" $RUN --seed 5 --stats "$T/d/s.json"
has "^exit status 1$" || fail "write past the file-size limit: want exit status 1: $(cat "$T/err")"
has "^gmsim: --stats .*/d/s.json: .*write error.*(the file is unchanged)$" ||
    fail "write past the file-size limit: message '$(cat "$T/err")'"
cmp -s "$T/d/s.json" "$T/good.json" || fail "the good statistics file was changed by a failed write"
[ "$(ls -A "$T/d")" = "s.json" ] || fail "left behind: $(ls -A "$T/d")"
# The same run without the limit does replace it.
"$GMSIM" $RUN --seed 5 --stats "$T/d/s.json"
is_json "$T/d/s.json" || fail "rerun: not JSON"
! cmp -s "$T/d/s.json" "$T/good.json" || fail "seed 5 wrote the same statistics as seed 1"
[ "$(ls -A "$T/d")" = "s.json" ] || fail "left behind after a good run: $(ls -A "$T/d")"

# ---- 2. unwritable paths fail before the simulation ---------------------
touch "$T/plain"
for p in /proc/x/y "$T" "$T/missing/s.json" "$T/plain/s.json" ""; do
    rc=0
    timeout 60 "$GMSIM" $LONG --stats "$p" > "$T/out" 2> "$T/err" || rc=$?
    [ $rc -ne 124 ] || fail "--stats '$p': the simulation ran"
    [ $rc -eq 1 ] || fail "--stats '$p': exit status $rc, want 1 ($(cat "$T/err"))"
    hasF "--stats $p" || fail "--stats '$p': message '$(cat "$T/err")'"
    [ ! -s "$T/out" ] || fail "--stats '$p': wrote to stdout"
done
rc=0; "$GMSIM" $RUN --stats "$T" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && has "is a directory" || fail "directory: $rc $(cat "$T/err")"
rc=0; "$GMSIM" $RUN --stats "$T/missing/s.json" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && has "No such file or directory" || fail "missing parent: $(cat "$T/err")"
# A bad input found before the run leaves no temporary either.
rc=0; "$GMSIM" run --workload nosuch --stats "$T/d/s.json" 2> "$T/err" || rc=$?
[ $rc -eq 1 ] || fail "unknown workload: exit status $rc"
[ "$(ls -A "$T/d")" = "s.json" ] || fail "left behind after a bad workload: $(ls -A "$T/d")"

# ---- 3. mode, links, devices -------------------------------------------
chmod 640 "$T/d/s.json"
"$GMSIM" $RUN --stats "$T/d/s.json"
[ "$(stat -c %a "$T/d/s.json")" = 640 ] || fail "mode not kept: $(stat -c %a "$T/d/s.json")"
mkdir "$T/real"
echo old > "$T/real/r.json"
ln -s "$T/real/r.json" "$T/link.json"
"$GMSIM" $RUN --stats "$T/link.json"
[ -L "$T/link.json" ] || fail "the symbolic link was replaced by a file"
is_json "$T/real/r.json" || fail "the file the link names was not written"
[ "$(ls -A "$T/real")" = "r.json" ] || fail "left behind beside the link target: $(ls -A "$T/real")"
"$GMSIM" $RUN --stats /dev/null || fail "--stats /dev/null"
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# ---- 4. --stats - -------------------------------------------------------
"$GMSIM" run --config "$SRC/configs/small.ini" --workload reduction --size tiny --stats - \
    > "$T/stdout" 2> "$T/stderr"
is_json "$T/stdout" || { head -5 "$T/stdout"; fail "--stats -: stdout is not JSON alone"; }
grep -q "core cycles" "$T/stderr" || fail "--stats -: the table is not on stderr: $(cat "$T/stderr")"
"$GMSIM" run --config "$SRC/configs/small.ini" --workload reduction --size tiny --stats - \
    --quiet > "$T/stdout" 2> "$T/stderr"
is_json "$T/stdout" || fail "--stats - --quiet: stdout is not JSON"
[ ! -s "$T/stderr" ] || fail "--stats - --quiet: stderr has $(cat "$T/stderr")"
# The file form and the stdout form are the same JSON.
"$GMSIM" $RUN --stats "$T/f.json"
cmp -s "$T/f.json" "$T/stdout" || fail "--stats - differs from --stats FILE"

# ---- 5. scripts/reproduce --------------------------------------------------
R="python3 $SRC/scripts/reproduce dcl1 --size tiny --workloads reduction --designs baseline
   --gmsim $GMSIM --out $T/rp --work $T/rpw -j 1"
$R 2> "$T/rp.log" || fail "reproduce: $(cat "$T/rp.log")"
[ -s "$T/rp/results.csv" ] || fail "reproduce: no results.csv"
cp "$T/rp/results.csv" "$T/results.good"
printf 'garbage\n' > "$T/rp/results.csv"
cp "$T/rp/results.csv" "$T/results.old"
limited 0 $R --collect-only
has "^exit status 1$" || fail "reproduce under a file-size limit: $(cat "$T/err")"
has "cannot write .*results.csv: File too large" || fail "reproduce: $(cat "$T/err")"
cmp -s "$T/rp/results.csv" "$T/results.old" || fail "reproduce: results.csv changed by a failed write"
[ "$(ls -A "$T/rp" | tr '\n' ' ')" = "results.csv summary.csv table.md " ] ||
    fail "reproduce: left behind: $(ls -A "$T/rp")"

echo "PASS: output_files"
