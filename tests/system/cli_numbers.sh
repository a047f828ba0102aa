#!/bin/sh
# Every numeric option of every command is range-checked (docs/reliability.md):
# run --seed, run --max-cycles, trace export --seed, trace info --seed.
# At each boundary: 0 and 2^64-1 (decimal and 0x hex) are taken; 2^64,
# a sign, a leading or trailing blank, trailing junk, a bare 0x and an
# empty value exit 1 with one line naming the option and its range, and
# never start the work (no statistics file, no export directory).
# Arguments: the gmsim binary and the source directory.
set -eu
GMSIM=$1 SRC=$2
. "$SRC/tests/system/lib/checks.sh"   # T, fail, clean, has, hasF
RUN="run --config $SRC/configs/small.ini --workload reduction --size tiny --quiet"
MAX=18446744073709551615
RANGE="(a whole number from 0 to $MAX)"

# bad CMD OPTION VALUE: exit 1, the message names the option, the value and
# the range, and nothing ran.
bad() {
    cmd=$1 opt=$2 val=$3
    rc=0
    # shellcheck disable=SC2086
    "$GMSIM" $cmd "$opt" "$val" > "$T/out" 2> "$T/err" || rc=$?
    [ $rc -eq 1 ] || fail "$cmd $opt '$val': exit status $rc, want 1 ($(cat "$T/err"))"
    hasF "$opt '$val': " || fail "$cmd $opt '$val': message '$(cat "$T/err")'"
    hasF "$RANGE" || fail "$cmd $opt '$val': no range in '$(cat "$T/err")'"
    [ "$(wc -l < "$T/err")" -eq 1 ] || fail "$cmd $opt '$val': more than one line: $(cat "$T/err")"
    [ ! -s "$T/out" ] || fail "$cmd $opt '$val': wrote to stdout: $(cat "$T/out")"
    [ ! -e "$T/s.json" ] && [ ! -e "$T/exp" ] || fail "$cmd $opt '$val': the work started"
}

# good CMD OPTION VALUE [WANT-STATUS]: accepted (the command's own status).
good() {
    cmd=$1 opt=$2 val=$3 want=${4:-0}
    rc=0
    # shellcheck disable=SC2086
    "$GMSIM" $cmd "$opt" "$val" > "$T/out" 2> "$T/err" || rc=$?
    [ $rc -eq "$want" ] || fail "$cmd $opt '$val': exit status $rc, want $want ($(cat "$T/err"))"
    clean
}

BAD_VALUES="18446744073709551616 99999999999999999999 0x10000000000000000 -1 -0 +1"
check_bad_values() {
    cmd=$1 opt=$2
    for v in $BAD_VALUES; do bad "$cmd" "$opt" "$v"; done
    # blanks and junk, which the for loop above would split
    bad "$cmd" "$opt" " -1"
    bad "$cmd" "$opt" " 1"
    bad "$cmd" "$opt" "1 "
    bad "$cmd" "$opt" "	1"
    bad "$cmd" "$opt" "1x"
    bad "$cmd" "$opt" "12abc"
    bad "$cmd" "$opt" "0x"
    bad "$cmd" "$opt" "0xg"
    bad "$cmd" "$opt" "1e3"
    bad "$cmd" "$opt" "1.0"
    bad "$cmd" "$opt" ""
}

# run --seed: the full 64-bit range; the run itself must then finish.
check_bad_values "$RUN --stats $T/s.json" --seed
good "$RUN" --seed 0
good "$RUN" --seed $MAX
good "$RUN" --seed 0xFFFFFFFFFFFFFFFF
good "$RUN" --seed 0Xff
# A leading 0 is decimal, as in configuration files (strtoull read it as octal).
"$GMSIM" $RUN --seed 010 --stats "$T/a.json"
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['config']['sim']; assert int(c['seed']) == 10, c" \
    "$T/a.json" || fail "--seed 010 is not 10"
"$GMSIM" $RUN --seed 0x1F --stats "$T/a.json"
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['config']['sim']; assert int(c['seed']) == 31, c" \
    "$T/a.json" || fail "--seed 0x1F is not 31"
rm -f "$T/a.json"

# run --max-cycles: 0 is no limit; 1 stops at once (status 3); 2^64-1 is
# as good as no limit.
check_bad_values "$RUN --stats $T/s.json" --max-cycles
good "$RUN" --max-cycles 0
good "$RUN" --max-cycles 1 3
good "$RUN" --max-cycles $MAX
good "$RUN" --max-cycles 0x1 3
# The option's form with '=' is the same value.
rc=0; "$GMSIM" $RUN --max-cycles= 2> "$T/err" || rc=$?
[ $rc -eq 1 ] && hasF "--max-cycles '': empty value $RANGE" ||
    fail "--max-cycles=: $rc $(cat "$T/err")"

# trace export --seed and trace info --seed.
check_bad_values "trace export --workload reduction --size tiny --out $T/exp" --seed
check_bad_values "trace info --workload reduction --size tiny" --seed
good "trace info --workload reduction --size tiny" --seed 0
good "trace info --workload reduction --size tiny" --seed $MAX
good "trace export --workload reduction --size tiny --no-verify --out $T/e1" --seed $MAX
good "trace export --workload reduction --size tiny --no-verify --out $T/e2" --seed 0xFFFFFFFFFFFFFFFF
cmp -s "$T/e1/kernel-1.traceg" "$T/e2/kernel-1.traceg" || fail "trace export: the hex seed differs"

echo "PASS: cli_numbers"
