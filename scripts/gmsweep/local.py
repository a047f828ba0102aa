"""The local engine: N jobs at a time as child processes of this one."""
import concurrent.futures
import os
import signal
import threading

from .job import run_job
from .progress import Progress


class LocalEngine:
    name = "local"

    def __init__(self, jobs=1):
        self.jobs = max(1, jobs)

    def run(self, jobs, label="sweep", on_result=None):
        """Runs every job; returns {name: Result}. on_result(job, result) is
        called as each finishes (in completion order)."""
        results = {}
        prog = Progress(len(jobs), label)
        failed = 0
        running = set()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs)
        old_term = None
        if threading.current_thread() is threading.main_thread():
            # SIGTERM (kill, a CI timeout) stops the sweep as Ctrl-C does.
            old_term = signal.signal(signal.SIGTERM, interrupt)
        try:
            futs = {pool.submit(run_job, j, running): j for j in jobs}
            prog.update(0, min(self.jobs, len(jobs)), 0, force=True)
            for f in concurrent.futures.as_completed(futs):
                j = futs[f]
                r = f.result()
                results[j.name] = r
                failed += not r.ok
                if on_result:
                    on_result(j, r)
                finished = len(results)
                prog.update(finished - failed, min(self.jobs, len(jobs) - finished), failed,
                            force=finished == len(jobs))
        except BaseException:
            # Ctrl-C: the runs have process groups of their own (see
            # run_command) and did not see it. Start no more, and ask those
            # running to stop: gmsim then writes statistics with status
            # "interrupted", which the store never reuses.
            pool.shutdown(wait=False, cancel_futures=True)
            for p in list(running):
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            pool.shutdown(wait=True)
            raise
        finally:
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
        pool.shutdown(wait=True)
        return results


def interrupt(signum, frame):
    raise KeyboardInterrupt
