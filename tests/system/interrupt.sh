#!/bin/sh
# SIGINT and SIGTERM stop a run at the next core cycle: the statistics of
# the cycles simulated so far are written (status "interrupted", the
# conservation counters consistent), one line says so, and the exit status
# is 128 + the signal. A seed beyond 2^53 survives the JSON: re-running
# with the seed read back from a run's own statistics gives its event hash.
set -u
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
interrupt() { # signal name, expected exit status
    "$GMSIM" run --workload gemm --size small --quiet --stats "$T/s.json" 2>"$T/err" &
    pid=$!
    sleep 1
    kill -"$1" $pid
    wait $pid
    rc=$?
    cat "$T/err"
    [ $rc -eq "$2" ] || { echo "FAIL: $1: exit status $rc, expected $2"; fail=1; return; }
    grep -q "^gmsim: interrupted by SIG$1 at core cycle [0-9]*; statistics so far written to" \
        "$T/err" || { echo "FAIL: $1: no message"; fail=1; }
    python3 - "$T/s.json" <<'PY' || fail=1
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "interrupted", s["status"]
c = s["conservation"]
assert c["requests_created"] - c["requests_completed"] == c["requests_in_flight"], c
assert s["summary"]["core_cycles"] > 0
PY
}
interrupt INT 130
interrupt TERM 143

S="--config $SRC/configs/small.ini --workload reduction --size tiny --quiet"
"$GMSIM" run $S --seed 12345678901234567891 --stats "$T/a.json" || fail=1
seed=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seed'])" "$T/a.json")
[ "$seed" = 12345678901234567891 ] || { echo "FAIL: seed written as $seed"; fail=1; }
"$GMSIM" run $S --seed "$seed" --stats "$T/b.json" || fail=1
h() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['event_hash'])" "$1"; }
[ "$(h "$T/a.json")" = "$(h "$T/b.json")" ] || { echo "FAIL: re-run from the recorded seed differs"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: interrupts write partial statistics; seeds round-trip"
exit $fail
