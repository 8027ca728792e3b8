// tx8-group-pattern with a pattern file (patterns=FILE): longest match
// first, priority among equal lengths, OR alternatives, X* over 1, 2 and
// 25 repeats (a self-loop, not copies), and the seed's need_store /
// need_load rule on the edges a match follows.
// RUN: split-file %s %t
// RUN: npuc-opt %t/longest.mlir --tx8-group-pattern="patterns=%t/longest.yaml" | FileCheck %t/longest.mlir
// RUN: npuc-opt %t/priority.mlir --tx8-group-pattern="patterns=%t/priority.yaml" | FileCheck %t/priority.mlir
// RUN: npuc-opt %t/priority.mlir --tx8-group-pattern="patterns=%t/priority2.yaml" | FileCheck %t/priority.mlir --check-prefix=SWAP
// RUN: npuc-opt %t/or.mlir --split-input-file --tx8-group-pattern="patterns=%t/or.yaml" | FileCheck %t/or.mlir
// RUN: npuc-opt %t/star.mlir --split-input-file --tx8-group-pattern="patterns=%t/star.yaml" | FileCheck %t/star.mlir
// RUN: npuc-opt %t/ldst.mlir --split-input-file --tx8-group-pattern="patterns=%t/ldst.yaml" | FileCheck %t/ldst.mlir

//--- longest.yaml
# The longer match wins over the higher priority.
patterns:
  - {ops: "exp relu", priority: 100}
  - {ops: [exp, relu, abs], priority: 1}

//--- longest.mlir
// CHECK-LABEL: func.func @f(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.abs
// CHECK-NEXT: tx8be.return
// CHECK-NOT: tx8be.group
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.abs %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

//--- priority.yaml
# exp has two users; both matches are two ops long: the higher priority
# (exp log) wins, the other user stays out.
patterns:
  - {ops: "exp relu", priority: 1}
  - {ops: "exp log", priority: 2}

//--- priority2.yaml
patterns:
  - {ops: "exp relu", priority: 2}
  - {ops: "exp log", priority: 1}

//--- priority.mlir
// CHECK-LABEL: func.func @f(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.log
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.relu
// SWAP-LABEL: func.func @f(
// SWAP: tx8be.group
// SWAP-NEXT: ^bb0
// SWAP-NEXT: tx8be.exp
// SWAP-NEXT: tx8be.relu
// SWAP-NEXT: tx8be.return
// SWAP-NEXT: }
// SWAP-NEXT: tx8be.log
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.log %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

//--- or.yaml
patterns:
  - {ops: "exp relu OR log abs tanh", priority: 1}

//--- or.mlir
// Either alternative matches; a half-match of neither does not.
// CHECK-LABEL: func.func @first(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
func.func @first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @second(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.log
// CHECK-NEXT: tx8be.abs
// CHECK-NEXT: tx8be.tanh
// CHECK-NEXT: tx8be.return
func.func @second(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.log %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.abs %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.tanh %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @neither(
// CHECK-NOT: tx8be.group
func.func @neither(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.log %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.abs %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.relu %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

//--- star.yaml
# exp, one or more adds, then relu.
patterns:
  - {ops: "exp add* relu", priority: 1}

//--- star.mlir
// CHECK-LABEL: func.func @one(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
func.func @one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.add %0, %0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.relu %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @two(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
func.func @two(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.add %0, %0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.add %1, %1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tx8be.relu %2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// 25 adds: one group of 27 ops (the seed's expansion stops at 4).
// CHECK-LABEL: func.func @many(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-COUNT-25: tx8be.add
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
// CHECK-NOT: tx8be.group
func.func @many(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.add %0, %0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.add %1, %1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tx8be.add %2, %2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = tx8be.add %3, %3 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = tx8be.add %4, %4 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %6 = tx8be.add %5, %5 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %7 = tx8be.add %6, %6 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %8 = tx8be.add %7, %7 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %9 = tx8be.add %8, %8 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %10 = tx8be.add %9, %9 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %11 = tx8be.add %10, %10 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %12 = tx8be.add %11, %11 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %13 = tx8be.add %12, %12 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %14 = tx8be.add %13, %13 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %15 = tx8be.add %14, %14 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %16 = tx8be.add %15, %15 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %17 = tx8be.add %16, %16 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %18 = tx8be.add %17, %17 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %19 = tx8be.add %18, %18 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %20 = tx8be.add %19, %19 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %21 = tx8be.add %20, %20 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %22 = tx8be.add %21, %21 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %23 = tx8be.add %22, %22 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %24 = tx8be.add %23, %23 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %25 = tx8be.add %24, %24 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %26 = tx8be.relu %25 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %26 : tensor<4x8xf32>
}

// -----

// No add: `*` is one or more, so exp-relu is no match.
// CHECK-LABEL: func.func @none(
// CHECK-NOT: tx8be.group
func.func @none(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

//--- ldst.yaml
# reshape reads DDR (need_load 0) and leaves its result there
# (need_store 0): a producer that stores may feed it; it may not feed an
# op that loads.
patterns:
  - {ops: "relu reshape OR reshape relu", priority: 1}

//--- ldst.mlir
// CHECK-LABEL: func.func @into_reshape(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.reshape
// CHECK-NEXT: tx8be.return
func.func @into_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = tx8be.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.reshape %0 : tensor<4x8xf32> -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----

// CHECK-LABEL: func.func @out_of_reshape(
// CHECK-NOT: tx8be.group
func.func @out_of_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = tx8be.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %1 = tx8be.relu %0 : tensor<32xf32> -> tensor<32xf32>
  return %1 : tensor<32xf32>
}
