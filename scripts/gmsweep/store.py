"""The result store's reuse rule.

A result (a statistics JSON written by gmsim) is reused only when

  * it parses, carries gmsim_version and config_hash, and is not the
    statistics of an interrupted run (status "interrupted": a SIGTERM from
    scancel or a Slurm time limit makes gmsim write those),
  * its gmsim_version equals `gmsim version` of the binary used now,
  * its config_hash equals `gmsim config --config F --hash` of the run's
    configuration now, and
  * that revision is a clean one: a version ending in "-dirty" (built from
    a tree with uncommitted changes) or "unknown" (built outside git) does
    not identify the code, so such results are rerun unless the user says
    --reuse-dirty (then an exactly equal version string is accepted).

Anything else is rerun; the reason is counted and reported.
"""
import json
import os
import subprocess


def unclean(version):
    return version.endswith("-dirty") or version in ("", "unknown")


def gmsim_version(gmsim):
    """The revision `gmsim version` prints ("gmsim REV")."""
    p = subprocess.run([gmsim, "version"], capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.startswith("gmsim "):
        raise RuntimeError("'%s version' failed: %s" % (gmsim, (p.stderr or p.stdout).strip()))
    return p.stdout.split(None, 1)[1].strip()


def config_args(config):
    """--config arguments for one file or a list of layered files (later wins)."""
    files = [config] if isinstance(config, str) else list(config)
    return [x for f in files for x in ("--config", f)]


def config_hash(gmsim, config, overrides=()):
    cmd = [gmsim, "config"] + config_args(config)
    for o in overrides:
        cmd += ["-o", o]
    p = subprocess.run(cmd + ["--hash"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("'%s' failed: %s" % (" ".join(cmd + ["--hash"]), p.stderr.strip()))
    return p.stdout.strip()


def check(path, version, chash, reuse_dirty=False):
    """(True, "") when the result at path may be reused, else (False, why)."""
    if not os.path.exists(path):
        return False, "missing"
    try:
        with open(path) as f:
            s = json.load(f)
        have_v, have_h = s["gmsim_version"], s["config_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, "unreadable or without gmsim_version/config_hash"
    if s.get("status") == "interrupted":
        return False, "interrupted run"
    if have_v != version:
        return False, "another revision (%s)" % have_v
    if have_h != chash:
        return False, "another configuration hash"
    if unclean(version) and not reuse_dirty:
        return False, "revision %s is not a clean one" % version
    return True, ""


class Tally:
    """Counts of a sweep: reused, ran, failed, and why results were rerun."""
    def __init__(self):
        self.reused = self.ran = self.failed = 0
        self.rerun = {}

    def stale(self, why):
        if why != "missing":
            key = why.split(" (")[0]
            self.rerun[key] = self.rerun.get(key, 0) + 1

    def line(self, label):
        s = "%s: %d reused, %d ran, %d failed" % (label, self.reused, self.ran, self.failed)
        if self.rerun:
            s += " (rerun: " + ", ".join("%d %s" % (n, k) for k, n in sorted(self.rerun.items())) + ")"
        return s
