#!/usr/bin/env python3
"""Merge Verilator coverage data, annotate the RTL and summarise it.

    verif/coverage.py --out DIR FILE_OR_DIR...

Merges every .dat given (directories are searched) with verilator_coverage
into DIR/merged.dat, writes annotated sources to DIR/annotated
(verilator_coverage --annotate --annotate-min 1: lines below one hit are
marked), and prints two views:

  * by source: a point is one source location (file, line, column, kind:
    line block / branch arm / toggle bit of a signal), covered when any run
    of any parameterization hit it. This is the coverage of the RTL text.
  * by parameterization: Verilator keeps points per parameterized module
    (page "v_line/gm_islip__N140_NB4_NC20_I1_M0"); uncovered points there
    are often unreachable for that size (one iSLIP iteration has no "later
    iteration" branch), so they are listed, not counted as holes.

Every uncovered point is written to DIR/uncovered.txt; the source-level ones
are also printed. The harness zeroes the counters after reset, so toggles
count stimulus only.

Excluded as a tool artefact: the "block" point at an always_comb line.
Verilator 5.006 emits its increment without inputs, so the scheduler runs
it once at initialisation (before the counters are zeroed), never per
evaluation; the branch points inside the block are counted normally. These
points are listed in uncovered.txt under their own heading.
Exit status 1 if no data was found.
"""
import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path


def parse_dat(path):
    """Yields (fields, count) for every point of a coverage.dat file."""
    for line in Path(path).read_text(errors="replace").splitlines():
        m = re.match(r"C '(.*)' (\d+)$", line)
        if not m:
            continue
        fields = {}
        for kv in m.group(1).split("\x01"):
            if "\x02" in kv:
                k, v = kv.split("\x02", 1)
                fields[k] = v
        yield fields, int(m.group(2))


def kind_of(page):
    return page.split("/", 1)[0].replace("v_", "")  # line, branch, toggle, user


def pct(c, t):
    return f"{c}/{t} {100.0 * c / t:5.1f}%" if t else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()

    dats = []
    for i in args.inputs:
        p = Path(i)
        dats += sorted(p.rglob("*.dat")) if p.is_dir() else [p]
    dats = [d for d in dats if d.exists() and d.name != "merged.dat"]
    if not dats:
        print("coverage: no coverage data found (run the lockstep tests first)", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    merged = out / "merged.dat"
    subprocess.run(["verilator_coverage", "--write", str(merged), *map(str, dats)], check=True,
                   stdout=subprocess.DEVNULL)
    annotated = out / "annotated"
    subprocess.run(["verilator_coverage", "--annotate", str(annotated), "--annotate-min", "1",
                    str(merged)], check=True, stdout=subprocess.DEVNULL)

    source_text = {}

    def text(path, line):
        if path not in source_text:
            p = Path(path)
            source_text[path] = p.read_text(errors="replace").splitlines() if p.exists() else []
        lines = source_text[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def artefact(f):
        return (kind_of(f.get("page", "")) == "line" and f.get("o") == "block" and
                text(f.get("f", ""), int(f.get("l", "0"))).strip().startswith("always_comb"))

    excluded = set()
    src_hits = {}                    # source point -> hits
    per_param = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    param_uncovered = []
    for f, n in parse_dat(merged):
        page = f.get("page", "")
        kind = kind_of(page)
        file = Path(f.get("f", "?")).name
        key = (file, kind, int(f.get("l", "0")), f.get("n", ""), f.get("o", ""))
        if artefact(f):
            excluded.add(f"{file}:{f.get('l')}: always_comb block point")
            continue
        src_hits[key] = src_hits.get(key, 0) + n
        pp = per_param[page.split("/", 1)[-1]][kind]
        pp[1] += 1
        pp[0] += n > 0
        if n == 0:
            param_uncovered.append(f"{file}:{f.get('l')}: {kind} {f.get('o', '')} "
                                   f"[{page.split('/', 1)[-1]} {f.get('h', '')}]")

    print(f"coverage: {len(dats)} runs merged into {merged}")
    print(f"annotated sources: {annotated}")
    print("by source (any parameterization):")
    print(f"  {'file':<18} {'line blocks':>16} {'branch arms':>16} {'toggle bits':>18}")
    totals = collections.defaultdict(lambda: [0, 0])
    by_file = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for (file, kind, *_), n in src_hits.items():
        c = by_file[file][kind]
        c[1] += 1
        c[0] += n > 0
        totals[kind][1] += 1
        totals[kind][0] += n > 0
    for file in sorted(by_file):
        k = by_file[file]
        print(f"  {file:<18} {pct(*k['line']):>16} {pct(*k['branch']):>16} {pct(*k['toggle']):>18}")
    print(f"  {'total':<18} {pct(*totals['line']):>16} {pct(*totals['branch']):>16} "
          f"{pct(*totals['toggle']):>18}")
    print("by parameterization (line+branch, toggle):")
    for page in sorted(per_param):
        k = per_param[page]
        lb = [k["line"][0] + k["branch"][0], k["line"][1] + k["branch"][1]]
        print(f"  {page:<40} {pct(*lb):>16} {pct(*k['toggle']):>18}")

    src_unc = sorted(f"{file}:{line}: {kind} {o}" for (file, kind, line, col, o), n in src_hits.items()
                     if n == 0)
    with open(out / "uncovered.txt", "w") as fh:
        fh.write("# excluded: always_comb block points (counted only at initialisation)\n")
        fh.writelines(l + "\n" for l in sorted(excluded))
        fh.write("# uncovered by source (no run of any parameterization)\n")
        fh.writelines(l + "\n" for l in src_unc)
        fh.write("# uncovered per parameterization\n")
        fh.writelines(l + "\n" for l in sorted(param_uncovered))
    print(f"excluded always_comb block points: {len(excluded)}")
    print(f"uncovered by source: {len(src_unc)}; per parameterization: {len(param_uncovered)} "
          f"(all listed in {out / 'uncovered.txt'})")
    for l in src_unc:
        if ": toggle " not in l:
            print("  " + l)
    bits = collections.Counter(re.sub(r"\[\d+\]$", "", l) for l in src_unc if ": toggle " in l)
    for sig, n in sorted(bits.items()):
        print(f"  {sig}: {n} bit{'s' if n > 1 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
