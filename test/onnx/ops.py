#!/usr/bin/python3
"""Per-op tests of the ONNX front end: small models built with onnx.helper
at test time (no .onnx file in the tree), each compiled by
`npuc-compile --target=tx8`, run on the simulated tiles and compared with
a NumPy reference computed here (Debian's onnx 1.12 has no
onnx.reference). Inputs are random with a fixed seed.

  ops.py --bin BUILD/bin --out DIR [--family F] [--list]

Prints one line per case ("ok NAME" or "FAIL NAME: why") and a total;
exits 1 on any failure. Tolerance: max |error| <= 1e-4 * max(1, max |ref|)
in f32 (gemm and conv accumulate in another order than NumPy); with
--dtype f16 / bf16 (npuc-compile --tx8-dtype: the program computes in that
type, and reads and writes the model's f32 through tx8be.cast) 2e-2 / 8e-2.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit_models import (const, flatten_by_shape_nodes, gelu_nodes,  # noqa: E402
                        layernorm_nodes)

RNG = np.random.default_rng(20261126)
F = TensorProto.FLOAT


def rand(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


def elem_of(a):
    """A graph input's or output's element type: f16 for a float16 array
    (the program reads and writes it in f16), else f32."""
    return TensorProto.FLOAT16 if np.asarray(a).dtype == np.float16 else F


def file_dtype(a):
    return "<f2" if np.asarray(a).dtype == np.float16 else "<f4"


def model(nodes, inputs, outputs, inits=(), opset=13):
    """inputs: [(name, array)], outputs: [(name, shape, elem)]."""
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, elem_of(a), a.shape) for n, a in inputs],
        [helper.make_tensor_value_info(n, e, s) for n, s, e in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


# ---- NumPy references --------------------------------------------------------

def conv_ref(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dil=(1, 1),
             group=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64),
                ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (xp.shape[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * dil[0]:i * dil[0] + strides[0] * (oh - 1) + 1:strides[0],
                           j * dil[1]:j * dil[1] + strides[1] * (ow - 1) + 1:strides[1]]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def pool_ref(x, k, s, pads, kind):
    n, c, h, w = x.shape
    fill = -np.inf if kind == "max" else np.nan
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[2]),
                                       (pads[1], pads[3])), constant_values=fill)
    oh = (xp.shape[2] - k[0]) // s[0] + 1
    ow = (xp.shape[3] - k[1]) // s[1] + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]]
            out[:, :, i, j] = (np.max(win, axis=(2, 3)) if kind == "max"
                               else np.nanmean(win, axis=(2, 3)))
    return out


def bf16_round(x):
    """f32 to bf16 (round to nearest even) and back."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


def erf(x):
    import math
    return np.vectorize(math.erf)(x)


def gelu(x):
    return x * 0.5 * (1 + erf(x / np.sqrt(2)))


def layernorm(x, g, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ---- The cases: (family, name, model, inputs, expected outputs) ---------------

CASES = []


def case(family, name, nodes, inputs, refs, inits=(), opset=13):
    outs = [(f"y{k}" if len(refs) > 1 else "y", r.shape, elem_of(r))
            for k, r in enumerate(refs)]
    CASES.append((family, name, lambda: model(nodes, inputs, outs, inits, opset),
                  inputs, refs))


def unary_cases():
    x = rand(2, 3, 4, 5)
    for op, f, xin in [("Relu", lambda v: np.maximum(v, 0), x),
                       ("Sigmoid", lambda v: 1 / (1 + np.exp(-v)), x),
                       ("Tanh", np.tanh, x), ("Exp", np.exp, x),
                       ("Abs", np.abs, x),
                       ("Sqrt", np.sqrt, np.abs(x) + 0.1),
                       ("Log", np.log, np.abs(x) + 0.1)]:
        case("elementwise", op.lower(), [helper.make_node(op, ["x"], ["y"])],
             [("x", xin)], [f(xin.astype(np.float64))])
    case("elementwise", "clip-relu6",
         [const("lo", np.float32(0)), const("hi", np.float32(0.5)),
          helper.make_node("Clip", ["x", "lo", "hi"], ["y"])],
         [("x", x)], [np.clip(x, 0, 0.5)])
    # Cast: a run-time tensor rounded to f16 / bf16 and back (the ops
    # after it compute in the program's type); graph inputs and outputs
    # in f16 are read and written in f16.
    case("elementwise", "cast-f16-and-back",
         [helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
          helper.make_node("Cast", ["h"], ["y"], to=TensorProto.FLOAT)],
         [("x", x)], [x.astype(np.float16).astype(np.float32)])
    case("elementwise", "cast-bf16-relu",
         [helper.make_node("Cast", ["x"], ["h"], to=TensorProto.BFLOAT16),
          helper.make_node("Relu", ["h"], ["r"]),
          helper.make_node("Cast", ["r"], ["y"], to=TensorProto.FLOAT)],
         [("x", x)], [np.maximum(bf16_round(x), 0)])
    xh = x.astype(np.float16)
    case("elementwise", "f16-graph-io",
         [helper.make_node("Relu", ["x"], ["y"])],
         [("x", xh)], [np.maximum(xh, 0)])
    # Erf on its own (not gelu's form): tx8be.erf.
    case("elementwise", "erf-alone", [helper.make_node("Erf", ["x"], ["y"])],
         [("x", x * 2)], [erf(x.astype(np.float64) * 2)])
    case("elementwise", "identity-dropout",
         [helper.make_node("Identity", ["x"], ["t"]),
          helper.make_node("Dropout", ["t"], ["y"])], [("x", x)], [x])


def binary_cases():
    a, b = rand(2, 3, 4, 5), rand(2, 3, 4, 5)
    ops = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}
    for op, f in ops.items():
        case("elementwise", op.lower(), [helper.make_node(op, ["a", "b"], ["y"])],
             [("a", a), ("b", b)], [f(a, b)])
    bpos = np.abs(b) + 0.5
    case("elementwise", "div", [helper.make_node("Div", ["a", "b"], ["y"])],
         [("a", a), ("b", bpos)], [a / bpos])
    c = rand(3, 1, 1)
    case("elementwise", "add-channel-const", [helper.make_node("Add", ["a", "c"], ["y"])],
         [("a", a)], [a + c], inits=[("c", c)])
    case("elementwise", "sub-const-first-scalar",
         [const("c", np.float32(2.0)), helper.make_node("Sub", ["c", "a"], ["y"])],
         [("a", a)], [2.0 - a])
    row = rand(4, 5)
    case("elementwise", "mul-const-plane", [helper.make_node("Mul", ["a", "r"], ["y"])],
         [("a", a)], [a * row], inits=[("r", row)])
    small = rand(3, 1, 5)
    case("elementwise", "add-broadcast-runtime",
         [helper.make_node("Add", ["a", "s"], ["y"])],
         [("a", a), ("s", small)], [a + small])
    case("elementwise", "pow2", [const("e", np.float32(2)),
                                 helper.make_node("Pow", ["a", "e"], ["y"])],
         [("a", a)], [a.astype(np.float64) ** 2])
    case("elementwise", "pow-general", [const("e", np.float32(1.5)),
                                        helper.make_node("Pow", ["p", "e"], ["y"])],
         [("p", bpos)], [bpos.astype(np.float64) ** 1.5])
    x = rand(1, 8, 32)
    case("patterns", "gelu-decomposition", gelu_nodes("x", "y"),
         [("x", x)], [gelu(x.astype(np.float64))])


def nn_cases():
    x = rand(1, 4, 9, 9)
    w, b = rand(6, 4, 3, 3), rand(6)
    case("nn", "conv3x3-pad", [helper.make_node("Conv", ["x", "w", "b"], ["y"],
                                                pads=[1, 1, 1, 1])],
         [("x", x)], [conv_ref(x, w, b, pads=(1, 1, 1, 1))], inits=[("w", w), ("b", b)])
    case("nn", "conv-stride-dilation-asym",
         [helper.make_node("Conv", ["x", "w"], ["y"], strides=[2, 1],
                           dilations=[1, 2], pads=[0, 1, 1, 2])],
         [("x", x)], [conv_ref(x, w, None, (2, 1), (0, 1, 1, 2), (1, 2))],
         inits=[("w", w)])
    wg = rand(6, 2, 3, 3)
    case("nn", "conv-grouped", [helper.make_node("Conv", ["x", "w"], ["y"], group=2,
                                                 pads=[1, 1, 1, 1])],
         [("x", x)], [conv_ref(x, wg, None, pads=(1, 1, 1, 1), group=2)],
         inits=[("w", wg)])
    wd = rand(4, 1, 3, 3)
    case("nn", "conv-depthwise-same",
         [helper.make_node("Conv", ["x", "w"], ["y"], group=4, auto_pad="SAME_UPPER",
                           strides=[2, 2])],
         [("x", x)], [conv_ref(x, wd, None, (2, 2), (1, 1, 1, 1), group=4)],
         inits=[("w", wd)])
    s, o, m, v = rand(6, lo=0.5, hi=1.5), rand(6), rand(6), rand(6, lo=0.5, hi=2)
    y = conv_ref(x, w, b, pads=(1, 1, 1, 1))
    bn = ((y - m.reshape(1, -1, 1, 1)) / np.sqrt(v.reshape(1, -1, 1, 1) + 1e-5) *
          s.reshape(1, -1, 1, 1) + o.reshape(1, -1, 1, 1))
    bn_inits = [("w", w), ("b", b), ("s", s), ("o", o), ("m", m), ("v", v)]
    case("nn", "conv-batchnorm-relu",
         [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
          helper.make_node("BatchNormalization", ["c", "s", "o", "m", "v"], ["n"]),
          helper.make_node("Relu", ["n"], ["y"])],
         [("x", x)], [np.maximum(bn, 0)], inits=bn_inits)
    xr = rand(2, 6, 5, 5)
    bn2 = ((xr - m.reshape(1, -1, 1, 1)) / np.sqrt(v.reshape(1, -1, 1, 1) + 1e-3) *
           s.reshape(1, -1, 1, 1) + o.reshape(1, -1, 1, 1))
    case("nn", "batchnorm-alone",
         [helper.make_node("BatchNormalization", ["x", "s", "o", "m", "v"], ["y"],
                           epsilon=1e-3)],
         [("x", xr)], [bn2], inits=bn_inits[2:])
    wbig, xb = rand(128, 256, 3, 3, lo=-0.05, hi=0.05), rand(1, 256, 6, 6)
    case("nn", "conv-split-over-output-channels",
         [helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
         [("x", xb)], [conv_ref(xb, wbig, pads=(1, 1, 1, 1))], inits=[("w", wbig)])
    a, bm, c = rand(5, 8), rand(7, 8), rand(7)
    case("nn", "gemm-transB-alpha-beta",
         [helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, alpha=0.5,
                           beta=2.0)],
         [("a", a)], [0.5 * a @ bm.T + 2.0 * c], inits=[("b", bm), ("c", c)])
    at = rand(8, 5)
    case("nn", "gemm-transA-runtime-b", [helper.make_node("Gemm", ["a", "b"], ["y"], transA=1)],
         [("a", at), ("b", bm.T.copy())], [at.T @ bm.T])
    x3, w2 = rand(2, 6, 8), rand(8, 4)
    case("nn", "matmul-3d-by-2d", [helper.make_node("MatMul", ["x", "w"], ["y"])],
         [("x", x3)], [x3 @ w2], inits=[("w", w2)])
    q, k = rand(2, 3, 6, 8), rand(2, 3, 8, 6)
    case("nn", "matmul-batched-4d", [helper.make_node("MatMul", ["q", "k"], ["y"])],
         [("q", q), ("k", k)], [q @ k])
    xp = rand(1, 3, 9, 9)
    case("nn", "maxpool-3x3-s2-p1",
         [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                           pads=[1, 1, 1, 1])],
         [("x", xp)], [pool_ref(xp, (3, 3), (2, 2), (1, 1, 1, 1), "max")])
    case("nn", "avgpool-pad-exclude",
         [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2],
                           strides=[2, 2], pads=[1, 1, 0, 0])],
         [("x", xp)], [pool_ref(xp, (2, 2), (2, 2), (1, 1, 0, 0), "avg")])
    case("nn", "global-avg-pool-flatten-gemm",
         [helper.make_node("GlobalAveragePool", ["x"], ["p"]),
          helper.make_node("Flatten", ["p"], ["f"]),
          helper.make_node("Gemm", ["f", "w"], ["y"], transB=1)],
         [("x", xp)], [xp.mean(axis=(2, 3)) @ RNG_W3.T], inits=[("w", RNG_W3)])
    xs = rand(2, 3, 4, 5)
    for axis in (-1, 1):
        case("nn", f"softmax-axis{axis}",
             [helper.make_node("Softmax", ["x"], ["y"], axis=axis)],
             [("x", xs)], [softmax(xs.astype(np.float64), axis)])
    case("nn", "softmax-after-conv-channels",
         [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
          helper.make_node("Softmax", ["c"], ["y"], axis=1)],
         [("x", x)], [softmax(conv_ref(x, w, b, pads=(1, 1, 1, 1)), 1)],
         inits=[("w", w), ("b", b)])
    case("nn", "reducemean-keep", [helper.make_node("ReduceMean", ["x"], ["y"], axes=[2, 3])],
         [("x", xs)], [xs.mean(axis=(2, 3), keepdims=True)])
    case("nn", "reducemax-drop", [helper.make_node("ReduceMax", ["x"], ["y"], axes=[1],
                                                   keepdims=0)],
         [("x", xs)], [xs.max(axis=1)])
    case("nn", "reducesum-axes-input",
         [const("ax", np.array([-1], np.int64)),
          helper.make_node("ReduceSum", ["x", "ax"], ["y"], keepdims=0)],
         [("x", xs)], [xs.sum(axis=-1)])
    xl, g, bb = rand(2, 5, 16), rand(16), rand(16)
    case("nn", "layernorm-op17",
         [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], epsilon=1e-5)],
         [("x", xl)], [layernorm(xl.astype(np.float64), g, bb)],
         inits=[("g", g), ("b", bb)], opset=17)
    case("patterns", "layernorm-decomposition", layernorm_nodes("x", "g", "b", "y"),
         [("x", xl)], [layernorm(xl.astype(np.float64), g, bb)],
         inits=[("g", g), ("b", bb)])


RNG_W3 = rand(4, 3)


def movement_cases():
    x = rand(2, 3, 4, 5)
    y = rand(2, 2, 4, 5)
    case("movement", "concat-runtime-and-const",
         [helper.make_node("Concat", ["x", "z", "c"], ["y"], axis=1)],
         [("x", x), ("z", y)], [np.concatenate([x, y, RNG_C], axis=1)],
         inits=[("c", RNG_C)])
    case("movement", "split-uneven",
         [const("sp", np.array([1, 4], np.int64)),
          helper.make_node("Split", ["x", "sp"], ["y0", "y1"], axis=-1)],
         [("x", x)], [x[..., :1], x[..., 1:]])
    case("movement", "slice-steps-negative-index",
         [const("st", np.array([1, -4], np.int64)), const("en", np.array([3, 100], np.int64)),
          const("ax", np.array([1, 3], np.int64)), const("sp", np.array([1, 2], np.int64)),
          helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])],
         [("x", x)], [x[:, 1:3, :, 1::2]])
    case("movement", "gather-scalar-and-run",
         [const("i", np.array(2, np.int64)), const("j", np.array([0, 2, 4], np.int64)),
          helper.make_node("Gather", ["x", "i"], ["g"], axis=2),
          helper.make_node("Gather", ["g", "j"], ["y"], axis=-1)],
         [("x", x)], [x[:, :, 2][..., [0, 2, 4]]])
    # Gather with any constant indices: runs of evenly stepping indices
    # are one slice each, concatenated (a tree past 5), then reshaped.
    xg = rand(3, 4, 6)
    gi = np.array([[3, 0, 2], [1, 1, 0]], np.int64)
    case("movement", "gather-any-indices",
         [const("i", gi), helper.make_node("Gather", ["x", "i"], ["y"], axis=1)],
         [("x", xg)], [xg[:, gi]])
    gl = np.array([5, 4, 3, 2, 1, 0, 0, 2, 4, -1], np.int64)
    case("movement", "gather-reversed-many-runs",
         [const("i", gl), helper.make_node("Gather", ["x", "i"], ["y"], axis=-1)],
         [("x", xg)], [xg[..., gl]])
    table, xa = rand(4, 5), rand(3, 5)
    ti = np.array([2, 0, 2], np.int64)
    case("movement", "gather-constant-data-folded",
         [const("i", ti), helper.make_node("Gather", ["t", "i"], ["g"], axis=0),
          helper.make_node("Add", ["x", "g"], ["y"])],
         [("x", xa)], [xa + table[ti]], inits=[("t", table)])
    xc4, wc = rand(1, 3, 5, 5), rand(6, 3, 1, 1)
    ci = np.array([5, 0, 3, 3], np.int64)
    case("movement", "gather-channels-after-conv",
         [helper.make_node("Conv", ["x", "w"], ["c"]),
          const("i", ci), helper.make_node("Gather", ["c", "i"], ["y"], axis=1)],
         [("x", xc4)], [conv_ref(xc4, wc)[:, ci]], inits=[("w", wc)])
    case("movement", "concat-seven-inputs",
         [helper.make_node("Concat", ["x"] * 7, ["y"], axis=2)],
         [("x", xg)], [np.concatenate([xg] * 7, axis=2)])
    case("movement", "transpose-reshape",
         [helper.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 3, 1]),
          const("s", np.array([0, -1, 3], np.int64)),
          helper.make_node("Reshape", ["t", "s"], ["y"])],
         [("x", x)], [x.transpose(0, 2, 3, 1).reshape(2, -1, 3)])
    # The shape subgraph exporters write: Shape -> Gather -> Unsqueeze ->
    # Concat -> Reshape, folded at import.
    case("movement", "shape-subgraph-folded", flatten_by_shape_nodes("x", "y"),
         [("x", x)], [x.reshape(2, -1)])
    case("movement", "squeeze-unsqueeze",
         [const("a1", np.array([1], np.int64)),
          helper.make_node("Unsqueeze", ["x", "a1"], ["u"]),
          helper.make_node("Squeeze", ["u", "a1"], ["y"])],
         [("x", x)], [x])
    xc = rand(1, 3, 6, 6)
    w = rand(4, 3, 1, 1)
    case("movement", "conv-transpose-cancels",
         [helper.make_node("Conv", ["x", "w"], ["c"]),
          helper.make_node("Transpose", ["c"], ["t"], perm=[0, 2, 3, 1]),
          helper.make_node("Relu", ["t"], ["y"])],
         [("x", xc)], [np.maximum(conv_ref(xc, w).transpose(0, 2, 3, 1), 0)],
         inits=[("w", w)])


RNG_C = rand(2, 1, 4, 5)


def build_cases():
    unary_cases()
    binary_cases()
    nn_cases()
    movement_cases()


# ---- Running -----------------------------------------------------------------

# --dtype: the element type the program computes in (npuc-compile
# --tx8-dtype; it reads and writes the model's f32 all the same); the
# tolerance of each (relative to max |ref|).
TOLERANCE = {"f32": 1e-4, "f16": 2e-2, "bf16": 8e-2}


def run_case(bindir, out, name, make, inputs, refs, dtype="f32"):
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    os.makedirs(os.path.join(d, "res"), exist_ok=True)
    path = os.path.join(d, "model.onnx")
    onnx.save(make(), path)
    r = subprocess.run([os.path.join(bindir, "npuc-compile"), "--target=tx8",
                        "--tx8-dtype=" + dtype, "-o", os.path.join(d, "prog"), path],
                       capture_output=True, text=True)
    if r.returncode:
        return f"compile failed: {r.stderr.strip()[-600:]}"
    r = subprocess.run(["make", "-s", "-C", os.path.join(d, "prog")],
                       capture_output=True, text=True)
    if r.returncode:
        return f"build failed: {r.stderr.strip()[-600:]}"
    for k, (_, a) in enumerate(inputs):
        with open(os.path.join(d, "in", f"arg{k}.bin"), "wb") as f:
            f.write(np.asarray(a).astype(file_dtype(a)).tobytes())
    r = subprocess.run([os.path.join(d, "prog", "program"), os.path.join(d, "in"),
                        os.path.join(d, "res")], capture_output=True, text=True)
    if r.returncode:
        return f"run failed: {r.stderr.strip()[-600:]}"
    for k, ref in enumerate(refs):
        with open(os.path.join(d, "res", f"result{k}.bin"), "rb") as f:
            got = np.frombuffer(f.read(), file_dtype(ref)).astype(np.float32)
        ref = np.asarray(ref, dtype=np.float64).reshape(-1)
        if got.size != ref.size:
            return f"result {k}: {got.size} elements, expected {ref.size}"
        err = float(np.max(np.abs(got - ref))) if ref.size else 0.0
        tol = TOLERANCE[dtype] * max(1.0, float(np.max(np.abs(ref))))
        if not err <= tol:
            return f"result {k}: max error {err:.3g} > {tol:.3g}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--family")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--dtype", choices=sorted(TOLERANCE), default="f32")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    build_cases()
    cases = [c for c in CASES if (not a.family or c[0] == a.family) and
             (not a.only or c[1] in a.only)]
    failed = 0
    for family, name, make, inputs, refs in cases:
        if a.list:
            print(family, name)
            continue
        why = run_case(a.bin, a.out, name, make, inputs, refs, a.dtype)
        failed += why is not None
        print(f"ok {name}" if why is None else f"FAIL {name}: {why}")
    print(f"onnx ops: {len(cases) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
