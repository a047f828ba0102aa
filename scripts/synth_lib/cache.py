"""A JSON file of synthesized results, keyed by everything that decides them:
top module, parameters, the Verilog sources' hash, flow version, liberty,
ABC delay target and Yosys version. A result whose sources changed is a
miss (unless the caller accepts stale entries, which are then marked)."""

import fcntl
import hashlib
import json
import os
import tempfile
import threading

from . import flow


def sources_hash(files):
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(os.path.basename(f).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(fh.read())
        h.update(b"\0")
    return h.hexdigest()[:16]


def key(top, params, liberty, abc_delay_ps, yosys_version, hier=False):
    p = ",".join("%s=%s" % kv for kv in sorted(params))
    return "%s(%s) flow%d %s D%d %s%s" % (top, p, flow.FLOW_VERSION, os.path.basename(liberty),
                                         abc_delay_ps, yosys_version.split(" (")[0],
                                         " hier" if hier else "")


class Cache:
    def __init__(self, path):
        self.path = path
        self.entries = {}
        self.lock = threading.Lock()
        if path and os.path.exists(path):
            with open(path) as f:
                data = json.load(f)
            self.entries = data.get("entries", {})

    def get(self, k, src_hash, allow_stale=False):
        e = self.entries.get(k)
        if e is None:
            return None
        if e.get("sources_sha256") != src_hash:
            if not allow_stale:
                return None
            e = dict(e, stale=True)
        return e

    def put(self, k, result):
        """Records a result and rewrites the file. Safe from several threads
        and processes: under a lock file, what other processes wrote since
        this one read the file is merged in first."""
        with self.lock:
            self.entries[k] = result
            if not self.path:
                return
            lock_name = "gm-synth-cache-%s.lock" % hashlib.sha256(
                os.path.abspath(self.path).encode()).hexdigest()[:16]
            with open(os.path.join(tempfile.gettempdir(), lock_name), "w") as lk:
                fcntl.flock(lk, fcntl.LOCK_EX)
                if os.path.exists(self.path):
                    with open(self.path) as f:
                        on_disk = json.load(f).get("entries", {})
                    on_disk.update(self.entries)
                    self.entries = on_disk
                self._save()

    def _save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"about": "scripts/synth result cache; see docs/synthesis.md",
                       "entries": self.entries}, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, self.path)
