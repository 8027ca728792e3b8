// tx8-const-norm leaves alone load_consts that no channel_norm or unpack
// reads, and a channel_norm of anything but a load_const.
// RUN: npuc-opt %s > %t.in
// RUN: npuc-opt %s --tx8-const-norm | diff -u %t.in -
// RUN: npuc-opt %s --tx8-const-norm | FileCheck %s
// CHECK: tx8be.channel_norm %arg0 to <NCx>
module attributes {tx8be.const_container = [dense<1.0> : tensor<8xf16>, dense<2.0> : tensor<2x8xf16>]} {
  func.func @main(%x: tensor<2x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>) {
    %a = tx8be.load_const[0] : tensor<8xf16>
    %n = tx8be.channel_norm %x to <NCx> : tensor<2x8xf16> -> tensor<2x8xf16>
    %0 = tx8be.add %n, %a : tensor<2x8xf16>, tensor<8xf16> -> tensor<2x8xf16>
    %b = tx8be.load_const[1] {bypasscodegen = true} : tensor<2x8xf16>
    return %0, %b : tensor<2x8xf16>, tensor<2x8xf16>
  }
}
