#!/usr/bin/env python3
"""Tests of the DC-L1 study's replication classes (scripts/reproduce_dcl1.py)
on synthetic kernels whose criteria are known, and of its layered configs;
with a gmsim given, one tiny end-to-end study whose class table is checked
against the criteria recomputed here from the run JSONs.

    python3 tests/sweep/test_reproduce_dcl1.py [GMSIM]
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "scripts"))
import reproduce_dcl1 as rd  # noqa: E402
from gmsweep import store  # noqa: E402

GMSIM = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 and \
    not sys.argv[1].startswith("-") else None


def kernel(repl, miss, ipc, ipc16, status="done"):
    """Synthetic baseline and 16x-L1 metrics of one kernel."""
    base = {"status": status, "replication_ratio": repl, "l1_miss_rate": miss, "ipc": ipc}
    big = {"status": "done", "replication_ratio": 0.0, "l1_miss_rate": 0.0, "ipc": ipc16}
    return base, big


class Classify(unittest.TestCase):
    def test_all_three_met(self):
        self.assertEqual(rd.classify(0.26, 0.51, 1.06), "sensitive")
        self.assertEqual(rd.classify(0.95, 0.99, 2.9), "sensitive")

    def test_each_criterion_alone_fails(self):
        self.assertEqual(rd.classify(0.10, 0.80, 1.50), "insensitive")
        self.assertEqual(rd.classify(0.80, 0.30, 1.50), "insensitive")
        self.assertEqual(rd.classify(0.80, 0.80, 1.01), "insensitive")

    def test_thresholds_are_strict(self):
        # the paper writes ">25%", ">50%", ">5%": the threshold itself fails
        self.assertEqual(rd.classify(0.25, 0.9, 2.0), "insensitive")
        self.assertEqual(rd.classify(0.9, 0.50, 2.0), "insensitive")
        self.assertEqual(rd.classify(0.9, 0.9, 1.05), "insensitive")

    def test_unknown(self):
        self.assertIsNone(rd.classify(0.9, 0.9, None))
        # a failed criterion decides even when another is unknown
        self.assertEqual(rd.classify(0.1, 0.9, None), "insensitive")

    def test_measured_from_runs(self):
        # the examples: hotspot meets all three; reduction (no
        # replication) and syrk (low miss rate) do not; speedup is the
        # IPC ratio of the 16x-L1 run to the baseline run
        runs = {"hotspot": kernel(0.40, 0.60, 2.0, 2.52),
                "reduction": kernel(0.0, 1.0, 1.0, 1.30),
                "syrk": kernel(0.70, 0.156, 1.0, 1.40),
                "flat": kernel(0.70, 0.70, 3.0, 3.1),
                "broken": kernel(0.9, 0.9, 1.0, 2.0, status="deadlock")}
        raw = {}
        for w, (b, big) in runs.items():
            raw[("baseline", w)] = b
            raw[(rd.L1X16, w)] = big
        raw[("baseline", "nobig")] = kernel(0.9, 0.9, 1.0, 1.0)[0]
        got = rd.measured_classes(raw, list(runs) + ["nobig"])
        self.assertEqual(got["hotspot"][3], "sensitive")
        self.assertAlmostEqual(got["hotspot"][2], 1.26)
        self.assertEqual(got["reduction"][3], "insensitive")
        self.assertEqual(got["syrk"][3], "insensitive")
        self.assertEqual(got["flat"][3], "insensitive")   # 3.1 / 3.0 = 1.033
        self.assertEqual(got["broken"], (None, None, None, None))
        self.assertIsNone(got["nobig"][3])

    def test_class_table_rows(self):
        classes = {"a": (0.3, 0.6, 1.2, "sensitive"), "b": (0.1, 0.6, 1.2, "insensitive")}
        text = "\n".join(rd.class_table(classes, {"a": "insensitive", "b": "sensitive"}))
        self.assertIn("| a | 0.300 ✓ | 0.600 ✓ | 1.20 ✓ | **sensitive** | insensitive |", text)
        self.assertIn("| b | 0.100 ✗ |", text)


class Layers(unittest.TestCase):
    def test_order_and_args(self):
        files = rd.config_files("p.ini", ["noc1_noheader"], ["l1x16"])
        self.assertEqual(files[0], "p.ini")
        self.assertTrue(files[1].endswith("configs/dcl1/layers/noc1_noheader.layer"))
        self.assertTrue(files[2].endswith("configs/dcl1/layers/l1x16.layer"))
        self.assertEqual(store.config_args("a.ini"), ["--config", "a.ini"])
        self.assertEqual(store.config_args(["a", "b"]), ["--config", "a", "--config", "b"])
        self.assertEqual(rd.work_name("small", ["x", "y"]), "small+x+y")

    def test_design_only_layers_skip_baselines(self):
        self.assertEqual(rd.layers_for(["noc1_noheader", "platform"], True), ["platform"])
        self.assertEqual(rd.layers_for(["noc1_noheader", "platform"], False),
                         ["noc1_noheader", "platform"])

    def test_shipped_layers_exist(self):
        self.assertEqual(rd.check_layers(["l1x16", "noc1_noheader"]), [])
        self.assertEqual(rd.check_layers(["nope"]), ["nope"])


class Boosted(unittest.TestCase):
    def test_table_averages_by_class(self):
        classes = {"a": (0.3, 0.6, 1.2, "sensitive"), "b": (0.1, 0.6, 1.2, "sensitive"),
                   "c": (0.1, 0.1, 1.0, "insensitive")}
        gains = {("boost_l1x2", "a"): 1.44, ("boost_l1x2", "b"): 1.0,
                 ("boost_noc2x", "c"): 1.5}
        gm = lambda xs: (lambda v: None if not v else
                         __import__("math").prod(v) ** (1 / len(v)))(
            [x for x in xs if x is not None])
        pct = lambda x: "-" if x is None else "%+.1f%%" % (100 * (x - 1))
        text = "\n".join(rd.boosted_table(gains, classes, "tiny", gm, pct))
        # sqrt(1.44 * 1.0) = 1.2; c has no 2x-L1 run; a and b no NoC run
        self.assertIn("| measured sensitive | 2 | +20.0% | - | - | +33% .. +36% |", text)
        self.assertIn("| measured insensitive | 1 | - | +50.0% | - | +2% .. +6% |", text)
        self.assertIn("| a | sensitive |  | +44.0% | - | - |", text)

    def test_shipped_boost_layers_exist(self):
        self.assertEqual(rd.check_layers([n for n, _ in rd.BOOSTED]), [])


@unittest.skipIf(GMSIM is None, "no gmsim given")
class EndToEnd(unittest.TestCase):
    def test_tiny_study(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1",
                 "--size", "tiny", "-j", "2", "--gmsim", GMSIM, "--work", d + "/w",
                 "--out", d + "/o", "--workloads", "gemm,btree", "--designs", "baseline"],
                capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            table = open(d + "/o/table.md").read()
            for w in ("gemm", "btree"):
                with open("%s/w/tiny/baseline__%s.json" % (d, w)) as f:
                    b = json.load(f)["summary"]
                with open("%s/w/tiny/%s__%s.json" % (d, rd.L1X16, w)) as f:
                    big = json.load(f)
                self.assertEqual(big["config"]["l1"]["size"], 256 * 1024)
                s = big["summary"]["ipc"] / b["ipc"]
                want = ("sensitive" if b["replication_ratio"] > 0.25 and
                        b["l1_miss_rate"] > 0.5 and s > 1.05 else "insensitive")
                self.assertIn("| %s | %.3f" % (w, b["replication_ratio"]), table)
                row = [x for x in table.splitlines() if x.startswith("| %s | %.3f" % (
                    w, b["replication_ratio"]))][0]
                self.assertIn("**%s**" % want, row)
                self.assertIn("%.2f" % s, row)

            # --merge: a study of gemm alone that takes btree's rows from the
            # first study tabulates both, btree's rows as they were
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1",
                 "--size", "tiny", "-j", "2", "--gmsim", GMSIM, "--work", d + "/w",
                 "--out", d + "/om", "--workloads", "gemm", "--designs", "baseline",
                 "--merge", d + "/o/results.csv"],
                capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)

            def csv_rows(path):
                import csv
                with open(path, newline="") as f:
                    return {(r["design"], r["workload"]): r for r in csv.DictReader(f)}
            first, merged = csv_rows(d + "/o/results.csv"), csv_rows(d + "/om/results.csv")
            self.assertEqual(set(merged), set(first))
            for key in first:
                self.assertEqual(merged[key]["ipc"], first[key]["ipc"], key)
                self.assertEqual(merged[key]["class"], first[key]["class"], key)
            mtable = open(d + "/om/table.md").read()
            self.assertIn("| btree | %.3f" % float(first[("baseline", "btree")]["crit_replication"]),
                          mtable)
            # rows of another size are refused, naming the file and line
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1",
                 "--size", "small", "--gmsim", GMSIM, "--work", d + "/w", "--out", d + "/ox",
                 "--workloads", "gemm", "--designs", "baseline",
                 "--merge", d + "/o/results.csv"],
                capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("results.csv line 2: size tiny", p.stderr)

            # --classes plain under a layer: the class rows are the plain
            # platform's, and no 16x-L1 run is made under the layer
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1",
                 "--size", "tiny", "-j", "2", "--gmsim", GMSIM, "--work", d + "/w",
                 "--out", d + "/o7", "--workloads", "gemm,btree", "--designs", "baseline",
                 "--layer", "core700", "--classes", "plain"],
                capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            layered = "%s/w/%s" % (d, rd.work_name("tiny", ["core700"]))
            self.assertEqual(sorted(x for x in os.listdir(layered) if x.endswith(".json")),
                             ["baseline__btree.json", "baseline__gemm.json"])
            with open(layered + "/baseline__gemm.json") as f:
                self.assertEqual(json.load(f)["config"]["core"]["clock_mhz"], 700)

            def class_rows(path):
                text = open(path).read()
                part = text.split("## Replication classes")[1].split("\n## ")[0]
                return [x for x in part.splitlines() if x.startswith("| gemm |")
                        or x.startswith("| btree |")]
            self.assertEqual(class_rows(d + "/o7/table.md"), class_rows(d + "/o/table.md"))
            self.assertEqual(len(class_rows(d + "/o/table.md")), 2)
            self.assertIn("--classes plain", open(d + "/o7/table.md").read())


    def test_tiny_boosted(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1-boosted",
                 "--size", "tiny", "-j", "2", "--gmsim", GMSIM, "--work", d + "/w",
                 "--out", d + "/b.md", "--workloads", "gemm"],
                capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            table = open(d + "/b.md").read()

            def run(layer):
                with open("%s/w/%s/baseline__gemm.json" % (d, rd.work_name("tiny", layer))) as f:
                    return json.load(f)
            base = run([])
            want = {"boost_l1x2": ("l1", "size", 2 * base["config"]["l1"]["size"]),
                    "boost_noc2x": ("noc", "clock_mhz", 2 * base["config"]["noc"]["clock_mhz"]),
                    "boost_flit5x": ("noc", "flit_bytes", 5 * base["config"]["noc"]["flit_bytes"])}
            row = [x for x in table.splitlines() if x.startswith("| gemm |")][0]
            for n, _ in rd.BOOSTED:
                doc = run([n])
                sec, key, value = want[n]
                self.assertEqual(doc["config"][sec][key], value, n)
                g = doc["summary"]["ipc"] / base["summary"]["ipc"]
                self.assertIn("%+.1f%%" % (100 * (g - 1)), row)

            # under --layer every run, the baseline included, has the layer
            p = subprocess.run(
                [sys.executable, os.path.join(SRC, "scripts", "reproduce"), "dcl1-boosted",
                 "--size", "tiny", "-j", "2", "--gmsim", GMSIM, "--work", d + "/w",
                 "--out", d + "/c.md", "--workloads", "gemm", "--layer", "core700",
                 "--boosts", "boost_noc2x"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            slow, slow2x = run(["core700"]), run(["core700", "boost_noc2x"])
            self.assertEqual(slow["config"]["core"]["clock_mhz"], 700)
            self.assertEqual(slow2x["config"]["core"]["clock_mhz"], 700)
            self.assertEqual(slow2x["config"]["noc"]["clock_mhz"],
                             2 * base["config"]["noc"]["clock_mhz"])
            g = slow2x["summary"]["ipc"] / slow["summary"]["ipc"]
            row = [x for x in open(d + "/c.md").read().splitlines()
                   if x.startswith("| gemm |")][0]
            self.assertIn("| %+.1f%% |" % (100 * (g - 1)), row)


if __name__ == "__main__":
    unittest.main()
