func.func @f(%a: tensor<4x8xf32>, %s: f32) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = hivm.hir.vadd ins(%a, %s : tensor<4x8xf32>, f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = hivm.hir.vexp {hivm.tcore_type = #hivm.tcore_type<VECTOR>} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = tensor.empty() : tensor<1x8xf32>
  %2 = hivm.hir.vreduce <max> ins(%1 : tensor<4x8xf32>) outs(%r : tensor<1x8xf32>) reduce_dims = [0] -> tensor<1x8xf32>
  return %2 : tensor<1x8xf32>
}
