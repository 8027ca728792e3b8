// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %s -o %t2 && npuc-opt %t2 -o %t3 && diff -u %t2 %t3
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=MLIR22 < %t.generic
// Upstream ops MLIR 22 no longer has, as AscendNPU-IR's MLIR prints them:
// MLIR 22 holds their replacements, and they print back as they came.
// MLIR22: "linalg.elementwise"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}) <{indexing_maps = [#map, #map, #map], kind = #linalg.elementwise_kind<sub>
// MLIR22: "linalg.elementwise"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}) <{indexing_maps = [#map, #map1, #map], kind = #linalg.elementwise_kind<mul>
// MLIR22: "linalg.elementwise"(%{{[0-9]+}}, %arg{{[0-9]+}}) <{indexing_maps = [#map, #map], kind = #linalg.elementwise_kind<negf>
// MLIR22: "linalg.elementwise"(%{{[0-9]+}}, %{{[0-9]+}}, %arg{{[0-9]+}}) <{indexing_maps = [#map, #map, #map], kind = #linalg.elementwise_kind<add>
// MLIR22: "linalg.matmul"({{.*}}) <{indexing_maps = [#map2, #map3, #map4]
// MLIR22: "linalg.matmul"({{.*}}) <{indexing_maps = [#map5, #map6, #map4]
// MLIR22: "bufferization.to_buffer"(%arg0) : (tensor<8xi32>) -> memref<8xi32, strided<[1], offset: ?>>
// MLIR22: "vector.extract"(%arg1) <{static_position = array<i64>}> : (vector<f32>) -> f32
module {
  func.func @elementwise(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: f32) -> tensor<4x8xf32> {
    %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>, zz_mark} ins(%arg0, %arg2 : tensor<4x8xf32>, f32) outs(%arg1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = linalg.elemwise_unary {abc, fun = #linalg.unary_fn<negf>} ins(%1 : tensor<4x8xf32>) outs(%arg1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%0, %2 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %3 : tensor<4x8xf32>
  }
  func.func @matmuls(%arg0: tensor<16x32xf16>, %arg1: tensor<64x32xf16>, %arg2: tensor<16x64xf16>, %arg3: tensor<32x16xf16>, %arg4: tensor<32x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
    %0 = linalg.matmul_transpose_b ins(%arg0, %arg1 : tensor<16x32xf16>, tensor<64x32xf16>) outs(%arg2 : tensor<16x64xf16>) -> tensor<16x64xf16>
    %1 = linalg.matmul_transpose_a ins(%arg3, %arg4 : tensor<32x16xf16>, tensor<32x64xf16>) outs(%arg2 : tensor<16x64xf16>) -> tensor<16x64xf16>
    return %0, %1 : tensor<16x64xf16>, tensor<16x64xf16>
  }
  func.func @buffers(%arg0: tensor<8xi32>, %arg1: vector<f32>) -> (memref<8xi32, strided<[1], offset: ?>>, f32) {
    %0 = bufferization.to_memref %arg0 : memref<8xi32, strided<[1], offset: ?>>
    %1 = vector.extractelement %arg1[] : vector<f32>
    return %0, %1 : memref<8xi32, strided<[1], offset: ?>>, f32
  }
}
