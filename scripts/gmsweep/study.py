"""A study: (config, workload) runs of gmsim into a result store (docs/
sweeps.md). A stored run is reused only when its gmsim revision and
configuration hash match the binary and configuration used now; the rest
run on the engine the options select, and a tally says what happened.

    gmsweep.study_args(argparser)
    failures = gmsweep.run_study(args, [(config, workload), ...], store_dir,
                                 config_of, "ata")
"""
import os
import sys

from .job import Job
from . import store
from .slurm import SlurmError


def _log(msg):
    print(msg, file=sys.stderr, flush=True)


def study_args(ap):
    """The result-store and engine options every study takes."""
    from . import add_engine_args
    ap.add_argument("--timeout", type=float, default=0, help="seconds per run (0 = none)")
    ap.add_argument("--force", action="store_true",
                    help="rerun every run, even those the store could reuse")
    ap.add_argument("--reuse-dirty", action="store_true",
                    help="also reuse results of a -dirty (or unknown) gmsim revision when "
                         "the revision string and configuration hash match")
    add_engine_args(ap)


def plan_runs(a, planned, jdir, config_of):
    """The jobs of the (config, workload) runs whose stored result cannot
    be reused (docs/sweeps.md: same gmsim revision, same configuration
    hash), and the tally so far. config_of maps a config name to its file, or
    to a list of files layered in order (gmsim run --config A --config B)."""
    try:
        version = store.gmsim_version(a.gmsim)
        hashes = {cfg: store.config_hash(a.gmsim, config_of(cfg))
                  for cfg in sorted({c for c, _ in planned})}
    except (RuntimeError, OSError) as e:
        sys.exit("reproduce: %s" % e)
    tally = store.Tally()
    jobs = []
    for cfg, w in planned:
        name = "%s__%s" % (cfg, w)
        path = os.path.join(jdir, name + ".json")
        ok, why = (False, "forced") if a.force else \
            store.check(path, version, hashes[cfg], a.reuse_dirty)
        if ok:
            tally.reused += 1
            continue
        tally.stale(why)
        # gmsim writes "{out}" (a temporary beside path) and the runner
        # renames it to path once gmsim has exited: never a partial JSON.
        # A run that exits non-zero with statistics (deadlock, max_cycles)
        # keeps them, as before: the table shows its status.
        jobs.append(Job(
            name, [a.gmsim, "run"] + store.config_args(config_of(cfg)) + ["--workload", w,
                   "--size", a.size, "--quiet", "--stats", "{out}"],
            log=os.path.join(jdir, "logs", name + ".log"), output=path,
            timeout=a.timeout or None, keep_on_error=True))
    return jobs, tally


def run_study(a, planned, jdir, config_of, study):
    """Runs the (config, workload) pairs of `planned` that the store in jdir
    cannot reuse, on the engine the options select (local or Slurm), and
    prints the tally. Returns [(run, error, log path)] of the runs that
    did not finish. `a` holds gmsim, size, jobs and study_args' options."""
    from . import make_engine  # the package imports this module
    if not planned:
        return []
    label = "reproduce " + study
    engine = make_engine(a, os.path.join(jdir, ".gmsweep"), prog="reproduce")
    jobs, tally = plan_runs(a, planned, jdir, config_of)
    _log("%s: %d runs at size %s: %d reused, %d to run (%s engine%s)"
         % (label, len(planned), a.size, tally.reused, len(jobs), engine.name,
            ", %d at a time" % a.jobs if engine.name == "local" else ""))
    failures = []
    if jobs:
        try:
            results = engine.run(jobs, label=label)
        except SlurmError as e:
            sys.exit("reproduce: %s" % e)
        except KeyboardInterrupt:
            sys.exit("reproduce: interrupted (the runs that finished are kept)")
        for j in jobs:
            r = results[j.name]
            if r.ok:
                tally.ran += 1
            else:
                tally.failed += 1
                failures.append((j.name, r.error or "exit %s" % r.rc, j.log))
    _log(tally.line(label))
    return failures


def kept_tail(path, marker):
    """The marker line and the hand-written text after it in the report
    at path (a previous run's), or an empty string: a study that rewrites
    its report keeps the measurements written below the marker by hand."""
    try:
        with open(path) as f:
            old = f.read()
    except OSError:
        return ""
    at = old.find(marker)
    return "" if at < 0 else "\n" + old[at:].rstrip("\n") + "\n"
