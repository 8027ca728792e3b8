// tx8-group-dag (opt_barrier): the groups ordered by level, highest first
// (program order within a level), need_barrier only on each level's last
// group with code. Levels: g5 and g3 (tanh, returned) 0; the DDR-only
// reshape g4 and its producer g2 1 (a DDR-only reader adds nothing); g0
// and g1 2. The load_const between groups moves before the first group.
// RUN: npuc-opt %s --tx8-group-dag=stats=true 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS --input-file=%t.err
// RUN: npuc-opt %s --tx8-group-dag=levels=false | FileCheck %s --check-prefix=OFF
// RUN: npuc-opt %s --tx8-group-dag | npuc-opt --tx8-group-dag | FileCheck %s

// Barriers given on every group are kept (a second run changes nothing).
// RUN: npuc-opt %s --tx8-group-dag -o %t.1
// RUN: npuc-opt %t.1 --tx8-group-dag=stats=true -o %t.2 2>&1 | FileCheck %s --check-prefix=GIVEN
// RUN: diff %t.1 %t.2
// GIVEN: remark: tx8-group-dag: 5 groups with code, 3 barriers (given: kept)

// STATS: remark: tx8-group-dag: 5 groups with code, 3 barriers
// STATS: remark: tx8-group-dag: 2 groups with code, 2 barriers (an op other than a group reads DDR values here: the order is kept)

// CHECK-LABEL: func.func @main
// CHECK: tx8be.load_const[0]
// CHECK: group_id = 0 : si32, group_tag = 0 : i32, need_barrier = false
// CHECK: tx8be.relu
// CHECK: group_id = 1 : si32, group_tag = 0 : i32, need_barrier = true
// CHECK: tx8be.exp
// CHECK: group_id = 2 : si32, group_tag = 0 : i32, need_barrier = true
// CHECK: tx8be.add
// CHECK: group_id = 4 : si32, group_tag = 2 : i32, need_barrier = false
// CHECK: tx8be.reshape
// CHECK: group_id = 3 : si32, group_tag = 0 : i32, need_barrier = false
// CHECK: tx8be.tanh
// CHECK: group_id = 5 : si32, group_tag = 0 : i32, need_barrier = true
// CHECK: tx8be.mul
// CHECK: return

// OFF-LABEL: func.func @main
// OFF: group_id = 0 : si32, group_tag = 0 : i32, need_barrier = true
// OFF: tx8be.relu
// OFF: group_id = 1 : si32, group_tag = 0 : i32, need_barrier = true
// OFF: tx8be.exp
// OFF: tx8be.add
// OFF: group_id = 3 : si32, group_tag = 0 : i32, need_barrier = true
// OFF: tx8be.tanh
// OFF: group_id = 4 : si32, group_tag = 2 : i32, need_barrier = true
// OFF: tx8be.reshape
// OFF: tx8be.mul

// An op outside the groups reads a group's result: nothing moves and
// every group keeps its barrier.
// CHECK-LABEL: func.func @other
// CHECK: need_barrier = true
// CHECK: tx8be.relu
// CHECK: need_barrier = true
// CHECK: tx8be.exp
// CHECK: tx8be.tuple

module attributes {tx8be.const_container = [dense<1.0> : tensor<8x4xf16>]} {
  func.func @main(%x: tensor<8x4xf16>) -> (tensor<32xf16>, tensor<8x4xf16>) {
    %0 = tx8be.group(%x) : (tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.relu %a : tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %c = tx8be.load_const[0] : tensor<8x4xf16>
    %1 = tx8be.group(%x) : (tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.exp %a : tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %2 = tx8be.group(%0, %1) : (tensor<8x4xf16>, tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 2 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>, %b: tensor<8x4xf16>):
      %r = tx8be.add %a, %b : tensor<8x4xf16>, tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %3 = tx8be.group(%x) : (tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 3 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.tanh %a : tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %4 = tx8be.group(%2) : (tensor<8x4xf16>) -> (tensor<32xf16>) attributes {group_id = 4 : si32, group_tag = 2 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.reshape %a : tensor<8x4xf16> -> tensor<32xf16>
      tx8be.return %r : tensor<32xf16>
    }
    %5 = tx8be.group(%4, %c) : (tensor<32xf16>, tensor<8x4xf16>) -> (tensor<32xf16>) attributes {group_id = 5 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<32xf16>, %b: tensor<8x4xf16>):
      %r = tx8be.mul %a, %a : tensor<32xf16>, tensor<32xf16> -> tensor<32xf16>
      tx8be.return %r : tensor<32xf16>
    }
    return %5, %3 : tensor<32xf16>, tensor<8x4xf16>
  }
  func.func @other(%x: tensor<8x4xf16>) -> tuple<tensor<8x4xf16>, tensor<8x4xf16>> {
    %0 = tx8be.group(%x) : (tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 6 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.relu %a : tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %1 = tx8be.group(%x) : (tensor<8x4xf16>) -> (tensor<8x4xf16>) attributes {group_id = 7 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<8x4xf16>):
      %r = tx8be.exp %a : tensor<8x4xf16> -> tensor<8x4xf16>
      tx8be.return %r : tensor<8x4xf16>
    }
    %t = tx8be.tuple %0, %1 : tensor<8x4xf16>, tensor<8x4xf16> -> tuple<tensor<8x4xf16>, tensor<8x4xf16>>
    return %t : tuple<tensor<8x4xf16>, tensor<8x4xf16>>
  }
}
