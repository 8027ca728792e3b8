func.func @r(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = scope.scope : () -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %1 = hivm.hir.vabs ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scope.return %1 : tensor<8xf32>
  } {outline = true}
  return %0 : tensor<8xf32>
}
