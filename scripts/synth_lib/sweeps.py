"""Predefined sweeps: the router at the DC-L1 paper's crossbar sizes, the
DC-L1 node queues, and the self-test FIFO. Each writes a Markdown table,
the JSON records and a PNG plot, and records every result in the cache so
scripts/noc-area can reuse it."""

import concurrent.futures
import datetime
import json
import os

from . import flow, runner, scaling

DEFAULT_OUT = os.path.join(runner.REPO, "docs", "results")
DEFAULT_CACHE = os.path.join(DEFAULT_OUT, "synth-cache.json")

# The router at the baseline's interconnect parameters (DC-L1 paper
# Table II: 4 VCs per port, 4 flits per VC). ROUTER_FIXED holds the
# parameters every router point shares; ROUTER_SIZE gives the names of the
# input and output count parameters. Split=1 selects the router's
# per-element form (one FIFO per input VC, one search instance per arbiter):
# the same logic as the bank form Verilator simulates (Split=0, checked
# against the C model by the lockstep tests of both forms), but hierarchical
# synthesis builds each element once instead of one huge module per bank
# (40x32: 410 s instead of 5180 s CPU; docs/synthesis.md).
ROUTER_TOP = "gm_router"
ROUTER_SIZE = ("NumIn", "NumOut")
ROUTER_FIXED = [("NumVcs", "4"), ("VcDepth", "4"), ("Stages", "1"), ("Iters", "1"),
                ("Split", "1")]

# gmsim config [noc] keys -> router parameters (noc-area reads a design's
# config). flit_bytes has no counterpart: the RTL flit carries a 32-bit
# packet handle, not the flit's bytes.
CONFIG_TO_ROUTER = {"vcs": "NumVcs", "vc_depth": "VcDepth", "router_stages": "Stages",
                    "islip_iters": "Iters"}

# (N, M, large?, where the DC-L1 paper uses it). "large" points run only
# with --large (see docs/results/area-timing.md for their run times).
ROUTER_SIZES = [
    (2, 1, False, "Pr40 NoC#1"),
    (8, 4, False, "Sh40+C10 NoC#1"),
    (10, 8, False, "Sh40+C10 NoC#2"),
    (40, 32, True, "Pr40/Sh40 NoC#2"),
    (80, 32, True, "baseline"),
    (80, 40, True, "Sh40 NoC#1"),
]

FIG13B = ("DC-L1 paper (Ibrahim et al., HPCA 2021), Fig. 13b: the 2x1 (Pr40) and 8x4 "
          "(Sh40+C10) crossbars run at significantly higher frequencies than the 80x32 "
          "(baseline) and 80x40 (Sh40) crossbars (DSENT, 22 nm).")


# The self-test crossbar (scripts/synth_selftest/st_xbar.v) stands in for
# the router when exercising the machinery: same size parameter names.
XBAR_TOP = "st_xbar"
XBAR_FIXED = [("Width", "32")]


def router_params(n, m, fixed=None):
    return [(ROUTER_SIZE[0], n), (ROUTER_SIZE[1], m)] + list(ROUTER_FIXED if fixed is None else fixed)


def router_points(large, fixed=None):
    return [{"label": "%dx%d" % (n, m), "params": router_params(n, m, fixed), "x": n + m,
             "large": big, "note": note} for n, m, big, note in ROUTER_SIZES
            if large or not big]


def xbar_points(large):
    return router_points(large, XBAR_FIXED)


# The DC-L1 node queues Q1..Q4 by depth ([dcl1] node_queue; the paper's
# node has four entries per queue). An RTL entry is {kind, 32-bit handle},
# not the 128 B the paper's entry holds (docs/designs/dcl1.md).
QUEUES_TOP = "gm_dcl1_queues"
QUEUE_DEPTHS = [1, 2, 3, 4, 8, 16]


def queue_points(large):
    return [{"label": "depth %d" % d, "params": [("Depth", d)], "x": d, "large": False,
             "note": "DC-L1 paper node (4 entries)" if d == 4 else ""} for d in QUEUE_DEPTHS]


def selftest_points(large):
    depths = [2, 4, 8, 16, 32] + ([64, 128] if large else [])
    return [{"label": "fifo %dx32" % d, "params": [("W", 32), ("DEPTH", d)], "x": d,
             "large": d > 32, "note": ""} for d in depths]


# The ATA aggregated tag array (rtl/gm_ata_tags.sv) at the seed's L1
# geometry: 64 KB, 128 B lines, so 8 sets at 64 ways; a 22-bit tag (a
# 32-bit address less 7 offset and 3 set bits), 4 sector bits, one request
# port per core of the cluster ([ata] tag_ports = 0 in configs/ata). N
# arrays (= ports) at 4 ways, then the ways at the seed's N = 10. Kept
# hierarchical: every bank, tag selector, comparator group and update unit
# is one module synthesized once (flat, the seed's size takes hours).
ATA_TOP = "gm_ata_tags"
ATA_ARRAYS = [2, 4, 8, 10, 16]
ATA_WAYS = [8, 16, 32, 64]


def ata_params(n, ways):
    return [("NumArrays", n), ("NumSets", 8), ("NumWays", ways), ("TagWidth", 22),
            ("NumPorts", n), ("NumSectors", 4)]


def ata_points(large):
    pts = [(n, 4) for n in ATA_ARRAYS] + [(10, w) for w in ATA_WAYS]
    return [{"label": "N%d W%d" % (n, w), "params": ata_params(n, w), "x": n * n * w,
             "large": False, "note": "the seed's cluster" if (n, w) == (10, 64) else ""}
            for n, w in pts]


# What each module of the hierarchical tag array is (docs/results/area-timing.md
# section 1c). The two one-hot multiplexers differ by instance count: the
# tag selectors are NumPorts x NumArrays, the update-side selectors one per array.
def ata_part(module, count, params):
    names = {"gm_ata_bank": "banks (one set each)", "gm_ata_match": "comparator groups",
             "gm_ata_update": "update units", "gm_ata_tags": "top (request and eviction "
             "registers, set decoders)"}
    if module == "gm_onehot_mux":
        n, p = int(params["NumArrays"]), int(params["NumPorts"])
        return "tag selectors" if count == n * p and p > 1 else "update-side selectors"
    return names.get(module, module)


def ata_breakdown(results):
    """Markdown: per point, the area of each kind of part and its share."""
    out = ["Area by part (hierarchical: own area of a module x its instances):", "",
           "| point | part | instances | area each (um^2) | flip-flops | area (um^2) | share |",
           "|---|---|---|---|---|---|---|"]
    for r in results:
        total = r["area_um2"]
        for m in sorted(r.get("modules", {}).values(),
                        key=lambda m: -m["own_area_um2"] * m["count"]):
            a = m["own_area_um2"] * m["count"]
            out.append("| %s | %s | %d | %s | %s | %s | %.1f%% |" % (
                r["label"], ata_part(m["module"], m["count"], r["params"]), m["count"],
                runner.fmt_num(m["own_area_um2"]), runner.fmt_num(m["own_flip_flops"] * m["count"]),
                runner.fmt_num(a), 100.0 * a / total))
    return "\n".join(out)


def ata_modules(n, ways):
    """The five distinct modules of gm_ata_tags at N arrays (= ports), 8 sets,
    W ways, 22-bit tags, 4 sectors, as the hierarchy instantiates them:
    (part, instances, top, params)."""
    ent = 22 + 1 + 4
    age_w = max(1, (ways - 1).bit_length())
    tags = [("TagWidth", 22), ("NumSectors", 4)]
    return [("banks (one set each)", n * 8, "gm_ata_bank", [("NumWays", ways), ("EntW", ent)]),
            ("tag selectors", n * n, "gm_onehot_mux", [("N", 8), ("Width", ways * ent)]),
            ("comparator groups", n * n, "gm_ata_match", [("NumWays", ways)] + tags),
            ("update-side selectors", n, "gm_onehot_mux", [("N", 8), ("Width", ways * (ent + age_w))]),
            ("update units", n, "gm_ata_update", [("NumWays", ways)] + tags)]


def ata_composed(results, synth, n=10):
    """Markdown: N arrays at every ways point composed from its modules, each
    synthesized alone (synth(top, params) -> result): areas and flip-flops
    summed over the instances plus the top level's own cells (from a
    hierarchical run at N, where they do not depend on the ways), the update
    path summed (update-side selector, update unit, bank). Beside it the
    hierarchical run where one finished (docs/results/area-timing.md 1c)."""
    at_n = [r for r in results if int(r["params"]["NumArrays"]) == n and r.get("modules")]
    tops = [m for r in at_n for m in r["modules"].values() if m["module"] == ATA_TOP]
    if not tops:
        return "(no hierarchical run at N = %d: nothing to compose)\n" % n
    top = tops[0]
    hier = {int(r["params"]["NumWays"]): r for r in at_n}
    out = ["Composed from the modules synthesized alone, N = %d:" % n, "",
           "| ways | cells | flip-flops | area (um^2) | tag selectors' share | update path, summed (ns) "
           "| hierarchical area (um^2) | hierarchical critical path (ns) |",
           "|---|---|---|---|---|---|---|---|"]
    for w in [4] + ATA_WAYS:
        parts = [(part, k, synth(t, p)) for part, k, t, p in ata_modules(n, w)]
        area = sum(k * r["area_um2"] for _, k, r in parts) + top["own_area_um2"]
        flops = sum(k * r["flip_flops"] for _, k, r in parts) + top["own_flip_flops"]
        cells = sum(k * r["cells"] for _, k, r in parts) + top["own_cells"]
        sel = sum(k * r["area_um2"] for part, k, r in parts if part == "tag selectors")
        path = sum(r["critical_path_ns"] for part, _, r in parts
                   if part in ("update-side selectors", "update units", "banks (one set each)"))
        h = hier.get(w)
        out.append("| %d | %s | %s | %s | %.1f%% | %.3f | %s | %s |" % (
            w, runner.fmt_num(cells), runner.fmt_num(flops), runner.fmt_num(area),
            100.0 * sel / area, path, runner.fmt_num(h["area_um2"]) if h else "-",
            runner.fmt_num(h["critical_path_ns"], 3) if h else "-"))
    return "\n".join(out) + "\n"


SWEEPS = {
    # The router sweep keeps the hierarchy: flat synthesis takes 2-2.5x
    # longer already at 8x4 and 10x8, and the gap grows with size
    # (docs/results/area-timing.md compares the two modes).
    "router": {"top": ROUTER_TOP, "points": router_points, "xlabel": "ports (N + M)", "hier": True,
               "title": "gm_router: fmax and area vs port count"},
    "queues": {"top": QUEUES_TOP, "points": queue_points, "xlabel": "entries per queue",
               "title": "DC-L1 node queues"},
    "xbar-selftest": {"top": XBAR_TOP, "points": xbar_points, "xlabel": "ports (N + M)",
                      "title": "self-test crossbar st_xbar (32 bit, no buffers): fmax and area vs port count"},
    "ata": {"top": ATA_TOP, "points": ata_points, "xlabel": "arrays^2 x ways", "hier": True,
            "title": "gm_ata_tags (8 sets, 22-bit tags, one port per array): fmax and area"},
    "selftest": {"top": "st_fifo", "points": selftest_points, "xlabel": "FIFO depth",
                 "title": "self-test FIFO (32 bit): fmax and area vs depth"},
}


def run_sweep(name, out_dir, large=False, only=None, jobs=1, clock_ns=10.0,
              liberty=flow.DEFAULT_LIBERTY, abc_delay_ps=flow.DEFAULT_ABC_DELAY_PS,
              timeout=None, cache=None, flat=False):
    sw = SWEEPS[name]
    hier = sw.get("hier", False) and not flat
    points = sw["points"](large)
    if only:
        points = [p for p in sw["points"](True) if p["label"] in only]
        if not points:
            raise flow.FlowError("no sweep point named %s" % ", ".join(only))
    log = runner.stderr_log

    def one(p):
        try:
            r = runner.synthesize(sw["top"], p["params"], clock_ns=clock_ns, liberty=liberty,
                                  abc_delay_ps=abc_delay_ps, timeout=timeout, cache=cache,
                                  log=log, hier=hier)
        except flow.FlowError as e:
            # One failed point does not lose the others; the sweep still fails.
            log("FAILED %s: %s" % (p["label"], e))
            return {"label": p["label"], "x": p["x"], "note": p["note"], "error": str(e)}
        return dict(r, label=p["label"], x=p["x"], note=p["note"])

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        everything = list(ex.map(one, points))
    failed = [r for r in everything if "error" in r]
    results = [r for r in everything if "error" not in r]

    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, "%s-sweep%s" % (name, "" if hier == sw.get("hier", False) else
                                                  ("-hier" if hier else "-flat")))
    md = sweep_markdown(name, results)
    if name == "ata" and results:
        def synth(top, params):
            return runner.synthesize(top, params, clock_ns=clock_ns, liberty=liberty,
                                     abc_delay_ps=abc_delay_ps, timeout=timeout, cache=cache,
                                     log=log)
        try:
            md += "\n" + ata_composed(results, synth)
        except flow.FlowError as e:
            md += "\nComposition failed: %s\n" % e
    for r in failed:
        md += "\nFAILED %s: %s\n" % (r["label"], r["error"].replace("\n", " / "))
    with open(base + ".md", "w") as f:
        f.write(md)
    with open(base + ".json", "w") as f:
        json.dump({"sweep": name, "results": results, "failed": failed}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    plotted = plot(name, results, base + ".png") if results else False
    print(md)
    print("wrote %s.md, %s.json%s" % (base, base, ", %s.png" % base if plotted else
                                       " (no plot)"))
    return 1 if failed else 0


def sweep_markdown(name, results):
    sw = SWEEPS[name]
    tools = results[0]["tools"] if results else flow.tool_versions()
    if not results:
        return "## %s sweep: no point succeeded\n" % name
    lines = [
        "## %s sweep (%s)" % (name, sw["title"]),
        "",
        "Generated by `scripts/synth --sweep %s` on %s. Tools: %s; %s; liberty %s "
        "(sha256 %s...). ABC delay target %d ps, clock %s ns, no wire load, ideal clock; "
        "%s synthesis." % (
            name, datetime.date.today().isoformat(), tools["yosys"], tools["sta"],
            tools["liberty"], tools["liberty_sha256"],
            results[0]["abc_target_ps"] if results else 0,
            results[0]["clock_ns"] if results else 0,
            "hierarchical (--hier)" if results and results[0].get("hierarchical") else "flat"),
        "",
    ]
    if results:
        fixed = results[0]["params"]
        lines.append("Top `%s`, parameters of the first point: %s." % (
            sw["top"], ", ".join("%s=%s" % kv for kv in fixed.items()) or "defaults"))
        lines.append("")
    lines.append(runner.table(results, label=lambda r: r["label"] + (
        " (%s)" % r["note"] if r.get("note") else "")))
    lines.append("")
    lines.append("22 nm columns: " + scaling.RULE + ".")
    stale = [r["label"] for r in results if r.get("stale")]
    if stale:
        lines.append("")
        lines.append("STALE (sources changed since synthesis): " + ", ".join(stale))
    if name in ("router", "xbar-selftest") and results:
        lines.append("")
        lines.append(fig13b_comparison(results))
    if name == "ata" and any(r.get("modules") for r in results):
        lines.append("")
        lines.append(ata_breakdown(results))
    return "\n".join(lines) + "\n"


def fig13b_comparison(results):
    by = {r["label"]: r for r in results}
    out = [FIG13B, ""]
    for small in ("2x1", "8x4", "10x8"):
        for big in ("80x32", "80x40"):
            if small in by and big in by and by[small]["fmax_mhz"] and by[big]["fmax_mhz"]:
                out.append("- fmax %s / fmax %s = %.0f / %.0f MHz = **%.2fx**" % (
                    small, big, by[small]["fmax_mhz"], by[big]["fmax_mhz"],
                    by[small]["fmax_mhz"] / by[big]["fmax_mhz"]))
    if len(out) == 2:
        out.append("(the 80x32 / 80x40 points are not in this run; use --large)")
    return "\n".join(out)


def plot(name, results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    sw = SWEEPS[name]
    pts = sorted((r for r in results if r["fmax_mhz"]), key=lambda r: r["x"])
    if not pts:
        return False
    xs = [r["x"] for r in pts]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.6))
    ax1.plot(xs, [r["fmax_mhz"] for r in pts], "o-", color="tab:blue", label="OSU 0.18 um (measured)")
    ax1.set_xlabel(sw["xlabel"])
    ax1.set_ylabel("fmax (MHz), 180 nm")
    ax1.set_title("fmax")
    ax2.plot(xs, [r["area_um2"] / 1e6 for r in pts], "s-", color="tab:red", label="OSU 0.18 um (measured)")
    ax2.set_xlabel(sw["xlabel"])
    ax2.set_ylabel("area (mm^2), 180 nm")
    ax2.set_title("area")
    if len(xs) > 2 and max(xs) / max(1, min(xs)) > 8:
        for ax in (ax1, ax2):
            ax.set_xscale("log")
        ax2.set_yscale("log")
    # Labels alternate above-left and below-right of their points, so that
    # neighbours (80x32 and 80x40 are 8 ports apart) do not overprint.
    for i, r in enumerate(pts):
        off, ha = ((-4, 6), "right") if i % 2 else ((5, -10), "left")
        ax1.annotate(r["label"], (r["x"], r["fmax_mhz"]), textcoords="offset points",
                     xytext=off, ha=ha, fontsize=8)
        ax2.annotate(r["label"], (r["x"], r["area_um2"] / 1e6), textcoords="offset points",
                     xytext=off, ha=ha, fontsize=8)
    # Right axes: the labelled 22 nm estimate (a constant factor).
    s = pts[0]["scaled_22nm"]
    sec1 = ax1.secondary_yaxis("right", functions=(lambda y: y * s["delay_divisor"],
                                                   lambda y: y / s["delay_divisor"]))
    sec1.set_ylabel("22 nm ESTIMATE fmax (MHz)")
    sec2 = ax2.secondary_yaxis("right", functions=(lambda y: y / s["area_divisor"],
                                                   lambda y: y * s["area_divisor"]))
    sec2.set_ylabel("22 nm ESTIMATE area (mm^2)")
    ax1.grid(True, alpha=0.3)
    ax2.grid(True, alpha=0.3)
    fig.suptitle(sw["title"], fontsize=11)
    if name in ("router", "xbar-selftest"):
        fig.text(0.5, 0.01, FIG13B, ha="center", fontsize=7.5, wrap=True)
        fig.subplots_adjust(bottom=0.2, top=0.86, wspace=0.45)
    else:
        fig.subplots_adjust(bottom=0.13, top=0.86, wspace=0.45)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return True
