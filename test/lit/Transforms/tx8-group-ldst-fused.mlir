// tx8-group-ldst on a group of several compute ops (as tx8-group-pattern
// leaves it): one load_var per input whatever the number of its readers,
// intermediates stay in SPM (neither loaded nor stored), each value the
// group yields is stored once, also when yielded twice or read inside too.
// RUN: npuc-opt %s --tx8-group-ldst | FileCheck %s
// RUN: npuc-opt %s --tx8-group-ldst --tx8-group-ldst | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK: ^bb0(%[[A:.*]]: tensor<4x16xf16>, %[[B:.*]]: tensor<4x16xf16>, %[[C:.*]]: tensor<16xf16>):
// CHECK-NEXT: %[[LA:.*]] = tx8be.load_var %[[A]]
// CHECK-NEXT: %[[LB:.*]] = tx8be.load_var %[[B]]
// CHECK-NEXT: %[[LC:.*]] = tx8be.load_var %[[C]]
// CHECK-NEXT: %[[ADD:.*]] = tx8be.add %[[LA]], %[[LC]]
// CHECK-NEXT: %[[RELU:.*]] = tx8be.relu %[[ADD]]
// CHECK-NEXT: %[[MUL:.*]] = tx8be.mul %[[RELU]], %[[LA]]
// CHECK-NEXT: %[[SUB:.*]] = tx8be.sub %[[MUL]], %[[LB]]
// CHECK-NEXT: %[[S0:.*]] = tx8be.store_var %[[RELU]]
// CHECK-NEXT: %[[S1:.*]] = tx8be.store_var %[[SUB]]
// CHECK-NEXT: tx8be.return %[[S0]], %[[S1]], %[[S1]] :
// CHECK-NOT: tx8be.load_var
// CHECK-NOT: tx8be.store_var
func.func @chain(%x: tensor<4x16xf16>, %y: tensor<4x16xf16>, %v: tensor<16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  %0:3 = tx8be.group(%x, %y, %v) : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  ^bb0(%a: tensor<4x16xf16>, %b: tensor<4x16xf16>, %c: tensor<16xf16>):
    %1 = tx8be.add %a, %c : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
    %2 = tx8be.relu %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    %3 = tx8be.mul %2, %a : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    %4 = tx8be.sub %3, %b : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    tx8be.return %2, %4, %4 : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
  }
  return %0#0, %0#1, %0#2 : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
}
