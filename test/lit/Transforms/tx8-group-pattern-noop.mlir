// tx8-group-pattern leaves alone what no pattern takes: single ops, ops
// already in groups, load_const/none, a graph with nothing to fuse. The
// groups it finds are numbered with those already there, in order.
// RUN: npuc-opt %s --split-input-file --tx8-group-pattern | FileCheck %s

// One op: no group (tx8-group-single makes it).
// CHECK-LABEL: func.func @single(
// CHECK-NEXT: tx8be.none
// CHECK-NEXT: tx8be.gemm
// CHECK-NEXT: return
func.func @single(%x: tensor<64x32xf16>, %w: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %n = tx8be.none : none
  %0 = tx8be.gemm %x, %w, %n : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}

// -----

// Two gemms: no pattern has gemm-gemm without softmax between.
// CHECK-LABEL: func.func @two_gemms(
// CHECK-NOT: tx8be.group
func.func @two_gemms(%x: tensor<64x32xf16>, %w: tensor<32x32xf16>) -> tensor<64x32xf16> {
  %n = tx8be.none : none
  %0 = tx8be.gemm %x, %w, %n : tensor<64x32xf16>, tensor<32x32xf16>, none -> tensor<64x32xf16>
  %1 = tx8be.gemm %0, %w, %n : tensor<64x32xf16>, tensor<32x32xf16>, none -> tensor<64x32xf16>
  return %1 : tensor<64x32xf16>
}

// -----

// A grouped graph: its groups stay, a new group is numbered after them in
// program order.
// CHECK-LABEL: func.func @grouped(
// CHECK: tx8be.group(%{{.*}}) {{.*}}group_id = 0 : si32, group_tag = 0 : i32
// CHECK: tx8be.group(%{{.*}}) {{.*}}group_id = 1 : si32, group_tag = 0 : i32
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.log
func.func @grouped(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.group(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>) attributes {group_id = 7 : si32, group_tag = 0 : i32} {
  ^bb0(%a: tensor<4x8xf32>):
    %1 = tx8be.relu %a : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %1 : tensor<4x8xf32>
  }
  %2 = tx8be.exp %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tx8be.log %2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// An empty graph.
// CHECK-LABEL: func.func @empty(
// CHECK-NEXT: return
func.func @empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
