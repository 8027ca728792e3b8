// The built-in pattern set follows the module's tx8be.opt_group (the
// seed's patternConfigMap): 0 none, 1 default (also when absent), 2 CNN,
// 3 transformer, 4 elementwise chains only. A pattern file replaces it.
// RUN: npuc-opt %s --split-input-file --tx8-group-pattern | FileCheck %s

// conv-relu-exp: CNN (and default) take all three ops.
// CHECK-LABEL: func.func @cnn(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.return
module attributes {tx8be.opt_group = 2 : i32} {
  func.func @cnn(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>, %b: tensor<16xf16>) -> tensor<1x8x8x16xf16> {
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %1 = tx8be.relu %0 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %2 = tx8be.exp %1 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    return %2 : tensor<1x8x8x16xf16>
  }
}

// -----

// The transformer set has no conv pattern: only the elementwise chain.
// CHECK-LABEL: func.func @transformer(
// CHECK: tx8be.conv
// CHECK-NEXT: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.return
module attributes {tx8be.opt_group = 3 : i32} {
  func.func @transformer(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>, %b: tensor<16xf16>) -> tensor<1x8x8x16xf16> {
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %1 = tx8be.relu %0 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %2 = tx8be.exp %1 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    return %2 : tensor<1x8x8x16xf16>
  }
}

// -----

// Elementwise chains only: gemm-add is not taken, add-relu is.
// CHECK-LABEL: func.func @chains(
// CHECK: tx8be.gemm
// CHECK-NEXT: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
module attributes {tx8be.opt_group = 4 : i32} {
  func.func @chains(%x: tensor<64x32xf16>, %w: tensor<32x16xf16>, %b: tensor<16xf16>) -> tensor<64x16xf16> {
    %n = tx8be.none : none
    %0 = tx8be.gemm %x, %w, %n : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
    %1 = tx8be.add %0, %b : tensor<64x16xf16>, tensor<16xf16> -> tensor<64x16xf16>
    %2 = tx8be.relu %1 : tensor<64x16xf16> -> tensor<64x16xf16>
    return %2 : tensor<64x16xf16>
  }
}

// -----

// Set 0: nothing is grouped.
// CHECK-LABEL: func.func @none(
// CHECK-NOT: tx8be.group
module attributes {tx8be.opt_group = 0 : i32} {
  func.func @none(%x: tensor<64x16xf16>) -> tensor<64x16xf16> {
    %0 = tx8be.exp %x : tensor<64x16xf16> -> tensor<64x16xf16>
    %1 = tx8be.relu %0 : tensor<64x16xf16> -> tensor<64x16xf16>
    return %1 : tensor<64x16xf16>
  }
}
