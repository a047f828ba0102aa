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
import re
import subprocess
import sys
import tempfile

EXPECTED = {
    # legitimate: the source makes the compiler load
    "reduction": "SHOC's last-warp reduction reads shared memory through a volatile pointer",
    "histogram": "the bin of each increment is computed from the data",
    "lud": "for i = 1 lud_perimeter's loop over j first reads peri_col[idx][0], "
           "which the division of i = 0 stored; clang's loop loads it too",
    # known deviations from compiled code, not fixed (docs/workloads.md)
    "particlefilter": "randn's two randu calls reload seed[i] between them",
    "heartwall": "a sum accumulated in global memory is reloaded every trip",
    "dwt2d": "the lifting steps reload columns the thread stored to shared memory",
}
FENCES = ("BAR", "MEMBAR", "ATOM", "ATOMG", "ATOMS", "RED")
SPACE = {"LDG": "G", "STG": "G", "LD": "G", "ST": "G", "LDS": "S", "STS": "S"}


def lane_addresses(mask, toks):
    """{lane: address} from a trace line's mask and address fields
    (width, compression mode, addresses)."""
    m = int(mask, 16)
    lanes = [l for l in range(32) if m >> l & 1]
    if not lanes or len(toks) < 3:
        return {}
    mode = int(toks[1])
    if mode == 1:
        base, stride = int(toks[2], 16), int(toks[3]) if len(toks) > 3 else 0
        return {l: base + stride * k for k, l in enumerate(lanes)}
    if mode == 2:
        out, a = {lanes[0]: int(toks[2], 16)}, int(toks[2], 16)
        for l, d in zip(lanes[1:], toks[3:]):
            a += int(d)
            out[l] = a
        return out
    return dict(zip(lanes, (int(x, 16) for x in toks[2:])))


def scan(path, max_warps=64):
    """(loads, reloads) of the first max_warps warps of one trace file."""
    loads = reloads = warps = 0
    last = None
    with open(path) as f:
        for line in f:
            if line.startswith("warp = "):
                warps += 1
                if warps > max_warps:
                    break
                last = {"G": {}, "S": {}}
                continue
            if last is None or not re.match(r"^[0-9a-f]{4} ", line):
                continue
            t = line.split()
            nd = int(t[2])
            op = t[3 + nd].split(".")[0]
            if op in FENCES:
                last = {"G": {}, "S": {}}
                continue
            space = SPACE.get(op)
            if not space:
                continue
            la = lane_addresses(t[1], t[5 + nd + int(t[4 + nd]):])
            if op.startswith("ST"):
                last[space] = la   # a store ends what earlier stores could forward
            else:
                loads += 1
                reloads += any(last[space].get(l) == a for l, a in la.items())
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
            d = os.path.join(tmp, w)
            subprocess.run([gmsim, "trace", "export", "--workload", w, "--size", "tiny",
                            "--out", d, "--no-verify"], check=True, stdout=subprocess.DEVNULL)
            files = sorted((f for f in os.listdir(d) if f.endswith(".traceg")),
                           key=lambda f: int(re.sub(r"\D", "", f) or 0))[:40]
            loads = reloads = 0
            for f in files:
                l, r = scan(os.path.join(d, f))
                loads, reloads = loads + l, reloads + r
            subprocess.run(["rm", "-rf", d])
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
