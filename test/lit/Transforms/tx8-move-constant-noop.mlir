// tx8-move-constant on a graph without constants changes nothing, and adds
// no empty container.
// RUN: npuc-opt %s --tx8-move-constant | FileCheck %s
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-move-constant | diff -u %t.in -
// CHECK-NOT: const_container
// CHECK: tx8be.relu %arg0
// CHECK-NOT: load_const
module attributes {tx8be.tile_dx = 4 : i32} {
  func.func @main(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
    %0 = tx8be.relu %x : tensor<4x8xf16> -> tensor<4x8xf16>
    return %0 : tensor<4x8xf16>
  }
}
