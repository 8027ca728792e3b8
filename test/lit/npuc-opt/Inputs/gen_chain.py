"""Prints a function of 2n + 3 ops: a chain of n hivm.hir.vadd and n
arith.addf, in the form npuc-opt prints (buffered-print.test)."""
import sys

n = int(sys.argv[1])
lines = ["func.func @f(%a0: tensor<4xf32>, %t: tensor<4xf32>, %s0: f32, "
         "%f: f32) -> (tensor<4xf32>, f32) {",
         "  %e = tensor.empty() : tensor<4xf32>"]
for i in range(n):
    lines.append(f"  %a{i + 1} = hivm.hir.vadd ins(%a{i}, %t : tensor<4xf32>, "
                 "tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>")
    lines.append(f"  %s{i + 1} = arith.addf %s{i}, %f : f32")
lines.append(f"  return %a{n}, %s{n} : tensor<4xf32>, f32")
lines.append("}")
print("\n".join(lines))
