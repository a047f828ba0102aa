"""scripts/reproduce dcl1: replication classes by the paper's criteria and
study layers (docs/results/dcl1.md, docs/designs/dcl1.md section 5).

The DC-L1 paper (section II) calls a kernel replication-sensitive when, on
the private-L1 baseline, it has
  1. a replication ratio above 25% (L1 misses whose line another L1 holds),
  2. an L1 miss rate above 50%, and
  3. a speedup above 5% with a 16x larger L1.
The study measures all three on its own baseline runs (the third with the
layer configs/dcl1/layers/l1x16.layer) and averages the headline by the
measured class; the catalogue's class and the class the paper gives the
kernels it names are reported beside it.

Layers (--layer NAME, repeatable) are INI files configs/dcl1/layers/
NAME.layer applied after every design point's file, e.g. noc1_noheader
(NoC#1 packets without control bytes, the paper's Table I) or platform
(the calibrated platform values). Everything here is stdlib Python.
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYER_DIR = os.path.join(ROOT, "configs", "dcl1", "layers")

# The paper's thresholds (section II); strict inequalities as it writes them.
REPLICATION_MIN = 0.25
MISS_RATE_MIN = 0.50
SPEEDUP_16X_MIN = 1.05

# The 16x-L1 baseline: a pseudo design point of the study.
L1X16 = "baseline+l1x16"

# The class the paper gives the kernels of the library it names (sections
# V-B, VI, VIII: Figures 4, 8, 9, 13, 14). Kernels it does not name are
# absent. btree is sensitive only in gmsim's catalogue.
PAPER_CLASS = {
    "alexnet": "sensitive", "resnet": "sensitive", "squeezenet": "sensitive",
    "3dconv": "sensitive", "2mm": "sensitive", "reduction": "sensitive",
    "syrk": "sensitive",
    "3mm": "insensitive", "gemm": "insensitive", "2dconv": "insensitive",
    "lud": "insensitive", "streamcluster": "insensitive",
}


def layer_path(name):
    return os.path.join(LAYER_DIR, name + ".layer")


def check_layers(names):
    """The names whose layer file is missing."""
    return [n for n in names if not os.path.exists(layer_path(n))]


def layer_sections(name):
    """The [sections] a layer file sets."""
    with open(layer_path(name)) as f:
        return {line.strip()[1:-1] for line in f
                if line.strip().startswith("[") and line.strip().endswith("]")}


def layers_for(layers, is_baseline):
    """The layers that apply to a point: a layer that sets only [dcl1] keys
    changes nothing in a private-L1 baseline, so a baseline run leaves it
    out and keeps the configuration (and result-store hash) of the run
    without it."""
    if not is_baseline:
        return list(layers)
    return [n for n in layers if layer_sections(n) - {"dcl1"}]


def config_files(point_file, layers, extra=()):
    """The files of one run: the design point, then each layer in order."""
    return [point_file] + [layer_path(n) for n in list(layers) + list(extra)]


def work_name(size, layers):
    """Result-store folder of a size under a list of layers."""
    return size + "".join("+" + n for n in layers)


def criteria(base, big):
    """(replication ratio, L1 miss rate, 16x-L1 speedup) of one kernel from
    its baseline metrics and its 16x-L1 baseline metrics (dicts with
    replication_ratio, l1_miss_rate, ipc, status); None where missing."""
    if not base or base.get("status") != "done":
        return None, None, None
    speedup = None
    if big and big.get("status") == "done" and base.get("ipc"):
        speedup = big["ipc"] / base["ipc"]
    return base.get("replication_ratio"), base.get("l1_miss_rate"), speedup


def classify(repl, miss, speedup):
    """'sensitive' when all three criteria pass, 'insensitive' when one
    fails, None when one is unknown and none fails."""
    tests = [(repl, REPLICATION_MIN), (miss, MISS_RATE_MIN), (speedup, SPEEDUP_16X_MIN)]
    if any(v is not None and not v > t for v, t in tests):
        return "insensitive"
    if any(v is None for v, _ in tests):
        return None
    return "sensitive"


def measured_classes(raw, workloads):
    """{kernel: (repl, miss, speedup, measured class)} from the study's
    metrics keyed (design, kernel)."""
    out = {}
    for w in workloads:
        r, m, s = criteria(raw.get(("baseline", w)), raw.get((L1X16, w)))
        out[w] = (r, m, s, classify(r, m, s))
    return out


def class_table(classes, catalogue):
    """Markdown lines: the three criteria per kernel, the measured class,
    the catalogue's and the paper's."""
    def f(x, spec):
        return "-" if x is None else spec % x

    def mark(v, t):
        return "" if v is None else (" ✓" if v > t else " ✗")
    L = ["\n## Replication classes by the paper's criteria (measured on the baseline)\n",
         "A kernel is replication-sensitive when its replication ratio is above %.0f%%, its "
         "L1 miss rate above %.0f%% and its speedup with a 16x larger L1 above %.0f%% (the "
         "paper's section II); all three are measured here on the private baseline "
         "(the 16x L1: layer `l1x16`). ✓/✗: criterion met or not. `paper` is the class the "
         "paper gives the kernels it names (blank: not named).\n"
         % (100 * REPLICATION_MIN, 100 * MISS_RATE_MIN, 100 * (SPEEDUP_16X_MIN - 1)),
         "| kernel | replication ratio | L1 miss rate | 16x-L1 speedup | measured class | "
         "catalogue | paper |",
         "|---|---|---|---|---|---|---|"]
    for w in sorted(classes, key=lambda k: (classes[k][3] != "sensitive", k)):
        r, m, s, c = classes[w]
        L.append("| %s | %s%s | %s%s | %s%s | **%s** | %s | %s |" % (
            w, f(r, "%.3f"), mark(r, REPLICATION_MIN), f(m, "%.3f"), mark(m, MISS_RATE_MIN),
            f(s, "%.2f"), mark(s, SPEEDUP_16X_MIN), c or "?", catalogue.get(w, "-"),
            PAPER_CLASS.get(w, "")))
    return L


def utilization(s):
    """Where a run's time goes, per resource on the path core -> L1 ->
    NoC -> L2 -> DRAM -> NoC (fractions of each resource's cycles), from
    one statistics JSON."""
    c, l1, dram = s["core"], s["l1"], s["dram"]
    cyc = s["summary"]["core_cycles"] or 1
    ncores = s["config"]["core"]["num_cores"]
    nets = s.get("networks", {})
    req = nets.get("noc_request") or nets.get("noc2_request") or {}
    rep = nets.get("noc_reply") or nets.get("noc2_reply") or {}
    core_cycles = cyc * ncores
    sched = max(1, c["active_core_cycles"] * s["config"]["core"]["schedulers"])
    lost = c["stall_scoreboard"] + c["stall_ldst"] + c["stall_barrier"] + c["idle_issue_slots"]
    return {
        "u_core_active": c["active_core_cycles"] / core_cycles,
        "u_issue": 1 - lost / sched,
        "u_stall_ldst": c["stall_ldst"] / sched,
        "u_stall_scoreboard": c["stall_scoreboard"] / sched,
        "u_l1_refused": c["l1_refusals"] / core_cycles,
        # The paper's "L1 bandwidth utilization" (section II-B): an L1's
        # accesses over the cycle count, here the mean over the L1s.
        "u_l1_accesses": l1["accesses"] / (cyc * max(1, s["design"]["l1_caches"])),
        "u_l1_port_mean": l1["port_utilization_mean"],
        "u_l1_port_max": l1["port_utilization_max"],
        "u_req_inject_mean": req.get("input_link_utilization_mean"),
        "u_rep_inject_mean": rep.get("input_link_utilization_mean"),
        "u_rep_inject_max": rep.get("input_link_utilization_max"),
        "u_rep_eject_mean": rep.get("output_link_utilization_mean"),
        "u_rep_eject_max": rep.get("output_link_utilization_max"),
        "u_l2_input_stalls": s["l2"].get("input_stalls"),
        "u_dram_bus": dram.get("bus_utilization"),
    }


def utilization_table(rows, design="baseline"):
    """Markdown lines: the utilization of every resource for one design
    point, per kernel, sensitive (measured class) first."""
    def f(x):
        return "-" if x is None else "%.3f" % x
    sel = sorted([r for r in rows if r["design"] == design and r["status"] == "done"
                  and "u_core_active" in r],
                 key=lambda r: (r["class"] != "sensitive", r["workload"]))
    if not sel:
        return []
    L = ["\n## Where the time goes: %s resource utilization per kernel\n" % design,
         "Fractions of each resource's cycles. `active`: core cycles with resident work; "
         "`issue`, `ldst stall`, `sb stall`: scheduler slots of active cycles that issued, "
         "that waited on a full LD/ST queue, and on the scoreboard (docs/stats.md); "
         "`L1 refused`: core cycles in which the LD/ST unit could not hand a request to the "
         "L1 (busy port, full MSHRs or miss queue); `L1 acc`: L1 accesses per core cycle, "
         "mean over the L1s (the paper's L1 bandwidth utilization, section II-B); "
         "`L1 port`: data-port busy fraction, mean and busiest core; "
         "`req inj`: request-network links from the cores; `rep inj`: reply links from the "
         "L2 slices (mean / busiest); `rep ej`: reply links into the cores (mean / "
         "busiest); `L2 in stalls`: requests refused by a full L2 input; `DRAM`: data-bus "
         "utilization. The paper's Figure 2 gives, over all its applications, at most 0.18 "
         "for its busiest L1 and 0.30 for its busiest reply link into a core (`rep ej` "
         "max); its L1 figure counts GPGPU-Sim's 700 MHz core cycles, `L1 acc` gmsim's "
         "1400 MHz ones (docs/results/dcl1.md).\n",
         "| kernel | class | active | issue | ldst stall | sb stall | L1 refused | L1 acc | L1 port mean "
         "/ max | req inj | rep inj mean / max | rep ej mean / max | L2 in stalls | DRAM |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sel:
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s / %s | %s / %s | %s "
                 "| %s |" % (
            r["workload"], r["class"], f(r["u_core_active"]), f(r["u_issue"]),
            f(r["u_stall_ldst"]), f(r["u_stall_scoreboard"]), f(r["u_l1_refused"]),
            f(r.get("u_l1_accesses")), f(r["u_l1_port_mean"]), f(r["u_l1_port_max"]), f(r["u_req_inject_mean"]),
            f(r["u_rep_inject_mean"]), f(r["u_rep_inject_max"]), f(r["u_rep_eject_mean"]),
            f(r["u_rep_eject_max"]), r["u_l2_input_stalls"], f(r["u_dram_bus"])))
    return L


# The paper's "boosted baselines" (section VIII): the private baseline with
# 2x L1 capacity, 2x NoC frequency or 5x flit size. It reports +33% to +36%
# on its replication-sensitive kernels and +2% to +6% on the others; the
# same three changes on gmsim's baseline measure how cache- and NoC-bound
# gmsim's baseline is against the paper's.
BOOSTED = [("boost_l1x2", "2x L1"), ("boost_noc2x", "2x NoC clock"),
           ("boost_flit5x", "5x flit")]
BOOSTED_PAPER = {"sensitive": "+33% .. +36%", "insensitive": "+2% .. +6%"}


def boosted_table(gains, classes, size, gm, pct):
    """Markdown lines: each boosted baseline's IPC over the baseline per
    kernel and averaged (gm: geometric mean) by the measured class and by
    the paper's class, the paper's range beside them. gains maps (layer,
    kernel) to IPC ratios; classes is measured_classes' result."""
    names = [n for n, _ in BOOSTED]
    kernels = sorted(classes, key=lambda k: (classes[k][3] != "sensitive", k))
    L = ["# DC-L1 study: the paper's boosted baselines, size %s\n" % size,
         "Written by `scripts/reproduce dcl1-boosted --size %s`. IPC of the private "
         "baseline with one resource boosted, over the baseline's (layers "
         "`configs/dcl1/layers/boost_*.layer`). The paper (section VIII, \"Boosted "
         "Baseline\") reports +33%% to +36%% for its replication-sensitive kernels and +2%% "
         "to +6%% for the others with each of the three.\n" % size,
         "| average | kernels | " + " | ".join(l for _, l in BOOSTED) + " | paper |",
         "|---|---|" + "---|" * len(BOOSTED) + "---|"]
    groups = [("measured sensitive", lambda k: classes[k][3] == "sensitive", "sensitive"),
              ("measured insensitive", lambda k: classes[k][3] == "insensitive", "insensitive"),
              ("paper-named sensitive", lambda k: PAPER_CLASS.get(k) == "sensitive", "sensitive"),
              ("paper-named insensitive", lambda k: PAPER_CLASS.get(k) == "insensitive",
               "insensitive")]
    for title, member, paper in groups:
        ks = [k for k in kernels if member(k)]
        L.append("| %s | %d | %s | %s |" % (
            title, len(ks), " | ".join(pct(gm([gains.get((n, k)) for k in ks])) for n in names),
            BOOSTED_PAPER[paper]))
    L += ["", "| kernel | measured class | paper | " + " | ".join(l for _, l in BOOSTED) + " |",
          "|---|---|---|" + "---|" * len(BOOSTED)]
    for k in kernels:
        L.append("| %s | %s | %s | %s |" % (
            k, classes[k][3] or "?", PAPER_CLASS.get(k, ""),
            " | ".join(pct(gains.get((n, k))) for n in names)))
    return L

