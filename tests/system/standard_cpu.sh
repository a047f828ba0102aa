#!/bin/sh
# scripts/standard-cpu: a run interrupted at its cap counts as a prefix,
# the older revision replays exactly that prefix (--max-cycles = the cycles
# the interrupted run reached) and the two must agree in cycles and warp
# instructions before a ratio is given; a revision that simulates something
# else is marked "differs". Here both revisions are this gmsim, so every
# prefix must agree; a wrapper that changes the L1 port stands in for a
# revision whose timing differs. Times are printed, never checked.
set -u
GMSIM=$1 SRC=$2
case $GMSIM in /*) ;; *) GMSIM=$PWD/$GMSIM ;; esac
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$GMSIM" list-workloads --size small > "$T/counts" || exit 1

"$SRC/scripts/standard-cpu" --size small --gmsim "$GMSIM" --old HEAD --old-gmsim "$GMSIM" \
    --counts "$T/counts" --workloads gemm,reduction --cap 1 --scratch "$T/a" \
    --out "$T/a.md" > /dev/null 2> "$T/a.err" || { cat "$T/a.err"; echo "FAIL: standard-cpu exited non-zero"; fail=1; }
python3 - "$T/a.md" <<'PY' || fail=1
import sys
rows = {}
for line in open(sys.argv[1]):
    f = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(f) == 10 and f[0] in ("gemm", "reduction"):
        rows[f[0]] = f
assert set(rows) == {"gemm", "reduction"}, rows
g, r = rows["gemm"], rows["reduction"]
# gemm small runs for seconds: capped at 1 s it is a prefix and projected.
assert g[5].endswith("%") and float(g[5][:-1]) < 100.0, g
assert g[8].startswith("~"), g
# The replayed prefix agreed, so a ratio is given.
assert g[6] not in ("differs", "-") and g[7].endswith("x"), g
assert r[5] == "all" and r[6] not in ("differs", "-"), r
assert int(r[1]) > 0 and int(g[1]) > int(r[1]), (g, r)
PY

cat > "$T/other" <<SH
#!/bin/sh
if [ "\$1" = run ]; then exec "$GMSIM" "\$@" -o l1.port_bytes=32; fi
exec "$GMSIM" "\$@"
SH
chmod +x "$T/other"
"$SRC/scripts/standard-cpu" --size small --gmsim "$GMSIM" --old HEAD --old-gmsim "$T/other" \
    --counts "$T/counts" --workloads reduction --cap 60 --scratch "$T/b" \
    --out "$T/b.md" > /dev/null 2>&1 || { echo "FAIL: standard-cpu (other timing) exited non-zero"; fail=1; }
grep -q "^| reduction | .* | differs | - |" "$T/b.md" || { cat "$T/b.md"; echo "FAIL: a different simulation was not marked 'differs'"; fail=1; }

# A kernel whose run fails is a "failed" row and a non-zero exit; the
# other kernels are still measured.
cat > "$T/broken" <<SH
#!/bin/sh
case " \$* " in *" hotspot "*) echo "simulated failure" >&2; exit 2 ;; esac
exec "$GMSIM" "\$@"
SH
chmod +x "$T/broken"
if "$SRC/scripts/standard-cpu" --size small --gmsim "$T/broken" --counts "$T/counts" \
        --workloads hotspot,reduction --cap 60 --scratch "$T/d" --out "$T/d.md" > /dev/null 2> "$T/d.err"; then
    echo "FAIL: a failed kernel gave exit status 0"; fail=1
fi
grep -q "^| hotspot | [0-9]* | failed |" "$T/d.md" || { cat "$T/d.md" "$T/d.err"; echo "FAIL: no failed row for hotspot"; fail=1; }
grep -q "^| reduction | [0-9]* | [0-9.]* | .* | all |" "$T/d.md" || { cat "$T/d.md"; echo "FAIL: reduction not measured beside a failed kernel"; fail=1; }

if "$SRC/scripts/standard-cpu" --gmsim "$GMSIM" --counts "$T/counts" --workloads nosuch \
        --scratch "$T/c" > /dev/null 2> "$T/c.err"; then
    echo "FAIL: an unknown workload was accepted"; fail=1
fi
grep -q "unknown workload(s) nosuch" "$T/c.err" || { cat "$T/c.err"; echo "FAIL: no message for an unknown workload"; fail=1; }
[ $fail -eq 0 ] && echo "standard_cpu: ok"
exit $fail
