#!/bin/sh
# Behaviour pinned byte for byte: every config in configs/ and every
# built-in kernel at size tiny must give the event hash, cycle count and
# counters of tests/system/pinned.tsv, the table taken on main before the
# architecture refactor (scripts/pinned-table; about 3 CPU minutes). A row
# changes only with a deliberate, documented change of behaviour.
set -eu
GMSIM=$1 SRC=$2
python3 "$SRC/scripts/pinned-table" --gmsim "$GMSIM" --src "$SRC" \
    --check "$SRC/tests/system/pinned.tsv"
