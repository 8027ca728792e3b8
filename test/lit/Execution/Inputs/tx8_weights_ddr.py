"""Writes DIR/graph.mlir, DIR/check.graph and DIR/in/*.bin for
tx8-weights-ddr.test: a 2-layer bf16 MLP whose first weight is a graph
input and whose second is a constant (not a splat: its Cx image reorders
it), both read only as gemm weights, so tx8-const-norm lays them out in
DDR in Cx. The constant's bytes also go to DIR/in/w1.bin for
npuc-tx8-check."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tx8"))
from gen import pack  # noqa: E402

d = sys.argv[1]
M, K, N, P = 16, 256, 1032, 72  # N, P: 64-column blocks and 8 more


def values(count, seed, scale):
    return [((j * 37 + seed * 11) % 23 - 11) / scale for j in range(count)]


x = values(M * K, 0, 8.0)
w0 = values(K * N, 1, 64.0)
b0 = values(N, 2, 64.0)
w1 = values(N * P, 3, 64.0)
w1_hex = pack("bf16", w1).hex().upper()
with open(os.path.join(d, "graph.mlir"), "w") as f:
    f.write("""module {
  func.func @main(%%x: tensor<%(M)dx%(K)dxbf16>, %%w0: tensor<%(K)dx%(N)dxbf16>, %%b0: tensor<%(N)dxbf16>) -> (tensor<%(M)dx%(P)dxbf16>) {
    %%w1 = tx8be.constant {value = dense<"0x%(hex)s"> : tensor<%(N)dx%(P)dxbf16>} : tensor<%(N)dx%(P)dxbf16>
    %%none = tx8be.none : none
    %%h0 = tx8be.gemm %%x, %%w0, %%b0 : tensor<%(M)dx%(K)dxbf16>, tensor<%(K)dx%(N)dxbf16>, tensor<%(N)dxbf16> -> tensor<%(M)dx%(N)dxbf16>
    %%r0 = tx8be.relu %%h0 : tensor<%(M)dx%(N)dxbf16> -> tensor<%(M)dx%(N)dxbf16>
    %%h1 = tx8be.gemm %%r0, %%w1, %%none : tensor<%(M)dx%(N)dxbf16>, tensor<%(N)dx%(P)dxbf16>, none -> tensor<%(M)dx%(P)dxbf16>
    return %%h1 : tensor<%(M)dx%(P)dxbf16>
  }
}
""" % dict(M=M, K=K, N=N, P=P, hex=w1_hex))
with open(os.path.join(d, "check.graph"), "w") as f:
    f.write("""in x bf16 2 %(M)d %(K)d arg0.bin
in w0 bf16 2 %(K)d %(N)d arg1.bin
in b0 bf16 1 %(N)d arg2.bin
in w1 bf16 2 %(N)d %(P)d w1.bin
op h0 bf16 2 %(M)d %(N)d gemm 0 0 : x w0 b0
op r0 bf16 2 %(M)d %(N)d relu : h0
op h1 bf16 2 %(M)d %(P)d gemm 0 0 : r0 w1 -
out h1 result0.bin
""" % dict(M=M, K=K, N=N, P=P))
os.makedirs(os.path.join(d, "in"), exist_ok=True)
for name, v in (("arg0", x), ("arg1", w0), ("arg2", b0), ("w1", w1)):
    with open(os.path.join(d, "in", name + ".bin"), "wb") as f:
        f.write(pack("bf16", v))
