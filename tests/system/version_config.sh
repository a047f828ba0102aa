#!/bin/sh
# gmsim version and gmsim config: the statistics record the build's
# revision (gmsim_version) and the configuration's hash (config_hash), and
# both commands print the same values; equal key values give equal hashes
# however they are written, any changed key a different one, and the
# printed INI loads back to the same hash. A result store relies on this
# (docs/sweeps.md).
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$GMSIM" version > "$T/v"
grep -Eq '^gmsim [0-9a-f]{7,}(-dirty)?$|^gmsim unknown$|^gmsim .+-g[0-9a-f]+' "$T/v" || fail "version line: $(cat "$T/v")"
[ "$("$GMSIM" --version)" = "$(cat "$T/v")" ] || fail "--version differs from version"
if git -C "$SRC" rev-parse --short=7 HEAD > "$T/head" 2>/dev/null; then
    grep -q "$(cat "$T/head")" "$T/v" || fail "version $(cat "$T/v") does not name HEAD $(cat "$T/head")"
fi
"$GMSIM" run --config "$SRC/configs/small.ini" --workload reduction --size tiny --quiet \
    --stats "$T/s.json"
h=$("$GMSIM" config --config "$SRC/configs/small.ini" --hash)
python3 - "$T/s.json" "$h" "$(cut -d' ' -f2 "$T/v")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["config_hash"] != sys.argv[2]:
    sys.exit(f"FAIL: stats config_hash {d['config_hash']} != gmsim config --hash {sys.argv[2]}")
if d["gmsim_version"] != sys.argv[3]:
    sys.exit(f"FAIL: stats gmsim_version {d['gmsim_version']} != gmsim version {sys.argv[3]}")
PY
# the same values written differently: same hash
h2=$("$GMSIM" config --config "$SRC/configs/small.ini" -o l1.size=16384 -o l1.size=16K --hash)
size=$("$GMSIM" config --config "$SRC/configs/small.ini" | sed -n '/^\[l1\]/,/^\[/s/^size = //p')
[ "$size" = 16K ] || [ "$size" = 16384 ] || fail "small.ini's L1 size is $size, expected 16K"
[ "$h" = "$h2" ] || fail "equal values, different hashes: $h $h2"
# one key changed: a different hash
h3=$("$GMSIM" config --config "$SRC/configs/small.ini" -o l1.latency=29 --hash)
[ "$h" != "$h3" ] || fail "l1.latency changed but the hash did not"
h4=$("$GMSIM" config --config "$SRC/configs/small.ini" -o sim.seed=2 --hash)
[ "$h" != "$h4" ] || fail "seed changed but the hash did not"
# the printed INI is a complete configuration
"$GMSIM" config --config "$SRC/configs/small.ini" > "$T/eff.ini"
h5=$("$GMSIM" config --config "$T/eff.ini" --hash)
[ "$h" = "$h5" ] || fail "printed INI loads to hash $h5, not $h"
# bad input: clear error, status 1
if "$GMSIM" config -o l1.size=3 > "$T/o" 2> "$T/e"; then fail "bad key value accepted"; fi
grep -q "l1" "$T/e" || fail "error does not name the key: $(cat "$T/e")"
if "$GMSIM" config --bogus > "$T/o" 2> "$T/e"; then fail "unknown option accepted"; fi
echo "PASS: version and config hash"
