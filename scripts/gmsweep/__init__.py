"""gmsweep: runs the jobs of a sweep (a study, a regression) on this machine
or on a Slurm cluster, with one interface (docs/sweeps.md).

    import gmsweep
    gmsweep.add_engine_args(argparser)
    engine = gmsweep.make_engine(args, state_dir)   # exits on bad options
    results = engine.run([gmsweep.Job(...), ...], label="...")
"""
import os
import sys

from .job import Job, Result, run_job, write_atomic, write_json
from .local import LocalEngine
from .progress import Progress
from .slurm import SlurmEngine, SlurmError
from . import store
from .study import kept_tail, run_study, study_args

__all__ = ["Job", "Result", "run_job", "write_atomic", "write_json", "LocalEngine",
           "SlurmEngine", "SlurmError", "Progress", "store", "add_engine_args", "make_engine",
           "run_study", "study_args"]


def add_engine_args(ap):
    g = ap.add_argument_group("engine (docs/sweeps.md)")
    g.add_argument("--engine", choices=["local", "slurm"], default="local",
                   help="local: -j processes on this machine (default); slurm: an sbatch "
                        "job array")
    g.add_argument("--partition", help="slurm: partition to submit to")
    g.add_argument("--time", dest="slurm_time", metavar="TIME", help="slurm: time limit per array task")
    g.add_argument("--mem", help="slurm: memory per array task (e.g. 2G)")
    g.add_argument("--account", help="slurm: account to charge")
    g.add_argument("--chunk", type=int, default=0,
                   help="slurm: runs per array task (default 1, more past 1000 runs)")
    g.add_argument("--retry", type=int, default=0,
                   help="slurm: resubmit failed array tasks up to N times")
    g.add_argument("--poll", type=float, default=10.0,
                   help="slurm: seconds between squeue polls (default 10)")


def make_engine(args, state_dir, prog="gmsweep"):
    """The engine args ask for; a clear message and exit status 2 for
    options that make no sense, 1 when Slurm is not there."""
    slurm_only = [o for o, v in (("--partition", args.partition), ("--time", args.slurm_time),
                                 ("--mem", args.mem), ("--account", args.account),
                                 ("--chunk", args.chunk), ("--retry", args.retry)) if v]
    if args.engine == "local" and slurm_only:
        sys.stderr.write("%s: %s: only with --engine slurm\n" % (prog, ", ".join(slurm_only)))
        sys.exit(2)
    if args.chunk < 0 or args.retry < 0 or args.poll <= 0:
        sys.stderr.write("%s: --chunk and --retry must be >= 0, --poll > 0\n" % prog)
        sys.exit(2)
    if args.engine == "local":
        return LocalEngine(getattr(args, "jobs", 1) or 1)
    try:
        os.makedirs(state_dir, exist_ok=True)
        return SlurmEngine(state_dir, args.partition, args.slurm_time, args.mem, args.account,
                           args.chunk, args.retry, args.poll)
    except SlurmError as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        sys.exit(1)
    except OSError as e:
        sys.stderr.write("%s: cannot create the Slurm state directory %s: %s\n"
                         % (prog, state_dir, e.strerror or e))
        sys.exit(1)
