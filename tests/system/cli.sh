#!/bin/sh
# The command's surface: --help everywhere, list-workloads, a run's table
# and JSON schema version.
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$GMSIM" --help | grep -q "usage: gmsim"
"$GMSIM" run --help | grep -q -- "--workload"
"$GMSIM" bench --help | grep -q "sector requests"
"$GMSIM" list-workloads --help | grep -q "usage"
"$GMSIM" list-workloads > "$T/list"
for w in gemm atax reduction; do grep -q "^$w " "$T/list" || { echo "FAIL: $w not listed"; cat "$T/list"; exit 1; }; done
"$GMSIM" run --config "$SRC/configs/small.ini" --workload gemm --size tiny --stats "$T/s.json" > "$T/table"
grep -q "IPC" "$T/table"
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['schema_version']==1; assert s['config']['core']['num_cores']==8" "$T/s.json"
echo "PASS: cli"
