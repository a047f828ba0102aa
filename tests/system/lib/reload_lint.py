#!/usr/bin/env python3
"""Reloads a compiler would not emit, over every catalogue kernel.

    reload_lint.py GMSIM

For every built-in kernel at size tiny (its exported Accel-Sim trace; the
first 64 warps of each of the first 40 launches), counts the loads by
which a lane reads back the address it stored last, in the same memory
space, with no store, barrier or atomic of that warp in between. A
compiler forwards such a value instead of loading it, unless the memory
is volatile or the address comes from data it cannot compare
(docs/workloads.md, "Reloads of stored values"). The kernels that have
such loads must be exactly those of the table below, each with its
reason; a new one, or one that no longer has any, fails the test until
the table and the docs say why.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import trace_warps

EXPECTED = {
    # legitimate: the source makes the compiler load
    "reduction": "SHOC's last-warp reduction reads shared memory through a volatile pointer",
    "histogram": "the bin of each increment is computed from the data",
    "lud": "for i = 1 lud_perimeter's loop over j first reads peri_col[idx][0], "
           "which the division of i = 0 stored; clang's loop loads it too",
    "heartwall": "the second horizontal running sum first reads the element the "
                 "subtraction loop just stored (no barrier between), and frame 10's "
                 "blend reads d_Col after storing it; clang -O3 loads both",
    "particlefilter": "calcLikelihoodSum's last trip reads ind[i*countOnes + countOnes-1], "
                      "which the index loop's last trip stored; clang's loop loads it too",
}
FENCES = ("BAR", "MEMBAR", "ATOM", "ATOMG", "ATOMS", "RED")
SPACE = {"LDG": "G", "STG": "G", "LD": "G", "ST": "G", "LDS": "S", "STS": "S"}


def scan(path, max_warps=64):
    """(loads, reloads) of the first max_warps warps of one trace file."""
    loads = reloads = 0
    for _, _, ops in trace_warps.warps(path, max_warps):
        last = {"G": {}, "S": {}}
        for op, lanes in ops:
            if op in FENCES:
                last = {"G": {}, "S": {}}
                continue
            space = SPACE.get(op)
            if not space:
                continue
            if op.startswith("ST"):
                last[space] = lanes   # a store ends what earlier stores could forward
            else:
                loads += 1
                reloads += any(last[space].get(l) == a for l, a in lanes.items())
    return loads, reloads


def main():
    gmsim = sys.argv[1]
    names = [l.split()[0] for l in subprocess.run(
        [gmsim, "list-workloads"], check=True, capture_output=True,
        text=True).stdout.splitlines()[1:] if l.strip()]
    found, bad = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for w in names:
            if w in ("radixsort", "myocyte"):   # minutes at tiny; no global RMW loops
                continue
            files = trace_warps.export(gmsim, w, "tiny", os.path.join(tmp, w))[:40]
            loads = reloads = 0
            for f in files:
                l, r = scan(f)
                loads, reloads = loads + l, reloads + r
            shutil.rmtree(os.path.join(tmp, w))   # the next kernel needs the room
            if reloads:
                found[w] = (reloads, loads)
    for w, (r, l) in sorted(found.items()):
        print("%-16s %6d of %7d loads reload the last stored address: %s" % (
            w, r, l, EXPECTED.get(w, "NOT EXPECTED")))
        if w not in EXPECTED:
            bad.append("%s reloads what it stored (%d of %d loads)" % (w, r, l))
    for w in sorted(set(EXPECTED) - set(found)):
        bad.append("%s no longer reloads: update the table and docs/workloads.md" % w)
    if bad:
        sys.exit("reload_lint: FAIL: " + "; ".join(bad))


if __name__ == "__main__":
    main()
