// tx8-layout-align-to-npu on its own output changes nothing (every
// conflict is resolved, every dev_info set), nor does it touch a function
// without tx8be ops.
// RUN: npuc-opt %s --tx8-layout-align-to-npu -o %t.once
// RUN: npuc-opt %t.once --tx8-layout-align-to-npu -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: FileCheck %s < %t.twice

// CHECK-LABEL: func.func @chain
// CHECK-COUNT-4: tx8be.channel_norm
// CHECK-NOT: tx8be.channel_norm
func.func @chain(%x: tensor<2x4x4x40xf16>, %s: tensor<40xf32>, %w: tensor<40x8xf16>) -> tensor<16x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.batchnorm_inference %x, %s, %s, %s, %s {layout_str = "NHWC"} : tensor<2x4x4x40xf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32> -> tensor<2x4x4x40xf16>
  %1 = tx8be.relu %0 {layout_str = "NHWC"} : tensor<2x4x4x40xf16> -> tensor<2x4x4x40xf16>
  %2 = tx8be.gemm %1, %w, %none {layout_str = "NTensor-Tensor-NTensor"} : tensor<2x4x4x40xf16>, tensor<40x8xf16>, none -> tensor<2x4x4x8xf16>
  %3 = tx8be.reshape %2 {layout_str = "Tensor"} : tensor<2x4x4x8xf16> -> tensor<16x16xf16>
  return %3 : tensor<16x16xf16>
}

// CHECK-LABEL: func.func @no_tx8be
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @no_tx8be(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
