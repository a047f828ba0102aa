"""The progress line both engines print: done / running / failed / total
and an estimate of the time left."""
import sys
import time


def fmt_duration(s):
    s = int(round(s))
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


class Progress:
    def __init__(self, total, label="sweep", out=None, every=1.0, clock=time.monotonic):
        self.total, self.label = total, label
        self.out = out or sys.stderr
        self.every, self.clock = every, clock
        self.t0 = clock()
        self.last = None
        self.printed = None
        self.done = self.running = self.failed = 0

    def line(self):
        finished = self.done + self.failed
        left = self.total - finished
        if finished == 0 or left == 0:
            eta = "-" if left else "0:00:00"
        else:
            # Finished runs so far predict the rest (runs of one sweep are
            # similar in length; the first few make it rough).
            eta = fmt_duration((self.clock() - self.t0) / finished * left)
        return "%s: %d/%d done, %d running, %d failed, ETA %s" % (
            self.label, self.done, self.total, self.running, self.failed, eta)

    def update(self, done, running, failed, force=False):
        changed = (done, running, failed) != (self.done, self.running, self.failed)
        self.done, self.running, self.failed = done, running, failed
        now = self.clock()
        # At most one line a second (a 1,700-job regression would otherwise
        # print 1,700 lines), but always the last one.
        due = changed and (self.last is None or now - self.last >= self.every)
        if due or (force and self.printed != (done, running, failed)):
            self.last, self.printed = now, (done, running, failed)
            print(self.line(), file=self.out, flush=True)
