// Without groups tx8-spm-alloc changes nothing; on allocated groups it is
// idempotent (a second run places the same).
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-spm-alloc | diff -u %t.in -
// RUN: npuc-opt %S/tx8-spm-alloc.mlir --split-input-file --tx8-sharding --tx8-spm-alloc > %t.once
// RUN: npuc-opt %t.once --split-input-file --tx8-spm-alloc | diff -u %t.once -
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tx8be.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
