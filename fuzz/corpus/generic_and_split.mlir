func.func @g(%a: tensor<2xf32>, %e: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "hivm.hir.vadd"(%a, %a, %e) {operandSegmentSizes = array<i32: 2, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  annotation.mark %0 {buffer_size_in_byte = 8 : i64} : tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @h(%m: memref<2xf32>) {
  %t = bufferization.to_tensor %m : memref<2xf32>
  return
}
