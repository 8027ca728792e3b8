#!/usr/bin/python3
"""Writes the small ONNX models the lit tests of test/lit/onnx import, built
with onnx.helper at test time (no .onnx file in the tree).

  lit_models.py DIR NAME...     writes DIR/NAME.onnx for each NAME
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
RNG = np.random.default_rng(7)


def w(*shape):
    return RNG.uniform(-1, 1, size=shape).astype(np.float32)


def const(name, value):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(value), name))


def graph(nodes, inputs, outputs, inits=(), opset=13, check=True):
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, F, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, F, s) for n, s in outputs],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    if check:
        onnx.checker.check_model(m)
    return m


def conv_chain():
    """conv -> relu -> conv (+ batchnorm folded) -> maxpool: one transpose
    in, one out."""
    return graph(
        [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
         helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
         helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2"),
         helper.make_node("BatchNormalization", ["c2", "s", "o", "m", "v"], ["n2"], name="bn2"),
         helper.make_node("MaxPool", ["n2"], ["y"], kernel_shape=[2, 2], strides=[2, 2],
                          name="pool")],
        [("x", [1, 3, 8, 8])], [("y", [1, 16, 4, 4])],
        [("w1", w(8, 3, 3, 3)), ("b1", w(8)), ("w2", w(16, 8, 1, 1)),
         ("s", w(16) + 2), ("o", w(16)), ("m", w(16)), ("v", w(16) + 2)])


def layernorm_nodes(x, g, b, y):
    """The opset-13 export of layer_norm over the last axis."""
    return [helper.make_node("ReduceMean", [x], [y + "_m"], axes=[-1]),
            helper.make_node("Sub", [x, y + "_m"], [y + "_d"]),
            const(y + "_two", np.float32(2)),
            helper.make_node("Pow", [y + "_d", y + "_two"], [y + "_p"]),
            helper.make_node("ReduceMean", [y + "_p"], [y + "_v"], axes=[-1]),
            const(y + "_eps", np.float32(1e-5)),
            helper.make_node("Add", [y + "_v", y + "_eps"], [y + "_ve"]),
            helper.make_node("Sqrt", [y + "_ve"], [y + "_sd"]),
            helper.make_node("Div", [y + "_d", y + "_sd"], [y + "_n"]),
            helper.make_node("Mul", [y + "_n", g], [y + "_ng"]),
            helper.make_node("Add", [y + "_ng", b], [y])]


def gelu_nodes(x, y):
    """torch's export of gelu: x * (erf(x / sqrt 2) + 1) * 0.5."""
    return [const(y + "_s2", np.float32(np.sqrt(2))), const(y + "_one", np.float32(1)),
            const(y + "_half", np.float32(0.5)),
            helper.make_node("Div", [x, y + "_s2"], [y + "_q"]),
            helper.make_node("Erf", [y + "_q"], [y + "_e"]),
            helper.make_node("Add", [y + "_e", y + "_one"], [y + "_e1"]),
            helper.make_node("Mul", [x, y + "_e1"], [y + "_gm"]),
            helper.make_node("Mul", [y + "_gm", y + "_half"], [y])]


def flatten_by_shape_nodes(x, y):
    """Reshape to [dim 0, -1] through the shape subgraph exporters write:
    Shape -> Gather -> Unsqueeze -> Concat -> Reshape."""
    return [helper.make_node("Shape", [x], [y + "_sh"]),
            const(y + "_zero", np.array(0, np.int64)),
            helper.make_node("Gather", [y + "_sh", y + "_zero"], [y + "_n0"], axis=0),
            const(y + "_ax", np.array([0], np.int64)),
            helper.make_node("Unsqueeze", [y + "_n0", y + "_ax"], [y + "_nu"]),
            const(y + "_rest", np.array([-1], np.int64)),
            helper.make_node("Concat", [y + "_nu", y + "_rest"], [y + "_shape"], axis=0),
            helper.make_node("Reshape", [x, y + "_shape"], [y])]


def patterns():
    """The opset-13 layer norm and gelu decompositions, and the shape
    subgraph of a reshape."""
    return graph(layernorm_nodes("x", "g", "b", "ln") + gelu_nodes("ln", "ge") +
                 flatten_by_shape_nodes("ge", "y"),
                 [("x", [2, 4, 32])], [("y", [2, 128])],
                 [("g", w(32)), ("b", w(32))])


def unsupported():
    """Three unsupported ops (one used twice) and a supported one."""
    return graph(
        [helper.make_node("Relu", ["x"], ["a"], name="ok"),
         helper.make_node("Sin", ["a"], ["b"], name="sin1"),
         helper.make_node("Cos", ["b"], ["c"], name="cos1"),
         helper.make_node("Sin", ["c"], ["d"], name="sin2"),
         helper.make_node("Einsum", ["d", "d"], ["y"], equation="ij,ij->ij", name="ein")],
        [("x", [4, 4])], [("y", [4, 4])])


def runtime_weights():
    """A Conv whose weights are a graph input: a node error."""
    return graph([helper.make_node("Conv", ["x", "wt"], ["y"], name="conv_rt")],
                 [("x", [1, 2, 4, 4]), ("wt", [3, 2, 1, 1])], [("y", [1, 3, 4, 4])])


def dynamic():
    """An input with a symbolic batch dimension."""
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", F, ["N", 3, 4])],
                          [helper.make_tensor_value_info("y", F, ["N", 3, 4])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def opset11():
    return graph([helper.make_node("Relu", ["x"], ["y"])], [("x", [2, 2])],
                 [("y", [2, 2])], opset=11)


def lone_erf():
    return graph([helper.make_node("Erf", ["x"], ["y"], name="erf_alone")],
                 [("x", [2, 2])], [("y", [2, 2])])


def gather_many():
    """A Gather of run-time data whose 1100 indices step backwards: 1100
    runs, past the importer's limit of slices per Gather."""
    return graph([const("i", np.arange(1099, -1, -1, dtype=np.int64)),
                  helper.make_node("Gather", ["x", "i"], ["y"], name="gather_rev")],
                 [("x", [1100])], [("y", [1100])])


def bad_reshape():
    return graph([const("s", np.array([3, 5], np.int64)),
                  helper.make_node("Reshape", ["x", "s"], ["y"], name="rs")],
                 [("x", [2, 4])], [("y", [3, 5])], check=False)


def relu():
    return graph([helper.make_node("Relu", ["x"], ["y"])], [("x", [2, 3, 4])],
                 [("y", [2, 3, 4])])


MODELS = {f.__name__: f for f in (conv_chain, patterns, unsupported, runtime_weights,
                                  dynamic, opset11, lone_erf, bad_reshape, relu,
                                  gather_many)}

def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def deep():
    """Raw bytes: a graph whose node's attribute holds a graph whose node's
    attribute holds a graph ... 300 messages deep (GraphProto.node = 1,
    NodeProto.attribute = 5, AttributeProto.g = 6, ModelProto.graph = 7)."""
    inner = b""
    for _ in range(100):
        inner = field(1, field(5, field(6, inner)))
    return field(7, inner)


if __name__ == "__main__":
    for name in sys.argv[2:]:
        with open(f"{sys.argv[1]}/{name}.onnx", "wb") as f:
            f.write(deep() if name == "deep" else
                    MODELS[name]().SerializeToString())
