#!/usr/bin/env python3
"""Checks gmsim's PolyBench accumulators against what a compiler emits.

    pb_accumulators.py GMSIM PTX

PTX is lib/pb_accumulators.cu compiled by clang for NVPTX at -O3 (the
calling script does that). For every kernel there the compiler's loop
must hold global stores to the accumulator and no load of the address it
stores (the value is forwarded), and its global loads and stores before
and inside the loop are counted. Then gmsim's own stream of that kernel
(warp 0 of thread block 0,0,0 of `gmsim trace export` at size tiny) must
be that structure exactly: P + L*trip loads and Q + S*trip stores for one
trip count, and no load of an address the warp stored before. gemm_reload
(the stream gmsim ran before the forwarding was modelled) must fail it.
"""
import os
import re
import sys
import tempfile

import trace_warps

# kernel in the .cu -> gmsim workload whose stream it is
KERNELS = {
    "gemm_kernel": "gemm",
    "mm2_kernel1": "2mm",
    "syrk_kernel": "syrk",
    "bicg_kernel1": "bicg",
    "mvt_kernel1": "mvt",
    "atax_kernel2": "atax",
    "doitgen_kernel1": "doitgen",
}
LABEL = re.compile(r"^\s*([$\w]+):\s*$")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+([$\w]+);")
MEM = re.compile(r"^\s*(?:@\S+\s+)?(ld|st)\.global\.\S+\s+(.*);")


def fail(msg):
    sys.exit("pb_accumulators: FAIL: " + msg)


def ptx_functions(path):
    funcs, name, body = {}, None, []
    for line in open(path):
        m = re.match(r"^\.visible \.entry (\w+)\(", line)
        if m:
            name, body = m.group(1), []
        elif name and line.startswith("}"):
            funcs[name] = body
            name = None
        elif name:
            body.append(line)
    return funcs


def operand_addr(kind, ops):
    """The [address] operand of a ld (second operand) or st (first)."""
    m = re.findall(r"\[([^\]]+)\]", ops)
    if not m:
        fail("no address in '%s'" % ops)
    return m[0]


def loop_shape(name, body):
    """(P, Q, L, S): global loads and stores before the loop and in it."""
    labels, loops = {}, []
    for i, line in enumerate(body):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = i
        b = BRANCH.search(line)
        if b and b.group(1) in labels:   # a branch back: a loop
            loops.append((labels[b.group(1)], i))
    if len(loops) != 1:
        fail("%s: %d loops in the PTX, expected one" % (name, len(loops)))
    lo, hi = loops[0]
    count = {"pre": {"ld": 0, "st": 0}, "loop": {"ld": 0, "st": 0}}
    loads, stores = set(), set()
    for i, line in enumerate(body):
        m = MEM.match(line)
        if not m:
            continue
        where = "loop" if lo <= i <= hi else "pre" if i < lo else None
        if where is None:
            fail("%s: a global access after the loop" % name)
        count[where][m.group(1)] += 1
        if where == "loop":
            (loads if m.group(1) == "ld" else stores).add(operand_addr(m.group(1), m.group(2)))
    if not stores:
        fail("%s: the compiled loop stores nothing" % name)
    if loads & stores:
        fail("%s: the compiled loop reloads %s (not forwarded)" % (name, sorted(loads & stores)))
    return count["pre"]["ld"], count["pre"]["st"], count["loop"]["ld"], count["loop"]["st"]


def warp0_stream(gmsim, workload, kernel, tmp):
    """Warp 0 of thread block 0,0,0 of kernel's first launch, at size tiny."""
    for path in trace_warps.export(gmsim, workload, "tiny", os.path.join(tmp, workload)):
        if trace_warps.kernel_name(path) == kernel:
            for tb, warp, ops in trace_warps.warps(path):
                if tb == "0,0,0" and warp == 0:
                    return ops
    fail("%s: no trace of kernel %s" % (workload, kernel))


def stream_matches(shape, ops):
    """None when the stream has the compiled structure, else why not."""
    p, q, l, s = shape
    lds = sum(1 for op, _ in ops if op == "LDG")
    sts = sum(1 for op, _ in ops if op == "STG")
    if (sts - q) % s or sts <= q:
        return "%d stores do not fit %d + %d*trip" % (sts, q, s)
    trip = (sts - q) // s
    if lds != p + l * trip:
        return "%d loads where the compiled loop gives %d + %d*%d = %d" % (
            lds, p, l, trip, p + l * trip)
    stored = set()
    for op, lanes in ops:
        if op == "STG":
            stored.update(lanes.items())
        elif op == "LDG" and stored.intersection(lanes.items()):
            return "a load of 0x%x after the lane stored it" % min(
                a for _, a in stored.intersection(lanes.items()))
    return None


def main():
    gmsim, ptx = sys.argv[1], sys.argv[2]
    funcs = ptx_functions(ptx)
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, workload in KERNELS.items():
            if kernel not in funcs:
                fail("%s not in the PTX" % kernel)
            shape = loop_shape(kernel, funcs[kernel])
            why = stream_matches(shape, warp0_stream(gmsim, workload, kernel, tmp))
            if why:
                fail("%s (%s): %s" % (workload, kernel, why))
            print("%-8s %-16s compiled: %d ld %d st before the loop, %d ld %d st per trip; "
                  "gmsim's stream matches" % ((workload, kernel) + shape))
        why = stream_matches(loop_shape("gemm_kernel", funcs["gemm_kernel"]),
                             warp0_stream(gmsim, "gemm_reload", "gemm_kernel", tmp))
        if not why:
            fail("gemm_reload passes the check it must fail")
        print("gemm_reload fails it, as it must: %s" % why)


if __name__ == "__main__":
    main()
