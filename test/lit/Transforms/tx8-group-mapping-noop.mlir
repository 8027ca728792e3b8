// tx8-group-mapping on a module without groups changes nothing.
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-group-mapping | diff -u %t.in -
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.relu %x : tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
