#!/usr/bin/env python3
"""The TX8 fusion benchmark (issue 17, "Targets"); bench/tx8_fusion.sh runs it.

Writes four graphs in flat tx8be form as a user writes them (no group,
sharding or layout attributes; weights are graph inputs, small per-channel
parameters tx8be.constant), compiles each with `npuc-compile --target=tx8`,
builds and runs the program on generated inputs, compares its results with
the naive reference (npuc-tx8-check) and reads its cycle report
(OUT_DIR/cycles.txt: "total: C cycles", "total ddr: read R written W").
For each graph it prints

  DDR moved / minimum   moved = R + W from the report; minimum = every graph
                        input, weight, constant and output moved once (bytes)
  cycles / bound        cycles = the report's total (per group the slowest
                        tile, summed over groups); bound = max(NE FLOPs / the
                        chip's NE peak for the dtype, minimum / DDR bandwidth)
  cycles / group bound  the same cycles over the report's `total bound` (per
                        group the busiest tile's max(rdma + wdma, ne, ct +
                        tdma, noc), summed): how well the schedule overlaps
                        the engines (issue 18 item 3's target, <= 1.15)

with the issue's targets and whether they are met. The bound's figures (DDR
GB/s, NE TFLOP/s per dtype, clock, chips) are read from the target
description (lib/TX8/tx8_target.yaml), not repeated here. Then the compile
time per op and main.c bytes per op on a 10,000-op graph. Not a timed test:
nothing fails on a figure.

usage: tx8_graphs.py --bin BUILD/bin --target-yaml lib/TX8/tx8_target.yaml
                     [--work DIR] [--ops 10000] [--only a,b,c,d]
"""
import argparse
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time

# The random generator's helpers: shapes, tensor types, packing values.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "tx8"))
from gen import ELEM_BYTES as DTYPE_BYTES, count, pack as pack_values, ttype  # noqa: E402

CHECK_OFF = False  # --no-check: skip npuc-tx8-check (slow on big graphs)

TFLOPS_KEY = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "i8": "int8"}

# Issue 18 item 3: cycles <= 1.15 x the sum over groups of the busiest
# tile's max(rdma + wdma, ne, ct + tdma, noc), the report's `total bound`.
GROUP_BOUND_TARGET = 1.15


def pack(values, dt):
    return pack_values(dt, values)


def input_bytes(shape, dt, lo, hi):
    """A deterministic pattern in [lo, hi]: one period of 997 values
    repeated (fast without numpy)."""
    period = [lo + (hi - lo) * ((i * 389) % 997) / 996.0 for i in range(997)]
    n = count(shape)
    one = pack(period, dt)
    reps = n // 997 + 1
    return (one * reps)[:n * DTYPE_BYTES[dt]]


class Graph:
    """A flat graph: inputs (function arguments), constants, ops, outputs."""

    def __init__(self, name, title, target):
        self.name, self.title, self.target = name, title, target
        self.args = []      # (name, shape, dt, lo, hi)
        self.consts = []    # (name, shape, dt, value)
        self.ops = []       # (result, text)
        self.checks = {}    # result -> (kind, params, operands) for npuc-tx8-check
        self.outputs = []
        self.types = {}
        self.flops = 0
        self.flop_dt = None
        self.note = ""
        self.uses_none = False

    def arg(self, name, shape, dt, lo=-1.0, hi=1.0):
        self.args.append((name, shape, dt, lo, hi))
        self.types[name] = (shape, dt)
        return name

    def const(self, name, shape, dt, value):
        self.consts.append((name, shape, dt, value))
        self.types[name] = (shape, dt)
        return name

    def op(self, res, opname, operands, shape, dt, clauses="", check=None):
        """`res = tx8be.<opname> operands [clauses] : types -> type`; `check`
        is the op's (kind, params) for npuc-tx8-check (default: opname)."""
        types = ", ".join("none" if o == "none" else ttype(*self.types[o])
                          for o in operands)
        vals = ", ".join("%" + o for o in operands)
        text = "tx8be.%s %s%s : %s -> %s" % (opname, vals, clauses, types,
                                             ttype(shape, dt))
        self.ops.append((res, text))
        self.types[res] = (shape, dt)
        self.uses_none = self.uses_none or "none" in operands
        kind, params = check or (opname, "")
        self.checks[res] = (kind, params, ["-" if o == "none" else o for o in operands])
        return res

    def raw(self, res, text, shape, dt):
        self.ops.append((res, text))
        self.types[res] = (shape, dt)
        return res

    def module(self):
        ty = lambda n: ttype(*self.types[n])
        lines = ["module {"]
        lines.append("  func.func @main(%s) -> (%s) {" % (
            ", ".join("%%%s: %s" % (a[0], ty(a[0])) for a in self.args),
            ", ".join(ty(o) for o in self.outputs)))
        for (n, s, dt, v) in self.consts:
            lines.append("    %%%s = tx8be.constant {value = dense<%.6e> : %s} : %s"
                         % (n, v, ttype(s, dt), ttype(s, dt)))
        if self.uses_none:
            lines.append("    %none = tx8be.none : none")
        for (res, text) in self.ops:
            lines.append("    %%%s = %s" % (res, text))
        lines.append("    return %s : %s" % (
            ", ".join("%" + o for o in self.outputs),
            ", ".join(ty(o) for o in self.outputs)))
        lines.append("  }\n}\n")
        return "\n".join(lines)

    def check_graph(self, limit=64):
        """npuc-tx8-check's graph (test/tx8/tx8_check.c): the inputs, the
        constants (as inputs, from their .bin files), the ops and outputs.
        It holds at most `limit` tensors, so outputs are taken in order
        while their ops fit; returns (text, outputs checked)."""
        decl = lambda n: "%s %s %d %s" % (n, self.types[n][1], len(self.types[n][0]),
                                          " ".join(map(str, self.types[n][0])))
        need, order = set(), []

        def close(n, acc):
            if n in acc or n in need:
                return
            acc.add(n)
            for o in self.checks.get(n, ("", "", []))[2]:
                if o != "-":
                    close(o, acc)
        leaves = set(a[0] for a in self.args) | set(c[0] for c in self.consts)
        checked = []
        for o in self.outputs:
            acc = set()
            close(o, acc)
            if any(n not in leaves and n not in self.checks for n in acc):
                continue  # an op npuc-tx8-check does not know (softmax)
            if len(need) + len(acc) > limit:
                break
            need |= acc
            checked.append(o)
        lines = ["in %s arg%d.bin" % (decl(a[0]), i)
                 for i, a in enumerate(self.args) if a[0] in need]
        lines += ["in %s %s.bin" % (decl(c[0]), c[0]) for c in self.consts if c[0] in need]
        for (res, _) in self.ops:
            if res in need and res in self.checks:
                kind, params, ops = self.checks[res]
                lines.append("op %s %s%s : %s" % (decl(res), kind,
                                                  " " + params if params else "",
                                                  " ".join(ops)))
        lines += ["out %s result%d.bin" % (o, self.outputs.index(o)) for o in checked]
        return "\n".join(lines) + "\n", len(checked)

    def minimum_bytes(self):
        """Every input, weight, constant and output moved once."""
        names = [a[0] for a in self.args] + [c[0] for c in self.consts] + self.outputs
        return sum(count(self.types[n][0]) * DTYPE_BYTES[self.types[n][1]]
                   for n in names)

    def compute_ops(self):
        return len(self.ops)


# ---- the four graphs ------------------------------------------------------------

def chain_graph(target):
    """(a) 20 elementwise ops on 1x4096x1024 bf16: unary ops, binary ones
    against a second input y or a per-channel [1024] constant."""
    g = Graph("a", "20-op elementwise chain, bf16 1x4096x1024", (1.5, 1.3))
    shape, dt = [1, 4096, 1024], "bf16"
    g.arg("x", shape, dt)
    g.arg("y", shape, dt)
    steps = [("mul", 0.5), ("add", "y"), ("relu",), ("sub", 0.25), ("exp",),
             ("mul", 0.5), ("tanh",), ("add", 1.0), ("sigmoid",), ("mul", "y"),
             ("abs",), ("sub", 0.125), ("relu",), ("add", "y"), ("exp",),
             ("mul", 0.25), ("sigmoid",), ("sub", 0.5), ("tanh",), ("add", 1.0)]
    cur = "x"
    for i, st in enumerate(steps):
        res = "v%d" % i
        if len(st) == 1:
            g.op(res, st[0], [cur], shape, dt)
        else:
            other = st[1]
            if not isinstance(other, str):
                other = g.const("c%d" % i, [shape[-1]], dt, other)
            g.op(res, st[0], [cur, other], shape, dt)
        cur = res
    g.outputs = [cur]
    g.flop_dt = dt
    g.note = "binary ops take y (3 of them) or a [1024] constant (7)"
    return g


def attention_graph(target):
    """(b) Attention scores of 12 heads, S = 512, D = 64, f16, as the
    batched matmul of the issue: Q [1,12,S,D] x K [1,12,S,D]^T (gemm
    transpose_b: [B,H,S,D] x [B,H,D,S]), times 1/sqrt(D) (a [S] constant),
    softmax over the keys."""
    heads, s, d, dt = 12, 512, 64, "f16"
    g = Graph("b", "12-head attention scores, S=512 D=64 f16", (2.0, 1.5))
    scale = g.const("scale", [s], dt, 0.125)
    q = g.arg("q", [1, heads, s, d], dt)
    k = g.arg("k", [1, heads, s, d], dt)
    shape = [1, heads, s, s]
    sc = g.op("s", "gemm", [q, k, "none"], shape, dt, " transpose_b",
              check=("gemm", "0 1"))
    m = g.op("m", "mul", [sc, scale], shape, dt)
    g.op("p", "softmax", [m], shape, dt, " axis = 3", check=("softmax", "3"))
    g.outputs = ["p"]
    g.flops = 2 * heads * s * s * d
    g.flop_dt = dt
    g.note = "batched gemm [1,12,512,64] x [1,12,512,64]^T, scale, softmax"
    return g


def conv(g, res, x, w, in_shape, cout, k, group, dt):
    n, h, wd, cin = in_shape
    pad = k // 2
    out = [n, h, wd, cout]
    g.op(res, "conv", [x, w, "none"], out, dt,
         " strides = [1, 1] pads = [%d, %d, %d, %d] dilations = [1, 1]%s"
         % (pad, pad, pad, pad, " group = %d" % group if group > 1 else ""),
         check=("conv", "1 1 %d %d %d %d 1 1 %d" % (pad, pad, pad, pad, group)))
    g.flops += 2 * count(out) * k * k * (cin // group)
    return res


def batchnorm(g, res, x, c, dt, tag):
    """Per-channel parameters as constants (variance 1, so any input is
    fine)."""
    ps = [g.const("%s_%s" % (tag, p), [c], dt, v)
          for p, v in (("scale", 0.5), ("offset", 0.1), ("mean", 0.05), ("var", 1.0))]
    shape, _ = g.types[x]
    g.op(res, "batchnorm_inference", [x] + ps, shape, dt,
         " {epsilon = 1.000000e-05 : f32}", check=("batchnorm", "1e-05"))
    return res


def resnet_graph(target, n=1):
    """(c) ResNet basic block, 56x56x64 f16, N = 1: conv3x3 - batchnorm -
    relu - conv3x3 - batchnorm - add(x) - relu; weights HWOI inputs."""
    dt, shape, c = "f16", [n, 56, 56, 64], 64
    g = Graph("c", "ResNet basic block 56x56x64 f16, N=1", (3.0, 2.5))
    x = g.arg("x", shape, dt)
    w1 = g.arg("w1", [3, 3, c, c], dt, -0.05, 0.05)
    w2 = g.arg("w2", [3, 3, c, c], dt, -0.05, 0.05)
    conv(g, "c1", x, w1, shape, c, 3, 1, dt)
    batchnorm(g, "b1", "c1", c, dt, "bn1")
    g.op("r1", "relu", ["b1"], shape, dt)
    conv(g, "c2", "r1", w2, shape, c, 3, 1, dt)
    batchnorm(g, "b2", "c2", c, dt, "bn2")
    g.op("s", "add", ["b2", x], shape, dt)
    g.op("r2", "relu", ["s"], shape, dt)
    g.outputs = ["r2"]
    g.flop_dt = dt
    return g


def depthwise_graph(target):
    """(d) Depthwise-separable block, 56x56x128 f16, N = 1: depthwise
    conv3x3 (group = C) - batchnorm - relu - pointwise conv1x1 (128 -> 128)
    - batchnorm - relu."""
    dt, shape, c = "f16", [1, 56, 56, 128], 128
    g = Graph("d", "depthwise-separable block 56x56x128 f16, N=1", (3.0, 2.5))
    x = g.arg("x", shape, dt)
    wd = g.arg("wd", [3, 3, c, 1], dt, -0.3, 0.3)
    wp = g.arg("wp", [1, 1, c, c], dt, -0.1, 0.1)
    conv(g, "dw", x, wd, shape, c, 3, c, dt)
    batchnorm(g, "b1", "dw", c, dt, "bn1")
    g.op("r1", "relu", ["b1"], shape, dt)
    conv(g, "pw", "r1", wp, shape, c, 1, 1, dt)
    batchnorm(g, "b2", "pw", c, dt, "bn2")
    g.op("r2", "relu", ["b2"], shape, dt)
    g.outputs = ["r2"]
    g.flop_dt = dt
    return g


def gemm(g, res, x, w, m_shape, n, dt, bias=None):
    """res = x [.., K] x w [K, n] (+ bias [n]); counts the FLOPs."""
    k = g.types[x][0][-1]
    out = list(m_shape[:-1]) + [n]
    g.op(res, "gemm", [x, w, bias or "none"], out, dt, check=("gemm", "0 0"))
    g.flops += 2 * count(out) * k
    return res


def mlp_graph(target):
    """(e) 3-layer MLP 1024-4096-4096-1024, batch 64, bf16: gemm + bias +
    relu per layer (the last without relu); weights K x N graph inputs,
    biases [N] constants."""
    dt, batch, widths = "bf16", 64, [1024, 4096, 4096, 1024]
    g = Graph("e", "3-layer MLP 1024-4096-4096-1024, batch 64, bf16", (1.3, 1.3))
    cur = g.arg("x", [batch, widths[0]], dt)
    for i in range(3):
        w = g.arg("w%d" % i, [widths[i], widths[i + 1]], dt, -0.03, 0.03)
        b = g.const("b%d" % i, [widths[i + 1]], dt, 0.01)
        cur = gemm(g, "h%d" % i, cur, w, [batch, widths[i]], widths[i + 1], dt, b)
        if i < 2:
            cur = g.op("r%d" % i, "relu", [cur], [batch, widths[i + 1]], dt)
    g.outputs = [cur]
    g.flop_dt = dt
    g.note = "weights 8, 32 and 8 MiB: none fits one tile's SPM"
    return g


def ffn_graph(target):
    """(f) Transformer FFN, seq 512, 768 -> 3072 -> 768, f16: gemm + bias,
    gelu, gemm + bias."""
    dt, seq, d, h = "f16", 512, 768, 3072
    g = Graph("f", "transformer FFN seq 512, 768-3072-768, f16", (2.0, 2.0))
    x = g.arg("x", [1, seq, d], dt)
    w1 = g.arg("w1", [d, h], dt, -0.05, 0.05)
    w2 = g.arg("w2", [h, d], dt, -0.03, 0.03)
    b1 = g.const("b1", [h], dt, 0.01)
    b2 = g.const("b2", [d], dt, 0.01)
    gemm(g, "h", x, w1, [1, seq, d], h, dt, b1)
    g.op("a", "gelu", ["h"], [1, seq, h], dt)
    gemm(g, "y", "a", w2, [1, seq, h], d, dt, b2)
    g.outputs = ["y"]
    g.flop_dt = dt
    return g


def resnet8_graph(target):
    """(g) The ResNet basic block of (c) at N = 8."""
    g = resnet_graph(target, 8)
    g.name, g.title, g.target = "g", "ResNet basic block 56x56x64 f16, N=8", (2.0, 2.0)
    return g


def bottleneck_graph(target):
    """(h) Bottleneck 1x1 (256 -> 64) - 3x3 (64 -> 64) - 1x1 (64 -> 256),
    each with batchnorm and relu, plus x, relu; 56x56, N = 1, f16."""
    dt, n, hw, c, mid = "f16", 1, 56, 256, 64
    g = Graph("h", "bottleneck 1x1-3x3-1x1 56x56x256 f16, N=1", (2.5, 2.5))
    x = g.arg("x", [n, hw, hw, c], dt)
    w1 = g.arg("w1", [1, 1, mid, c], dt, -0.05, 0.05)
    w2 = g.arg("w2", [3, 3, mid, mid], dt, -0.05, 0.05)
    w3 = g.arg("w3", [1, 1, c, mid], dt, -0.05, 0.05)
    conv(g, "c1", x, w1, [n, hw, hw, c], mid, 1, 1, dt)
    batchnorm(g, "b1", "c1", mid, dt, "bn1")
    g.op("r1", "relu", ["b1"], [n, hw, hw, mid], dt)
    conv(g, "c2", "r1", w2, [n, hw, hw, mid], mid, 3, 1, dt)
    batchnorm(g, "b2", "c2", mid, dt, "bn2")
    g.op("r2", "relu", ["b2"], [n, hw, hw, mid], dt)
    conv(g, "c3", "r2", w3, [n, hw, hw, mid], c, 1, 1, dt)
    batchnorm(g, "b3", "c3", c, dt, "bn3")
    g.op("s", "add", ["b3", x], [n, hw, hw, c], dt)
    g.op("o", "relu", ["s"], [n, hw, hw, c], dt)
    g.outputs = ["o"]
    g.flop_dt = dt
    return g


# ---- running --------------------------------------------------------------------

def load_target(path):
    import yaml
    with open(path) as f:
        y = yaml.safe_load(f)
    return {"chips": y["chips"], "ddr_gbps": float(y["chip"]["ddr_gbytes_per_s"]),
            "clock_ghz": float(y["tile"]["clock_ghz"]),
            "tiles": y["chip"]["tiles"]["x"] * y["chip"]["tiles"]["y"],
            "tflops": {k: float(v) for k, v in y["engines"]["ne"]["tflops"].items()}}


def bound_cycles(g, t):
    """max(NE FLOPs / chip peak, minimum bytes / DDR bandwidth), in cycles
    of the target's clock, over all its chips."""
    ddr_per_cycle = t["ddr_gbps"] * t["chips"] / t["clock_ghz"]
    mem = g.minimum_bytes() / ddr_per_cycle
    flop = 0.0
    if g.flops:
        per_cycle = t["tflops"][TFLOPS_KEY[g.flop_dt]] * 1e3 * t["chips"] / t["clock_ghz"]
        flop = g.flops / per_cycle
    return max(mem, flop), mem, flop


def compile_graph(tools, g, work):
    d = os.path.join(work, g.name)
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    os.makedirs(os.path.join(d, "res"), exist_ok=True)
    src = os.path.join(d, "graph.mlir")
    with open(src, "w") as f:
        f.write(g.module())
    out = os.path.join(d, "out")
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([tools["compile"], "--target=tx8"] + tools.get("opts", []) +
                       ["-o", out, src],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return d, out, (time.time() - t0, cpu), r


def run_graph(tools, g, work):
    """The report's (cycles, DDR bytes read + written, groups), or an error
    string."""
    d, out, secs, r = compile_graph(tools, g, work)
    if r.returncode != 0:
        return "npuc-compile failed: " + r.stdout.strip().splitlines()[0] if r.stdout else "npuc-compile failed"
    r = subprocess.run(["make", "-s", "-C", out], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0:
        return "make failed: " + r.stdout.strip()[-300:]
    for i, (n, s, dt, lo, hi) in enumerate(g.args):
        with open(os.path.join(d, "in", "arg%d.bin" % i), "wb") as f:
            f.write(input_bytes(s, dt, lo, hi))
    for (n, s, dt, v) in g.consts:
        with open(os.path.join(d, "in", n + ".bin"), "wb") as f:
            f.write(pack([v] * count(s), dt))
    r = subprocess.run([os.path.join(out, "program"), os.path.join(d, "in"),
                        os.path.join(d, "res")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0:
        return "program failed: " + r.stdout.strip()[-300:]
    with open(os.path.join(d, "res", "cycles.txt")) as f:
        report = f.read()
    cyc = re.search(r"^total: (\d+) cycles", report, re.M)
    ddr = re.search(r"^total ddr: read (\d+) written (\d+) bytes", report, re.M)
    gbound = re.search(r"^total bound: (\d+) cycles", report, re.M)
    if not cyc or not ddr or not gbound:
        return "the program's report has no total/ddr/bound lines"
    groups = len(re.findall(r"^group \d+: ", report, re.M))
    # Perfect overlap of a group's engines: its busiest engine on its
    # busiest tile, RDMA and WDMA counted together (they share the DDR).
    overlap = 0
    for line in re.findall(r"^group \d+ busy max: .*$", report, re.M):
        b = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", line.split(":")[1])}
        overlap += max(b["rdma"] + b["wdma"], b["ne"], b["ct"], b["tdma"],
                       b.get("noc", 0))
    for i, o in enumerate(g.outputs):
        shape, dt = g.types[o]
        p = os.path.join(d, "res", "result%d.bin" % i)
        if os.path.getsize(p) != count(shape) * DTYPE_BYTES[dt]:
            return "result%d.bin has the wrong size" % i
    if CHECK_OFF:
        text, checked = "", 0
    else:
        text, checked = g.check_graph()
    with open(os.path.join(d, "check.graph"), "w") as f:
        f.write(text)
    if CHECK_OFF:
        verdict = "not compared with the reference (--no-check)"
    elif checked:
        r = subprocess.run([tools["check"], os.path.join(d, "check.graph"),
                            os.path.join(d, "in"), os.path.join(d, "res")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        verdict = ("matches the reference" if r.returncode == 0 else
                   "DIFFERS from the reference: " + r.stdout.strip()[-300:])
    else:
        verdict = "not compared with the reference"
    if 0 < checked < len(g.outputs):
        verdict += " (outputs 0..%d of %d: npuc-tx8-check holds 64 tensors)" % (
            checked - 1, len(g.outputs))
    return {"cycles": int(cyc.group(1)), "verdict": verdict, "overlap": overlap,
            "group_bound": int(gbound.group(1)),
            "moved": int(ddr.group(1)) + int(ddr.group(2)),
            "read": int(ddr.group(1)), "written": int(ddr.group(2)),
            "groups": groups, "compile_s": secs}


def fmt_bytes(n):
    return "%.2f MiB" % (n / 1048576.0)


def report_graph(g, res, t):
    b, mem, flop = bound_cycles(g, t)
    print("(%s) %s: %d ops%s" % (g.name, g.title, g.compute_ops(),
                                 "; " + g.note if g.note else ""))
    print("    minimum %s (inputs, weights, constants, outputs once); NE %.3g GFLOP %s"
          % (fmt_bytes(g.minimum_bytes()), g.flops / 1e9, g.flop_dt))
    print("    bound %.0f cycles = max(DDR %.0f, NE %.0f)" % (b, mem, flop))
    if isinstance(res, str):
        print("    not runnable today: %s" % res)
        return None
    moved = res["moved"] / g.minimum_bytes()
    cyc = res["cycles"] / b
    tm, tc = g.target
    print("    program: %d groups, DDR read %s written %s, %d cycles; %s"
          % (res["groups"], fmt_bytes(res["read"]), fmt_bytes(res["written"]),
             res["cycles"], res["verdict"]))
    print("    DDR moved / minimum %6.2f  (target <= %.1f: %s)"
          % (moved, tm, "met" if moved <= tm else "not met"))
    print("    cycles / bound      %6.2f  (target <= %.1f: %s); with perfect overlap "
          "of each group's engines (DDR shared) %.2f" % (cyc, tc, "met" if cyc <= tc else "not met",
                                            res["overlap"] / b))
    gb = res["cycles"] / res["group_bound"] if res["group_bound"] else 0.0
    print("    cycles / group bound %5.2f  (item 3 target <= %.2f: %s); the report's "
          "total bound %d cycles" % (gb, GROUP_BOUND_TARGET,
                                     "met" if gb <= GROUP_BOUND_TARGET else "not met",
                                     res["group_bound"]))
    return moved, cyc


def compile_scale(tools, work, ops):
    """npuc-compile time and main.c size per op on an `ops`-long
    elementwise chain (the shape of the 20-op graph, small tensors)."""
    g = Graph("scale", "", None)
    shape, dt = [64, 64], "bf16"
    g.arg("x", shape, dt)
    g.arg("y", [64], dt)
    # The second operand is an input: a constant shared by many ops is
    # defined once per use in today's main.c (see attention_graph).
    kinds = ["relu", ("mul", "y"), "abs", ("add", "y")]
    cur = "x"
    for i in range(ops):
        k = kinds[i % len(kinds)]
        res = "v%d" % i
        if isinstance(k, tuple):
            g.op(res, k[0], [cur, k[1]], shape, dt)
        else:
            g.op(res, k, [cur], shape, dt)
        cur = res
    g.outputs = [cur]
    d, out, secs, r = compile_graph(tools, g, work)
    if r.returncode != 0:
        print("compile time: npuc-compile failed on the %d-op graph: %s"
              % (ops, (r.stdout or "").strip()[:300]))
        return
    size = os.path.getsize(os.path.join(out, "main.c"))
    wall, cpu = secs
    us = cpu * 1e6 / ops
    print("compile time on a %d-op elementwise chain: %.2f s CPU (%.2f s wall), "
          "%.1f us/op CPU (target <= 150: %s)"
          % (ops, cpu, wall, us, "met" if us <= 150 else "not met"))
    print("main.c: %d bytes, %.0f bytes/op (target < 1024: %s)"
          % (size, size / ops, "met" if size / ops < 1024 else "not met"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", required=True, help="where npuc-compile is")
    p.add_argument("--target-yaml", required=True)
    p.add_argument("--work", help="keep the graphs and programs here")
    p.add_argument("--ops", type=int, default=10000)
    p.add_argument("--only", default="a,b,c,d,e,f,g,h",
                   help="graphs to run, comma-separated (empty: none)")
    p.add_argument("--compile-opt", action="append", default=[],
                   help="an npuc-compile option for every graph, e.g. "
                   "--compile-opt=--tx8-opt-ddr=false (repeatable)")
    p.add_argument("--no-check", action="store_true",
                   help="do not compare with the reference (its naive double "
                        "reference takes minutes on the MLP and FFN)")
    args = p.parse_args()
    global CHECK_OFF
    CHECK_OFF = args.no_check
    tools = {"compile": os.path.join(args.bin, "npuc-compile"),
             "check": os.path.join(args.bin, "npuc-tx8-check"),
             "opts": args.compile_opt}
    t = load_target(args.target_yaml)
    work = args.work or tempfile.mkdtemp(prefix="tx8-fusion-")
    try:
        print("TX8 fusion benchmark: target %s: %d chip(s) of %d tiles, %.1f GHz, "
              "DDR %.0f GB/s, NE TFLOP/s %s" % (
                  args.target_yaml, t["chips"], t["tiles"], t["clock_ghz"], t["ddr_gbps"],
                  ", ".join("%s %g" % kv for kv in sorted(t["tflops"].items()))))
        print("DDR moved = the program's report, bytes read + written over all "
              "tiles and groups; cycles = its total (slowest tile per group, summed)")
        makers = {"a": lambda: chain_graph(t), "b": lambda: attention_graph(t),
                  "c": lambda: resnet_graph(t), "d": lambda: depthwise_graph(t),
                  "e": lambda: mlp_graph(t), "f": lambda: ffn_graph(t),
                  "g": lambda: resnet8_graph(t), "h": lambda: bottleneck_graph(t)}
        for name in filter(None, args.only.split(",")):
            g = makers[name]()
            report_graph(g, run_graph(tools, g, work), t)
        if args.ops > 0:
            compile_scale(tools, work, args.ops)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
