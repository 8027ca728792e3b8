"""Writes argN.bin for each argument of the flat graph MODULE into DIR:
small deterministic values (weights and biases smaller than activations)
in the argument's dtype (f16/bf16/f32), for tx8-search-*.test."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tx8"))
from gen import pack  # noqa: E402

module, out = sys.argv[1], sys.argv[2]
head = open(module).read().split("func.func @main(", 1)[1].split(") ->", 1)[0]
for i, (name, shape, dt) in enumerate(
        re.findall(r"%(\w+): tensor<([0-9x]+)x(bf16|f16|f32)>", head)):
    count = 1
    for s in shape.split("x"):
        count *= int(s)
    scale = 64.0 if name[0] in "wb" else 8.0
    values = [((j * 37 + i * 11) % 23 - 11) / scale for j in range(count)]
    with open(os.path.join(out, "arg%d.bin" % i), "wb") as f:
        f.write(pack(dt, values))
