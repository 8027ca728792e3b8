// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// HFusion ops in the custom syntax bishengir prints: parsed through the
// table, held generically by MLIR, printed back unchanged.
// GENERIC: "hfusion.elemwise_binary"(%arg{{[0-9]+}}, %arg{{[0-9]+}}, %{{[0-9]+}}) {fun = #hfusion.binary_fn<powf>, operandSegmentSizes = array<i32: 2, 1>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC: "hfusion.reduce_with_index"({{.*}}) {dimensions = array<i64: 1>, operandSegmentSizes = array<i32: 2, 2>, reduce_kind = #hfusion.reduce_with_index_kind<max>, tie_break_left = true}
// GENERIC: "hfusion.arange"({{.*}}) {operandSegmentSizes = array<i32: 1, 2, 1>} : (index, index, index, tensor<4x8xi32>) -> tensor<4x8xi32>
// GENERIC: "hfusion.deinterleave"(%arg{{[0-9]+}}) {channelIndex = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x4xf32>
module {
  func.func @structured(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xi32>) -> (tensor<4x8xf16>, tensor<4xf32>, tensor<4xi32>, tensor<4x8xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<powf>} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>} ins(%1 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = tensor.empty() : tensor<4x8xi1>
    %4 = hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%2, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%3 : tensor<4x8xi1>) -> tensor<4x8xi1>
    %5 = hfusion.select ins(%4, %2, %arg1 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = tensor.empty() : tensor<4x8xf16>
    %7 = hfusion.cast {round_mode = #hfusion.round_mode<rint>} ins(%5 : tensor<4x8xf32>) outs(%6 : tensor<4x8xf16>) -> tensor<4x8xf16>
    %8 = tensor.empty() : tensor<4xf32>
    %9 = tensor.empty() : tensor<4xi32>
    %10:2 = hfusion.reduce_with_index {tie_break_left = true} <max> ins(%arg0, %arg2 : tensor<4x8xf32>, tensor<4x8xi32>) outs(%8, %9 : tensor<4xf32>, tensor<4xi32>) dimensions = [1] -> tensor<4xf32>, tensor<4xi32>
    %11 = tensor.empty() : tensor<4x8xi32>
    %12 = hfusion.arange offset[%c0] strides[%c8, %c1] outs(%11 : tensor<4x8xi32>) -> tensor<4x8xi32>
    return %7, %10#0, %10#1, %12 : tensor<4x8xf16>, tensor<4xf32>, tensor<4xi32>, tensor<4x8xi32>
  }
  func.func @tensor_ops(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>) -> (tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x16xf32>) {
    %0 = hfusion.deinterleave %arg0 channel<0> : tensor<4x8xf32> -> tensor<4x4xf32>
    %1 = hfusion.flip %arg0 : tensor<4x8xf32> flip_axis = 1 -> tensor<4x8xf32>
    %2 = hfusion.cumsum %arg1 : tensor<4x8xi32> cum_dims = [1] reverse = false -> tensor<4x8xi32>
    %3 = hfusion.isnan %1 : tensor<4x8xf32> -> tensor<4x8xi1>
    %4 = hfusion.interleave %arg0, %arg0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
    %5:2 = hfusion.mulext %arg1, %arg1 : tensor<4x8xi32>
    %6 = hfusion.sort ins(%arg0 : tensor<4x8xf32>) descending = true sort_axis = 1 -> tensor<4x8xf32>
    hfusion.print " x: " {hex = false} %6 : tensor<4x8xf32>
    hfusion.barrier
    return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x16xf32>
  }
  func.func @memory(%arg0: memref<64xf32>, %arg1: tensor<16xi64>, %arg2: tensor<16xf32>, %arg3: tensor<16xi1>) -> tensor<16xf32> {
    %0 = tensor.empty() : tensor<16xf32>
    %1 = hfusion.indirect_load ins(%arg0 : memref<64xf32>, %arg1 : tensor<16xi64>, %arg3 : tensor<16xi1>, %arg2 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    hfusion.indirect_store ins(%1 : tensor<16xf32>, %arg1 : tensor<16xi64>) outs(%arg0 : memref<64xf32>)
    %2 = hfusion.atomic_rmw ins(%1 : tensor<16xf32>) outs(%0 : tensor<16xf32>) atomic_kind = <add> -> tensor<16xf32>
    return %2 : tensor<16xf32>
  }
}
