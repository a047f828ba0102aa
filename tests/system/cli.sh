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
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['schema_version']==2; assert s['config']['core']['num_cores']==8" "$T/s.json"
# The generation benchmark: one line per kernel, warp-instruction count
# equal to list-workloads' count for that kernel and size, a positive rate.
"$GMSIM" bench --generation --size tiny --workload gemm > "$T/gen"
want=$("$GMSIM" list-workloads --size tiny | awk '$1 == "gemm" { print $0 }')
got=$(awk '$1 == "gemm" { print $2 }' "$T/gen")
echo "$want" | grep -qw "$got" || { echo "FAIL: generated $got insts, list says: $want"; exit 1; }
awk '$1 == "gemm" { if ($4 + 0 <= 0) exit 1 }' "$T/gen" || { echo "FAIL: rate"; cat "$T/gen"; exit 1; }
if "$GMSIM" bench --generation --workload nosuch > "$T/gen" 2> "$T/err"; then
    echo "FAIL: unknown workload accepted"; exit 1
fi
grep -q "nosuch" "$T/err"
# topology: the routers a configuration builds (JSON and table).
"$GMSIM" topology --help | grep -q "noc-area"
"$GMSIM" topology --config "$SRC/configs/dcl1/sh40_c10_boost.ini" > "$T/topo.json"
python3 - "$T/topo.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
nets = {n["name"]: n for n in t["networks"]}
assert t["design"] == "Sh40+C10+Boost", t["design"]
assert sorted(nets) == ["noc1_rep", "noc1_req", "noc2_rep", "noc2_req"], sorted(nets)
r = nets["noc1_req"]["routers"]
assert [(x["inputs"], x["outputs"], x["count"]) for x in r] == [(8, 4, 10)], r
assert [(x["inputs"], x["outputs"], x["count"]) for x in nets["noc2_rep"]["routers"]] == [(8, 10, 4)]
assert nets["noc1_req"]["clock_mhz"] == 2 * nets["noc2_req"]["clock_mhz"]
assert len(nets["noc1_rep"]["instances"]) == 10
PY
"$GMSIM" topology --table | grep -q "^noc_req .* 80x32 *1 "
if "$GMSIM" topology -o dcl1.nodes=7 --config "$SRC/configs/dcl1/sh40.ini" > /dev/null 2> "$T/err"; then
    echo "FAIL: bad design accepted"; exit 1
fi
grep -q "nodes" "$T/err" || { cat "$T/err"; exit 1; }
# list-designs: every registered design, its [design] kind and section
"$GMSIM" list-designs > "$T/designs"
grep -q "^baseline  *-  *private L1D" "$T/designs" || { cat "$T/designs"; echo "FAIL: list-designs baseline"; exit 1; }
grep -q "^dcl1  *\[dcl1\]  *decoupled L1" "$T/designs" || { cat "$T/designs"; echo "FAIL: list-designs dcl1"; exit 1; }
if "$GMSIM" list-designs extra 2>/dev/null; then echo "FAIL: list-designs took an argument"; exit 1; fi
echo "PASS: cli"
