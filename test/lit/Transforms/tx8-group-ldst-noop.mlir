// tx8-group-ldst on groups that have their loads and stores already, and
// on a graph without groups, changes nothing.
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-group-ldst | diff -u %t.in -
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tx8be.group(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<4x8xf32>):
      %l = tx8be.load_var %a : tensor<4x8xf32> -> tensor<4x8xf32>
      %r = tx8be.relu %l : tensor<4x8xf32> -> tensor<4x8xf32>
      %s = tx8be.store_var %r : tensor<4x8xf32> -> tensor<4x8xf32>
      tx8be.return %s : tensor<4x8xf32>
    }
    return %0 : tensor<4x8xf32>
  }
  func.func @plain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tx8be.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
