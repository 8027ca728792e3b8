// tx8-move-constant: each use of a tx8be.constant reads it through a
// load_const[id] of its own, placed before the user; the data moves into
// the module's tx8be.const_container. Entries over 4 KiB x 16 tiles come
// first. A user whose need_load bit is clear (func.return, tuple) gets a
// load_const with bypasscodegen.
// RUN: npuc-opt %s --split-input-file --tx8-move-constant | FileCheck %s

// CHECK-LABEL: module attributes
// The 132 KiB weight (> 64 KiB) is entry 0, though it comes second; the
// 64 KiB one is not over the threshold and keeps its place after the bias.
// CHECK-SAME: tx8be.const_container = [dense<2.000000e+00> : tensor<129x128xf32>, dense<1.000000e+00> : tensor<32xf16>, dense<3.000000e+00> : tensor<128x128xf32>, dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>]
// CHECK-NEXT: func.func @main(%[[X:.*]]: tensor<64x32xf16>
// CHECK-NEXT: %[[B0:.*]] = tx8be.load_const[1] {layout_str = "Tensor"} : tensor<32xf16>
// CHECK-NEXT: %[[A:.*]] = tx8be.add %[[X]], %[[B0]]
// CHECK-NEXT: %[[B1:.*]] = tx8be.load_const[1] {layout_str = "Tensor"} : tensor<32xf16>
// CHECK-NEXT: %[[M:.*]] = tx8be.mul %[[A]], %[[B1]]
// CHECK-NEXT: %[[N:.*]] = tx8be.none
// CHECK-NEXT: %[[W:.*]] = tx8be.load_const[0] : tensor<129x128xf32>
// CHECK-NEXT: %[[G:.*]] = tx8be.gemm %[[M]], %[[W]], %[[N]]
// CHECK-NEXT: %[[W2:.*]] = tx8be.load_const[2] : tensor<128x128xf32>
// CHECK-NEXT: %[[G2:.*]] = tx8be.gemm %[[M]], %[[W2]], %[[N]]
// CHECK-NEXT: %[[O:.*]] = tx8be.load_const[3] {bypasscodegen = true} : tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = tx8be.tuple %[[O]]
// CHECK-NEXT: %[[O2:.*]] = tx8be.load_const[3] {bypasscodegen = true} : tensor<4xf32>
// CHECK-NEXT: return %[[G]], %[[G2]], %[[O2]], %[[T]]
// CHECK-NOT: tx8be.constant
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<64x32xf16>) -> (tensor<64x128xf16>, tensor<64x128xf16>, tensor<4xf32>, tuple<tensor<4xf32>>) {
    %b = tx8be.constant {layout_str = "Tensor", value = dense<1.0> : tensor<32xf16>} : tensor<32xf16>
    %big = tx8be.constant {value = dense<2.0> : tensor<129x128xf32>} : tensor<129x128xf32>
    %edge = tx8be.constant {value = dense<3.0> : tensor<128x128xf32>} : tensor<128x128xf32>
    %unused = tx8be.constant {value = dense<5.0> : tensor<4xf32>} : tensor<4xf32>
    %out = tx8be.constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : tensor<4xf32>
    %0 = tx8be.add %x, %b : tensor<64x32xf16>, tensor<32xf16> -> tensor<64x32xf16>
    %1 = tx8be.mul %0, %b : tensor<64x32xf16>, tensor<32xf16> -> tensor<64x32xf16>
    %n = tx8be.none : none
    %2 = tx8be.gemm %1, %big, %n : tensor<64x32xf16>, tensor<129x128xf32>, none -> tensor<64x128xf16>
    %3 = tx8be.gemm %1, %edge, %n : tensor<64x32xf16>, tensor<128x128xf32>, none -> tensor<64x128xf16>
    %t = tx8be.tuple %out : tensor<4xf32> -> tuple<tensor<4xf32>>
    return %2, %3, %out, %t : tensor<64x128xf16>, tensor<64x128xf16>, tensor<4xf32>, tuple<tensor<4xf32>>
  }
}

// -----

// The threshold follows the module's tile mesh: 4 KiB x 2 x 2 = 16 KiB,
// so the 64 KiB constant is large here and moves first.
// CHECK-LABEL: module attributes
// CHECK-SAME: tx8be.const_container = [dense<3.000000e+00> : tensor<128x128xf32>, dense<1.000000e+00> : tensor<32xf16>]
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<64x32xf16>) -> (tensor<64x32xf16>, tensor<128x128xf32>) {
    %b = tx8be.constant {value = dense<1.0> : tensor<32xf16>} : tensor<32xf16>
    %w = tx8be.constant {value = dense<3.0> : tensor<128x128xf32>} : tensor<128x128xf32>
    %0 = tx8be.add %x, %b : tensor<64x32xf16>, tensor<32xf16> -> tensor<64x32xf16>
    %1 = tx8be.relu %w : tensor<128x128xf32> -> tensor<128x128xf32>
    return %0, %1 : tensor<64x32xf16>, tensor<128x128xf32>
  }
}

// -----

// A container already there keeps its entries; new constants are added
// after them and everything is ordered again (the large new one first),
// renumbering the load_consts there were.
// CHECK-LABEL: module attributes
// CHECK-SAME: tx8be.const_container = [dense<7.000000e+00> : tensor<130x128xf32>, dense<0.000000e+00> : tensor<8xf16>, dense<1.000000e+00> : tensor<8xf16>]
// CHECK: tx8be.load_const[1] : tensor<8xf16>
// CHECK: tx8be.load_const[2] : tensor<8xf16>
// CHECK: tx8be.load_const[0] : tensor<130x128xf32>
module attributes {tx8be.const_container = [dense<0.0> : tensor<8xf16>]} {
  func.func @main(%x: tensor<2x8xf16>) -> (tensor<2x8xf16>, tensor<130x128xf32>) {
    %a = tx8be.load_const[0] : tensor<8xf16>
    %b = tx8be.constant {value = dense<1.0> : tensor<8xf16>} : tensor<8xf16>
    %w = tx8be.constant {value = dense<7.0> : tensor<130x128xf32>} : tensor<130x128xf32>
    %0 = tx8be.add %x, %a : tensor<2x8xf16>, tensor<8xf16> -> tensor<2x8xf16>
    %1 = tx8be.add %0, %b : tensor<2x8xf16>, tensor<8xf16> -> tensor<2x8xf16>
    %2 = tx8be.relu %w : tensor<130x128xf32> -> tensor<130x128xf32>
    return %1, %2 : tensor<2x8xf16>, tensor<130x128xf32>
  }
}
