"""A job of a sweep and the code that runs one (used by both engines).

A Job is one command: its argument list, the file it produces (optional),
the log that receives its standard output and error, a timeout and a
working directory. run_job() runs it and leaves, whatever happens, either
the complete output file or none: the command writes to a temporary beside
the output (the argument "{out}" in cmd is replaced by that path) which is
renamed into place only once the command has exited with status 0, or with
any status when the job says keep_on_error (a command that itself replaces
its output only with a complete file, as gmsim does with --stats, and
reports a failed run in it). A command killed (timeout, signal) never
leaves an output.

The outcome of a job is a small JSON status record (rc, seconds, whether an
output was produced), written atomically; the Slurm engine reads these from
the shared filesystem to learn what its array tasks did.
"""
import json
import os
import signal
import socket
import subprocess
import tempfile
import time


class Job:
    def __init__(self, name, cmd, log, output=None, timeout=None, cwd=None, keep_on_error=False):
        self.name = name        # unique within a sweep
        self.cmd = list(cmd)    # "{out}" stands for the output's temporary
        self.log = str(log)
        self.output = str(output) if output else None
        self.timeout = timeout or None
        self.cwd = str(cwd) if cwd else None
        self.keep_on_error = keep_on_error

    def to_dict(self):
        return {"name": self.name, "cmd": self.cmd, "log": self.log, "output": self.output,
                "timeout": self.timeout, "cwd": self.cwd, "keep_on_error": self.keep_on_error}

    @classmethod
    def from_dict(cls, d):
        return cls(d["name"], d["cmd"], d["log"], d.get("output"), d.get("timeout"), d.get("cwd"),
                   d.get("keep_on_error", False))


class Result:
    """What became of a job: rc is None when it never reported (killed,
    node failure, out of memory, Slurm time limit)."""
    def __init__(self, name, rc, seconds=0.0, produced=False, error=""):
        self.name, self.rc, self.seconds = name, rc, seconds
        self.produced, self.error = produced, error

    @property
    def ok(self):
        return self.rc == 0

    def to_dict(self):
        return {"name": self.name, "rc": self.rc, "seconds": round(self.seconds, 3),
                "produced": self.produced, "error": self.error}

    @classmethod
    def from_dict(cls, d):
        return cls(d["name"], d.get("rc"), d.get("seconds", 0.0), d.get("produced", False),
                   d.get("error", ""))


def write_atomic(path, write, binary=False):
    """Calls write(f) on a new temporary file beside path, flushes it to
    disk and renames it over path. On any failure the temporary is removed
    and path keeps its old contents; the exception propagates."""
    path = os.path.abspath(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                               prefix="." + os.path.basename(path) + ".tmp-")
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", newline="")) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp creates 0600: give the file the mode a plain open() would.
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and not e.filename:
            e.filename = path
        raise


def write_json(path, obj):
    write_atomic(path, lambda f: f.write(json.dumps(obj, sort_keys=True) + "\n"))


def output_tmp(output):
    # Unique per host and process: two attempts of one job (a retry while a
    # lost task still runs) never write the same temporary.
    return "%s.tmp-%s-%d" % (output, socket.gethostname(), os.getpid())


def run_command(cmd, timeout, cwd, running=None):
    """(output, exit status) of cmd; status None when it ran past timeout.
    The command gets a process group of its own so that a timeout kills
    everything it started (a child left holding the pipe would otherwise
    keep this waiting). That also keeps the terminal's Ctrl-C from it:
    the caller finds it in the set running, if given, to stop it."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                         start_new_session=True)
    if running is not None:
        running.add(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return out, p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return out, None
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    finally:
        if running is not None:
            running.discard(p)


def run_job(job, running=None):
    """Runs one job to completion and returns its Result (running: see
    run_command)."""
    os.makedirs(os.path.dirname(os.path.abspath(job.log)), exist_ok=True)
    tmp = None
    cmd = job.cmd
    if job.output:
        os.makedirs(os.path.dirname(os.path.abspath(job.output)), exist_ok=True)
        tmp = output_tmp(job.output)
        cmd = [tmp if a == "{out}" else a for a in job.cmd]
    t0 = time.monotonic()
    error = ""
    try:
        text, rc = run_command(cmd, job.timeout, job.cwd, running)
        if rc is None:
            rc, error = -1, "timeout after %g s" % job.timeout
            text += b"\nFAILURE: timeout after %g s\n" % job.timeout
    except OSError as e:
        text, rc, error = ("%s\n" % e).encode(), 127, str(e)
    seconds = time.monotonic() - t0
    write_atomic(job.log, lambda f: f.write(("$ " + " ".join(job.cmd) + "\n").encode() + text),
                 binary=True)
    produced = False
    if tmp and os.path.exists(tmp):
        if rc == 0 or (rc > 0 and job.keep_on_error):
            # Only a command that exited on its own has finished writing.
            os.replace(tmp, job.output)
            produced = True
        else:
            os.unlink(tmp)
    if rc != 0 and not error:
        lines = text.decode(errors="replace").strip().splitlines()
        error = "exit %d%s" % (rc, (": " + lines[-1][:200]) if lines else "")
    return Result(job.name, rc, seconds, produced, error)
