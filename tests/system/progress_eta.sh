#!/bin/sh
# The progress line (docs/performance.md, "Progress and ETA"):
#  1. `gmsim run --progress N` writes lines to stderr that parse, the last
#     one with every CTA done (the total counted independently, by
#     `gmsim list-workloads`, which generates the streams) and an ETA;
#  2. it never touches what is simulated: the statistics and stdout are the
#     same bytes with and without it;
#  3. --progress 0 prints none; a bad value is exit status 1 with a message.
# Arguments: the gmsim binary and the source directory. No timing is tested.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
RUN="run --config $SRC/configs/small.ini --workload reduction --size tiny"

# the CTAs column: two after the size (the suite name has spaces)
total=$("$GMSIM" list-workloads --size tiny |
    awk '$1 == "reduction" { for (i = 2; i <= NF; i++) if ($i == "tiny") { print $(i + 2); exit } }')
[ -n "$total" ] && [ "$total" -gt 0 ] || fail "no CTA count for reduction"

"$GMSIM" $RUN --stats "$T/a.json" --progress 1 > "$T/a.out" 2> "$T/a.err" || fail "run with --progress"
"$GMSIM" $RUN --stats "$T/b.json" > "$T/b.out" 2> "$T/b.err" || fail "run without --progress"
# the line: [gmsim] cycle C  kernel K/N  CTAs D/T (P%)  R cycles/s  CPU S s  ETA H:MM:SS
pat='^\[gmsim\] cycle [0-9][0-9]*  kernel [0-9][0-9]*/2  CTAs [0-9][0-9]*/'$total' \([0-9.]*%\)  [0-9][0-9]* cycles/s  CPU [0-9][0-9]* s  ETA ([0-9][0-9]*:[0-5][0-9]:[0-5][0-9]|[?])$'
n=$(grep -c . "$T/a.err")
[ "$n" -ge 1 ] || fail "no progress line"
[ "$(grep -Ec "$pat" "$T/a.err")" -eq "$n" ] || { cat "$T/a.err"; fail "a line does not parse"; }
tail -n 1 "$T/a.err" | grep -Eq "kernel 2/2  CTAs $total/$total \(100\.0%\).*ETA 0:00:00$" ||
    { tail -n 1 "$T/a.err"; fail "the last line is not the finished run"; }
echo "ok: $n progress line(s) parse, the last with $total/$total CTAs and ETA 0:00:00"

cmp -s "$T/a.json" "$T/b.json" || fail "statistics differ with --progress"
# the table's CPU time line is the only one that may differ
grep -v "CPU time" "$T/a.out" > "$T/a.tab"; grep -v "CPU time" "$T/b.out" > "$T/b.tab"
[ $(($(wc -l < "$T/a.out") - $(wc -l < "$T/a.tab"))) -eq 1 ] || fail "no CPU time line in the table"
cmp -s "$T/a.tab" "$T/b.tab" || fail "stdout differs with --progress"
[ ! -s "$T/b.err" ] || fail "stderr not empty without a terminal and without --progress"
echo "ok: statistics and stdout identical with and without --progress"

"$GMSIM" $RUN --quiet --progress 0 2> "$T/c.err" || fail "run with --progress 0"
[ ! -s "$T/c.err" ] || fail "--progress 0 printed something"
for bad in 86401 -1 x; do
    rc=0; "$GMSIM" $RUN --quiet --progress "$bad" 2> "$T/d.err" || rc=$?
    [ $rc -eq 1 ] || fail "--progress $bad: exit status $rc, not 1"
    grep -q -- "--progress" "$T/d.err" || fail "--progress $bad: message does not name the option"
done
echo "ok: --progress 0 is silent; 86401, -1, x are refused with status 1"
echo "PASS: progress line"
