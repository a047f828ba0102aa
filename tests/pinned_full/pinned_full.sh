#!/bin/sh
# The whole pinned table: every config in configs/ x every built-in kernel
# at size tiny (tests/system/pinned_behaviour.sh checks a subset in the
# default suite). 1920 rows; over 20 CPU minutes.
set -eu
GMSIM=$1 SRC=$2
python3 "$SRC/scripts/pinned-table" --gmsim "$GMSIM" --src "$SRC" \
    --check "$SRC/tests/system/pinned.tsv"
