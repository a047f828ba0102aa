#!/bin/sh
# Loads a compiler would have forwarded: every catalogue kernel's stream is
# scanned for a lane reading back the address it stored last with nothing
# in between; the kernels that do must be exactly the documented ones
# (docs/workloads.md, "Reloads of stored values"; lib/reload_lint.py).
set -eu
GMSIM=$1 SRC=$2
python3 "$SRC/tests/system/lib/reload_lint.py" "$GMSIM"
