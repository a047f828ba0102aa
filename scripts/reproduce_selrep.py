"""scripts/reproduce selrep: the SelRep seed's evaluation (its Tables II and
III, Figures 11 to 13 and the headline averages) on configs/selrep/.

    scripts/reproduce selrep [--size tiny|small|fill|standard] [-j N]
        [--kernels an,rn,...] [--llc-points 0,1,2,3,4] [--epoch-cycles N]
        [--out docs/results] [--work build/reproduce/selrep] [study options]

For every configuration it runs the Shared, Private, Adaptive and SelRep
organizations and the static degrees 2, 4 and 8; BSR is the best of the
static degrees 1 (= Shared), 2, 4, 8 and 16 (= Private) by scripts/bsr's
rule (fewest cycles, ties to the smaller degree). tests/system/selrep_bsr.sh
checks static 1 = Shared; static 16 = Private is the same run (identical
event hash, docs/results/selrep.md).

Configurations (the seed's Table II): AN, RN and SN with the LLC size
swept (shared data fixed); NN and MM with the input swept at the 4 MB LLC
(catalogue entries neuralnet_K and matrixmul_K, K = configuration; their
sizes are in docs/workloads/selrep.md). Table III: the kernels the
library has; a kernel missing from `gmsim list-workloads` is skipped with a
note, so kernels added later are picked up by adding a name to TABLE3.
Each run's configuration is configs/selrep/shared.ini with [selrep] org,
degree and epoch_cycles and [l2] size replaced, written under
<work>/<size>/configs/; results go to the gmsweep result store beside it
(reused when gmsim and the configuration are unchanged; --collect-only
tabulates what the store holds without running anything).

Writes <out>/selrep.md (every claim of the seed next to gmsim's figure),
<out>/selrep.csv (one row per run) and <out>/selrep_degrees.svg (the
degree distribution, Figure 13, drawn without a plotting library). Text
below KEEP_MARKER in the previous selrep.md (measurements of runs this
table does not make, written by hand) is kept.
"""
import argparse
import csv
import importlib.machinery
import importlib.util
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gmsweep  # noqa: E402

# Table II: (abbreviation, library kernel, shared data in MB, LLC sizes in MB
# of configurations _0 .. _4). NN and MM sweep their input instead.
TABLE2 = [
    ("AN", "alexnet", 1.0, [4, 1, 0.5, 0.25, 0.125]),
    ("RN", "resnet", 4.2, [4, 1, 0.5, 0.25, 0.125]),
    ("SN", "squeezenet", 0.7, [8, 6, 4, 2, 1]),
]
# Table II with the input swept at the 4 MB LLC: (abbreviation, catalogue
# prefix (configuration K is PREFIX_K), the seed's shared data in MB of _0.._4)
TABLE2_INPUT = [
    ("NN", "neuralnet", [0.6, 2.8, 5.7, 11.4, 22.8]),
    ("MM", "matrixmul", [0.04, 0.1, 0.6, 1.9, 3.8]),
]
# Table III: (abbreviation, candidate library names, shared data MB, preferred)
TABLE3 = [
    ("LUD", ["lud"], 33.4, "shared"),
    ("SP", ["sp", "survey_propagation"], 17.0, "shared"),
    ("3DC", ["3dconv"], 51.1, "shared"),
    ("BT", ["btree"], 13.7, "shared"),
    ("GEMM", ["gemm"], 1.8, "shared"),
    ("BP", ["backprop"], 18.8, "shared"),
    ("BS", ["blackscholes", "BlackScholes"], 0.001, "neutral"),
    ("DWT2D", ["dwt2d"], 0.001, "neutral"),
    ("MS", ["mergesort", "merge_sort"], 0.001, "neutral"),
    ("BINO", ["binomialoption", "binomialoptions", "BinomialOption"], 0.017, "neutral"),
    ("HG", ["histogram", "Histogram"], 0.003, "neutral"),
    ("VA", ["vectoradd", "vector_add", "vecadd"], 0.001, "neutral"),
]
# organizations run per configuration: (name, org, static degree)
ORGS = [("shared", "shared", 0), ("private", "private", 0), ("adaptive", "adaptive", 0),
        ("selrep", "selrep", 0), ("static2", "static", 2), ("static4", "static", 4),
        ("static8", "static", 8)]
# BSR candidates: degree -> the run that has it
BSR_RUNS = {1: "shared", 2: "static2", 4: "static4", 8: "static8", 16: "private"}
SLICES = 64
# the seed's headline figures
SEED = {"vs_shared": 19.7, "vs_adaptive": 11.1, "bsr_gap": 2.3, "adaptive_vs_shared": 7.9}
# Sections written by hand below this line survive a re-run.
KEEP_MARKER = "<!-- written by hand below: scripts/reproduce selrep keeps it -->"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load_bsr_rule():
    """scripts/bsr's best() (fewest cycles, ties to the smaller degree), so
    the study and the script cannot disagree on BSR."""
    path = os.path.join(ROOT, "scripts", "bsr")
    loader = importlib.machinery.SourceFileLoader("bsr_script", path)
    spec = importlib.util.spec_from_loader("bsr_script", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod.best


def library(gmsim, size):
    """{kernel: (launches, CTAs)} at size from `gmsim list-workloads` (the
    two numbers after the size column)."""
    p = subprocess.run([gmsim, "list-workloads", "--size", size], capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("reproduce: '%s list-workloads' failed" % gmsim)
    lib = {}
    for line in p.stdout.splitlines()[1:]:
        f = line.split()
        if not f:
            continue
        try:
            i = f.index(size)
            lib[f[0]] = (int(f[i + 1]), int(f[i + 2]))
        except (ValueError, IndexError):
            lib[f[0]] = (None, None)
    return lib


def size_text(mb):
    """Per-slice [l2] size for a total LLC of mb MB over 64 slices."""
    kb = mb * 1024 / SLICES
    return "%dK" % kb if kb == int(kb) else None


def config_text(base, org, degree, llc_mb, epoch):
    """configs/selrep/shared.ini with the organization, LLC size and epoch
    replaced. A slice of one set keeps one RDD sampled set (the only one)."""
    per = size_text(llc_mb)
    if not (re.search(r"(?m)^org = shared$", base) and re.search(r"(?m)^size = 64K$", base)):
        sys.exit("reproduce: configs/selrep/shared.ini no longer has 'org = shared' and "
                 "'size = 64K' lines to replace")
    t = re.sub(r"(?m)^org = shared$", "org = %s%s" % (
        org, "\ndegree = %d" % degree if degree else ""), base)
    t = re.sub(r"(?m)^size = 64K$", "size = %s" % per, t)
    extra = "epoch_cycles = %d\n" % epoch
    if llc_mb * 1024 * 1024 / SLICES / (16 * 128) < 2:
        extra += "rdd_sets = 1\n"
    return t.rstrip("\n") + "\n" + extra


def plan(a, lib):
    """[(config name, workload, point)] and the notes about what is not run.
    A point is a dict describing the configuration."""
    points, notes = [], []
    want = set(x.lower() for x in a.kernels.split(",")) if a.kernels else None
    llc_idx = [int(x) for x in a.llc_points.split(",")]
    for abbr, kernel, shared_mb, llcs in TABLE2:
        if want is not None and abbr.lower() not in want:
            continue
        if kernel not in lib:
            notes.append("%s: kernel %s not in gmsim list-workloads; skipped" % (abbr, kernel))
            continue
        for i in llc_idx:
            points.append({"set": "sensitive", "abbr": abbr, "label": "%s_%d" % (abbr.lower(), i),
                           "kernel": kernel, "llc_mb": llcs[i], "seed_shared_mb": shared_mb})
    for abbr, prefix, shared in TABLE2_INPUT:
        if want is not None and abbr.lower() not in want:
            continue
        for i in llc_idx:
            kernel = "%s_%d" % (prefix, i)
            if kernel not in lib:
                notes.append("%s: kernel %s not in gmsim list-workloads; skipped"
                             % (abbr, kernel))
                continue
            points.append({"set": "sensitive", "abbr": abbr, "label": "%s_%d" % (abbr.lower(), i),
                           "kernel": kernel, "llc_mb": 4, "seed_shared_mb": shared[i]})
    for abbr, names, shared_mb, pref in TABLE3:
        if want is not None and abbr.lower() not in want:
            continue
        have = [n for n in names if n in lib]
        if not have:
            notes.append("%s (Table III): no kernel %s in gmsim list-workloads; skipped"
                         % (abbr, " / ".join(names)))
            continue
        points.append({"set": "insensitive", "abbr": abbr, "label": abbr.lower(),
                       "kernel": have[0], "llc_mb": 4, "seed_shared_mb": shared_mb,
                       "preferred": pref})
    return points, notes


def run_name(org, llc_mb):
    return "%s_llc%s" % (org, size_text(llc_mb))


def metrics(s):
    d, sm = s.get("design", {}), s["summary"]
    hx = d.get("hxbar", {})
    return {
        "status": s["status"],
        "gmsim_version": s.get("gmsim_version"),
        "cycles": sm["core_cycles"],
        "l1_miss_rate": sm.get("l1_miss_rate"),
        "ipc": sm.get("ipc"),
        "llc_hit_rate": d.get("llc_hit_rate"),
        "llc_requests": d.get("llc_requests"),
        "ro_requests": d.get("ro_requests"),
        "replicas_created": d.get("replicas_created"),
        "slice_imbalance": d.get("slice_imbalance"),
        "llc_input_stalls": s.get("l2", {}).get("input_stalls"),
        "degree_epochs": d.get("degree_epochs"),
        "epochs": d.get("epochs"),
        "req_link_util": hx.get("request", {}).get("level_link_utilization"),
        "rep_link_util": hx.get("reply", {}).get("level_link_utilization"),
        "epoch_log": d.get("epoch_log", []),
    }


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def pct(x):
    return "-" if x is None else "%+.1f%%" % (100 * (x - 1))


def f3(x):
    return "-" if x is None else "%.3f" % x


def evaluate(points, R, best):
    """Per point: speedups over Shared of every organization and of BSR,
    the BSR degree and SelRep's degree distribution."""
    out = []
    for p in points:
        runs = {o: R.get((run_name(o, p["llc_mb"]), p["kernel"])) for o, _, _ in ORGS}
        if any(r is None or r["status"] != "done" for r in runs.values()):
            out.append(dict(p, complete=False))
            continue
        base = runs["shared"]["cycles"]
        cyc = {d: runs[n]["cycles"] for d, n in BSR_RUNS.items()}
        bd = best(cyc)
        sp = {o: base / runs[o]["cycles"] for o in runs}
        sp["bsr"] = base / cyc[bd]
        de = runs["selrep"]["degree_epochs"] or []
        tot = sum(de)
        out.append(dict(p, complete=True, runs=runs, speedup=sp, bsr_degree=bd,
                        degree_dist=[x / tot for x in de] if tot else None))
    return out


def averages(ev, subset):
    rows = [e for e in ev if e["complete"] and e["set"] == subset]
    if not rows:
        return None

    def am(key, over=None):
        return mean([e["speedup"][key] / (e["speedup"][over] if over else 1) for e in rows])
    return {
        "n": len(rows),
        "selrep_vs_shared": am("selrep"),
        "selrep_vs_adaptive": am("selrep", "adaptive"),
        "adaptive_vs_shared": am("adaptive"),
        "private_vs_shared": am("private"),
        "bsr_vs_shared": am("bsr"),
        "selrep_vs_bsr": am("selrep", "bsr"),
        "g_selrep_vs_shared": gmean([e["speedup"]["selrep"] for e in rows]),
        "max_bsr_gain": max(e["speedup"]["bsr"] for e in rows),
    }


def degree_svg(ev):
    """Stacked bars: fraction of SelRep epochs at each degree per
    configuration (the seed's Figure 13), as SVG text."""
    rows = [e for e in ev if e["complete"] and e["degree_dist"]]
    W, H, L, T, B = max(320, 60 + 34 * len(rows) + 110), 320, 50, 30, 70
    plot_w = W - L - 110
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13">SelRep replication degree per epoch '
           '(fraction of epochs)</text>' % L,
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
           % (L, H - B, L + plot_w, H - B)]
    for k in range(5):
        y = T + (H - T - B) * (1 - k / 4)
        out.append('<text x="%d" y="%.0f" text-anchor="end">%.2f</text>' % (L - 4, y + 4, k / 4))
        out.append('<line x1="%d" y1="%.0f" x2="%d" y2="%.0f" stroke="#ddd"/>'
                   % (L, y, L + plot_w, y))
    bw = plot_w / max(1, len(rows))
    for i, e in enumerate(rows):
        x, y0 = L + i * bw + 3, H - B
        for k, frac in enumerate(e["degree_dist"]):
            h = (H - T - B) * frac
            if h > 0:
                out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>'
                           % (x, y0 - h, bw - 6, h, colors[k % len(colors)]))
            y0 -= h
        out.append('<text x="%.1f" y="%d" transform="rotate(-60 %.1f %d)" '
                   'text-anchor="end">%s</text>' % (x + bw / 2, H - B + 12, x + bw / 2,
                                                   H - B + 12, e["label"]))
    for k in range(5):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>'
                   % (L + plot_w + 14, T + 16 * k, colors[k]))
        out.append('<text x="%d" y="%d">degree %d</text>'
                   % (L + plot_w + 28, T + 16 * k + 9, 1 << k))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def mode_degree(e):
    d = e["degree_dist"]
    return None if not d else 1 << max(range(len(d)), key=lambda k: (d[k], -k))


def model_bw(run):
    """The RDD model's bandwidth estimate per degree, averaged over the
    logged epochs and normalized to the largest (what SelRep compared)."""
    logs = [e["bandwidth"] for e in run["epoch_log"] if e.get("bandwidth")]
    if not logs:
        return None
    avg = [mean([b[k] for b in logs]) for k in range(len(logs[0]))]
    top = max(avg)
    return [x / top for x in avg] if top else None


def stall_rate(run):
    """Cycles requests waited at an LLC slice's input for a full pipeline,
    per slice per 1000 core cycles: contention that the mean load hides."""
    if run["llc_input_stalls"] is None or not run["cycles"]:
        return None
    return 1000 * run["llc_input_stalls"] / (SLICES * run["cycles"])


def why_rows(ev, size):
    """The measurements that explain a difference: how loaded the LLC is
    (requests per slice per cycle, H-Xbar link utilization), how far apart
    the organizations' hit rates are, and how many requests are read-only."""
    L = ["| config | L1 miss rate (shared) | LLC req / slice / cycle (shared) | read-only share | hit rate shared / private / selrep | "
         "H-Xbar req link util (shared) | slice imbalance (shared) | LLC input stalls / slice / "
         "1000 cycles (shared) | BSR degree | SelRep mode degree | "
         "model B_d / max B, d = 1..16 (mean over epochs) |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for e in ev:
        if not e["complete"]:
            continue
        s, p, r = e["runs"]["shared"], e["runs"]["private"], e["runs"]["selrep"]
        load = s["llc_requests"] / (SLICES * s["cycles"]) if s["cycles"] else None
        ro = s["ro_requests"] / s["llc_requests"] if s["llc_requests"] else None
        bw = model_bw(r)
        L.append("| %s | %s | %s | %s | %s / %s / %s | %s | %s | %s | %d | %s | %s |" % (
            e["label"], f3(s["l1_miss_rate"]), f3(load), f3(ro), f3(s["llc_hit_rate"]), f3(p["llc_hit_rate"]),
            f3(r["llc_hit_rate"]), f3(s["req_link_util"]), f3(s["slice_imbalance"]),
            f3(stall_rate(s)), e["bsr_degree"], mode_degree(e),
            "-" if not bw else " ".join("%.2f" % x for x in bw)))
    return L


def analysis(ev, lib):
    """Sentences, computed from the runs, on why gmsim's figures differ
    from the seed's: the seed's premise is an LLC whose slices are the
    bandwidth bottleneck, so load, capacity cost and headroom are measured."""
    rows = [e for e in ev if e["complete"] and e["set"] == "sensitive"]
    if not rows:
        return []
    sh = [e["runs"]["shared"] for e in rows]
    load = [r["llc_requests"] / (SLICES * r["cycles"]) for r in sh if r["cycles"]]
    link = [r["req_link_util"] for r in sh if r["req_link_util"] is not None]
    hs = mean([r["llc_hit_rate"] for r in sh])
    hp = mean([e["runs"]["private"]["llc_hit_rate"] for e in rows])
    head = [e["speedup"]["bsr"] for e in rows]
    agree = sum(1 for e in rows if mode_degree(e) == e["bsr_degree"])
    ep = [e["runs"]["selrep"]["epochs"] for e in rows]
    imb = mean([e["runs"]["private"]["slice_imbalance"] for e in rows])
    up = [x for e in rows for x in e["runs"]["selrep"]["epoch_log"] if x["degree"] > 1]
    blind = sum(1 for x in up if x["rdd_accesses"] == 0)
    stalled = [e["label"] for e in rows if stall_rate(e["runs"]["shared"])]
    L = ["* **LLC load.** Under Shared the sensitive configurations send %.4f LLC requests "
         "per slice per core cycle on average (at most %.4f); a slice serves one per cycle, "
         "so the slices are %s. The H-Xbar's SM-router to MC-router links are at most %.1f%% "
         "busy. The seed's gains come from slices saturated by shared read-only lines "
         "(its Figure 15: replication raises the LLC response rate); where the slices are "
         "not the bottleneck, replication can only cost capacity."
         % (mean(load), max(load), "far from saturated" if max(load) < 0.25 else
            "loaded", 100 * max(link) if link else 0),
         "* **Occupancy.** The sensitive kernels at this size, on 64 SMs: %s. A launch "
         "with fewer CTAs than SMs leaves SMs idle and the LLC lightly loaded whatever "
         "the organization."
         % ", ".join("%s %s CTAs in %s launches" % (k, lib.get(k, (None, None))[1],
                                                    lib.get(k, (None, None))[0])
                     for k in sorted({e["kernel"] for e in rows})),
         "* **Capacity cost.** Mean LLC hit rate %.3f under Shared, %.3f under Private: "
         "replication %s." % (hs, hp, "costs hits" if hp < hs else "costs no hits"),
         "* **Headroom.** BSR (the best static degree, known after running all five) is "
         "%s over Shared on average, at best %s: this bounds what any degree choice, "
         "SelRep's included, can gain here (the seed: up to +61.6%% for SelRep)."
         % (pct(mean(head)), pct(max(head))),
         "* **Slice contention.** Under Shared, requests waited at a full LLC slice input "
         "in %d of %d configurations (%s); in the others the slices never pushed back."
         % (len(stalled), len(rows), ", ".join(stalled) or "none"),
         "* **Degree choice.** SelRep's most frequent degree equals BSR's degree in %d of %d "
         "configurations; SelRep decided %d to %d epochs per run. With Private, requests "
         "concentrate: slice imbalance (max / mean) %.1f on average, against %.2f under "
         "Shared." % (agree, len(rows), min(ep), max(ep), imb,
                      mean([r["slice_imbalance"] for r in sh])),
         "* **Empty epochs.** Of SelRep's %d logged epochs that chose a degree above 1, %d "
         "had no sampled RDD access (acc = 0); such an epoch predicts nothing and keeps "
         "the degree in force (section 4 of docs/designs/selrep.md), so these are epochs "
         "that kept an earlier choice." % (len(up), blind)]
    return L


def revisions(ev):
    """Which gmsim revision produced which runs: a store filled in phases
    (or by several builds) mixes them, and a table must say so."""
    by = {}
    for e in ev:
        for r in (e["runs"].values() if e["complete"] else []):
            v = by.setdefault(r["gmsim_version"] or "unknown", [0, []])
            v[0] += 1
            if e["label"] not in v[1]:
                v[1].append(e["label"])
    L = ["| gmsim revision | runs | configurations |", "|---|---|---|"]
    for ver in sorted(by):
        L.append("| %s | %d | %s |" % (ver, by[ver][0], ", ".join(by[ver][1])))
    return L


def report(a, ev, notes, avg_s, avg_i, lib):
    L = ["# SelRep LLC: the seed's evaluation reproduced with gmsim", "",
         "Written by `scripts/reproduce selrep --size %s%s%s` (scripts/reproduce_selrep.py; "
         "design: docs/designs/selrep.md). System: configs/selrep/ (the seed's Table I, "
         "PAE-style slice and bank hashes), `[selrep] epoch_cycles = %d`%s. Performance is "
         "1 / core cycles of the whole run; a speedup is Shared's cycles over the "
         "organization's. Averages are arithmetic means of per-configuration ratios, as "
         "the seed's percentages; the geometric mean is given where it differs. "
         "BSR: the fewest cycles over static degrees 1 (= Shared), 2, 4, 8, 16 (= Private), "
         "ties to the smaller degree (scripts/bsr's rule)." % (
             a.size, " --kernels " + a.kernels if a.kernels else "",
             " --llc-points " + a.llc_points if a.llc_points != "0,1,2,3,4" else "",
             a.epoch_cycles,
             "" if a.epoch_cycles == 20000 else
             " (the seed's 20 000 scaled down so that the short runs of this size have "
             "several epochs)"), ""]
    L += ["## Configurations", "",
          "Table II (replication-sensitive): AN, RN, SN with the seed's LLC sizes "
          "(per slice: size / 64); the shared data set is the library kernel's at this size, "
          "not the seed's (1.0, 4.2, 0.7 MB). NN and MM: configurations _0.._4 are the "
          "catalogue entries neuralnet_K and matrixmul_K at the 4 MB LLC; MM is the seed's "
          "input at sizes small and standard, NN's image count is the seed's divided by 64 "
          "at size small (docs/workloads/selrep.md). Table III: the kernels the library "
          "has, at the 4 MB LLC.", ""]
    for n in notes:
        L.append("* " + n)
    L += ["", "## Runs and gmsim revisions", "",
          "The revision each tabulated run's statistics name (`gmsim_version`; -dirty: "
          "built from a tree with uncommitted changes, docs/sweeps.md).", ""]
    L += revisions(ev)
    L += ["", "## Headline claims", "",
          "| seed claim | seed | gmsim (%s) |" % a.size, "|---|---|---|"]
    if avg_s:
        L += ["| SelRep over Shared, mean over the sensitive configurations | +%.1f%% | %s "
              "(geomean %s; %d configurations) |" % (SEED["vs_shared"],
                                                    pct(avg_s["selrep_vs_shared"]),
                                                    pct(avg_s["g_selrep_vs_shared"]), avg_s["n"]),
              "| SelRep over Adaptive | +%.1f%% | %s |" % (SEED["vs_adaptive"],
                                                         pct(avg_s["selrep_vs_adaptive"])),
              "| Adaptive over Shared | +%.1f%% | %s |" % (SEED["adaptive_vs_shared"],
                                                         pct(avg_s["adaptive_vs_shared"])),
              "| SelRep within x of BSR | %.1f%% below | %s |" % (
                  SEED["bsr_gap"], pct(avg_s["selrep_vs_bsr"])),
              "| headroom: BSR over Shared (mean / best) | (not stated; up to +61.6%% for "
              "SelRep) | %s / %s |" % (pct(avg_s["bsr_vs_shared"]),
                                       pct(avg_s["max_bsr_gain"])),
              "| Private over Shared | (best for the small configurations) | %s |"
              % pct(avg_s["private_vs_shared"])]
    if avg_i:
        L += ["| non-sensitive set: SelRep neutral | neutral | SelRep over Shared %s, "
              "Private over Shared %s (%d kernels) |" % (pct(avg_i["selrep_vs_shared"]),
                                                        pct(avg_i["private_vs_shared"]),
                                                        avg_i["n"])]
    L += ["", "## Per configuration (speedup over Shared)", "",
          "| config | kernel | LLC | Private | Adaptive | SelRep | BSR (degree) | SelRep / BSR |",
          "|---|---|---|---|---|---|---|---|"]
    for e in ev:
        if not e["complete"]:
            L.append("| %s | %s | %s MB | runs missing or not done | | | | |"
                     % (e["label"], e["kernel"], e["llc_mb"]))
            continue
        sp = e["speedup"]
        L.append("| %s | %s | %s MB | %s | %s | %s | %s (%d) | %s |" % (
            e["label"], e["kernel"], e["llc_mb"], pct(sp["private"]), pct(sp["adaptive"]),
            pct(sp["selrep"]), pct(sp["bsr"]), e["bsr_degree"],
            pct(sp["selrep"] / sp["bsr"])))
    L += ["", "## Replication degree (Figure 13)", "",
          "![degree distribution](selrep_degrees.svg)", "",
          "| config | epochs | degree 1 | 2 | 4 | 8 | 16 |", "|---|---|---|---|---|---|---|"]
    for e in ev:
        if e["complete"] and e["degree_dist"]:
            L.append("| %s | %d | %s |" % (e["label"], e["runs"]["selrep"]["epochs"],
                                          " | ".join("%.2f" % x for x in e["degree_dist"])))
    L += ["", "## Measurements behind the differences", ""]
    L += analysis(ev, lib) + [""]
    L += why_rows(ev, a.size)
    return L


def cmd_selrep(argv):
    ap = argparse.ArgumentParser(prog="reproduce selrep")
    ap.add_argument("--size", default="small", choices=["tiny", "small", "fill", "standard"])
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--gmsim", default=os.path.join(ROOT, "build", "gmsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "results"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "reproduce", "selrep"))
    ap.add_argument("--kernels", help="comma-separated abbreviations (an,rn,sn,lud,bt,...)")
    ap.add_argument("--llc-points", default="0,1,2,3,4",
                    help="Table II configurations _i to run (default all five)")
    ap.add_argument("--epoch-cycles", type=int,
                    help="[selrep] epoch_cycles (default 20000, 2000 at size tiny)")
    ap.add_argument("--orgs", help="comma-separated runs to make of %s (default all; a "
                    "configuration is tabulated once all are in the store)"
                    % ",".join(o for o, _, _ in ORGS))
    ap.add_argument("--collect-only", action="store_true",
                    help="tabulate the runs already in the store; run nothing")
    gmsweep.study_args(ap)
    a = ap.parse_args(argv)
    if a.epoch_cycles is None:
        a.epoch_cycles = 2000 if a.size == "tiny" else 20000
    if not os.access(a.gmsim, os.X_OK):
        sys.exit("reproduce: no gmsim at %s (build first, or pass --gmsim)" % a.gmsim)
    best = load_bsr_rule()
    lib = library(a.gmsim, a.size)
    points, notes = plan(a, lib)
    if not points:
        sys.exit("reproduce: nothing to run")
    jdir = os.path.join(a.work, a.size)
    cdir = os.path.join(jdir, "configs")
    os.makedirs(cdir, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(ROOT, "configs", "selrep", "shared.ini")) as f:
        base = f.read()
    orgs = ORGS
    if a.orgs:
        orgs = [x for x in ORGS if x[0] in a.orgs.split(",")]
        unknown = set(a.orgs.split(",")) - set(o for o, _, _ in ORGS)
        if unknown:
            sys.exit("reproduce: --orgs: unknown %s (allowed: %s)"
                     % (",".join(sorted(unknown)), ",".join(o for o, _, _ in ORGS)))
    planned = []
    for p in points:
        for o, org, deg in orgs:
            name = run_name(o, p["llc_mb"])
            path = os.path.join(cdir, name + ".ini")
            text = config_text(base, org, deg, p["llc_mb"], a.epoch_cycles)
            if not os.path.exists(path) or open(path).read() != text:
                gmsweep.write_atomic(path, lambda f, t=text: f.write(t))
            if (name, p["kernel"]) not in planned:
                planned.append((name, p["kernel"]))
    failures = [] if a.collect_only else gmsweep.run_study(
        a, planned, jdir, lambda c: os.path.join(cdir, c + ".ini"), "selrep")
    R, rows = {}, []
    for c, w in planned:
        path = os.path.join(jdir, "%s__%s.json" % (c, w))
        if os.path.exists(path):
            with open(path) as f:
                R[(c, w)] = metrics(json.load(f))
            row = {"config": c, "workload": w, "size": a.size}
            row.update({k: v for k, v in R[(c, w)].items() if k != "epoch_log"})
            rows.append(row)
    if not rows:
        sys.exit("reproduce: no results")
    ev = evaluate(points, R, best)
    md = "\n".join(report(a, ev, notes, averages(ev, "sensitive"),
                          averages(ev, "insensitive"), lib)) + "\n"
    md += gmsweep.kept_tail(os.path.join(a.out, "selrep.md"), KEEP_MARKER)
    try:
        def write_csv(f):
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        gmsweep.write_atomic(os.path.join(a.out, "selrep.csv"), write_csv)
        gmsweep.write_atomic(os.path.join(a.out, "selrep.md"), lambda f: f.write(md))
        gmsweep.write_atomic(os.path.join(a.out, "selrep_degrees.svg"),
                             lambda f: f.write(degree_svg(ev)))
    except OSError as e:
        log("reproduce: cannot write %s: %s" % (e.filename, e.strerror or e))
        return 1
    log("reproduce selrep: wrote %s/selrep.{md,csv} and selrep_degrees.svg" % a.out)
    for name, st, logpath in failures:
        log("  not finished: %s: %s (log %s)" % (name, st, logpath))
    return 1 if failures else 0
