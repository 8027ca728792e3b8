#!/usr/bin/env python3
"""Random end-to-end tests of `npuc-compile --target=tx8`, in the seed's
test-generator style: random dims, layouts, dtypes and shapes within each
op's support.

For each configuration it writes, into OUT/caseN/:
  model.mlir   the graph, flat as users write it (--flat, half with
               --mixed: npuc-compile runs the whole tx8 pipeline) or in the
               TX8 pipeline contract's post-grouping form (one tx8be.group
               per compute op, load_var / channel_norm / store_var inside,
               dev_info layouts on some loads, some results kept in DDR in
               an aligned layout);
  argN.bin     the graph inputs (raw little-endian elements, row-major),
               constN.bin the constants (also in the module's
               tx8be.const_container);
  config.json  the configuration;
  graph.txt    the same graph for npuc-tx8-check;
  target.yaml  when the configuration shrinks SPM to force temporal splits;
then compiles it, builds the program, runs it on the simulated tiles and
compares its outputs with the naive reference of libnpuc_tx8_rt
(npuc-tx8-check). Exits 1 if any configuration fails.

Usage: gen.py --seed S --count N --out DIR [--bin BUILD/bin] [--kinds k,...]
              [--flat | --mixed] [--cycle] [--spm BYTES] [--tiles DXxDY]
              [--verbose]
Kinds: batchnorm, gemm, conv, add_vector (a rank-1 operand), binary,
unary, graph5 (conv -> batchnorm -> relu -> gemm -> add); the ops networks
use: clip, reduce (sum/max/min/mean over random axes), softmax (any axis),
layernorm, transpose (any permutation), broadcast, concat, slice, pool
(max, avg, global avg; NHWC), bmm (batched gemm: [B,(H,)M,K] x
[B,(H,)K,N]), dwconv (depthwise and grouped conv).
The fused kinds put all their ops in one tx8be.group: fuse_conv2 (conv ->
conv), fuse_resblock (conv -> batchnorm -> relu -> add -> relu, at times
adding the conv's own input), fuse_gemm_act (gemm -> add bias -> gelu),
fuse_scores (gemm -> mul -> exp or softmax), fuse_eltwise (2 to 20 elementwise ops),
fuse_eltwise20, fuse_chain (2 to 6 ops at random). A fused case is also
compiled flat (tx8-group-single: one op per group) into build-single/ and
its outputs must be the same bytes as the fused program's.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

KINDS = ["batchnorm", "gemm", "conv", "add_vector", "binary", "unary", "graph5",
         "clip", "reduce", "softmax", "layernorm", "transpose", "broadcast",
         "concat", "slice", "pool", "bmm", "dwconv",
         "fuse_conv2", "fuse_resblock", "fuse_gemm_act", "fuse_scores",
         "fuse_eltwise", "fuse_eltwise20", "fuse_chain"]
FLOATS = ["f16", "bf16", "f32"]
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}


# ---- values ---------------------------------------------------------------------

def rand_values(rng, dt, n, lo=-4.0, hi=4.0, positive=False, nonzero=False):
    """Values exact in every dtype: multiples of 1/16 (integers for i8)."""
    out = []
    for _ in range(n):
        if dt == "i8":
            v = rng.randint(1 if positive else -20, 20)
        else:
            v = rng.randint(int(lo * 16), int(hi * 16)) / 16.0
            if positive:
                v = abs(v) + 0.25
            if nonzero and abs(v) < 0.5:
                v = 0.5 if v >= 0 else -0.5
        out.append(v)
    return out


def pack(dt, values):
    if dt == "f16":
        return struct.pack("<%de" % len(values), *values)
    if dt == "f32":
        return struct.pack("<%df" % len(values), *values)
    if dt == "bf16":  # exact values: the top half of the f32 bits
        return b"".join(struct.pack("<I", v)[2:] for v in
                        struct.unpack("<%dI" % len(values),
                                      struct.pack("<%df" % len(values), *values)))
    return struct.pack("<%db" % len(values), *[int(v) for v in values])


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def ttype(shape, dt):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), dt)


def dense(values, shape, dt):
    """A dense<...> literal nested to `shape`."""
    fmt = (lambda v: str(int(v))) if dt == "i8" else (lambda v: "%.6e" % v)
    def nest(vals, dims):
        if len(dims) == 1:
            return "[" + ", ".join(fmt(v) for v in vals) + "]"
        step = count(dims[1:])
        return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s> : %s" % (nest(values, shape), ttype(shape, dt))


# ---- the graph -------------------------------------------------------------------

class Graph:
    """Tensors (inputs, constants, op results) and ops, each op one group."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs = []     # (name, shape, dt, values)
        self.consts = []     # (name, shape, dt, values)
        self.ops = []        # dicts
        self.shapes = {}
        self.dtypes = {}
        self.uses_none = False
        self.fuse = False    # all ops in one group
        self.roomy = False   # a wide conv given SPM to spare (roomy_spm)

    def input(self, shape, dt, **kw):
        name = "arg%d" % len(self.inputs)
        vals = rand_values(self.rng, dt, count(shape), **kw)
        self.inputs.append((name, shape, dt, vals))
        self.shapes[name], self.dtypes[name] = shape, dt
        return name

    def weight(self, shape, dt, **kw):
        """An input or, at random, a constant of the container."""
        if self.rng.random() < 0.4 and count(shape) <= 4096:
            name = "const%d" % len(self.consts)
            vals = rand_values(self.rng, dt, count(shape), **kw)
            self.consts.append((name, shape, dt, vals))
            self.shapes[name], self.dtypes[name] = shape, dt
            return name
        return self.input(shape, dt, **kw)

    def op(self, kind, shape, dt, operands, params="", **attrs):
        name = "t%d" % len(self.ops)
        self.ops.append(dict(name=name, kind=kind, shape=shape, dt=dt,
                             operands=operands, params=params, attrs=attrs))
        self.shapes[name], self.dtypes[name] = shape, dt
        return name


# ---- configurations ---------------------------------------------------------------

def pick_channels(rng):
    return rng.choice([rng.randint(1, 32), rng.randint(33, 160)])


def gen_batchnorm(rng, g, dt=None, x=None):
    dt = dt or rng.choice(FLOATS)
    if x is None:
        rank = rng.randint(2, 4)
        shape = [rng.randint(1, 3)] + [rng.randint(1, 6) for _ in range(rank - 2)] \
            + [pick_channels(rng)]
        x = g.input(shape, dt)
    c = g.shapes[x][-1]
    vdt = rng.choice(FLOATS)
    scale = g.weight([c], vdt)
    offset = g.weight([c], vdt)
    mean = g.weight([c], vdt)
    var = g.weight([c], vdt, lo=0.0, hi=4.0, positive=True)
    eps = rng.choice([1e-5, 1e-3, 1e-6])
    return g.op("batchnorm", g.shapes[x], dt, [x, scale, offset, mean, var],
                params="%g" % eps, epsilon=eps)


def gen_gemm(rng, g, dt=None, a=None, n=None):
    dt = dt or rng.choice(FLOATS + ["i8"])
    ta = tb = False
    if a is None:
        rank = rng.randint(2, 3)
        m, k = rng.randint(1, 40), rng.randint(1, 80)
        ta = rng.random() < 0.3
        batch = [rng.randint(1, 3)] if rank == 3 else []
        a = g.input(batch + ([k, m] if ta else [m, k]), dt)
        out_rows = batch + [m]
    else:
        k = g.shapes[a][-1]
        out_rows = g.shapes[a][:-1]
    n = n or rng.randint(1, 48)
    tb = rng.random() < 0.3
    b = g.weight([n, k] if tb else [k, n], dt)
    bias = g.weight([n], dt) if rng.random() < 0.6 else "-"
    return g.op("gemm", out_rows + [n], dt, [a, b, bias],
                params="%d %d" % (ta, tb), transpose_a=ta, transpose_b=tb)


# How often a conv of a new input has 64 to 320 input channels (the K
# split at a small SPM; 3 in 4 roomy: gen_conv, roomy_spm); 0 draws
# nothing, so a seed's cases stay the same.
WIDE_CONVS = 0.0


def gen_conv(rng, g, dt=None, x=None, same=False, groups=None, per_group=None):
    """A conv of a new input, or of `x` (NHWC); `same`: 3x3, stride 1, pads
    1, as many channels out as in (a residual block's); `groups` groups of
    `per_group` input channels (grouped and depthwise convs)."""
    given_dt = dt
    dt = dt or rng.choice(FLOATS + ["i8"])
    groups = groups or (rng.choice([1, 1, 2]) if x is None else 1)
    n, h, w = rng.randint(1, 2), rng.randint(3, 10), rng.randint(3, 10)
    cin = groups * (per_group or rng.randint(1, 20))
    roomy = False
    if WIDE_CONVS > 0 and x is None and groups == 1 and rng.random() < WIDE_CONVS:
        # Many input channels: at a small SPM no slice holds them all, so
        # the conv splits its K (input channels) into slices.
        cin = rng.randint(64, 320)
        # Three in four roomy: a 3x3 conv at 12 to 16 rows and columns, f32
        # unless the caller's dtype is given (the NE work per K slice
        # near its DMA's), whose SPM run_case grows past the first fit
        # until two copies of the K slices' loads fit and pay: the
        # pipelined K loop (roomy_spm).
        roomy = rng.random() < 0.75
        if roomy:
            n, h = 1, rng.randint(12, 16)
            w, cin = h, rng.randint(128, 256)
            dt = given_dt or "f32"
            g.roomy = True
    if x is not None:
        n, h, w, cin = g.shapes[x]
    cout = groups * (rng.randint(1, 3) if per_group else rng.randint(1, 20))
    kh, kw = rng.randint(1, 3), rng.randint(1, 3)
    sh, sw = rng.randint(1, 2), rng.randint(1, 2)
    dh, dw = rng.randint(1, 2), rng.randint(1, 2)
    if roomy:
        cout = rng.randint(16, 32)
        kh = kw = 3
        sh = sw = dh = dw = 1
    if same:
        kh = kw = 3
        sh = sw = dh = dw = 1
        cout = cin
    if x is not None:  # the kernel must fit the input
        while (kh - 1) * dh + 1 > h:
            kh, dh = max(1, kh - 1), 1
        while (kw - 1) * dw + 1 > w:
            kw, dw = max(1, kw - 1), 1
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    pads = [rng.randint(0, eh - 1), rng.randint(0, eh - 1),
            rng.randint(0, ew - 1), rng.randint(0, ew - 1)]
    if same:
        pads = [1, 1, 1, 1]
    h, w = max(h, eh), max(w, ew)
    oh = (h + pads[0] + pads[1] - eh) // sh + 1
    ow = (w + pads[2] + pads[3] - ew) // sw + 1
    if x is None:
        x = g.input([n, h, w, cin], dt, lo=-2, hi=2)
    wt = g.weight([kh, kw, cout, cin // groups], dt, lo=-1, hi=1)
    bias = g.weight([cout], dt) if rng.random() < 0.6 else "-"
    params = "%d %d %d %d %d %d %d %d %d" % (sh, sw, *pads, dh, dw, groups)
    return g.op("conv", [n, oh, ow, cout], dt, [x, wt, bias], params=params,
                strides=[sh, sw], pads=pads, dilations=[dh, dw], group=groups)


def gen_add_vector(rng, g, dt=None, x=None, op="add"):
    dt = dt or rng.choice(FLOATS + ["i8"])
    if x is None:
        rank = rng.randint(1, 4)
        shape = [rng.randint(1, 5) for _ in range(rank - 1)] + [pick_channels(rng)]
        x = g.input(shape, dt)
    vec = g.weight([g.shapes[x][-1]], dt, nonzero=(op == "div"))
    operands = [x, vec] if rng.random() < 0.7 else [vec, x]
    if op == "div":
        operands = [x, vec]
    return g.op(op, g.shapes[x], dt, operands)


def gen_binary(rng, g):
    op = rng.choice(["add", "sub", "mul", "div", "pow"])
    if op == "pow":
        return gen_pow(rng, g)
    dt = rng.choice(FLOATS + (["i8"] if op != "div" else []))
    if rng.random() < 0.4:
        return gen_add_vector(rng, g, dt, op=op)
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 6) for _ in range(rank - 1)] + [pick_channels(rng)]
    a = g.input(shape, dt)
    b = g.input(shape, dt, nonzero=(op == "div"))
    return g.op(op, shape, dt, [a, b])


def gen_unary(rng, g):
    op = rng.choice(["relu", "gelu", "exp", "log", "sigmoid", "tanh", "sqrt",
                     "rsqrt", "abs", "silu", "gelu_tanh"])
    dt = rng.choice(FLOATS + (["i8"] if op in ("relu", "abs") else []))
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 6) for _ in range(rank - 1)] + [pick_channels(rng)]
    positive = op in ("log", "sqrt", "rsqrt")
    x = g.input(shape, dt, positive=positive, lo=-3, hi=3)
    return g.op(op, shape, dt, [x])


def gen_graph5(rng, g):
    """Conv -> BatchNorm -> Relu -> Gemm -> Add (rank-1)."""
    dt = rng.choice(FLOATS)
    y = gen_conv(rng, g, dt)
    y = gen_batchnorm(rng, g, dt, x=y)
    y = g.op("relu", g.shapes[y], dt, [y])
    y = gen_gemm(rng, g, dt, a=y)
    return gen_add_vector(rng, g, dt, x=y)


# ---- fused configurations: the ops of one tx8be.group ---------------------------------
# Each puts all its ops in one group (g.fuse); run_case also compiles the
# same graph flat (tx8-group-single: one op per group) and checks both give
# the same bytes.

SAFE_UNARY = ["relu", "abs", "tanh", "sigmoid", "gelu"]


def gen_fuse_conv2(rng, g):
    """Conv -> conv: the second conv's halo grows the first one's window."""
    dt = rng.choice(FLOATS)
    y = gen_conv(rng, g, dt)
    return gen_conv(rng, g, dt, x=y)


def gen_fuse_resblock(rng, g):
    """Conv -> BatchNorm -> Relu -> Add -> Relu; the add reads the conv's
    input (a residual: one load read with and without the halo) or a new
    input."""
    dt = rng.choice(FLOATS)
    residual = rng.random() < 0.5
    if residual:
        x = g.input([rng.randint(1, 2), rng.randint(3, 9), rng.randint(3, 9),
                     rng.randint(1, 40)], dt, lo=-2, hi=2)
        y = gen_conv(rng, g, dt, x=x, same=True)
    else:
        y = gen_conv(rng, g, dt)
    y = gen_batchnorm(rng, g, dt, x=y)
    y = g.op("relu", g.shapes[y], dt, [y])
    other = x if residual else g.input(g.shapes[y], dt)
    y = g.op("add", g.shapes[y], dt, [y, other])
    return g.op("relu", g.shapes[y], dt, [y])


def gen_fuse_gemm_act(rng, g):
    """Gemm -> add bias -> gelu (the bias as an add, as graphs have it)."""
    dt = rng.choice(FLOATS)
    y = gen_gemm(rng, g, dt)
    y = gen_add_vector(rng, g, dt, x=y)
    return g.op("gelu", g.shapes[y], dt, [y])


def gen_fuse_scores(rng, g):
    """Gemm -> mul (a scale) -> exp or softmax: attention scores."""
    dt = rng.choice(FLOATS)
    rank = rng.randint(2, 3)
    m, k = rng.randint(1, 40), rng.randint(1, 48)
    batch = [rng.randint(1, 3)] if rank == 3 else []
    a = g.input(batch + [m, k], dt, lo=-0.5, hi=0.5)
    n = rng.randint(1, 48)
    b = g.weight([k, n], dt, lo=-0.5, hi=0.5)
    y = g.op("gemm", batch + [m, n], dt, [a, b, "-"], params="0 0",
             transpose_a=False, transpose_b=False)
    scale = g.weight([n], dt, lo=0.0, hi=0.25, positive=True)
    y = g.op("mul", g.shapes[y], dt, [y, scale])
    if rng.random() < 0.5:  # the scores' softmax (its axis whole in a slice)
        axis = len(g.shapes[y]) - 1
        return g.op("softmax", g.shapes[y], dt, [y], params="%d" % axis,
                    axis=axis)
    return g.op("exp", g.shapes[y], dt, [y])


def gen_eltwise_op(rng, g, dt, y):
    roll = rng.random()
    if roll < 0.5:
        return g.op(rng.choice(SAFE_UNARY), g.shapes[y], dt, [y])
    op = rng.choice(["add", "sub", "mul"])
    if roll < 0.75:
        other = g.weight([g.shapes[y][-1]], dt, lo=-1, hi=1)
    else:
        other = g.input(g.shapes[y], dt, lo=-1, hi=1)
    return g.op(op, g.shapes[y], dt, [y, other] if rng.random() < 0.7
                else [other, y])


def gen_fuse_eltwise(rng, g, length=None):
    """A chain of elementwise ops (20 at times), some reading new inputs."""
    dt = rng.choice(FLOATS)
    length = length or rng.choice([2, 3, 4, 6, 20])
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 6) for _ in range(rank - 1)] + [pick_channels(rng)]
    y = g.input(shape, dt, lo=-2, hi=2)
    for _ in range(length):
        y = gen_eltwise_op(rng, g, dt, y)
    return y


def gen_fuse_chain(rng, g):
    """A random chain of 2 to 6 ops the slice rules support: it starts with
    a conv, a gemm or an elementwise op; then batchnorm, elementwise ops,
    a gemm, or a conv while the value is NHWC."""
    dt = rng.choice(FLOATS)
    first = rng.choice(["conv", "gemm", "eltwise"])
    if first == "conv":
        y = gen_conv(rng, g, dt)
    elif first == "gemm":
        y = gen_gemm(rng, g, dt)
    else:
        y = gen_fuse_eltwise(rng, g, length=1)
        dt = g.dtypes[y]
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        if roll < 0.15 and len(g.shapes[y]) >= 2:
            y = gen_batchnorm(rng, g, dt, x=y)
        elif roll < 0.25 and len(g.shapes[y]) >= 2:
            y = gen_gemm(rng, g, dt, a=y, n=rng.randint(1, 24))
        elif roll < 0.4 and len(g.shapes[y]) == 4:
            y = gen_conv(rng, g, dt, x=y)
        else:
            y = gen_eltwise_op(rng, g, dt, y)
    return y


def rand_shape(rng, min_rank=1):
    rank = rng.randint(min_rank, 4)
    return [rng.randint(1, 5) for _ in range(rank - 1)] + [pick_channels(rng)]


def gen_pow(rng, g):
    """A positive base (a negative one is NaN), the exponent full or [C]."""
    dt = rng.choice(FLOATS)
    shape = rand_shape(rng)
    a = g.input(shape, dt, lo=0, hi=3, positive=True)
    b = g.weight([shape[-1]] if rng.random() < 0.5 else shape, dt, lo=-2, hi=2)
    return g.op("pow", shape, dt, [a, b])


def gen_clip(rng, g):
    dt = rng.choice(FLOATS + ["i8"])
    shape = rand_shape(rng)
    lo, hi = (0.0, 6.0) if rng.random() < 0.5 else \
        sorted([rng.randint(-16, 16) / 4.0, rng.randint(-16, 16) / 4.0])
    x = g.input(shape, dt, lo=-8, hi=8)
    return g.op("clip", shape, dt, [x], params="%g %g" % (lo, hi), min=lo, max=hi)


def gen_reduce(rng, g):
    op = rng.choice(["reduce_sum", "reduce_max", "reduce_min", "reduce_mean"])
    dt = rng.choice(FLOATS + (["i8"] if op in ("reduce_max", "reduce_min") else []))
    shape = rand_shape(rng)
    axes = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
    x = g.input(shape, dt, lo=-2, hi=2)
    out = [1 if d in axes else n for d, n in enumerate(shape)]
    # Negative spellings at random: they count from the end.
    spelled = [a - len(shape) if rng.random() < 0.3 else a for a in axes]
    mask = sum(1 << a for a in axes)
    return g.op(op, out, dt, [x], params="%d" % mask, axes=spelled)


def gen_softmax(rng, g):
    dt = rng.choice(FLOATS)
    shape = rand_shape(rng)
    axis = rng.randrange(len(shape))
    x = g.input(shape, dt, lo=-8, hi=8)
    spelled = axis - len(shape) if rng.random() < 0.3 else axis
    return g.op("softmax", shape, dt, [x], params="%d" % axis, axis=spelled)


def gen_layernorm(rng, g):
    dt = rng.choice(FLOATS)
    shape = rand_shape(rng)
    x = g.input(shape, dt, lo=-3, hi=3)
    scale = g.weight([shape[-1]], dt, lo=-2, hi=2)
    bias = g.weight([shape[-1]], dt, lo=-1, hi=1)
    eps = rng.choice([1e-5, 1e-3])
    return g.op("layernorm", shape, dt, [x, scale, bias], params="%g" % eps,
                epsilon=eps)


def gen_transpose(rng, g):
    dt = rng.choice(FLOATS + ["i8"])
    shape = rand_shape(rng, 2)
    perm = list(range(len(shape)))
    while perm == sorted(perm):
        rng.shuffle(perm)
    x = g.input(shape, dt)
    return g.op("transpose", [shape[p] for p in perm], dt, [x],
                params=" ".join(map(str, perm)), permutation=perm)


def gen_broadcast(rng, g):
    """A lower-rank input: a choice of result dimensions, some of them 1."""
    dt = rng.choice(FLOATS + ["i8"])
    shape = rand_shape(rng)
    dims = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
    if rng.random() < 0.5:
        dims = [len(shape) - 1]  # the bias-like [C] vector
    ins = [shape[d] if rng.random() < 0.7 else 1 for d in dims]
    x = g.input(ins, dt)
    return g.op("broadcast", shape, dt, [x],
                params="%d %s" % (len(dims), " ".join(map(str, dims))), dims=dims)


def gen_concat(rng, g):
    dt = rng.choice(FLOATS + ["i8"])
    shape = rand_shape(rng)
    axis = rng.randrange(len(shape))
    xs = []
    for _ in range(rng.randint(2, 4)):
        s = list(shape)
        s[axis] = rng.randint(1, 40 if axis == len(shape) - 1 else 4)
        xs.append(g.input(s, dt))
    out = list(shape)
    out[axis] = sum(g.shapes[x][axis] for x in xs)
    return g.op("concat", out, dt, xs, params="%d" % axis, axis=axis)


def gen_slice(rng, g):
    dt = rng.choice(FLOATS + ["i8"])
    shape = rand_shape(rng)
    offsets, sizes, strides = [], [], []
    for n in shape:
        o = rng.randint(0, n - 1)
        s = rng.randint(1, 3)
        offsets.append(o)
        strides.append(s)
        sizes.append(rng.randint(1, (n - 1 - o) // s + 1))
    x = g.input(shape, dt)
    return g.op("slice", sizes, dt, [x],
                params="%s %s" % (" ".join(map(str, offsets)),
                                  " ".join(map(str, strides))),
                offsets=offsets, sizes=sizes, strides=strides)


def gen_pool(rng, g):
    op = rng.choice(["max_pool", "avg_pool", "global_avg_pool"])
    dt = rng.choice(FLOATS + (["i8"] if op == "max_pool" else []))
    n, h, w, c = rng.randint(1, 2), rng.randint(1, 9), rng.randint(1, 9), \
        pick_channels(rng)
    x = g.input([n, h, w, c], dt)
    if op == "global_avg_pool":
        return g.op(op, [n, 1, 1, c], dt, [x])
    kh, kw = rng.randint(1, min(3, h)), rng.randint(1, min(3, w))
    sh, sw = rng.randint(1, 3), rng.randint(1, 3)
    pads = [rng.randint(0, kh - 1), rng.randint(0, kh - 1),
            rng.randint(0, kw - 1), rng.randint(0, kw - 1)]
    oh = (h + pads[0] + pads[1] - kh) // sh + 1
    ow = (w + pads[2] + pads[3] - kw) // sw + 1
    params = "%d %d %d %d %d %d %d %d" % (kh, kw, sh, sw, *pads)
    return g.op(op, [n, oh, ow, c], dt, [x], params=params, kernel=[kh, kw],
                strides=[sh, sw], pads=pads)


def gen_bmm(rng, g):
    """Attention-style: leading batch dimensions on both operands."""
    dt = rng.choice(FLOATS + ["i8"])
    lead = [rng.randint(1, 3) for _ in range(rng.randint(1, 2))]
    m, k, n = rng.randint(1, 20), rng.randint(1, 48), rng.randint(1, 40)
    tb = rng.random() < 0.5
    a = g.input(lead + [m, k], dt, lo=-2, hi=2)
    b = g.input(lead + ([n, k] if tb else [k, n]), dt, lo=-2, hi=2)
    bias = g.weight([n], dt) if rng.random() < 0.3 else "-"
    return g.op("gemm", lead + [m, n], dt, [a, b, bias],
                params="0 %d" % tb, transpose_a=False, transpose_b=tb)


def gen_dwconv(rng, g):
    """Depthwise (groups = C, one input channel each) or 1 < groups < C."""
    if rng.random() < 0.6:
        return gen_conv(rng, g, groups=pick_channels(rng), per_group=1)
    return gen_conv(rng, g, groups=rng.randint(3, 8), per_group=rng.randint(2, 12))


GENERATORS = {"dwconv": gen_dwconv, "bmm": gen_bmm, "pool": gen_pool, "broadcast": gen_broadcast, "concat": gen_concat,
              "slice": gen_slice, "clip": gen_clip, "reduce": gen_reduce, "softmax": gen_softmax,
              "layernorm": gen_layernorm, "transpose": gen_transpose,
              "batchnorm": gen_batchnorm, "gemm": gen_gemm, "conv": gen_conv,
              "add_vector": gen_add_vector, "binary": gen_binary,
              "unary": gen_unary, "graph5": gen_graph5,
              "fuse_conv2": gen_fuse_conv2, "fuse_resblock": gen_fuse_resblock,
              "fuse_gemm_act": gen_fuse_gemm_act,
              "fuse_scores": gen_fuse_scores, "fuse_eltwise": gen_fuse_eltwise,
              "fuse_eltwise20": lambda rng, g: gen_fuse_eltwise(rng, g, 20),
              "fuse_chain": gen_fuse_chain}
FUSED = [k for k in GENERATORS if k.startswith("fuse_")]


# ---- writing the module ---------------------------------------------------------------

NE_OPS = ("gemm", "conv")


def layout_names(rank):
    return ("NTensor", "NCx") if rank >= 3 else ("Tensor", "Cx")


def dev_attr(layout):
    return ("dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = %s, "
            "multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], "
            "temporal_mem_slice = [], source_type = 0, imm_addr = 0, "
            "mem_addr = []>" % layout)


def plan_layouts(rng, op, g):
    """Per tensor operand: (load layout or None, channel_norm target or None);
    and the result's (dev_info layout or None, channel_norm after or None).
    CGRA ops need every full operand in the result's family."""
    rank = len(op["shape"])
    out_aligned = rng.random() < 0.5
    out_attr = None
    if op["kind"] in NE_OPS or op["kind"] == "batchnorm":
        if rng.random() < 0.5:
            out_attr = layout_names(rank)[1 if out_aligned else 0]
        else:
            out_aligned = True  # gemm, conv, batchnorm default to aligned
    else:
        if rng.random() < 0.6:
            out_attr = layout_names(rank)[1 if out_aligned else 0]
        else:
            out_aligned = False  # elementwise ops default to compact
    loads = []
    for name in op["operands"]:
        if name == "-":
            loads.append(None)
            continue
        r = len(g.shapes[name])
        names = layout_names(r)
        vector = r == 1 and rank > 1
        if op["kind"] in NE_OPS or vector:
            choice = rng.choice([None, names[0], names[1]])
            loads.append((choice, None))
            continue
        roll = rng.random()
        if roll < 0.3:
            loads.append((None, None))
        elif roll < 0.6:
            loads.append((names[1 if out_aligned else 0], None))
        else:  # the other family, converted by a channel_norm
            loads.append((names[0 if out_aligned else 1],
                          names[1 if out_aligned else 0]))
    after = None
    if rng.random() < 0.3:
        after = layout_names(rank)[0 if out_aligned else 1]
    return loads, (out_attr, after)


def op_text(op, operands, types, rtype, extra):
    """The compute op; `extra` are attribute-dictionary entries."""
    k = op["kind"]
    a = op["attrs"]
    if k in ("batchnorm", "layernorm"):
        extra = extra + ["epsilon = %.6e : f32" % a["epsilon"]]
    if k == "clip":
        extra = extra + ["min = %.6e : f32" % a["min"], "max = %.6e : f32" % a["max"]]
    d = " {%s}" % ", ".join(extra) if extra else ""
    sig = " : %s -> %s" % (", ".join(types), rtype)
    ops = ", ".join(operands)
    if k == "batchnorm":
        return "tx8be.batchnorm_inference %s%s%s" % (ops, d, sig)
    if k == "gemm":
        flags = (" transpose_a" if a["transpose_a"] else "") + \
                (" transpose_b" if a["transpose_b"] else "")
        return "tx8be.gemm %s%s%s%s" % (ops, flags, d, sig)
    if k.startswith("reduce_"):
        return "tx8be.%s %s axes = %s%s%s" % (k, ops, a["axes"], d, sig)
    if k == "softmax":
        return "tx8be.softmax %s axis = %d%s%s" % (ops, a["axis"], d, sig)
    if k in ("max_pool", "avg_pool"):
        return "tx8be.%s %s kernel = %s strides = %s pads = %s%s%s" % (
            k, ops, a["kernel"], a["strides"], a["pads"], d, sig)
    if k == "broadcast":
        return "tx8be.broadcast %s dims = %s%s%s" % (ops, a["dims"], d, sig)
    if k == "concat":
        return "tx8be.concat %s axis = %d%s%s" % (ops, a["axis"], d, sig)
    if k == "slice":
        return "tx8be.slice %s offsets = %s sizes = %s strides = %s%s%s" % (
            ops, a["offsets"], a["sizes"], a["strides"], d, sig)
    if k == "transpose":
        return "tx8be.transpose %s permutation = %s%s%s" % (ops, a["permutation"], d, sig)
    if k == "conv":
        return ("tx8be.conv %s strides = %s pads = %s dilations = %s group = %d%s%s"
                % (ops, a["strides"], a["pads"], a["dilations"], a["group"], d, sig))
    return "tx8be.%s %s%s%s" % (k, ops, d, sig)


def write_module(rng, g, tiles, results):
    ty = lambda n: ttype(g.shapes[n], g.dtypes[n])
    lines = []
    attrs = ["tx8be.tile_dx = %d : i32" % tiles[0],
             "tx8be.tile_dy = %d : i32" % tiles[1]]
    if g.consts:
        attrs.append("tx8be.const_container = [%s]" % ", ".join(
            dense(v, s, dt) for (_, s, dt, v) in g.consts))
    lines.append("module attributes {%s} {" % ", ".join(attrs))
    args = ", ".join("%%%s: %s" % (n, ty(n)) for (n, _, _, _) in g.inputs)
    lines.append("  func.func @main(%s) -> (%s) {" % (
        args, ", ".join(ty(r) for r in results)))
    for i, (n, _, _, _) in enumerate(g.consts):
        lines.append("    %%%s = tx8be.load_const[%d] : %s" % (n, i, ty(n)))
    if any("-" in op["operands"] for op in g.ops):
        lines.append("    %none = tx8be.none : none")
    region = "#tx8be.region_attr<tile_dx = %d, tile_dy = %d>" % tiles
    if g.fuse:
        lines += fused_group(rng, g, region, results)
        g_ops = []
    else:
        g_ops = g.ops
    for gid, op in enumerate(g_ops):
        ins = [n for n in op["operands"] if n != "-"]
        rtype = ttype(op["shape"], op["dt"])
        loads, (out_attr, after) = plan_layouts(rng, op, g)
        lines.append("    %%%s = tx8be.group(%s) : (%s) -> (%s) attributes "
                     "{dev_region = %s, group_id = %d : si32, group_tag = 0 : i32} {"
                     % (op["name"], ", ".join("%" + n for n in ins),
                        ", ".join(ty(n) for n in ins), rtype, region, gid))
        lines.append("    ^bb0(%s):" % ", ".join(
            "%%b%d: %s" % (i, ty(n)) for i, n in enumerate(ins)))
        values, types, arg = [], [], 0
        for name, load in zip(op["operands"], loads):
            if name == "-":
                values.append("%none")
                types.append("none")
                continue
            t = ty(name)
            dattr = " {%s}" % dev_attr(load[0]) if load[0] else ""
            lines.append("      %%l%d = tx8be.load_var %%b%d%s : %s -> %s" %
                         (arg, arg, dattr, t, t))
            value = "%%l%d" % arg
            if load[1]:
                lines.append("      %%n%d = tx8be.channel_norm %s to <%s> : %s -> %s"
                             % (arg, value, load[1], t, t))
                value = "%%n%d" % arg
            values.append(value)
            types.append(t)
            arg += 1
        text = op_text(op, values, types, rtype,
                       [dev_attr(out_attr)] if out_attr else [])
        lines.append("      %%r = %s" % text)
        stored = "%r"
        if after:
            lines.append("      %%ra = tx8be.channel_norm %%r to <%s> : %s -> %s" %
                         (after, rtype, rtype))
            stored = "%ra"
        # The result may stay in DDR in an aligned layout (as tx8-group-ldst
        # leaves it); the next group's load and the host convert.
        sattr = " {%s}" % dev_attr(layout_names(len(op["shape"]))[1]) \
            if rng.random() < 0.3 else ""
        lines.append("      %%s = tx8be.store_var %s%s : %s -> %s" %
                     (stored, sattr, rtype, rtype))
        lines.append("      tx8be.return %%s : %s" % rtype)
        lines.append("    }")
    lines.append("    return %s : %s" % (", ".join("%" + r for r in results),
                                         ", ".join(ty(r) for r in results)))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def fused_group(rng, g, region, results):
    """All ops in one tx8be.group (the form tx8-group-single and the
    pattern grouping leave): one load_var per input, the ops on SPM values,
    a store_var of each result. Layouts are left to the group plan."""
    ty = lambda n: ttype(g.shapes[n], g.dtypes[n])
    made = set(op["name"] for op in g.ops)
    ins = []
    for op in g.ops:
        for n in op["operands"]:
            if n != "-" and n not in made and n not in ins:
                ins.append(n)
    lines = ["    %%%s = tx8be.group(%s) : (%s) -> (%s) attributes "
             "{dev_region = %s, group_id = 0 : si32, group_tag = 0 : i32} {"
             % (results[0], ", ".join("%" + n for n in ins),
                ", ".join(ty(n) for n in ins),
                ", ".join(ty(r) for r in results), region)]
    lines.append("    ^bb0(%s):" % ", ".join(
        "%%b%d: %s" % (i, ty(n)) for i, n in enumerate(ins)))
    value = {}
    for i, n in enumerate(ins):
        lines.append("      %%l%d = tx8be.load_var %%b%d : %s -> %s" %
                     (i, i, ty(n), ty(n)))
        value[n] = "%%l%d" % i
    for op in g.ops:
        vals = ["%none" if n == "-" else value[n] for n in op["operands"]]
        types = ["none" if n == "-" else ty(n) for n in op["operands"]]
        value[op["name"]] = "%%v_%s" % op["name"]
        lines.append("      %s = %s" % (value[op["name"]], op_text(
            op, vals, types, ttype(op["shape"], op["dt"]), [])))
    stored = []
    for i, r in enumerate(results):
        sattr = " {%s}" % dev_attr(layout_names(len(g.shapes[r]))[1]) \
            if rng.random() < 0.3 else ""
        lines.append("      %%s%d = tx8be.store_var %s%s : %s -> %s" %
                     (i, value[r], sattr, ty(r), ty(r)))
        stored.append("%%s%d" % i)
    lines.append("      tx8be.return %s : %s" % (
        ", ".join(stored), ", ".join(ty(r) for r in results)))
    lines.append("    }")
    return lines


def write_flat_module(rng, g, tiles, results):
    """The graph as users write it (the contract's input graph): weights as
    tx8be.constant, ops in order, no groups; npuc-compile's pipeline lays
    out, groups and shards it."""
    ty = lambda n: ttype(g.shapes[n], g.dtypes[n])
    lines = ["module attributes {tx8be.tile_dx = %d : i32, tx8be.tile_dy = %d : i32} {"
             % tiles]
    args = ", ".join("%%%s: %s" % (n, ty(n)) for (n, _, _, _) in g.inputs)
    lines.append("  func.func @main(%s) -> (%s) {" % (
        args, ", ".join(ty(r) for r in results)))
    for (n, s, dt, v) in g.consts:
        lines.append("    %%%s = tx8be.constant {value = %s} : %s" % (n, dense(v, s, dt), ty(n)))
    if any("-" in op["operands"] for op in g.ops):
        lines.append("    %none = tx8be.none : none")
    for op in g.ops:
        values = ["%none" if n == "-" else "%" + n for n in op["operands"]]
        types = ["none" if n == "-" else ty(n) for n in op["operands"]]
        lines.append("    %%%s = %s" % (op["name"], op_text(
            op, values, types, ttype(op["shape"], op["dt"]), [])))
    lines.append("    return %s : %s" % (", ".join("%" + r for r in results),
                                         ", ".join(ty(r) for r in results)))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_graph(g, results):
    lines = []
    for (n, s, dt, _) in g.inputs + g.consts:
        lines.append("in %s %s %d %s %s.bin" % (n, dt, len(s),
                                                " ".join(map(str, s)), n))
    for op in g.ops:
        s = op["shape"]
        lines.append("op %s %s %d %s %s %s : %s" % (
            op["name"], op["dt"], len(s), " ".join(map(str, s)), op["kind"],
            op["params"], " ".join(op["operands"])))
    for i, r in enumerate(results):
        lines.append("out %s result%d.bin" % (r, i))
    return "\n".join(lines) + "\n"


# ---- running ------------------------------------------------------------------------

def tool(bin_dir, name):
    return os.path.join(bin_dir, name) if bin_dir else name


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def compile_case(args, case, model, out, spm):
    while True:
        cmd = [tool(args.bin, "npuc-compile"), "--target=tx8", "-o", out,
               os.path.join(case, model)]
        if spm:
            cfg = os.path.join(case, "target.yaml")
            with open(cfg, "w") as f:
                f.write("tile:\n  spm_bytes: %d\n" % spm)
            cmd.insert(2, "--target-config=" + cfg)
        r = run(cmd)
        if r.returncode != 0 and spm and "does not fit SPM" in r.stdout:
            spm = spm * 3 // 2
            continue
        return r, spm


def roomy_spm(args, case, out, r, spm):
    """The first SPM that fits (spm, compiled into out: r) grown by a
    quarter a step, at most 24 steps, while the group still splits K,
    until its K loop is pipelined: two copies of each K slice's loads fit
    and the search finds they pay. As it was when no step gets there
    before the K split goes (SPM for all of K). out holds the compile of
    the SPM returned."""
    if k_split(out) is None:
        return r, spm
    grown = spm
    for _ in range(24):
        grown += grown // 4
        step, _ = compile_case(args, case, "model.mlir", out, grown)
        loop = k_split(out) if step.returncode == 0 else None
        if loop is None:
            break
        if loop == " (pipelined)":
            return step, grown
    return compile_case(args, case, "model.mlir", out, spm)


def build_run(r, out, case, results, check):
    """The steps after compiling (r): make, run into case/results, then the
    command check(results directory). Each step runs if the last passed."""
    steps = [r]
    if r.returncode == 0:
        steps.append(run(["make", "-s", "-C", out]))
    if steps[-1].returncode == 0 and len(steps) == 2:
        res = os.path.join(case, results)
        os.makedirs(res, exist_ok=True)
        steps.append(run([os.path.join(out, "program"), case, res]))
        if steps[-1].returncode == 0:
            steps.append(run(check(res)))
    return steps


def run_unfused(args, case, spm):
    """The fused case's graph with one op per group (the flat graph through
    the whole pipeline, tx8-group-single grouping it), run with the same
    SPM: its outputs must be the same bytes as the fused program's."""
    out = os.path.join(case, "build-single")
    r, _ = compile_case(args, case, "single.mlir", out, spm)
    steps = build_run(r, out, case, "results-single", lambda res: [
        "cmp", os.path.join(case, "results", "result0.bin"),
        os.path.join(res, "result0.bin")])
    if len(steps) < 4 and steps[-1].returncode == 0:
        steps[-1] = subprocess.CompletedProcess([], 1, "unfused run failed\n")
    return steps


def run_case(args, index, rng):
    # Half the random configurations are fused when both sorts are asked for.
    fused = [k for k in args.kinds if k in FUSED]
    other = [k for k in args.kinds if k not in FUSED]
    pool = fused if fused and (not other or rng.random() < 0.5) else other
    kind = args.kinds[index % len(args.kinds)] if args.cycle else rng.choice(pool)
    g = Graph(rng)
    result = GENERATORS[kind](rng, g)
    tiles = (4, 4) if rng.random() < 0.85 else rng.choice([(2, 2), (4, 2), (1, 1)])
    if args.tiles:
        tiles = tuple(int(t) for t in args.tiles.split("x"))
    case = os.path.join(args.out, "case%d" % index)
    os.makedirs(case, exist_ok=True)
    for (n, s, dt, v) in g.inputs + g.consts:
        with open(os.path.join(case, n + ".bin"), "wb") as f:
            f.write(pack(dt, v))
    flat = args.flat or (args.mixed and rng.random() < 0.5)
    g.fuse = kind in FUSED
    if g.fuse:
        flat = False  # fused by hand; its flat twin is the unfused graph
        with open(os.path.join(case, "single.mlir"), "w") as f:
            f.write(write_flat_module(rng, g, tiles, [result]))
    with open(os.path.join(case, "model.mlir"), "w") as f:
        f.write((write_flat_module if flat else write_module)(rng, g, tiles, [result]))
    with open(os.path.join(case, "graph.txt"), "w") as f:
        f.write(write_graph(g, [result]))
    # A small SPM forces temporal splits; grow it until the groups fit, so
    # it ends up a little above what the finest split needs.
    spm = rng.choice([None, 1024, 1024, 4096])
    if args.spm:
        spm = args.spm
    out = os.path.join(case, "build")
    if g.roomy and not args.spm:
        spm = spm or 1024  # the K split needs a small SPM to start from
    r, spm = compile_case(args, case, "model.mlir", out, spm)
    if g.roomy and not args.spm and r.returncode == 0:
        r, spm = roomy_spm(args, case, out, r, spm)
    config = dict(index=index, kind=kind, flat=flat, tiles=list(tiles), spm_bytes=spm,
                  inputs=[dict(name=n, shape=s, dtype=dt) for (n, s, dt, _) in g.inputs],
                  constants=[dict(name=n, shape=s, dtype=dt) for (n, s, dt, _) in g.consts],
                  ops=[dict(name=o["name"], kind=o["kind"], shape=o["shape"],
                            dtype=o["dt"], operands=o["operands"], attrs=o["attrs"])
                       for o in g.ops])
    with open(os.path.join(case, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    steps = build_run(r, out, case, "results", lambda res: [
        tool(args.bin, "npuc-tx8-check"), os.path.join(case, "graph.txt"),
        case, res])
    ok = steps[-1].returncode == 0 and len(steps) == 4
    if ok and g.fuse:
        steps += run_unfused(args, case, spm)
        ok = steps[-1].returncode == 0
    k_loop = k_split(out)
    summary = "%s case%d %s%s (%s)%s" % ("PASS" if ok else "FAIL", index, kind,
                                         " flat" if flat else "",
                                         ", ".join("%s%s" % (o["kind"], o["shape"])
                                                   for o in g.ops),
                                         " K split" + k_loop if k_loop is not None else "")
    print(summary)
    if not ok or args.verbose:
        for s in steps:
            sys.stdout.write(s.stdout)
    return ok, k_loop


def k_split(out):
    """None when the program in `out` has no K loop (a reduce split),
    else " (pipelined)" when its K slices' loads go one K slice ahead, or
    ""."""
    try:
        with open(os.path.join(out, "main.c")) as f:
            text = f.read()
    except OSError:
        return None
    if "K slices: partial sums in SPM" not in text and "the tile's K slices" not in text:
        return None
    return " (pipelined)" if "the K loop's prologue" in text else ""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--out", required=True)
    p.add_argument("--bin", default=None, help="where npuc-compile and "
                   "npuc-tx8-check are (default: PATH)")
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--flat", action="store_true",
                   help="write graphs as users do (no groups): the whole "
                   "tx8 pipeline runs")
    p.add_argument("--mixed", action="store_true",
                   help="flat graphs for half the configurations")
    p.add_argument("--cycle", action="store_true",
                   help="take the kinds in turn instead of at random")
    p.add_argument("--spm", type=int, default=0,
                   help="SPM bytes per tile to start from (default: at "
                   "random, at times small to force temporal splits)")
    p.add_argument("--tiles", default="",
                   help="the tile mesh DXxDY (default: 4x4 mostly, at random)")
    p.add_argument("--wide-convs", type=float, default=0.0,
                   help="how often a conv of a new input gets 64 to 320 "
                   "input channels, so a small SPM splits its K; 3 in 4 of "
                   "them 128 to 256 at 12 to 16 rows with SPM grown until "
                   "the K loop is pipelined (default 0: none, the cases of "
                   "a seed unchanged)")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    global WIDE_CONVS
    WIDE_CONVS = args.wide_convs
    args.kinds = args.kinds.split(",")
    rng = random.Random(args.seed)
    runs = [run_case(args, i, rng) for i in range(args.count)]
    passed = sum(ok for ok, _ in runs)
    split = [k for _, k in runs if k is not None]
    print("%d of %d configurations match the reference" % (passed, args.count))
    print("K split in %d (pipelined in %d)" % (len(split), split.count(" (pipelined)")))
    return 0 if passed == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
