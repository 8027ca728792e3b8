// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// The bishengir_test ops roundtrip.mlir leaves out: a fixed point.
module {
  func.func @rest(%arg0: tensor<4xf32>, %arg1: memref<4xf16>, %arg2: memref<4xi32>, %arg3: f32) -> tensor<4xf32> {
    %0 = bishengir_test.elementwise_binary ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
    %1 = bishengir_test.elementwise_ternary ins(%0, %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
    bishengir_test.element_type_only_f16_i32 ins(%arg1, %arg2 : memref<4xf16>, memref<4xi32>)
    bishengir_test.element_type_only_f16f32_i8i32 ins(%arg1 : memref<4xf16>)
    bishengir_test.element_type_only_int_float ins(%arg2, %arg3 : memref<4xi32>, f32)
    return %1 : tensor<4xf32>
  }
}
