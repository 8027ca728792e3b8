// tx8-group-single on a graph already grouped (ids in order) or without
// compute ops changes nothing.
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-group-single | diff -u %t.in -
// RUN: npuc-opt %s --tx8-group-single | FileCheck %s
// CHECK: group_id = 0
// CHECK: group_id = 1
module {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, none) {
    %n = tx8be.none : none
    %c = tx8be.load_const[0] : tensor<4xf32>
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    %1 = tx8be.group(%0, %c) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
      %r = tx8be.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    return %1, %c, %n : tensor<4xf32>, tensor<4xf32>, none
  }
  func.func @empty(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
