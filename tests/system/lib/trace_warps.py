"""The warps of gmsim's exported Accel-Sim traces, for the stream tests
(pb_accumulators.py, reload_lint.py): one parser of the instruction lines
(docs/traces.md) and of their address compression."""
import os
import re
import subprocess

INST = re.compile(r"^[0-9a-f]{4} ")


def export(gmsim, workload, size, out):
    """Writes workload's traces to out; returns the kernel files in launch
    order."""
    subprocess.run([gmsim, "trace", "export", "--workload", workload, "--size", size,
                    "--out", out, "--no-verify"], check=True, stdout=subprocess.DEVNULL)
    return [os.path.join(out, f) for f in sorted(
        (f for f in os.listdir(out) if f.endswith(".traceg")),
        key=lambda f: int(re.sub(r"\D", "", f) or 0))]


def kernel_name(path):
    with open(path) as f:
        for line in f:
            if line.startswith("-kernel name = "):
                return line.split("=", 1)[1].strip()
    return None


def lane_addresses(mask, fields):
    """{lane: address} from an instruction's mask and address fields
    (width, compression mode, addresses)."""
    m = int(mask, 16)
    lanes = [l for l in range(32) if m >> l & 1]
    if not lanes or len(fields) < 3:
        return {}
    mode = int(fields[1])
    if mode == 1:   # base, stride
        base, stride = int(fields[2], 16), int(fields[3]) if len(fields) > 3 else 0
        return {l: base + stride * k for k, l in enumerate(lanes)}
    if mode == 2:   # base, deltas
        out, a = {lanes[0]: int(fields[2], 16)}, int(fields[2], 16)
        for l, d in zip(lanes[1:], fields[3:]):
            a += int(d)
            out[l] = a
        return out
    return dict(zip(lanes, (int(x, 16) for x in fields[2:])))


def warps(path, max_warps=None):
    """Yields (thread block, warp, [(opcode base, {lane: address})]) for the
    warps of one trace file, at most max_warps of them."""
    tb, warp, ops, n = None, None, None, 0
    with open(path) as f:
        for line in f:
            if line.startswith("thread block = "):
                tb = line.split("=", 1)[1].strip()
            elif line.startswith("warp = "):
                if ops is not None:
                    yield tb, warp, ops
                n += 1
                if max_warps is not None and n > max_warps:
                    return
                warp, ops = int(line.split("=", 1)[1]), []
            elif ops is not None and INST.match(line):
                t = line.split()
                nd = int(t[2])
                ns = int(t[4 + nd])
                ops.append((t[3 + nd].split(".")[0], lane_addresses(t[1], t[5 + nd + ns:])))
    if ops is not None:
        yield tb, warp, ops
