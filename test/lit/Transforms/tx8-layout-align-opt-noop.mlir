// tx8-layout-align-opt changes nothing when no channel_norm is redundant:
// one conversion per value and layout, constants of rank 2, constants with
// more users. Nothing else is folded or deduplicated either (the driver
// runs without folding and constant CSE).
// RUN: npuc-opt %s -o %t.plain
// RUN: npuc-opt %s --tx8-layout-align-opt -o %t.opt
// RUN: diff %t.plain %t.opt
// RUN: FileCheck %s < %t.opt

// CHECK-LABEL: func.func @nothing_redundant
// CHECK-COUNT-2: arith.constant 1.0
// CHECK-COUNT-3: tx8be.channel_norm
func.func @nothing_redundant(%x: tensor<4x16xf16>, %y: tensor<4x16xf16>) -> (tensor<4x16xf16>, f32, f32) {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 1.0 : f32
  %w = tx8be.constant {value = dense<1.0> : tensor<4x16xf16>} : tensor<4x16xf16>
  %wn = tx8be.channel_norm %w to <Cx> : tensor<4x16xf16> -> tensor<4x16xf16>
  %xn = tx8be.channel_norm %x to <Cx> : tensor<4x16xf16> -> tensor<4x16xf16>
  %yn = tx8be.channel_norm %y to <Cx> : tensor<4x16xf16> -> tensor<4x16xf16>
  %0 = tx8be.add %xn, %wn : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %1 = tx8be.add %0, %yn : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  return %1, %a, %b : tensor<4x16xf16>, f32, f32
}
