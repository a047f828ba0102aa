#!/bin/sh
# The DC-L1 study's replication classifier on synthetic kernels with known
# criteria, its layered configs, and one tiny end-to-end class table
# (tests/sweep/test_reproduce_dcl1.py; a few seconds).
set -eu
GMSIM=$1 SRC=$2
exec python3 "$SRC/tests/sweep/test_reproduce_dcl1.py" "$GMSIM"
