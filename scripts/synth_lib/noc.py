"""NoC area of a gmsim design point: the routers of every network, each
synthesized once per size (results cached), summed.

The networks come from `gmsim topology --config F`, which prints
    {"design": "sh40_c10",
     "networks": [{"name": "noc1_req",
                   "routers": [{"inputs": 8, "outputs": 4, "count": 10}]}, ...]}
When that command does not exist, the topologies of the DC-L1 paper
(Ibrahim et al., HPCA 2021, Table I and Sections IV-VI) are used instead.
"""

import configparser
import json
import os
import re
import subprocess

from . import flow

# The DC-L1 paper's design points: separate request and reply networks
# (Section VII: "two separate networks (request and reply)"); a reply
# network is the request network's routers turned around.
PAPER_TOPOLOGIES = {
    "baseline": [("noc_req", [(80, 32, 1)]),
                 ("noc_rep", [(32, 80, 1)])],
    "pr40": [("noc1_req", [(2, 1, 40)]),
             ("noc1_rep", [(1, 2, 40)]),
             ("noc2_req", [(40, 32, 1)]),
             ("noc2_rep", [(32, 40, 1)])],
    "sh40": [("noc1_req", [(80, 40, 1)]),
             ("noc1_rep", [(40, 80, 1)]),
             ("noc2_req", [(40, 32, 1)]),
             ("noc2_rep", [(32, 40, 1)])],
    "sh40_c10": [("noc1_req", [(8, 4, 10)]),
                 ("noc1_rep", [(4, 8, 10)]),
                 ("noc2_req", [(10, 8, 4)]),
                 ("noc2_rep", [(8, 10, 4)])],
}
PAPER_ORDER = ["baseline", "pr40", "sh40", "sh40_c10"]
PAPER_NAMES = {"baseline": "baseline", "pr40": "Pr40", "sh40": "Sh40", "sh40_c10": "Sh40+C10"}

# NoC area relative to the private-L1 baseline as the paper states it
# (DSENT, 22 nm, all crossbars at one clock).
PAPER_CLAIMS = {
    "baseline": (1.00, "reference"),
    "pr40": (0.72, "-28% (Sec. IV-B, Fig. 6)"),
    "sh40": (1.69, "+69% (Sec. V-B)"),
    "sh40_c10": (0.50, "-50%, 'about half' (Sec. VI-B, Fig. 12; Sec. VIII, Fig. 18b)"),
}


def paper_topology(design):
    return {"design": design, "source": "internal table (DC-L1 paper topologies)",
            "networks": [{"name": n, "routers": [{"inputs": i, "outputs": o, "count": c}
                                                 for i, o, c in rs]}
                         for n, rs in PAPER_TOPOLOGIES[design]]}


def parse_topology(text):
    """Checks and normalizes the JSON printed by `gmsim topology`."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise flow.FlowError("gmsim topology printed invalid JSON: %s" % e)
    if not isinstance(data, dict) or not isinstance(data.get("networks"), list):
        raise flow.FlowError("gmsim topology JSON has no 'networks' list")
    nets = []
    for net in data["networks"]:
        if not isinstance(net, dict) or "name" not in net or not isinstance(net.get("routers"), list):
            raise flow.FlowError("gmsim topology: bad network entry %r" % (net,))
        routers = []
        for r in net["routers"]:
            try:
                i, o, c = int(r["inputs"]), int(r["outputs"]), int(r["count"])
            except (KeyError, TypeError, ValueError):
                raise flow.FlowError("gmsim topology: bad router entry %r in %s" % (r, net["name"]))
            if i < 1 or o < 1 or c < 0:
                raise flow.FlowError("gmsim topology: bad router size %r in %s" % (r, net["name"]))
            routers.append({"inputs": i, "outputs": o, "count": c})
        nets.append({"name": str(net["name"]), "routers": routers})
    # gmsim names designs for people ("Pr40", "Sh40+C10"); the paper's
    # claims and display names are keyed by the normalized name.
    design = str(data.get("design", "?"))
    return {"design": normalize_design(design) or design, "networks": nets}


def formula_topology(cores, slices, sharing, nodes, clusters=1):
    """Networks of a DC-L1 design point from its parameters (DC-L1 paper
    Sections IV-VI, SPEC 4.1): PrY: Y crossbars (cores/Y)x1 in NoC#1, one
    YxL in NoC#2; ShY: one cores x Y, one YxL; ShY+CZ: Z crossbars
    (cores/Z)x(Y/Z) in NoC#1 and Y/Z crossbars Z x (L/(Y/Z)) in NoC#2.
    Each has a request network and a reply network of turned-around routers."""
    def pair(name, n, m, count):
        return [(name + "_req", [(n, m, count)]), (name + "_rep", [(m, n, count)])]
    if sharing == "baseline":
        nets = pair("noc", cores, slices, 1)
    elif sharing == "private":
        nets = pair("noc1", cores // nodes, 1, nodes) + pair("noc2", nodes, slices, 1)
    elif sharing == "shared" or (sharing == "clustered" and clusters == 1):
        nets = pair("noc1", cores, nodes, 1) + pair("noc2", nodes, slices, 1)
    elif sharing == "clustered":
        per = nodes // clusters
        nets = pair("noc1", cores // clusters, per, clusters) + \
            pair("noc2", clusters, slices // per, per)
    else:
        raise flow.FlowError("unknown DC-L1 sharing '%s'" % sharing)
    return [(n, rs) for n, rs in nets]


def topology_from_config_keys(path):
    """The fallback topology of a gmsim config from its [design] kind, its
    [dcl1], [core] and [l2] keys (None if it has no [design] section)."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), strict=False)
    cp.read(path)
    if not cp.has_section("design"):
        return None

    def get(sec, key, default):
        return cp.get(sec, key).strip() if cp.has_option(sec, key) else default
    try:
        cores = int(get("core", "num_cores", "80"))
        slices = int(get("l2", "slices", "32"))
        kind = get("design", "kind", "baseline").lower()
        if kind == "baseline":
            sharing, nodes, clusters = "baseline", cores, 1
        elif kind == "dcl1":
            sharing = get("dcl1", "sharing", "private").lower()
            nodes = int(get("dcl1", "nodes", "40"))
            clusters = int(get("dcl1", "clusters", "1"))
        else:
            raise flow.FlowError("%s: design '%s' has no NoC formula here" % (path, kind))
    except ValueError as e:
        raise flow.FlowError("%s: %s" % (path, e))
    name = {"baseline": "baseline", "private": "pr%d" % nodes, "shared": "sh%d" % nodes,
            "clustered": "sh%d_c%d" % (nodes, clusters)}.get(sharing, sharing)
    if cores != 80 or slices != 32:
        name += "_%dcores" % cores
    nets = formula_topology(cores, slices, sharing, nodes, clusters)
    return {"design": name, "networks": [
        {"name": n, "routers": [{"inputs": i, "outputs": o, "count": c} for i, o, c in rs]}
        for n, rs in nets]}


def design_from_config(path):
    """The paper design a config file describes, for the fallback: an
    explicit design key if the file has one, else the file name, else the
    baseline when the file has no DC-L1 section."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), strict=False)
    try:
        cp.read(path)
    except configparser.Error as e:
        raise flow.FlowError("cannot read %s: %s" % (path, e))
    for sec in cp.sections():
        for key in ("design", "topology"):
            if cp.has_option(sec, key):
                d = normalize_design(cp.get(sec, key))
                if d:
                    return d
    d = normalize_design(os.path.splitext(os.path.basename(path))[0])
    if d:
        return d

    def num(sec, key, default):
        try:
            return cp.getint(sec, key) if cp.has_option(sec, key) else default
        except ValueError:
            return None
    # gmsim's defaults are the paper's baseline (80 cores, 32 L2 slices).
    if (not any("dcl1" in s.lower().replace("_", "").replace("-", "") for s in cp.sections())
            and num("core", "num_cores", 80) == 80 and num("l2", "slices", 32) == 32):
        return "baseline"
    raise flow.FlowError("cannot tell which DC-L1 paper design %s describes, and 'gmsim "
                         "topology' is not available to say what its networks are" % path)


def normalize_design(name):
    n = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    n = {"sh40_c10_boost": "sh40_c10", "private": "baseline", "base": "baseline"}.get(n, n)
    return n if n in PAPER_TOPOLOGIES else None


def noc_params_from_config(path):
    """[noc] keys of a config that decide the router's size, if present."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), strict=False)
    cp.read(path)
    out = {}
    if cp.has_section("noc"):
        for k in ("vcs", "vc_depth", "router_stages", "islip_iters"):
            if cp.has_option("noc", k):
                out[k] = cp.getint("noc", k)
    return out


def topology_from_gmsim(gmsim, config):
    """(topology, None) from `gmsim topology`, or (None, reason) when the
    command is missing, so the caller falls back to the paper table. A
    real failure of an existing command is an error."""
    if not gmsim or not os.path.exists(gmsim):
        return None, "gmsim binary not found (%s)" % gmsim
    try:
        p = subprocess.run([gmsim, "topology", "--config", config], capture_output=True,
                           text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "cannot run %s: %s" % (gmsim, e)
    if p.returncode != 0:
        msg = (p.stderr + p.stdout).strip()
        if "unknown command" in msg:
            return None, "'gmsim topology' does not exist in %s" % gmsim
        raise flow.FlowError("gmsim topology --config %s failed (exit %d):\n%s"
                             % (config, p.returncode, msg))
    t = parse_topology(p.stdout)
    t["source"] = "%s topology --config %s" % (gmsim, config)
    return t, None


def router_sizes(topo):
    return sorted({(r["inputs"], r["outputs"]) for n in topo["networks"] for r in n["routers"]})


def area_of(topo, areas):
    """Total NoC area and per-network detail, from {(n, m): result}."""
    total = 0.0
    nets = []
    for net in topo["networks"]:
        a = 0.0
        rs = []
        for r in net["routers"]:
            res = areas[(r["inputs"], r["outputs"], topo["fixed"])]
            a += r["count"] * res["area_um2"]
            rs.append(dict(r, area_um2=res["area_um2"], fmax_mhz=res["fmax_mhz"]))
        total += a
        nets.append({"name": net["name"], "routers": rs, "area_um2": round(a, 1)})
    return round(total, 1), nets
