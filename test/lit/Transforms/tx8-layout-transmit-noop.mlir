// tx8-layout-transmit changes nothing where every layout is known already,
// nor in a function without tx8be ops.
// RUN: npuc-opt %s -o %t.plain
// RUN: npuc-opt %s --tx8-layout-transmit -o %t.transmit
// RUN: diff %t.plain %t.transmit
// RUN: FileCheck %s < %t.transmit

// CHECK-LABEL: func.func @known
// CHECK: layout_str = "Tensor-Tensor-Tensor"
// CHECK: tx8be.relu {{.*}}layout_str = "NTensor"
func.func @known(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor-Tensor-Tensor"} : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  // Known (given by hand), so not overwritten from the gemm.
  %1 = tx8be.relu %0 {layout_str = "NTensor"} : tensor<64x16xf16> -> tensor<64x16xf16>
  return %1 : tensor<64x16xf16>
}

// CHECK-LABEL: func.func @no_tx8be
// CHECK-NEXT: arith.addf
func.func @no_tx8be(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
