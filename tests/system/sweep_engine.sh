#!/bin/sh
# The sweep engine (scripts/gmsweep, docs/sweeps.md) without a cluster: the
# result store's reuse rule, atomic outputs, progress lines, --collect-only
# byte-identical whatever the order runs finished, the Slurm engine's
# array script, polling, failure listing and --retry against fake sbatch /
# squeue / sacct (tests/sweep/test_gmsweep.py).
set -eu
GMSIM=$1 SRC=$2
exec python3 "$SRC/tests/sweep/test_gmsweep.py" "$GMSIM"
