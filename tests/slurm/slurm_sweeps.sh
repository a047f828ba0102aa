#!/bin/bash
# The Slurm engine on a real Slurm (docs/sweeps.md): installs slurm-wlm and
# munge (scripts/install-deps --slurm), starts munged, slurmctld and slurmd
# on this machine with a generated one-node configuration in a scratch
# directory (tests/slurm/minicluster.sh), runs a DC-L1 subset and the RTL
# smoke regression through --engine slurm and through the local engine,
# and checks the results are byte for byte the same. The daemons are shut
# down whatever happens.
#
#   bash tests/slurm/slurm_sweeps.sh GMSIM SRC RTL_BUILD
#
# RTL_BUILD is a -DGM_RTL=ON build directory holding tb/gm_lockstep.
# Opt-in: ctest label slurm, registered with -DGM_SLURM_TEST=ON
# (make test-slurm). Needs root.
set -u
GMSIM=$1 SRC=$2 RTLB=${3:-}
fail() { echo "FAIL: $*"; exit 1; }

[ -x "$RTLB/tb/gm_lockstep" ] ||
    fail "no $RTLB/tb/gm_lockstep: pass a -DGM_RTL=ON build directory (make test-slurm does)"
"$SRC/scripts/install-deps" --slurm || fail "scripts/install-deps --slurm"

T=$(mktemp -d /tmp/gmsweep-slurm.XXXXXX)
. "$SRC/tests/slurm/minicluster.sh"
# Long commands run in the background and are waited for: a shell runs its
# traps only between commands, and bash's `wait` is one that a signal
# interrupts (bash, not sh: dash was seen to drop a SIGTERM that arrived
# while it waited, and the minicluster's watchdog had to clean up).
CHILD=""
bg() { "$@" & CHILD=$!; wait $CHILD; rc=$?; CHILD=""; return $rc; }
cleanup() {
    [ -n "$CHILD" ] && kill "$CHILD" 2>/dev/null
    mc_stop
    rm -rf "$T"
}
trap cleanup EXIT
trap 'echo "slurm_sweeps: interrupted"; exit 1' INT TERM HUP
mc_start "$T/cluster" || fail "could not start the one-node Slurm cluster"
echo "one-node cluster up: $(sinfo -h -o '%P %D %c %t')"

same() {   # same DIR_A DIR_B FILE...
    a=$1 b=$2; shift 2
    for f in "$@"; do
        cmp "$a/$f" "$b/$f" || fail "$f differs between the local and the Slurm engine"
    done
}

# ---- scripts/reproduce: 3 design points (and their baseline) x 2 kernels,
# plus the baseline with a 16x L1 per kernel for the measured classes
R="python3 $SRC/scripts/reproduce dcl1 --size tiny --designs pr40,sh40,sh40_c10
   --workloads gemm,reduction --gmsim $GMSIM"
t0=$(date +%s)
bg $R --work "$T/lw" --out "$T/lo" -j 2 2> "$T/local.err" || fail "reproduce, local: $(cat "$T/local.err")"
t1=$(date +%s)
bg $R --work "$T/sw" --out "$T/so" --engine slurm --partition test --time 10 --poll 1 \
    2> "$T/slurm.err" || fail "reproduce, slurm: $(cat "$T/slurm.err")"
t2=$(date +%s)
cat "$T/slurm.err"
grep -q "submitted Slurm job" "$T/slurm.err" || fail "reproduce: nothing submitted"
grep -q "reproduce dcl1: 0 reused, 10 ran, 0 failed" "$T/slurm.err" || fail "reproduce: counts"
same "$T/lo" "$T/so" results.csv summary.csv table.md
# collected again from the store, still the same
bg $R --work "$T/sw" --out "$T/so2" --collect-only 2>/dev/null || fail "reproduce --collect-only"
same "$T/lo" "$T/so2" results.csv summary.csv table.md
# a second Slurm sweep reuses everything and submits nothing
dirty=""
case "$("$GMSIM" version)" in *-dirty|*unknown) dirty=--reuse-dirty ;; esac
bg $R --work "$T/lw" --out "$T/lo" $dirty --engine slurm 2> "$T/again.err" || fail "reproduce again"
grep -q "reproduce dcl1: 10 reused, 0 ran, 0 failed" "$T/again.err" ||
    fail "reproduce: no reuse: $(cat "$T/again.err")"
! grep -q "submitted" "$T/again.err" || fail "reproduce: submitted with nothing to run"
echo "reproduce: local $((t1 - t0)) s, slurm $((t2 - t1)) s, identical"

# ---- scripts/regress smoke
G="python3 $SRC/scripts/regress smoke --build $RTLB --no-build"
t0=$(date +%s)
bg $G --out "$T/rl" -j 2 > "$T/rl.out" 2>&1 || fail "regress, local: $(tail -30 "$T/rl.out")"
t1=$(date +%s)
bg $G --out "$T/rs" --engine slurm --partition test --poll 2 > "$T/rs.out" 2>&1 ||
    fail "regress, slurm: $(tail -30 "$T/rs.out")"
t2=$(date +%s)
tail -5 "$T/rs.out"
grep -q "submitted Slurm job" "$T/rs.out" || fail "regress: nothing submitted"
same "$T/rl" "$T/rs" results.csv
echo "regress smoke: local $((t1 - t0)) s, slurm $((t2 - t1)) s, $(($(wc -l < "$T/rs/results.csv") - 1)) jobs, identical"
echo "PASS: slurm_sweeps"
