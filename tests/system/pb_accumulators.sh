#!/bin/sh
# The PolyBench kernels that accumulate in global memory (gemm, 2mm/3mm,
# syrk, bicg, mvt, atax, doitgen) load the accumulator the way a compiler
# does: clang (LLVM, as nvcc's NVVM) compiles their CUDA source for NVPTX
# at -O3, and gmsim's stream of each kernel must have the compiled loop's
# global loads and stores, with no reload of a stored accumulator
# (docs/workloads/polybench.md, "Accumulators"; lib/pb_accumulators.py).
set -eu
GMSIM=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v clang >/dev/null || { echo "pb_accumulators: clang not found (scripts/install-deps)"; exit 1; }
clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_35 -O3 \
    -fno-unroll-loops -S "$SRC/tests/system/lib/pb_accumulators.cu" -o "$T/k.ptx" 2> "$T/err" || {
    cat "$T/err"; exit 1; }
python3 "$SRC/tests/system/lib/pb_accumulators.py" "$GMSIM" "$T/k.ptx"
