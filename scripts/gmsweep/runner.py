"""Runs one Slurm array task's share of a sweep:

    python3 -m gmsweep.runner STATE_DIR --chunk C --task T

runs jobs T*C .. T*C+C-1 of STATE_DIR/tasks.jsonl one after another and
writes each one's status to STATE_DIR/status/I.json. A job whose status
already says rc 0 (it passed in an earlier attempt of the same chunk) is
not run again.
"""
import argparse
import json
import os
import sys

from .job import Job, Result, run_job, write_json


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gmsweep.runner")
    ap.add_argument("state")
    ap.add_argument("--chunk", type=int, required=True)
    ap.add_argument("--task", type=int, required=True)
    a = ap.parse_args(argv)
    with open(os.path.join(a.state, "tasks.jsonl")) as f:
        jobs = [Job.from_dict(json.loads(line)) for line in f if line.strip()]
    worst = 0
    for i in range(a.task * a.chunk, min(len(jobs), (a.task + 1) * a.chunk)):
        status = os.path.join(a.state, "status", "%d.json" % i)
        try:
            with open(status) as f:
                if Result.from_dict(json.load(f)).ok:
                    continue
        except (OSError, ValueError):
            pass
        r = run_job(jobs[i])
        write_json(status, r.to_dict())
        print("gmsweep.runner: job %d %s: rc %s, %.1f s" % (i, jobs[i].name, r.rc, r.seconds),
              flush=True)
        worst = worst or (r.rc != 0)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
