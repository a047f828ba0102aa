#!/bin/sh
# Packaging test: install gmsim's devel component into a scratch prefix,
# configure and build the out-of-tree example examples/systemc against it
# with find_package(gmsim), run it on the baseline, and compare its
# statistics with gmsim run's (byte-identical, as rtl.systemc.identical).
# Args: cmake BUILD SRC gmsim
set -eu
CMAKE=$1 BUILD=$2 SRC=$3 GMSIM=$4
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$CMAKE" --install "$BUILD" --prefix "$T/prefix" --component devel > "$T/install.log"
for f in lib/libgmsim.a lib/libgmsim_systemc.a include/gmsim/system/system.h \
         include/gmsim/systemc/gm_system_sc.h lib/cmake/gmsim/gmsimConfig.cmake; do
    [ -f "$T/prefix/$f" ] || { cat "$T/install.log"; echo "FAIL: $f not installed"; exit 1; }
done
"$CMAKE" -S "$SRC/examples/systemc" -B "$T/build" -DCMAKE_PREFIX_PATH="$T/prefix" > "$T/cfg.log" 2>&1 ||
    { cat "$T/cfg.log"; echo "FAIL: the example does not configure"; exit 1; }
"$CMAKE" --build "$T/build" > "$T/build.log" 2>&1 ||
    { cat "$T/build.log"; echo "FAIL: the example does not build"; exit 1; }
cd "$T"
"$T/build/gmsim_sc_consumer" "$SRC/configs/dcl1/baseline.ini" reduction sc.json
"$GMSIM" run --config "$SRC/configs/dcl1/baseline.ini" --workload reduction --size tiny --quiet \
    --stats c.json
cmp c.json sc.json || { echo "FAIL: the installed module's statistics differ from gmsim run"; exit 1; }
echo "ok: installed gmsim, built examples/systemc out of tree, statistics identical to gmsim run"
