// tx8-layout-transmit: a known layout_str that does not name a layout of
// the op's tensors is an error at the op, and nothing is propagated.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-layout-transmit -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-layout-transmit 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: tx8-layout-transmit
// CHECK-NOT: func.func

func.func @short_name(%x: tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16> {
  // expected-error@+1 {{tx8-layout-transmit: layout_str of 'tx8be.relu': 'NHW' does not name a layout of the rank-4 result}}
  %0 = tx8be.relu %x {layout_str = "NHW"} : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
  return %0 : tensor<2x8x8x16xf16>
}

// -----

func.func @components_on_unary(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{layout_str of 'tx8be.exp': 'Tensor-Tensor' joins several layouts, which only gemm and conv do}}
  %0 = tx8be.exp %x {layout_str = "Tensor-Tensor"} : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @gemm_one_name(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %none = tx8be.none : none
  // expected-error@+1 {{layout_str of 'tx8be.gemm': 'Tensor' must name the input, weight and result layouts}}
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor"} : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  %1 = tx8be.relu %0 : tensor<64x16xf16> -> tensor<64x16xf16>
  return %1 : tensor<64x16xf16>
}
