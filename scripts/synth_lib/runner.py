"""Glue between the command line and the flow: default sources, the result
record (flow numbers + tool versions + scaled estimate), the cache, and the
human-readable table."""

import os
import sys

from . import cache as cache_mod
from . import flow
from . import scaling

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RTL_DIR = os.path.join(REPO, "rtl")
SELFTEST_DIR = os.path.join(REPO, "scripts", "synth_selftest")


def default_sources(top):
    """rtl/ if it defines TOP, else the self-test designs."""
    for d in (RTL_DIR, SELFTEST_DIR):
        if os.path.isdir(d):
            try:
                flow.find_sources(top, [d])
                return [d]
            except flow.FlowError:
                pass
    raise flow.FlowError("module %s is defined neither in rtl/ nor in scripts/synth_selftest/ "
                         "(use --src)" % top)


_versions = {}


def versions(liberty):
    if liberty not in _versions:
        _versions[liberty] = flow.tool_versions(liberty)
    return _versions[liberty]


def synthesize(top, params, src=None, clock_ns=10.0, liberty=flow.DEFAULT_LIBERTY,
               abc_delay_ps=flow.DEFAULT_ABC_DELAY_PS, clock_port=None, reset_port=None,
               timeout=None, keep_dir=None, cache=None, allow_stale=False, log=None, hier=False):
    """One block: from the cache if it holds this exact result, else the flow.
    Returns the full result record."""
    if not os.path.isfile(liberty):
        raise flow.FlowError("liberty file not found: %s" % liberty)
    src = src or default_sources(top)
    files = flow.find_sources(top, src)
    src_hash = cache_mod.sources_hash(files)
    ver = versions(liberty)
    k = cache_mod.key(top, params, liberty, abc_delay_ps, ver["yosys"], hier)
    if cache is not None:
        hit = cache.get(k, src_hash, allow_stale)
        if hit is not None:
            if log:
                log("cached: %s%s" % (k, " (STALE: sources changed)" if hit.get("stale") else ""))
            # The critical path does not depend on the clock (0 ns I/O
            # delays, ideal clock); only the slack does.
            crit = hit.get("critical_path_ns")
            slack = round(clock_ns - crit, 3) if crit is not None else None
            return dict(hit, cached=True, clock_ns=clock_ns, slack_ns=slack)
    if log:
        log("synthesizing %s ..." % k)
    r = flow.run(top, params, src, clock_ns=clock_ns, liberty=liberty,
                 abc_delay_ps=abc_delay_ps, clock_port=clock_port, reset_port=reset_port,
                 timeout=timeout, keep_dir=keep_dir, hier=hier)
    r["sources"] = [os.path.relpath(f, REPO) if f.startswith(REPO) else f for f in files]
    r["sources_sha256"] = src_hash
    r["tools"] = ver
    r["scaled_22nm"] = scaling.scale(r)
    if cache is not None:
        cache.put(k, r)
    if log:
        log("done %s: %.1f s synthesis (%.1f s CPU), %.1f s STA" % (
            k, r["runtime"]["synth_s"], r["runtime"]["synth_cpu_s"], r["runtime"]["sta_s"]))
    return r


def fmt_num(x, nd=0):
    if x is None:
        return "-"
    if nd == 0:
        return "{:,}".format(int(round(x))).replace(",", " ")
    return "%.*f" % (nd, x)


def table(results, label=lambda r: r["top"]):
    """Markdown table, one row per result."""
    head = ("| block | cells | flip-flops | area (um^2) | critical path (ns) | fmax (MHz) "
            "| reg->reg (ns) | synth wall / CPU (s) | 22 nm est. area (um^2) | 22 nm est. fmax (MHz) |")
    rows = [head, "|" + "---|" * 10]
    for r in results:
        s = r.get("scaled_22nm") or {}
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label(r), fmt_num(r["cells"]), fmt_num(r["flip_flops"]), fmt_num(r["area_um2"]),
            fmt_num(r["critical_path_ns"], 3), fmt_num(r["fmax_mhz"], 0),
            fmt_num(r.get("reg2reg_ns"), 3), "%s / %s" % (
                fmt_num(r["runtime"]["synth_s"], 1), fmt_num(r["runtime"].get("synth_cpu_s"), 1)),
            fmt_num(s.get("area_um2")), fmt_num(s.get("fmax_mhz"))))
    return "\n".join(rows)


def describe(r):
    """Short text report of one result."""
    p = " ".join("%s=%s" % kv for kv in r["params"].items())
    s = r["scaled_22nm"]
    lines = [
        "%s %s  (liberty %s, clock %s ns)" % (r["top"], p, r["tools"]["liberty"], r["clock_ns"]),
        "  area            %s um^2 (flip-flops %s um^2)" % (fmt_num(r["area_um2"]), fmt_num(r["flop_area_um2"])),
        "  cells           %s" % fmt_num(r["cells"]),
        "  flip-flops      %s" % fmt_num(r["flip_flops"]),
        "  critical path   %s ns  (%s -> %s)" % (fmt_num(r["critical_path_ns"], 3),
                                                r["critical_startpoint"], r["critical_endpoint"]),
        "  fmax            %s MHz" % fmt_num(r["fmax_mhz"], 1),
        "  reg->reg path   %s ns" % fmt_num(r["reg2reg_ns"], 3),
        "  slack at clock  %s ns" % fmt_num(r["slack_ns"], 3),
        "  synthesis time  %.2f s wall, %.2f s CPU (STA %.2f s; peak %s MB)%s" % (
            r["runtime"]["synth_s"], r["runtime"].get("synth_cpu_s", 0), r["runtime"]["sta_s"],
            fmt_num(r["runtime"]["synth_peak_mb"]), " [hierarchical]" if r.get("hierarchical") else ""),
        "  22 nm ESTIMATE  area %s um^2, critical path %s ns, fmax %s MHz" % (
            fmt_num(s["area_um2"]), fmt_num(s["critical_path_ns"], 3), fmt_num(s["fmax_mhz"])),
        "                  (%s)" % s["rule"],
    ]
    if r.get("warning"):
        lines.append("  WARNING: " + r["warning"])
    return "\n".join(lines)


def stderr_log(msg):
    print("%s: %s" % (os.path.basename(sys.argv[0]) or "synth", msg), file=sys.stderr, flush=True)
