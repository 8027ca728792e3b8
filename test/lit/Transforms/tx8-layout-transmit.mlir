// tx8-layout-transmit: layouts flow forward and backward from the ops that
// know theirs (gemm/conv after tx8-layout-init) by each op's layout rule;
// reshape and broadcast stop the flow; whatever is left takes its
// op-library default.
// RUN: npuc-opt %s --tx8-layout-transmit | FileCheck %s

// Forward from the conv through batchnorm and relu; backward to its
// weight constant; the rank-1 [C] operands of batchnorm and add broadcast
// and learn nothing (they default to Tensor).
// CHECK-LABEL: func.func @forward_backward
func.func @forward_backward(%x: tensor<2x8x8x16xf16>, %s: tensor<16xf32>) -> tensor<2x8x8x16xf16> {
  // CHECK: tx8be.constant {layout_str = "HWOI"
  %w = tx8be.constant {layout_str = "UNKNOWN", value = dense<1.0> : tensor<3x3x16x16xf16>} : tensor<3x3x16x16xf16>
  // CHECK: tx8be.constant {layout_str = "Tensor"
  %c = tx8be.constant {layout_str = "UNKNOWN", value = dense<1.0> : tensor<16xf16>} : tensor<16xf16>
  // CHECK: tx8be.exp %{{.*}} {layout_str = "NHWC"}
  %e = tx8be.exp %x {layout_str = "UNKNOWN"} : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
  %none = tx8be.none : none
  // CHECK: tx8be.conv {{.*}} {layout_str = "NHWC-HWOI-NHWC"}
  %0 = tx8be.conv %e, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {layout_str = "NHWC-HWOI-NHWC"} : tensor<2x8x8x16xf16>, tensor<3x3x16x16xf16>, none -> tensor<2x8x8x16xf16>
  // CHECK: tx8be.batchnorm_inference {{.*}} {layout_str = "NHWC"}
  %1 = tx8be.batchnorm_inference %0, %s, %s, %s, %s {layout_str = "UNKNOWN"} : tensor<2x8x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x8x16xf16>
  // CHECK: tx8be.relu %{{.*}} {layout_str = "NHWC"}
  %2 = tx8be.relu %1 {layout_str = "UNKNOWN"} : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
  // CHECK: tx8be.add %{{.*}} {layout_str = "NHWC"}
  %3 = tx8be.add %2, %c {layout_str = "UNKNOWN"} : tensor<2x8x8x16xf16>, tensor<16xf16> -> tensor<2x8x8x16xf16>
  return %3 : tensor<2x8x8x16xf16>
}

// Reshape and broadcast never learn a layout and pass none on: the ops
// beyond them default. A batchnorm the flow misses defaults by its batch
// (NTensor for 4 rows), others to Tensor.
// CHECK-LABEL: func.func @stops
func.func @stops(%a: tensor<2x4x32xf16>, %b: tensor<32x16xf16>, %v: tensor<16xf16>, %s: tensor<128xf32>) -> (tensor<128xf16>, tensor<2x4x16xf16>, tensor<4x128xf16>) {
  %none = tx8be.none : none
  // CHECK: tx8be.gemm {{.*}} {layout_str = "NTensor-Tensor-NTensor"}
  %0 = tx8be.gemm %a, %b, %none {layout_str = "NTensor-Tensor-NTensor"} : tensor<2x4x32xf16>, tensor<32x16xf16>, none -> tensor<2x4x16xf16>
  // CHECK: tx8be.reshape %{{.*}} {layout_str = "Tensor"}
  %1 = tx8be.reshape %0 {layout_str = "UNKNOWN"} : tensor<2x4x16xf16> -> tensor<128xf16>
  // CHECK: tx8be.relu %{{.*}} {layout_str = "Tensor"}
  %2 = tx8be.relu %1 {layout_str = "UNKNOWN"} : tensor<128xf16> -> tensor<128xf16>
  // CHECK: tx8be.broadcast %{{.*}} dims = [2] {layout_str = "Tensor"}
  %3 = tx8be.broadcast %v dims = [2] {layout_str = "UNKNOWN"} : tensor<16xf16> -> tensor<2x4x16xf16>
  // Learns from the gemm (forward), and tells the broadcast nothing.
  // CHECK: tx8be.sub %{{.*}} {layout_str = "NTensor"}
  %4 = tx8be.sub %3, %0 {layout_str = "UNKNOWN"} : tensor<2x4x16xf16>, tensor<2x4x16xf16> -> tensor<2x4x16xf16>
  %5 = tx8be.reshape %4 {layout_str = "UNKNOWN"} : tensor<2x4x16xf16> -> tensor<128xf16>
  %6 = tx8be.broadcast %5 dims = [1] {layout_str = "UNKNOWN"} : tensor<128xf16> -> tensor<4x128xf16>
  // CHECK: tx8be.batchnorm_inference {{.*}} {layout_str = "NTensor"}
  %7 = tx8be.batchnorm_inference %6, %s, %s, %s, %s {layout_str = "UNKNOWN"} : tensor<4x128xf16>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<4x128xf16>
  return %2, %4, %7 : tensor<128xf16>, tensor<2x4x16xf16>, tensor<4x128xf16>
}

// Transpose permutes the layout forward (the seed's NCHW by (0, 2, 3, 1)
// is NHWC) and backward (the conv's NHWC input comes from NCHW data).
// CHECK-LABEL: func.func @permute
func.func @permute(%x: tensor<1x16x8x8xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x8x8x8xf16> {
  // CHECK: tx8be.abs %{{.*}} {layout_str = "NCHW"}
  %0 = tx8be.abs %x {layout_str = "UNKNOWN"} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  // CHECK: tx8be.transpose %{{.*}} permutation = [0, 2, 3, 1] {layout_str = "NHWC"}
  %1 = tx8be.transpose %0 permutation = [0, 2, 3, 1] {layout_str = "UNKNOWN"} : tensor<1x16x8x8xf16> -> tensor<1x8x8x16xf16>
  %none = tx8be.none : none
  %2 = tx8be.conv %1, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {layout_str = "NHWC-HWOI-NHWC"} : tensor<1x8x8x16xf16>, tensor<3x3x8x16xf16>, none -> tensor<1x8x8x8xf16>
  // CHECK: tx8be.transpose %{{.*}} permutation = [0, 3, 1, 2] {layout_str = "NCHW"}
  %3 = tx8be.transpose %2 permutation = [0, 3, 1, 2] {layout_str = "UNKNOWN"} : tensor<1x8x8x8xf16> -> tensor<1x8x8x8xf16>
  return %3 : tensor<1x8x8x8xf16>
}

// Without init (hand-written input): ops with no layout_str count as
// UNKNOWN, and any op with a known layout starts the flow.
// CHECK-LABEL: func.func @hand_written
func.func @hand_written(%x: tensor<1x8x16xf16>) -> tensor<1x8x16xf16> {
  // CHECK: tx8be.exp %{{.*}} {layout_str = "NTensor"}
  %0 = tx8be.exp %x : tensor<1x8x16xf16> -> tensor<1x8x16xf16>
  // CHECK: tx8be.tanh %{{.*}} {layout_str = "NTensor"}
  %1 = tx8be.tanh %0 {layout_str = "NTensor"} : tensor<1x8x16xf16> -> tensor<1x8x16xf16>
  // CHECK: tx8be.log %{{.*}} {layout_str = "NTensor"}
  %2 = tx8be.log %1 : tensor<1x8x16xf16> -> tensor<1x8x16xf16>
  return %2 : tensor<1x8x16xf16>
}

// Only one-letter-per-dimension layouts permute: a transpose of NTensor
// data learns nothing and takes the default, and so do the ops after it.
// CHECK-LABEL: func.func @no_permute
func.func @no_permute(%x: tensor<2x8x16xf16>) -> tensor<16x8x2xf16> {
  // CHECK: tx8be.exp %{{.*}} {layout_str = "NTensor"}
  %0 = tx8be.exp %x {layout_str = "NTensor"} : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  // CHECK: tx8be.transpose %{{.*}} {layout_str = "Tensor"}
  %1 = tx8be.transpose %0 permutation = [2, 1, 0] : tensor<2x8x16xf16> -> tensor<16x8x2xf16>
  // CHECK: tx8be.abs %{{.*}} {layout_str = "Tensor"}
  %2 = tx8be.abs %1 : tensor<16x8x2xf16> -> tensor<16x8x2xf16>
  return %2 : tensor<16x8x2xf16>
}
