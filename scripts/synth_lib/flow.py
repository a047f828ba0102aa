"""One synthesis + static timing run: Yosys (with ABC) maps a Verilog block
to the OSU 0.18 um standard cells, OpenSTA reports its critical path.

The numbers (area, cells, flip-flops, critical path) are deterministic for
a given design, parameter set, liberty and tool versions; only the run
times differ between runs. Everything happens in a temporary directory.
"""

import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

# Bump when the flow changes in a way that changes results: cached results
# with another version are not reused.
FLOW_VERSION = 1

DEFAULT_LIBERTY = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
# ABC's delay target (ps). 1 ns cannot be met by anything but the smallest
# blocks, so ABC maps, buffers and sizes for delay as hard as it can. It
# does not depend on --clock-ns, so the clock only moves the slack.
DEFAULT_ABC_DELAY_PS = 1000
# Primary inputs are driven by a minimum inverter, outputs load 10 fF
# (the same in ABC's constraint file and in STA).
DRIVING_CELL = "INVX1"
DRIVING_PIN = "Y"
OUTPUT_LOAD_PF = 0.01
CLOCK_NAMES = ("clk", "clock", "clk_i", "i_clk", "aclk")
RESET_NAMES = ("rst", "reset", "rst_n", "rstn", "reset_n", "rst_ni", "rst_i", "i_rst", "areset")
FLOP_CELL_PREFIXES = ("DFF", "LATCH")
# The tool binaries (overridable, e.g. to test how failures are reported).
YOSYS = os.environ.get("GM_YOSYS", "yosys")
# Address-space cap for each tool (GB, 0 = none): a blown-up synthesis
# fails with an error instead of taking the shared machine's memory.
MAX_MEM_GB = float(os.environ.get("GM_SYNTH_MAX_MEM_GB", "12"))
STA = os.environ.get("GM_STA", "sta")


# Process groups of the tools running now (from any thread), so that a
# terminated sweep can take them down with it (see kill_running).
_running = set()


def kill_running():
    for pgid in list(_running):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def install_signal_handlers():
    """SIGTERM/SIGINT: kill the running tools, then exit (temp dirs go)."""
    def handler(signum, frame):
        kill_running()
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


class FlowError(Exception):
    """A tool failed. The message carries the tool's own error text."""


def tool_versions(liberty=DEFAULT_LIBERTY):
    def first_line(cmd):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, input="", timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            return "unavailable (%s)" % e
        text = (out.stdout + out.stderr).strip().splitlines()
        return text[0].strip() if text else "unknown"
    return {
        "yosys": first_line([YOSYS, "-V"]),
        "sta": "OpenSTA " + first_line([STA, "-version"]),
        "abc": "yosys-abc (berkeley-abc, called by yosys)",
        "liberty": os.path.basename(liberty),
        "liberty_sha256": file_sha256(liberty)[:16],
    }


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def liberty_areas(liberty):
    """Cell name -> area (um^2) from the liberty file."""
    areas = {}
    cell = None
    with open(liberty) as f:
        for line in f:
            m = re.match(r"\s*cell\s*\(\s*\"?([A-Za-z0-9_]+)\"?\s*\)", line)
            if m:
                cell = m.group(1)
                continue
            m = re.match(r"\s*area\s*:\s*([0-9.eE+-]+)\s*;", line)
            if m and cell is not None and cell not in areas:
                areas[cell] = float(m.group(1))
    if not areas:
        raise FlowError("no cell areas found in liberty file %s" % liberty)
    return areas


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def find_sources(top, src_paths):
    """The Verilog files to read for TOP: of the .v/.sv files under the
    given paths (files or directories), the one that defines TOP and,
    transitively, those defining the modules it instantiates, plus every
    file holding a package. Packages first, then by name. Files the top
    does not use are not read, so a half-written neighbour does not break
    the run."""
    files = []
    for p in src_paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    if n.endswith((".v", ".sv")):
                        files.append(os.path.join(root, n))
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise FlowError("source path not found: %s" % p)
    files = sorted(set(files))
    if not files:
        raise FlowError("no Verilog sources in %s" % ", ".join(src_paths))
    text = {}
    defines = {}
    packages = set()
    for f in files:
        with open(f, errors="replace") as fh:
            text[f] = _strip_comments(fh.read())
        for m in re.findall(r"^\s*module\s+(\w+)", text[f], re.M):
            defines.setdefault(m, f)
        if re.search(r"^\s*package\s+\w+", text[f], re.M):
            packages.add(f)
    if top not in defines:
        raise FlowError("module %s is not defined in %s" % (top, ", ".join(src_paths)))
    need = {defines[top]}
    todo = [defines[top]]
    while todo:
        f = todo.pop()
        for mod, g in defines.items():
            if g not in need and re.search(r"\b%s\s*(#|\w+\s*\()" % re.escape(mod), text[f]):
                need.add(g)
                todo.append(g)
    need |= packages
    return sorted(need, key=lambda f: (f not in packages, f))


def _limit_memory():
    import resource
    cap = int(MAX_MEM_GB * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _run(cmd, cwd, log_path, timeout, what):
    """Runs a tool, returns (wall seconds, peak RSS in MB). Raises FlowError
    with the tool's error lines if it fails."""
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        try:
            # Own process group, so that yosys's ABC children go with it.
            p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True,
                                 preexec_fn=_limit_memory if MAX_MEM_GB > 0 else None)
        except OSError as e:
            raise FlowError("%s: cannot run %s: %s" % (what, cmd[0], e))
        deadline = None if timeout is None else t0 + timeout
        _running.add(p.pid)
        try:
            while True:
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
                if pid != 0:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    raise FlowError("%s timed out after %d s" % (what, timeout))
                time.sleep(0.05)
        except BaseException:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.wait4(p.pid, 0)
            except ChildProcessError:
                pass
            p.returncode = -9
            raise
        finally:
            _running.discard(p.pid)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    with open(log_path, errors="replace") as f:
        text = f.read()
    errors = [l for l in text.splitlines() if re.match(r"\s*(ERROR|Error)\b", l)]
    if p.returncode != 0 or errors:
        tail = "\n".join(errors) if errors else "\n".join(text.splitlines()[-25:])
        if re.search(r"bad_alloc|[Oo]ut of memory|Cannot allocate", text):
            tail += "\n(out of memory: the cap is GM_SYNTH_MAX_MEM_GB=%g GB)" % MAX_MEM_GB
        raise FlowError("%s failed (exit %d):\n%s" % (what, p.returncode, tail))
    return wall, ru.ru_maxrss / 1024.0, ru.ru_utime + ru.ru_stime


def _yosys_script(top, params, files, include_dirs, liberty, abc_delay_ps, hier=False):
    lines = ["read_verilog -defer -sv -DSYNTHESIS %s %s" % (
        " ".join("-I" + d for d in include_dirs), " ".join(files))]
    chparams = " ".join("-chparam %s %s" % (k, v) for k, v in params)
    lines += [
        "hierarchy -check -top %s %s" % (top, chparams),
        # -nordff: do not merge address flip-flops into memory read ports;
        # memory_map would then add a second copy of the address register.
        "synth -top %s %s-nordff" % (top, "" if hier else "-flatten "),
        "dfflibmap -liberty %s" % liberty,
        "abc -liberty %s -D %d -constr constr.txt" % (liberty, abc_delay_ps),
        "opt_clean -purge",
        "setundef -zero",
        "insbuf -buf BUFX2 A Y",
        "opt_clean -purge",
        "tee -q -o stat.txt stat -liberty %s -top %s" % (liberty, top),
        "write_verilog -noattr -noexpr -nohex -nodec netlist.v",
    ]
    return "\n".join(lines) + "\n"


def _stat_totals(text):
    """Cell counts by type and chip area of the whole design from yosys's
    `stat -liberty -top` text: the last cell list is the flattened module or,
    with hierarchy, the design-hierarchy total (yosys 0.23's `stat -json`
    is not valid JSON for a hierarchical design)."""
    i = text.rfind("Number of cells:")
    if i < 0:
        raise FlowError("no cell statistics in yosys's stat output")
    counts = {}
    for line in text[i:].splitlines()[1:]:
        m = re.match(r"^\s+(\S+)\s+(\d+)\s*$", line)
        if not m:
            break
        counts[m.group(1)] = int(m.group(2))
    m = re.search(r"Chip area for (?:top )?module .*?:\s*([0-9.]+)", text[i:])
    return dict(sorted(counts.items())), (float(m.group(1)) if m else None)


def _stat_modules(text):
    """Per module of a hierarchical `stat -liberty -top` text: its own cell
    count and area (without its submodules) and how many instances of it
    the design holds ("design hierarchy" section). {} for a flat design."""
    i = text.find("=== design hierarchy ===")
    if i < 0:
        return {}
    modules = {}
    for m in re.finditer(r"=== (\S+) ===\n(.*?)Chip area for module '([^']*)': ([0-9.]+)",
                         text[:i], re.S):
        flops = sum(int(n) for c, n in re.findall(r"^\s+(\S+)\s+(\d+)\s*$", m.group(2), re.M)
                    if c.startswith(FLOP_CELL_PREFIXES))
        cells = re.search(r"Number of cells:\s+(\d+)", m.group(2))
        modules[m.group(1).lstrip("\\")] = {
            "module": m.group(1).split("\\")[-1],
            "own_cells": int(cells.group(1)) if cells else 0,
            "own_flip_flops": flops,
            "own_area_um2": float(m.group(4)),
            "count": 0}
    hier = text[i:].split("Number of wires")[0]
    for name, n in re.findall(r"^\s+(\S+)\s+(\d+)\s*$", hier, re.M):
        name = name.lstrip("\\")
        if name in modules:
            modules[name]["count"] = int(n)
    return modules


def _netlist_ports(netlist, top):
    """(direction, name) of the top module's ports, in declaration order."""
    ports = []
    inside = False
    with open(netlist) as f:
        for line in f:
            if not inside:
                if re.match(r"\s*module\s+\\?%s\s*\(" % re.escape(top), line):
                    inside = True
                continue
            if re.match(r"\s*endmodule", line):
                break
            m = re.match(r"\s*(input|output|inout)\s+(?:\[[^\]]*\]\s*)?(\\?\S+?)\s*;", line)
            if m:
                ports.append((m.group(1), m.group(2)))
    return ports


def _flop_outputs(netlist):
    """Flip-flop instance name -> the net on its Q pin (the register's name,
    which says more than the generated instance name)."""
    out = {}
    cur = None
    with open(netlist) as f:
        for line in f:
            m = re.match(r"\s*(DFF\w*|LATCH)\s+(\S+)\s*\(", line)
            if m:
                cur = m.group(2)
                continue
            if cur:
                m = re.match(r"\s*\.Q\((.*)\)\s*,?\s*$", line)
                if m:
                    out[cur.lstrip("\\")] = m.group(1).strip().lstrip("\\").replace(" ", "")
                    cur = None
                elif re.match(r"\s*\);", line):
                    cur = None
    return out


def _pick(names, wanted, candidates, what):
    if wanted:
        if wanted not in names:
            raise FlowError("%s port '%s' is not a port of the design" % (what, wanted))
        return wanted
    for c in candidates:
        if c in names:
            return c
    return None


def _sta_script(top, liberty, clock_ns, clk, rst, has_other_inputs, has_outputs):
    s = ["read_liberty %s" % liberty,
         "read_verilog netlist.v",
         "link_design %s" % top]
    if clk:
        s.append("create_clock -name clk -period %s [get_ports %s]" % (clock_ns, clk))
        s.append("set inputs [delete_from_list [all_inputs] [get_ports %s]]" % clk)
    else:  # purely combinational: a virtual clock times input -> output
        s.append("create_clock -name clk -period %s" % clock_ns)
        s.append("set inputs [all_inputs]")
    if has_other_inputs:
        s.append("set_input_delay 0 -clock clk $inputs")
        s.append("set_driving_cell -lib_cell %s -pin %s $inputs" % (DRIVING_CELL, DRIVING_PIN))
    if has_outputs:
        s.append("set_output_delay 0 -clock clk [all_outputs]")
        s.append("set_load %s [all_outputs]" % OUTPUT_LOAD_PF)
    if rst:
        # Reset is a separately buffered (or ideal) net in a real design;
        # timed from one INVX1 it would be the critical path of any big block.
        s.append("set_false_path -from [get_ports %s]" % rst)
    s += ['puts "@@PATH"',
          "report_checks -path_delay max -digits 3",
          'puts "@@R2R"']
    if clk:
        s.append("report_checks -path_delay max -digits 3 "
                 "-from [all_registers -clock_pins] -to [all_registers -data_pins]")
    s += ['puts "@@WORST"', "report_worst_slack -digits 3", 'puts "@@END"']
    return "\n".join(s) + "\n"


def _sections(text):
    out = {}
    cur = None
    for line in text.splitlines():
        if line.startswith("@@"):
            cur = line[2:].strip()
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def _slack(report):
    m = re.search(r"(-?[0-9.]+)\s+slack\s+\((MET|VIOLATED)\)", report)
    return float(m.group(1)) if m else None


def _reg_name(point, flops_q):
    if point in flops_q:
        return "reg " + flops_q[point]
    return point


def _point(report, what):
    m = re.search(r"^%s:\s*(\S+)" % what, report, re.M)
    return m.group(1) if m else None


def run(top, params=(), src_paths=(), clock_ns=10.0, liberty=DEFAULT_LIBERTY,
        abc_delay_ps=DEFAULT_ABC_DELAY_PS, clock_port=None, reset_port=None,
        timeout=None, keep_dir=None, include_dirs=None, hier=False):
    """Synthesizes TOP with the (name, value) params and times it.
    Returns a dict of results; raises FlowError on any failure."""
    params = [(str(k), str(v)) for k, v in params]
    for k, v in params:
        if not re.match(r"^[A-Za-z_]\w*$", k) or not re.match(r"^[\w'.+-]+$", v):
            raise FlowError("bad parameter %s=%s" % (k, v))
    if not os.path.isfile(liberty):
        raise FlowError("liberty file not found: %s" % liberty)
    if not clock_ns > 0:
        raise FlowError("clock period must be positive")
    files = [os.path.abspath(f) for f in find_sources(top, src_paths)]
    if include_dirs is None:
        include_dirs = sorted({os.path.dirname(f) for f in files})
    liberty = os.path.abspath(liberty)

    work = tempfile.mkdtemp(prefix="gm-synth-")
    try:
        with open(os.path.join(work, "constr.txt"), "w") as f:
            f.write("set_driving_cell %s\nset_load %.1f\n" % (DRIVING_CELL, OUTPUT_LOAD_PF * 1000))
        with open(os.path.join(work, "synth.ys"), "w") as f:
            f.write(_yosys_script(top, params, files, include_dirs, liberty, abc_delay_ps, hier))
        synth_s, synth_mb, synth_cpu = _run([YOSYS, "-q", "-l", "yosys.log", "synth.ys"], work,
                                 os.path.join(work, "yosys.out"), timeout, "yosys")

        with open(os.path.join(work, "stat.txt")) as f:
            stat_text = f.read()
        counts, yosys_area = _stat_totals(stat_text)
        areas = liberty_areas(liberty)
        unknown = [c for c in counts if c not in areas]
        if unknown:
            raise FlowError("cells not in the liberty after mapping: %s" % ", ".join(unknown))
        area = sum(areas[c] * n for c, n in counts.items())
        flops = sum(n for c, n in counts.items() if c.startswith(FLOP_CELL_PREFIXES))
        flop_area = sum(areas[c] * n for c, n in counts.items() if c.startswith(FLOP_CELL_PREFIXES))
        if yosys_area is None or abs(yosys_area - area) > 1e-6 * max(1.0, area):
            raise FlowError("area mismatch: yosys %s vs liberty sum %s" % (yosys_area, area))
        with open(os.path.join(work, "yosys.log"), errors="replace") as f:
            abc_delays = [float(x) for x in re.findall(r"Delay\s*=\s*([0-9.]+)\s*ps", f.read())]

        ports = _netlist_ports(os.path.join(work, "netlist.v"), top)
        if not ports:
            raise FlowError("no ports found for %s in the netlist" % top)
        inputs = [n for d, n in ports if d == "input"]
        outputs = [n for d, n in ports if d == "output"]
        clk = _pick(inputs, clock_port, CLOCK_NAMES, "clock")
        rst = _pick(inputs, reset_port, RESET_NAMES, "reset")
        with open(os.path.join(work, "sta.tcl"), "w") as f:
            f.write(_sta_script(top, liberty, clock_ns, clk, rst,
                                any(n != clk for n in inputs), bool(outputs)))
        sta_s, sta_mb, sta_cpu = _run([STA, "-no_init", "-no_splash", "-exit", "sta.tcl"], work,
                             os.path.join(work, "sta.log"), timeout, "sta")
        with open(os.path.join(work, "sta.log"), errors="replace") as f:
            sta_text = f.read()
        if "@@END" not in sta_text:
            raise FlowError("sta stopped early:\n" + "\n".join(sta_text.splitlines()[-25:]))
        sec = _sections(sta_text)
        m = re.search(r"worst slack\s+(-?[0-9.]+)", sec.get("WORST", ""))
        slack = float(m.group(1)) if m else None
        crit = round(clock_ns - slack, 3) if slack is not None else None
        r2r_slack = _slack(sec.get("R2R", ""))
        r2r = round(clock_ns - r2r_slack, 3) if r2r_slack is not None else None

        flops_q = _flop_outputs(os.path.join(work, "netlist.v"))
        result = {
            "top": top,
            "params": dict(params),
            "clock_ns": clock_ns,
            "clock_port": clk,
            "reset_port": rst,
            "area_um2": round(area, 3),
            "flop_area_um2": round(flop_area, 3),
            "cells": sum(counts.values()),
            "flip_flops": flops,
            "cell_types": counts,
            "critical_path_ns": crit,
            "fmax_mhz": round(1000.0 / crit, 1) if crit else None,
            "slack_ns": slack,
            "reg2reg_ns": r2r,
            "critical_startpoint": _reg_name(_point(sec.get("PATH", ""), "Startpoint"), flops_q),
            "critical_endpoint": _reg_name(_point(sec.get("PATH", ""), "Endpoint"), flops_q),
            "abc_delay_ps": max(abc_delays) if abc_delays else None,
            "abc_target_ps": abc_delay_ps,
            "hierarchical": bool(hier),
            "modules": _stat_modules(stat_text),
            "flow_version": FLOW_VERSION,
            "runtime": {
                "synth_s": round(synth_s, 2),
                "synth_cpu_s": round(synth_cpu, 2),
                "sta_s": round(sta_s, 2),
                "synth_peak_mb": round(synth_mb, 1),
                "sta_peak_mb": round(sta_mb, 1),
            },
        }
        if crit is None:
            result["warning"] = "no timing path found"
        return result
    finally:
        if keep_dir:
            if os.path.exists(keep_dir):
                shutil.rmtree(keep_dir)
            shutil.copytree(work, keep_dir)
        shutil.rmtree(work, ignore_errors=True)
