#!/usr/bin/env python3
"""Tests of scripts/gmsweep and of the sweeps run through it (docs/sweeps.md),
without a cluster: the Slurm engine meets fake sbatch / squeue / sacct
(tests/sweep/fakeslurm) that run its array tasks here, out of order.

    python3 tests/sweep/test_gmsweep.py GMSIM

Real gmsim runs are size tiny, two design points, two kernels.
"""
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "scripts"))
import gmsweep  # noqa: E402
from gmsweep import store  # noqa: E402

if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
    GMSIM = os.path.abspath(sys.argv.pop(1))
else:
    GMSIM = os.environ.get("GMSIM") or os.path.join(SRC, "build", "gmsim")
FAKE = os.path.join(SRC, "tests", "sweep", "fakeslurm")
REPRODUCE = os.path.join(SRC, "scripts", "reproduce")
SUBSET = ["--size", "tiny", "--designs", "pr40", "--workloads", "gemm,reduction"]
# the engine's tests count runs: leave out the DC-L1 study's 16x-L1 runs
# (tests/sweep/test_reproduce_dcl1.py tests those)
SUBSET += ["--no-classify"]


def reproduce(work, out, *extra, env=None):
    p = subprocess.run([sys.executable, REPRODUCE, "dcl1", *SUBSET, "--gmsim", GMSIM,
                        "--work", work, "--out", out, *extra],
                       capture_output=True, text=True, env=env)
    return p.returncode, p.stderr


def fake_env(d):
    os.makedirs(d, exist_ok=True)
    return dict(os.environ, PATH=FAKE + os.pathsep + os.environ["PATH"], FAKE_SLURM_DIR=d)


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


class Store(unittest.TestCase):
    """The reuse rule on hand-made results."""
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.path = os.path.join(self.d, "r.json")

    def tearDown(self):
        shutil.rmtree(self.d)

    def put(self, **kw):
        s = {"gmsim_version": "abc123", "config_hash": "0x1", "status": "done"}
        s.update(kw)
        with open(self.path, "w") as f:
            json.dump(s, f)

    def test_rule(self):
        self.assertEqual(store.check(self.path, "abc123", "0x1"), (False, "missing"))
        self.put()
        self.assertEqual(store.check(self.path, "abc123", "0x1"), (True, ""))
        self.assertFalse(store.check(self.path, "abc124", "0x1")[0])
        self.assertFalse(store.check(self.path, "abc123", "0x2")[0])
        self.put(status="interrupted")
        self.assertFalse(store.check(self.path, "abc123", "0x1")[0])
        with open(self.path, "w") as f:
            f.write('{"gmsim_version": "abc')      # a torn file
        self.assertFalse(store.check(self.path, "abc123", "0x1")[0])

    def test_dirty(self):
        # A -dirty build does not identify its code: rerun unless asked.
        self.put(gmsim_version="abc123-dirty")
        ok, why = store.check(self.path, "abc123-dirty", "0x1")
        self.assertFalse(ok)
        self.assertIn("not a clean", why)
        self.assertEqual(store.check(self.path, "abc123-dirty", "0x1", reuse_dirty=True),
                         (True, ""))
        self.assertFalse(store.check(self.path, "abc123", "0x1", reuse_dirty=True)[0])


class Atomic(unittest.TestCase):
    def test_killed_runner_leaves_no_output(self):
        d = tempfile.mkdtemp()
        try:
            out = os.path.join(d, "r.json")
            # writes half its output, then hangs (5 s: the command has a
            # session of its own, so killing the runner leaves it running)
            job = gmsweep.Job("slow", ["sh", "-c", 'printf "{\\"half\\":" > "$1"; sleep 5',
                                       "sh", "{out}"], os.path.join(d, "slow.log"), output=out)
            os.makedirs(os.path.join(d, "status"))
            with open(os.path.join(d, "tasks.jsonl"), "w") as f:
                f.write(json.dumps(job.to_dict()) + "\n")
            env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "scripts"))
            p = subprocess.Popen([sys.executable, "-m", "gmsweep.runner", d, "--chunk", "1",
                                  "--task", "0"], env=env, start_new_session=True)
            t0 = time.time()
            while not any(".tmp-" in f for f in os.listdir(d)) and time.time() - t0 < 10:
                time.sleep(0.05)
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            self.assertFalse(os.path.exists(out), "a killed run left its output")
            self.assertEqual(os.listdir(os.path.join(d, "status")), [])

            # a timeout kills the command: no output either
            job.timeout = 0.5
            r = gmsweep.run_job(job)
            self.assertEqual((r.rc, r.produced), (-1, False))
            self.assertFalse(os.path.exists(out))
            self.assertIn("FAILURE: timeout", read(job.log, "r"))

            ok = gmsweep.Job("ok", ["sh", "-c", 'printf "{}" > "$1"', "sh", "{out}"],
                             os.path.join(d, "ok.log"), output=out)
            r = gmsweep.run_job(ok)
            self.assertTrue(r.ok and r.produced)
            self.assertEqual(read(out), b"{}")
        finally:
            shutil.rmtree(d)


class LocalProgress(unittest.TestCase):
    def test_progress_lines(self):
        d = tempfile.mkdtemp()
        try:
            jobs = [gmsweep.Job("j%d" % i, ["sh", "-c", "exit %d" % (i == 2)],
                                os.path.join(d, "j%d.log" % i)) for i in range(4)]
            err = io.StringIO()
            old, sys.stderr = sys.stderr, err
            try:
                res = gmsweep.LocalEngine(2).run(jobs, label="t")
            finally:
                sys.stderr = old
            lines = err.getvalue().splitlines()
            for line in lines:
                self.assertRegex(line, r"^t: \d+/4 done, \d+ running, \d+ failed, ETA (-|\d+:\d\d:\d\d)$")
            self.assertEqual(lines[0], "t: 0/4 done, 2 running, 0 failed, ETA -")
            self.assertEqual(lines[-1], "t: 3/4 done, 0 running, 1 failed, ETA 0:00:00")
            self.assertEqual([n for n, r in sorted(res.items()) if not r.ok], ["j2"])
        finally:
            shutil.rmtree(d)

    def test_eta(self):
        t = [0.0]
        p = gmsweep.Progress(10, "x", out=io.StringIO(), clock=lambda: t[0])
        t[0] = 20.0
        p.update(2, 2, 0)
        # 2 runs in 20 s: 8 left take 80 s
        self.assertEqual(p.line(), "x: 2/10 done, 2 running, 0 failed, ETA 0:01:20")


class SlurmEngineFake(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.env = fake_env(os.path.join(self.d, "fake"))
        self.old_env = dict(os.environ)
        os.environ.update(self.env)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.old_env)
        shutil.rmtree(self.d)

    def jobs(self, n, fail=()):
        return [gmsweep.Job("j%d" % i, ["sh", "-c", 'echo run %d; printf %d > "$1"; exit %d'
                                        % (i, i, i in fail), "sh", "{out}"],
                            os.path.join(self.d, "logs", "j%d.log" % i),
                            output=os.path.join(self.d, "out", "j%d" % i)) for i in range(n)]

    def run_engine(self, jobs, **kw):
        eng = gmsweep.SlurmEngine(os.path.join(self.d, "state"), poll=0.01, **kw)
        err = io.StringIO()
        old, sys.stderr = sys.stderr, err
        try:
            res = eng.run(jobs, label="s")
        finally:
            sys.stderr = old
        return res, err.getvalue()

    def test_script_and_tasks(self):
        jobs = self.jobs(5)
        res, err = self.run_engine(jobs, partition="gpu", time_limit="0:10:00", mem="1G",
                                   account="arch", chunk=2)
        state = os.path.join(self.d, "state")
        script = read(os.path.join(state, "sweep.sbatch"), "r")
        for line in ("#SBATCH --array=0-2", "#SBATCH --partition=gpu", "#SBATCH --time=0:10:00",
                     "#SBATCH --mem=1G", "#SBATCH --account=arch",
                     "#SBATCH --output=%s/slurm/%%A_%%a.out" % state):
            self.assertIn(line + "\n", script)
        self.assertIn('-m gmsweep.runner %s --chunk 2 --task "$SLURM_ARRAY_TASK_ID"' % state, script)
        tasks = [json.loads(x) for x in read(os.path.join(state, "tasks.jsonl"), "r").splitlines()]
        self.assertEqual([t["name"] for t in tasks], ["j0", "j1", "j2", "j3", "j4"])
        self.assertTrue(all(r.ok for r in res.values()) and len(res) == 5)
        for i in range(5):
            self.assertEqual(read(os.path.join(self.d, "out", "j%d" % i), "r"), str(i))
        self.assertIn("submitted Slurm job 1001 (3 array tasks, 2 runs each)", err)
        # task 2 (j4) runs first; task 1 (j2, then j3) is running next
        self.assertIn("s: 1/5 done, 1 running, 0 failed", err)
        self.assertTrue(err.rstrip().endswith("s: 5/5 done, 0 running, 0 failed, ETA 0:00:00"))

    def test_failures_and_retry(self):
        jobs = self.jobs(4, fail=[1])
        with open(os.path.join(self.env["FAKE_SLURM_DIR"], "lose"), "w") as f:
            f.write("3\n")                         # task 3 is lost on a failed node
        res, err = self.run_engine(jobs, retry=1)
        state = os.path.join(self.d, "state")
        self.assertIn("2 runs failed:", err)
        self.assertIn("j1: exit 1: run 1\n      log %s/logs/j1.log\n      slurm log %s/slurm/1001_1.out"
                      % (self.d, state), err)
        self.assertIn("j3: array task 1001_3 ended NODE_FAIL, exit code 1:0", err)
        subs = read(os.path.join(self.env["FAKE_SLURM_DIR"], "submissions"), "r").splitlines()
        self.assertEqual(len(subs), 2)
        self.assertTrue(subs[1].startswith("--parsable --array=1,3 "), subs[1])
        self.assertIn("retry 1 of 1", err)
        # the lost task passes on retry; the failing command fails again
        self.assertTrue(res["j3"].ok)
        self.assertFalse(res["j1"].ok)
        self.assertIn("s: 3/4 done, 0 running, 1 failed, ETA 0:00:00\n1 run failed:\n  j1:", err)

    def test_lost_task_without_accounting(self):
        # no sacct: the reason comes from Slurm's line in the task's log
        for f in ("lose", "no-accounting"):
            with open(os.path.join(self.env["FAKE_SLURM_DIR"], f), "w") as fh:
                fh.write("0\n")
        res, err = self.run_engine(self.jobs(2))
        self.assertIsNone(res["j0"].rc)
        self.assertIn("j0: array task 1001_0 (Slurm: JOB 100100 ON fake CANCELLED AT "
                      "2026-01-01T00:00:00 DUE TO NODE FAILURE), without finishing this run", err)
        self.assertTrue(res["j1"].ok)

    def test_retry_reruns_a_failed_run(self):
        # fails on its first attempt only (a flaky node): passes on retry
        flag = os.path.join(self.d, "flag")
        job = gmsweep.Job("flaky", ["sh", "-c", '[ -e "$1" ] || { touch "$1"; exit 3; }', "sh",
                                    flag], os.path.join(self.d, "flaky.log"))
        res, err = self.run_engine([job], retry=2)
        self.assertTrue(res["flaky"].ok, err)
        self.assertIn("flaky: exit 3", err)
        self.assertIn("retry 1 of 2", err)
        self.assertNotIn("retry 2 of 2", err)

    def test_refuses_while_earlier_array_runs(self):
        eng = gmsweep.SlurmEngine(os.path.join(self.d, "state"), poll=0.01)
        eng.prepare(self.jobs(2))
        eng.submit()                       # not followed: its tasks stay queued
        with self.assertRaises(gmsweep.SlurmError) as e:
            eng.prepare(self.jobs(2))
        self.assertIn("Slurm job 1001 of an earlier sweep", str(e.exception))

    def test_missing_sbatch(self):
        os.environ["PATH"] = "/nonexistent"
        with self.assertRaises(gmsweep.SlurmError) as e:
            gmsweep.SlurmEngine(self.d)
        self.assertIn("no sbatch on PATH", str(e.exception))


class Regress(unittest.TestCase):
    """scripts/regress through both engines, with a stand-in harness that
    passes every seed (the real one is tested by the slurm label)."""
    def test_local_and_slurm_equal(self):
        d = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(d, "b", "tb"))
            exe = os.path.join(d, "b", "tb", "gm_lockstep")
            with open(exe, "w") as f:
                f.write('#!/bin/sh\necho "matched 100 cycles"\necho "TEST PASSED"\n')
            os.chmod(exe, 0o755)
            base = [sys.executable, os.path.join(SRC, "scripts", "regress"), "smoke", "--build",
                    os.path.join(d, "b"), "--no-build", "--no-coverage", "--filter",
                    "^dcl1q.lockstep$"]
            p = subprocess.run(base + ["--out", os.path.join(d, "l"), "-j", "2"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("regress smoke: 12/12 done, 0 running, 0 failed, ETA 0:00:00", p.stderr)
            p = subprocess.run(base + ["--out", os.path.join(d, "s"), "--engine", "slurm",
                                       "--chunk", "5", "--poll", "0.01"],
                               capture_output=True, text=True, env=fake_env(os.path.join(d, "f")))
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("submitted Slurm job 1001 (3 array tasks, 5 runs each)", p.stderr)
            self.assertIn("12 passed, 0 failed", p.stdout)
            self.assertEqual(read(os.path.join(d, "l", "results.csv")),
                             read(os.path.join(d, "s", "results.csv")))
        finally:
            shutil.rmtree(d)


@unittest.skipUnless(os.access(GMSIM, os.X_OK), "no gmsim at " + GMSIM)
class Reproduce(unittest.TestCase):
    """scripts/reproduce dcl1 through both engines with real gmsim runs."""
    @classmethod
    def setUpClass(cls):
        cls.d = tempfile.mkdtemp()
        # A test binary built from a modified tree is -dirty: its results
        # are reused only with --reuse-dirty (docs/sweeps.md).
        cls.dirty = ["--reuse-dirty"] if store.unclean(store.gmsim_version(GMSIM)) else []

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.d)

    def test_reuse_and_collect(self):
        w, o = os.path.join(self.d, "w"), os.path.join(self.d, "o")
        rc, err = reproduce(w, o, "-j", "2", *self.dirty)
        self.assertEqual(rc, 0, err)
        self.assertIn("reproduce dcl1: 0 reused, 4 ran, 0 failed", err)
        self.assertRegex(err, r"reproduce dcl1: 4/4 done, 0 running, 0 failed, ETA 0:00:00")
        rc, err = reproduce(w, o, "-j", "2", *self.dirty)
        self.assertIn("reproduce dcl1: 4 reused, 0 ran, 0 failed", err)
        self.assertNotIn("done,", err)      # nothing ran: no progress lines

        # another revision and another configuration hash are rerun
        jd = os.path.join(w, "tiny")
        for name, key, val in (("pr40__gemm", "gmsim_version", "0123abc"),
                               ("baseline__reduction", "config_hash", "0xdeadbeef")):
            p = os.path.join(jd, name + ".json")
            s = json.loads(read(p, "r"))
            s[key] = val
            with open(p, "w") as f:
                json.dump(s, f)
        rc, err = reproduce(w, o, "-j", "2", *self.dirty)
        self.assertEqual(rc, 0, err)
        self.assertIn("reproduce dcl1: 2 reused, 2 ran, 0 failed (rerun: 1 another "
                      "configuration hash, 1 another revision)", err)
        good = {f: read(os.path.join(o, f)) for f in ("results.csv", "summary.csv", "table.md")}

        # --collect-only of the same results copied in another order
        w2, o2 = os.path.join(self.d, "w2"), os.path.join(self.d, "o2")
        os.makedirs(os.path.join(w2, "tiny"))
        for f in sorted(os.listdir(jd), reverse=True):
            if f.endswith(".json"):
                shutil.copy(os.path.join(jd, f), os.path.join(w2, "tiny", f))
                time.sleep(0.01)
        rc, err = reproduce(w2, o2, "--collect-only")
        self.assertEqual(rc, 0, err)
        for f, data in good.items():
            self.assertEqual(read(os.path.join(o2, f)), data, f)

        # the Slurm engine (fake, tasks finishing last first) gives the same
        w3, o3 = os.path.join(self.d, "w3"), os.path.join(self.d, "o3")
        env = fake_env(os.path.join(self.d, "fake"))
        rc, err = reproduce(w3, o3, "--engine", "slurm", "--poll", "0.01", env=env)
        self.assertEqual(rc, 0, err)
        self.assertIn("submitted Slurm job", err)
        self.assertIn("reproduce dcl1: 0 reused, 4 ran, 0 failed", err)
        rc, err = reproduce(w3, o3, "--collect-only")
        for f, data in good.items():
            self.assertEqual(read(os.path.join(o3, f)), data, f)

    def test_errors(self):
        w, o = os.path.join(self.d, "e"), os.path.join(self.d, "eo")
        rc, err = reproduce(w, o, "--engine", "local", "--partition", "x")
        self.assertEqual(rc, 2)
        self.assertIn("reproduce: --partition: only with --engine slurm", err)
        rc, err = reproduce(w, o, "--engine", "pbs")
        self.assertEqual(rc, 2)
        self.assertIn("invalid choice: 'pbs'", err)
        env = dict(os.environ, PATH=os.path.dirname(sys.executable))
        rc, err = reproduce(w, o, "--engine", "slurm", env=env)
        self.assertEqual(rc, 1)
        self.assertIn("no sbatch on PATH", err)
        blocker = os.path.join(self.d, "file")
        with open(blocker, "w") as f:
            f.write("x")
        rc, err = reproduce(os.path.join(blocker, "store"), o)
        self.assertEqual(rc, 1)
        self.assertIn("reproduce: cannot create %s/store" % blocker, err)


if __name__ == "__main__":
    unittest.main(verbosity=1)
