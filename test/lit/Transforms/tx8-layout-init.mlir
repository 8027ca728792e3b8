// tx8-layout-init: gemm and conv get input-weight-result layouts, every
// other op that carries a layout gets UNKNOWN (a given one is replaced);
// ops without layout_str in the op table (none, tuple) are left alone.
// RUN: npuc-opt %s --tx8-layout-init | FileCheck %s

// CHECK-LABEL: func.func @defaults
func.func @defaults(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %a3: tensor<2x8x32xf16>,
                    %a1: tensor<1x8x32xf16>, %x: tensor<1x8x8x16xf16>, %w: tensor<3x3x8x16xf16>)
    -> tuple<tensor<64x16xf16>, tensor<2x8x16xf16>, tensor<1x8x16xf16>, tensor<1x8x8x8xf16>> {
  // CHECK: %[[NONE:.*]] = tx8be.none : none
  %none = tx8be.none : none
  // A matrix is one batch of rows: Tensor.
  // CHECK: tx8be.gemm {{.*}} {layout_str = "Tensor-Tensor-Tensor"}
  %0 = tx8be.gemm %a, %b, %none : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  // Batch dimensions, the first not 1: NTensor in and out.
  // CHECK: tx8be.gemm {{.*}} {layout_str = "NTensor-Tensor-NTensor"}
  %1 = tx8be.gemm %a3, %b, %none : tensor<2x8x32xf16>, tensor<32x16xf16>, none -> tensor<2x8x16xf16>
  // CHECK: tx8be.gemm {{.*}} {layout_str = "Tensor-Tensor-Tensor"}
  %2 = tx8be.gemm %a1, %b, %none : tensor<1x8x32xf16>, tensor<32x16xf16>, none -> tensor<1x8x16xf16>
  // CHECK: tx8be.conv {{.*}} {layout_str = "NHWC-HWOI-NHWC"}
  %3 = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x8x16xf16>, none -> tensor<1x8x8x8xf16>
  // CHECK: tx8be.tuple
  // CHECK-NOT: layout_str
  // CHECK-SAME: -> tuple
  %t = tx8be.tuple %0, %1, %2, %3 : tensor<64x16xf16>, tensor<2x8x16xf16>, tensor<1x8x16xf16>, tensor<1x8x8x8xf16> -> tuple<tensor<64x16xf16>, tensor<2x8x16xf16>, tensor<1x8x16xf16>, tensor<1x8x8x8xf16>>
  return %t : tuple<tensor<64x16xf16>, tensor<2x8x16xf16>, tensor<1x8x16xf16>, tensor<1x8x8x8xf16>>
}

// CHECK-LABEL: func.func @others_unknown
func.func @others_unknown(%x: tensor<4x16xf16>, %v: tensor<16xf16>) -> tensor<64xf16> {
  // CHECK: tx8be.constant {layout_str = "UNKNOWN", value
  %c = tx8be.constant {value = dense<1.0> : tensor<16xf16>} : tensor<16xf16>
  // A given layout of a non-source op is replaced: transmit decides it.
  // CHECK: tx8be.add %{{.*}} {layout_str = "UNKNOWN"}
  %0 = tx8be.add %x, %c {layout_str = "NTensor"} : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
  // CHECK: tx8be.relu %{{.*}} {layout_str = "UNKNOWN"}
  %1 = tx8be.relu %0 : tensor<4x16xf16> -> tensor<4x16xf16>
  // CHECK: tx8be.channel_norm %{{.*}} to <Cx> {layout_str = "UNKNOWN"}
  %2 = tx8be.channel_norm %1 to <Cx> : tensor<4x16xf16> -> tensor<4x16xf16>
  // CHECK: tx8be.reshape %{{.*}} {layout_str = "UNKNOWN"}
  %3 = tx8be.reshape %2 : tensor<4x16xf16> -> tensor<64xf16>
  return %3 : tensor<64xf16>
}

// A valid layout_str given to a gemm or conv is kept.
// CHECK-LABEL: func.func @given
func.func @given(%x: tensor<2x8x8x16xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<2x8x8x8xf16> {
  %none = tx8be.none : none
  // CHECK: tx8be.conv {{.*}} {layout_str = "NHWC-OIHW-NHWC"}
  %0 = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {layout_str = "NHWC-OIHW-NHWC"} : tensor<2x8x8x16xf16>, tensor<3x3x8x16xf16>, none -> tensor<2x8x8x8xf16>
  return %0 : tensor<2x8x8x8xf16>
}
