// RUN: npuc-opt %s | FileCheck %s
// Custom syntax may span lines and carry comments; the op prints on one.

// CHECK-LABEL: func.func @multiline
// CHECK: annotation.mark %arg0 {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>} : memref<16xf32, #hivm.address_space<ub>>
// CHECK-NEXT: %[[E:.*]] = tensor.empty
// CHECK-NEXT: hivm.hir.vadd ins(%arg1, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>) -> tensor<4xf32>
func.func @multiline(%arg0: memref<16xf32, #hivm.address_space<ub>>, %arg1: tensor<4xf32>) {
  annotation.mark %arg0 {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>}
      : memref<16xf32, #hivm.address_space<ub>>
  %e = tensor.empty() : tensor<4xf32>
  %0 = hivm.hir.vadd
    ins(%arg1, %arg1   // both inputs
        : tensor<4xf32>, tensor<4xf32>)
    outs(%e : tensor<4xf32>)
    -> tensor<4xf32>
  return
}
