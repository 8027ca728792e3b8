// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// The structured stand-in ops AscendNPU-IR's interface tests use.
module {
  func.func @stand_ins(%arg0: memref<2x8xf16>, %arg1: f16, %arg2: tensor<4x4xf32>) -> tensor<4x4xf32> {
    bishengir_test.broadcastableOTF ins(%arg0, %arg0, %arg1 : memref<2x8xf16>, memref<2x8xf16>, f16)
    bishengir_test.transposableOTF ins(%arg0, %arg1 : memref<2x8xf16>, f16) transpose = [1, 0]
    bishengir_test.vector_scalar_only ins(%arg0, %arg1 : memref<2x8xf16>, f16)
    %0 = bishengir_test.elementwise_unary ins(%arg2 : tensor<4x4xf32>) outs(%arg2 : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
