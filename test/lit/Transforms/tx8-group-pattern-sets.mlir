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

// -----

// MobileNetV2's inverted residual (1x1 expand, relu6 as clip, 3x3
// depthwise, clip, 1x1 project, the shortcut's add): CNN takes all six
// ops in one group, so the 4x wider expanded activation stays in SPM.
// CHECK-LABEL: func.func @inverted_residual(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.clip
// CHECK-NEXT: tx8be.conv {{.*}} group = 16
// CHECK-NEXT: tx8be.clip
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tx8be.opt_group = 2 : i32} {
  func.func @inverted_residual(%x: tensor<1x8x8x4xf16>, %we: tensor<1x1x16x4xf16>, %be: tensor<16xf16>, %wd: tensor<3x3x16x1xf16>, %wp: tensor<1x1x4x16xf16>, %bp: tensor<4xf16>) -> tensor<1x8x8x4xf16> {
    %0 = tx8be.conv %x, %we, %be strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<1x1x16x4xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %1 = tx8be.clip %0 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %2 = tx8be.conv %1, %wd, %be strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 16 : tensor<1x8x8x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %3 = tx8be.clip %2 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %4 = tx8be.conv %3, %wp, %bp strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<1x1x4x16xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
    %5 = tx8be.add %x, %4 : tensor<1x8x8x4xf16>, tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
    return %5 : tensor<1x8x8x4xf16>
  }
}

// -----

// The bottleneck (1x1-3x3-1x1 with batch norms, the shortcut's add and
// relu): one group of ten ops.
// CHECK-LABEL: func.func @bottleneck(
// CHECK: tx8be.group
// CHECK-COUNT-3: tx8be.conv
// CHECK: tx8be.add
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tx8be.opt_group = 2 : i32} {
  func.func @bottleneck(%x: tensor<1x8x8x16xf16>, %w1: tensor<1x1x4x16xf16>, %w2: tensor<3x3x4x4xf16>, %w3: tensor<1x1x16x4xf16>, %b4: tensor<4xf16>, %b16: tensor<16xf16>) -> tensor<1x8x8x16xf16> {
    %0 = tx8be.conv %x, %w1, %b4 strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<1x1x4x16xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
    %1 = tx8be.batchnorm_inference %0, %b4, %b4, %b4, %b4 {epsilon = 1.0e-05 : f32} : tensor<1x8x8x4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
    %2 = tx8be.relu %1 : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
    %3 = tx8be.conv %2, %w2, %b4 strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<3x3x4x4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
    %4 = tx8be.batchnorm_inference %3, %b4, %b4, %b4, %b4 {epsilon = 1.0e-05 : f32} : tensor<1x8x8x4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
    %5 = tx8be.relu %4 : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
    %6 = tx8be.conv %5, %w3, %b16 strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<1x1x16x4xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %7 = tx8be.batchnorm_inference %6, %b16, %b16, %b16, %b16 {epsilon = 1.0e-05 : f32} : tensor<1x8x8x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %8 = tx8be.add %7, %x : tensor<1x8x8x16xf16>, tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %9 = tx8be.relu %8 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    return %9 : tensor<1x8x8x16xf16>
  }
}
