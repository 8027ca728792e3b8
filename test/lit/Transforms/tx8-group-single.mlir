// tx8-group-single: every compute op gets a tx8be.group of its own, in
// order. The group's operands are the DDR values the op reads, once each
// (graph inputs, load_const results, results of earlier groups); a
// channel_norm only the op reads goes in with it; tx8be.none, load_const
// and the return stay outside. group_tag 0, 2 for an op that does not
// shard (reshape).
// RUN: npuc-opt %s --split-input-file --tx8-group-single | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x8x16xf16>, %[[W:[^:]*]]: tensor<3x3x16x16xf16>
// CHECK-NEXT: %[[NONE:.*]] = tx8be.none : none
// CHECK-NEXT: %[[B:.*]] = tx8be.load_const[0] : tensor<16xf16>
// CHECK-NEXT: %[[G0:.*]] = tx8be.group(%[[X]], %[[W]], %[[B]]) : (tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16>) -> (tensor<1x8x8x16xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x8x8x16xf16>, %[[A1:.*]]: tensor<3x3x16x16xf16>, %[[A2:.*]]: tensor<16xf16>):
// CHECK-NEXT: %[[C:.*]] = tx8be.conv %[[A0]], %[[A1]], %[[A2]] strides = [1, 1]
// CHECK-NEXT: tx8be.return %[[C]] : tensor<1x8x8x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: %[[G1:.*]] = tx8be.group(%[[G0]]) : (tensor<1x8x8x16xf16>) -> (tensor<1x8x8x16xf16>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A3:.*]]: tensor<1x8x8x16xf16>):
// CHECK-NEXT: %[[N:.*]] = tx8be.channel_norm %[[A3]] to <Tensor>
// CHECK-NEXT: %[[R:.*]] = tx8be.relu %[[N]]
// CHECK-NEXT: tx8be.return %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G2:.*]] = tx8be.group(%[[G1]]) : (tensor<1x8x8x16xf16>) -> (tensor<64x16xf16>) attributes {group_id = 2 : si32, group_tag = 2 : i32} {
// CHECK-NEXT: ^bb0(%[[A4:.*]]: tensor<1x8x8x16xf16>):
// CHECK-NEXT: %[[S:.*]] = tx8be.reshape %[[A4]]
// CHECK-NEXT: tx8be.return %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[WC:.*]] = tx8be.load_const[1] : tensor<16x16xf16>
// The gemm reads the none from outside; the add reads one input twice.
// CHECK-NEXT: %[[G3:.*]] = tx8be.group(%[[G2]], %[[WC]]) : (tensor<64x16xf16>, tensor<16x16xf16>) -> (tensor<64x16xf16>) attributes {group_id = 3 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A5:.*]]: tensor<64x16xf16>, %[[A6:.*]]: tensor<16x16xf16>):
// CHECK-NEXT: %[[M:.*]] = tx8be.gemm %[[A5]], %[[A6]], %[[NONE]]
// CHECK-NEXT: tx8be.return %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G4:.*]] = tx8be.group(%[[G3]]) : (tensor<64x16xf16>) -> (tensor<64x16xf16>) attributes {group_id = 4 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A7:.*]]: tensor<64x16xf16>):
// CHECK-NEXT: %[[D:.*]] = tx8be.add %[[A7]], %[[A7]]
// CHECK-NEXT: tx8be.return %[[D]]
// CHECK-NEXT: }
// A channel_norm one op reads twice is that op's: it goes in with it
// (its producer's result is also returned, so it cannot go with that).
// CHECK-NEXT: %[[G5:.*]] = tx8be.group(%[[G4]]) {{.*}}group_id = 5 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A8:.*]]: tensor<64x16xf16>):
// CHECK-NEXT: %[[CX:.*]] = tx8be.channel_norm %[[A8]] to <Cx>
// CHECK-NEXT: %[[MU:.*]] = tx8be.mul %[[CX]], %[[CX]]
// CHECK-NEXT: tx8be.return %[[MU]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G5]], %[[G4]]
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>) -> (tensor<64x16xf16>, tensor<64x16xf16>) {
    %n = tx8be.none : none
    %b = tx8be.load_const[0] : tensor<16xf16>
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
    %1 = tx8be.channel_norm %0 to <Tensor> : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %2 = tx8be.relu %1 : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
    %3 = tx8be.reshape %2 : tensor<1x8x8x16xf16> -> tensor<64x16xf16>
    %wc = tx8be.load_const[1] : tensor<16x16xf16>
    %4 = tx8be.gemm %3, %wc, %n : tensor<64x16xf16>, tensor<16x16xf16>, none -> tensor<64x16xf16>
    %5 = tx8be.add %4, %4 : tensor<64x16xf16>, tensor<64x16xf16> -> tensor<64x16xf16>
    %6 = tx8be.channel_norm %5 to <Cx> : tensor<64x16xf16> -> tensor<64x16xf16>
    %7 = tx8be.mul %6, %6 : tensor<64x16xf16>, tensor<64x16xf16> -> tensor<64x16xf16>
    return %7, %5 : tensor<64x16xf16>, tensor<64x16xf16>
  }
}

// -----

// Groups already there are kept and counted: ids follow program order over
// every function and subgraph; an op already in a group is not grouped
// again, and a tx8be.call stays outside.
// CHECK-LABEL: tx8be.subgraph "sg"
// CHECK: tx8be.group{{.*}}group_id = 0 : si32, group_tag = 0 : i32}
// CHECK: tx8be.abs
// CHECK: tx8be.subgraph_return
// CHECK-LABEL: func.func @main
// CHECK: tx8be.group{{.*}}group_id = 1 : si32, group_tag = 7 : i32}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.relu
// CHECK: tx8be.group{{.*}}group_id = 2 : si32, group_tag = 0 : i32}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK: tx8be.call[@sg]
module {
  tx8be.subgraph "sg" {
  ^bb0(%a: tensor<4xf32>):
    %0 = tx8be.abs %a : tensor<4xf32> -> tensor<4xf32>
    tx8be.subgraph_return %0 : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) attributes {group_id = 9 : si32, group_tag = 7 : i32} {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    %1 = tx8be.exp %0 : tensor<4xf32> -> tensor<4xf32>
    %2 = tx8be.call[@sg] (%1) : (tensor<4xf32>) -> (tensor<4xf32>)
    return %2 : tensor<4xf32>
  }
}

// -----

// A reshape reads its input in DDR (need_load 0), so the channel_norm
// before it is not taken in: it gets a group of its own, whose store puts
// the converted data in DDR for the reshape.
// CHECK-LABEL: func.func @main
// CHECK: %[[CN:.*]] = tx8be.group(%arg0) {{.*}}group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.channel_norm
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.group(%[[CN]]) {{.*}}group_id = 1 : si32, group_tag = 2 : i32} {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.reshape
module {
  func.func @main(%x: tensor<2x4x8xf16>) -> tensor<8x8xf16> {
    %0 = tx8be.channel_norm %x to <Tensor> : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %1 = tx8be.reshape %0 : tensor<2x4x8xf16> -> tensor<8x8xf16>
    return %1 : tensor<8x8xf16>
  }
}

// -----

// A channel_norm that is the only user of an op's result converts it
// before the store: it joins the op's group, after it, and the group
// yields the converted value (here to the graph's return, and to a
// reshape, which reads DDR). Its producer must be a compute op of the body.
// CHECK-LABEL: func.func @main
// CHECK: %[[E:.*]] = tx8be.group(%arg0) {{.*}}group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: %[[X:.*]] = tx8be.exp %[[A]]
// CHECK-NEXT: %[[N:.*]] = tx8be.channel_norm %[[X]] to <Tensor>
// CHECK-NEXT: tx8be.return %[[N]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = tx8be.group(%arg0) {{.*}}group_id = 1 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.channel_norm
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[S:.*]] = tx8be.group(%[[R]]) {{.*}}group_id = 2 : si32, group_tag = 2 : i32} {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.reshape
// CHECK: return %[[E]], %[[S]]
module {
  func.func @main(%x: tensor<2x4x8xf16>) -> (tensor<2x4x8xf16>, tensor<8x8xf16>) {
    %0 = tx8be.exp %x : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %1 = tx8be.channel_norm %0 to <Tensor> : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %2 = tx8be.relu %x : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %3 = tx8be.channel_norm %2 to <Tensor> : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %4 = tx8be.reshape %3 : tensor<2x4x8xf16> -> tensor<8x8xf16>
    return %1, %4 : tensor<2x4x8xf16>, tensor<8x8xf16>
  }
}
