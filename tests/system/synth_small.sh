#!/bin/sh
# The synthesis flow (scripts/synth) on small designs: the numbers it reports
# are in a sane range for OSU 0.18 um, the flip-flop count equals what the
# RTL's registers imply, the output is deterministic, and a failing tool run
# is an error that shows the tool's message.
# Args: gmsim path (unused), source dir.
set -eu
SRC=$2
SYNTH="$SRC/scripts/synth"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

for tool in yosys sta; do
    command -v $tool >/dev/null 2>&1 || { echo "FAIL: $tool not installed (scripts/install-deps)"; exit 1; }
done

# check JSON FLOPS: area, fmax and flip-flops of one result.
# Bounds: every flip-flop is at least one DFFPOSX1 (96 um^2) and a small
# block stays far below 1 mm^2; a flop's clk->Q + setup alone is ~0.4 ns
# in this library, so fmax < 2.5 GHz, and a small block's logic is a few ns
# at most, so fmax > 100 MHz.
check() {
    python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want_ff = int(sys.argv[2])
name = "%s %s" % (r["top"], r["params"])
def fail(msg):
    print("FAIL: %s: %s" % (name, msg)); sys.exit(1)
if r["flip_flops"] != want_ff:
    fail("flip-flops %d, the RTL's registers imply %d" % (r["flip_flops"], want_ff))
if not (r["area_um2"] >= 96 * want_ff and r["area_um2"] < 1e6):
    fail("area %s um^2 out of range" % r["area_um2"])
if not (r["flop_area_um2"] < r["area_um2"]):
    fail("flip-flop area %s not below total %s" % (r["flop_area_um2"], r["area_um2"]))
if not (r["fmax_mhz"] and 100 < r["fmax_mhz"] < 2500):
    fail("fmax %s MHz out of range" % r["fmax_mhz"])
if abs(r["critical_path_ns"] + r["slack_ns"] - r["clock_ns"]) > 0.002:
    fail("critical path + slack != clock period")
if r["cells"] != sum(r["cell_types"].values()):
    fail("cell count does not add up")
s = r["scaled_22nm"]
if not (s["estimate"] and s["area_um2"] < r["area_um2"] and s["fmax_mhz"] > r["fmax_mhz"]):
    fail("22 nm estimate inconsistent: %s" % s)
print("ok: %s area %.0f um^2, %d cells, %d FFs, fmax %.0f MHz, synth %.2f s"
      % (name, r["area_um2"], r["cells"], r["flip_flops"], r["fmax_mhz"], r["runtime"]["synth_s"]))
PY
}

# Self-test counter: W flip-flops.
"$SYNTH" --top st_counter --param W=16 --json "$T/counter.json" > "$T/counter.txt"
check "$T/counter.json" 16
grep -q "fmax" "$T/counter.txt"

# Self-test FIFO: DEPTH*W + 2*clog2(DEPTH) + clog2(DEPTH+1) flip-flops.
"$SYNTH" --top st_fifo --param W=8 --param DEPTH=8 --json "$T/fifo.json" > /dev/null
check "$T/fifo.json" $((8 * 8 + 2 * 3 + 4))

# Deterministic: a second run gives the same result apart from run times.
"$SYNTH" --top st_fifo --param W=8 --param DEPTH=8 --json "$T/fifo2.json" > /dev/null
python3 - "$T/fifo.json" "$T/fifo2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for r in (a, b):
    r.pop("runtime")
if a != b:
    print("FAIL: two runs differ"); sys.exit(1)
PY

# The 2x1 router (the Pr40 crossbar), flat: its flip-flops must equal what
# the router's registers imply (docs/noc.md 5.2, counted by
# scripts/synth_lib/router_regs.py without looking at the netlist).
if grep -qs "^module gm_router\b" "$SRC"/rtl/*.sv; then
    "$SYNTH" --top gm_router --param NumIn=2 --param NumOut=1 --param NumVcs=4 \
        --param VcDepth=4 --param Stages=1 --param Iters=1 --json "$T/router.json" > /dev/null
    want=$(cd "$SRC/scripts" && python3 -c "from synth_lib.router_regs import router_flops; print(router_flops(2, 1, 4, 4, 1)[0])")
    check "$T/router.json" "$want"
fi

# Hierarchical: the per-module record (own area x instances) adds up to the
# total, and the instance counts and flip-flops are the ones the RTL of
# gm_ata_tags implies at 2 arrays x 2 sets x 2 ways, 3-bit tags, 2 ports,
# 2 sectors: 4 banks of 2 x (3 + 1 + 2) entry bits + 2 x 1 age bits = 14
# flip-flops each; the top registers 2 valid + 2 x 1 set + 2 x 3 tag +
# 2 x 2 sector bits and 2 eviction valid + 2 x 3 eviction tag bits = 22.
"$SYNTH" --top gm_ata_tags --param NumArrays=2 --param NumSets=2 --param NumWays=2 \
    --param TagWidth=3 --param NumPorts=2 --param NumSectors=2 --hier --json "$T/ata.json" > /dev/null
check "$T/ata.json" $((4 * 14 + 22))
python3 - "$T/ata.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mods = r["modules"]
def fail(msg):
    print("FAIL: gm_ata_tags --hier: %s" % msg); sys.exit(1)
total = sum(m["own_area_um2"] * m["count"] for m in mods.values())
if abs(total - r["area_um2"]) > 1e-6 * r["area_um2"]:
    fail("module areas x instances %s != area %s" % (total, r["area_um2"]))
counts = sorted((m["module"], m["count"]) for m in mods.values())
want = sorted([("gm_ata_bank", 4), ("gm_ata_match", 4), ("gm_ata_tags", 1), ("gm_ata_update", 2),
               ("gm_onehot_mux", 2), ("gm_onehot_mux", 4)])
if counts != want:
    fail("instances %s, the RTL has %s" % (counts, want))
flops = {m["module"]: m["own_flip_flops"] for m in mods.values()}
if flops["gm_ata_bank"] != 14 or flops["gm_ata_tags"] != 22:
    fail("flip-flops per bank %d (want 14), top %d (want 22)" % (flops["gm_ata_bank"], flops["gm_ata_tags"]))
PY

# A failing synthesis is an error that shows the tool's message.
if "$SYNTH" --top st_fifo --param NOSUCH=1 > "$T/out" 2> "$T/err"; then
    echo "FAIL: unknown parameter accepted"; exit 1
fi
grep -q "yosys failed" "$T/err" && grep -q "NOSUCH" "$T/err" || { echo "FAIL: no tool message"; cat "$T/err"; exit 1; }
if "$SYNTH" --top no_such_module > "$T/out" 2> "$T/err"; then
    echo "FAIL: unknown module accepted"; exit 1
fi
# A failing STA run too (a stand-in sta that reports an error).
printf '#!/bin/sh\necho "Error: stand-in sta failure"\nexit 1\n' > "$T/sta"; chmod +x "$T/sta"
if GM_STA="$T/sta" "$SYNTH" --top st_counter > "$T/out" 2> "$T/err"; then
    echo "FAIL: failed STA accepted"; exit 1
fi
grep -q "stand-in sta failure" "$T/err" || { echo "FAIL: no STA message"; cat "$T/err"; exit 1; }

echo "PASS: synth_small"
