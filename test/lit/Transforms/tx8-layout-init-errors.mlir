// tx8-layout-init: a gemm/conv layout_str that does not name input, weight
// and result layouts of the right ranks is an error at the op.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-layout-init -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-layout-init 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: tx8-layout-init
// CHECK-NOT: func.func

func.func @two_components(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %none = tx8be.none : none
  // expected-error@+1 {{tx8-layout-init: layout_str of 'tx8be.gemm': 'Tensor-Tensor' must name the input, weight and result layouts (three names joined by '-')}}
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor-Tensor"} : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}

// -----

func.func @wrong_rank(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x8x8x8xf16> {
  %none = tx8be.none : none
  // expected-error@+1 {{layout_str of 'tx8be.conv': 'HWO' does not name a layout of the rank-4 weight}}
  %0 = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {layout_str = "NHWC-HWO-NHWC"} : tensor<1x8x8x16xf16>, tensor<3x3x8x16xf16>, none -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}

// -----

func.func @not_a_layout(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %none = tx8be.none : none
  // expected-error@+1 {{'Cx' does not name a layout of the rank-2 input}}
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Cx-Tensor-Tensor"} : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}
