"""What the speed scripts share: export an older revision, build gmsim the
same way for every revision, and time one child process.

Timing is CPU seconds of the child (user + system, from wait4), not wall
time: the machines these run on are shared, and CPU time is the figure
that moves least with the load (it still moves 10-20 %; docs/performance.md).
"""
import os
import signal
import subprocess
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BenchError(Exception):
    pass


def sh(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        raise BenchError("%s failed:\n%s" % (" ".join(cmd), r.stdout[-3000:]))
    return r.stdout


def export_rev(rev, dest):
    """The tree of REV, without touching the repository's worktrees."""
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.Popen(["git", "-C", ROOT, "archive", "--format=tar", rev],
                               stdout=subprocess.PIPE)
    sh(["tar", "-x", "-C", dest], stdin=archive.stdout)
    if archive.wait() != 0:
        raise BenchError("git archive %s failed" % rev)


def build(src, bdir, jobs):
    """gmsim alone, CMake Release, no RTL: the same build for every revision."""
    sh(["cmake", "-S", src, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release", "-DGM_RTL=OFF"])
    sh(["cmake", "--build", bdir, "-j", str(jobs), "--target", "gmsim"])
    return os.path.join(bdir, "gmsim")


def timed(cmd, cwd, ok=(0,), interrupt_after=None):
    """CPU seconds (user + system), peak RSS in MB, exit status and output
    of one child. With interrupt_after, the child gets SIGINT after that
    many wall seconds (gmsim then writes its statistics so far and exits
    130)."""
    with tempfile.TemporaryFile(mode="w+") as out:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        timer = None
        if interrupt_after:
            timer = threading.Timer(interrupt_after, p.send_signal, [signal.SIGINT])
            timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        if timer:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if p.returncode not in ok:
        raise BenchError("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, text[-3000:]))
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, p.returncode, text
