// tx8-layout-init changes nothing in a function without tx8be ops, nor in
// one it has initialized already.
// RUN: npuc-opt %s -o %t.plain
// RUN: npuc-opt %s --tx8-layout-init -o %t.init
// RUN: diff %t.plain %t.init
// RUN: FileCheck %s < %t.init

// CHECK-LABEL: func.func @no_tx8be
// CHECK-NEXT: arith.addf
func.func @no_tx8be(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @initialized
// CHECK: layout_str = "Tensor-Tensor-Tensor"
// CHECK: layout_str = "UNKNOWN"
func.func @initialized(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor-Tensor-Tensor"} : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  %1 = tx8be.relu %0 {layout_str = "UNKNOWN"} : tensor<64x16xf16> -> tensor<64x16xf16>
  return %1 : tensor<64x16xf16>
}
