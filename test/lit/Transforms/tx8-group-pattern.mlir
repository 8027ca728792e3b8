// tx8-group-pattern with the default built-in set (no tx8be.opt_group):
// each pattern's ops become one tx8be.group in tx8-group-single's form:
// the group's DDR inputs as block arguments, once each; tx8be.none and
// load_const outside; tx8be.return yields the values read outside.
// RUN: npuc-opt %s --split-input-file --tx8-group-pattern | FileCheck %s

// conv-batchnorm-relu-add-relu, the residual read as a group input.
// CHECK-LABEL: func.func @resnet(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x8x16xf16>, %[[W:[^:]*]]: tensor<3x3x16x16xf16>, %[[R:[^:]*]]: tensor<1x8x8x16xf16>
// CHECK: %[[B:.*]] = tx8be.load_const[0] : tensor<16xf16>
// CHECK-NEXT: %[[S:.*]] = tx8be.load_const[1]
// CHECK-NEXT: %[[G:.*]] = tx8be.group(%[[X]], %[[W]], %[[B]], %[[S]], %[[R]]) : {{.*}} -> (tensor<1x8x8x16xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A0:[^:]*]]: {{[^,]*}}, %[[A1:[^:]*]]: {{[^,]*}}, %[[A2:[^:]*]]: {{[^,]*}}, %[[A3:[^:]*]]: {{[^,]*}}, %[[A4:[^:]*]]: {{[^)]*}}):
// CHECK-NEXT: %[[C:.*]] = tx8be.conv %[[A0]], %[[A1]], %[[A2]]
// CHECK-NEXT: %[[N:.*]] = tx8be.batchnorm_inference %[[C]], %[[A3]], %[[A3]], %[[A3]], %[[A3]]
// CHECK-NEXT: %[[R1:.*]] = tx8be.relu %[[N]]
// CHECK-NEXT: %[[D:.*]] = tx8be.add %[[R1]], %[[A4]]
// CHECK-NEXT: %[[R2:.*]] = tx8be.relu %[[D]]
// CHECK-NEXT: tx8be.return %[[R2]] : tensor<1x8x8x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G]]
func.func @resnet(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>, %r: tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16> {
  %b = tx8be.load_const[0] : tensor<16xf16>
  %s = tx8be.load_const[1] : tensor<16xf16>
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
  %1 = tx8be.batchnorm_inference %0, %s, %s, %s, %s {epsilon = 1.0e-5 : f32} : tensor<1x8x8x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
  %2 = tx8be.relu %1 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
  %3 = tx8be.add %2, %r : tensor<1x8x8x16xf16>, tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
  %4 = tx8be.relu %3 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
  return %4 : tensor<1x8x8x16xf16>
}

// -----

// gemm-add(bias)-gelu; the none stays outside and is read from there.
// CHECK-LABEL: func.func @mlp(
// CHECK: %[[NONE:.*]] = tx8be.none : none
// CHECK: tx8be.group({{.*}}) : (tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<16xbf16>) -> (tensor<64x16xbf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK: %[[M:.*]] = tx8be.gemm %{{.*}}, %{{.*}}, %[[NONE]]
// CHECK-NEXT: %[[A:.*]] = tx8be.add %[[M]], %
// CHECK-NEXT: %[[GE:.*]] = tx8be.gelu %[[A]]
// CHECK-NEXT: tx8be.return %[[GE]]
// CHECK-NOT: tx8be.group
func.func @mlp(%x: tensor<64x32xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<64x16xbf16> {
  %n = tx8be.none : none
  %0 = tx8be.gemm %x, %w, %n : tensor<64x32xbf16>, tensor<32x16xbf16>, none -> tensor<64x16xbf16>
  %1 = tx8be.add %0, %b : tensor<64x16xbf16>, tensor<16xbf16> -> tensor<64x16xbf16>
  %2 = tx8be.gelu %1 : tensor<64x16xbf16> -> tensor<64x16xbf16>
  return %2 : tensor<64x16xbf16>
}

// -----

// An elementwise chain of mixed ops: one group, whatever its length; the
// value read twice (%1 by mul and sub) is inside, the chain's input once.
// CHECK-LABEL: func.func @chain(
// CHECK-COUNT-1: tx8be.group
// CHECK: ^bb0(%{{[^:]*}}: tensor<16x64xf32>):
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.mul
// CHECK-NEXT: tx8be.sub
// CHECK-NEXT: tx8be.sigmoid
// CHECK-NEXT: tx8be.tanh
// CHECK-NEXT: tx8be.return
// CHECK-NOT: tx8be.group
func.func @chain(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = tx8be.exp %x : tensor<16x64xf32> -> tensor<16x64xf32>
  %1 = tx8be.relu %0 : tensor<16x64xf32> -> tensor<16x64xf32>
  %2 = tx8be.mul %1, %1 : tensor<16x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  %3 = tx8be.sub %2, %1 : tensor<16x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  %4 = tx8be.sigmoid %3 : tensor<16x64xf32> -> tensor<16x64xf32>
  %5 = tx8be.tanh %4 : tensor<16x64xf32> -> tensor<16x64xf32>
  return %5 : tensor<16x64xf32>
}

// -----

// Attention scores without softmax (tx8be.softmax is not in this op
// library yet, so gemm-mul-softmax-gemm cannot match): gemm then the
// scale, by gemm-ELEMENTWISE*.
// CHECK-LABEL: func.func @scores(
// CHECK: tx8be.group
// CHECK: tx8be.gemm
// CHECK-NEXT: tx8be.mul
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.return
func.func @scores(%q: tensor<64x32xf16>, %k: tensor<32x64xf16>, %s: tensor<64xf16>) -> tensor<64x64xf16> {
  %n = tx8be.none : none
  %0 = tx8be.gemm %q, %k, %n : tensor<64x32xf16>, tensor<32x64xf16>, none -> tensor<64x64xf16>
  %1 = tx8be.mul %0, %s : tensor<64x64xf16>, tensor<64xf16> -> tensor<64x64xf16>
  %2 = tx8be.exp %1 : tensor<64x64xf16> -> tensor<64x64xf16>
  return %2 : tensor<64x64xf16>
}

// -----

// broadcast then an elementwise chain.
// CHECK-LABEL: func.func @bcast(
// CHECK: tx8be.group(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.broadcast
// CHECK-NEXT: tx8be.sub
// CHECK-NEXT: tx8be.abs
// CHECK-NEXT: tx8be.return
func.func @bcast(%v: tensor<8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.broadcast %v dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
  %1 = tx8be.sub %x, %0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.abs %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A channel_norm between two matched ops, read by the second only, goes
// in with it; a value read outside (%0, returned) is yielded too.
// CHECK-LABEL: func.func @norm_inside(
// CHECK: %[[G:.*]]:2 = tx8be.group(%{{.*}}) : (tensor<1x4x4x16xf16>) -> (tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>)
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]:
// CHECK-NEXT: %[[E:.*]] = tx8be.exp %[[A]]
// CHECK-NEXT: %[[N:.*]] = tx8be.channel_norm %[[E]] to <NCx>
// CHECK-NEXT: %[[L:.*]] = tx8be.log %[[N]]
// CHECK-NEXT: tx8be.return %[[E]], %[[L]]
// CHECK: return %[[G]]#1, %[[G]]#0
func.func @norm_inside(%x: tensor<1x4x4x16xf16>) -> (tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>) {
  %0 = tx8be.exp %x : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
  %1 = tx8be.channel_norm %0 to <NCx> : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
  %2 = tx8be.log %1 : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
  return %2, %0 : tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>
}
