#!/bin/sh
# What gmsim accepts as a --config file (docs/reliability.md): NUL bytes
# are rejected with file:line, a directory is rejected, and nothing makes
# the reader hang: /dev/zero, /dev/urandom and an endless pipe end with
# exit 1 within seconds. A configuration through a pipe still works.
# Arguments: the gmsim binary and the source directory.
set -eu
GMSIM=$1 SRC=$2
. "$SRC/tests/system/lib/checks.sh"   # T, fail, clean, has, hasF
RUN="run --workload reduction --size tiny --quiet"

# rejects FILE MESSAGE: exit 1 within 60 s, one message containing MESSAGE.
rejects() {
    rc=0
    timeout 60 "$GMSIM" $RUN --config "$1" > "$T/out" 2> "$T/err" || rc=$?
    [ $rc -ne 124 ] || fail "--config $1: still reading after 60 s"
    [ $rc -eq 1 ] || fail "--config $1: exit status $rc, want 1 ($(cat "$T/err"))"
    hasF "$2" || fail "--config $1: message '$(cat "$T/err")', want '$2'"
}

printf '[core]\nnum_cores = 8\0\n' > "$T/nul.ini"
rejects "$T/nul.ini" "$T/nul.ini:2: NUL byte in column 14: not a text file"
head -c 4096 /dev/zero > "$T/zeros.ini"
rejects "$T/zeros.ini" "$T/zeros.ini:1: NUL byte in column 1"
rejects /dev/zero "/dev/zero:1: NUL byte in column 1"
rejects /dev/urandom "/dev/urandom:"
rejects "$T" "$T: is a directory"
# An endless stream of valid comment lines ends at the size bound.
mkfifo "$T/fifo"
(yes '; a comment' > "$T/fifo" 2> /dev/null &)
rejects "$T/fifo" "more than 1048576 bytes: not a configuration file"

# A configuration through a pipe is read like the file.
"$GMSIM" $RUN --config "$SRC/configs/small.ini" --stats "$T/a.json"
cat "$SRC/configs/small.ini" > "$T/fifo" &
"$GMSIM" $RUN --config "$T/fifo" --stats "$T/b.json"
wait
cmp -s "$T/a.json" "$T/b.json" || fail "the configuration read from a pipe gives other statistics"

echo "PASS: config_input"
