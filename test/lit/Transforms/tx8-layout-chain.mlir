// The four layout passes in the order the tx8 target runs them, on a small
// CNN: conv -> batchnorm -> relu -> gemm -> add of a rank-1 bias.
// RUN: npuc-opt %s --tx8-layout-init --tx8-layout-transmit --tx8-layout-align-to-npu --tx8-layout-align-opt | FileCheck %s
// Run again, the passes find nothing left to do.
// RUN: npuc-opt %s --tx8-layout-init --tx8-layout-transmit --tx8-layout-align-to-npu --tx8-layout-align-opt -o %t
// RUN: npuc-opt %t --tx8-layout-transmit --tx8-layout-align-to-npu --tx8-layout-align-opt | diff %t -
// What the constant passes that follow make of it (the contract): every
// constant a load_const in its layout, the weight's channel_norm folded.
// RUN: npuc-opt %t --tx8-move-constant --tx8-const-norm | FileCheck %s --check-prefix=CONST
// CONST-NOT: tx8be.constant
// CONST-NOT: tx8be.channel_norm %{{[0-9]+}} to <Cx>
// CONST: %[[W:.*]] = tx8be.load_const[{{[0-9]}}] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}layout_str = "HWOI"}
// CONST-NOT: tx8be.channel_norm %{{[0-9]+}} to <Cx>
// CONST: tx8be.conv %{{.*}}, %[[W]], %{{.*}} strides

// The conv's weight learns HWOI backward; rank-1 operands (bias, the
// batchnorm vectors) learn nothing and default to Tensor, and end up
// placed in Cx directly (ConstChannelNormErase); the rank-4 weight keeps
// its channel_norm for tx8-const-norm. The graph input goes to NCx for the
// conv (NHWC, 2 batches), the gemm's weight argument to Cx; the output
// stays NCx (its store to DDR converts). relu learns NTensor backward from the gemm,
// which reaches it before the batchnorm's NHWC does: the same memory
// layout (NCx).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[W:.*]] = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, {{.*}}>, layout_str = "HWOI", value = {{.*}} : tensor<3x3x16x16xf16>
// CHECK-NEXT: %[[B:.*]] = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}>, layout_str = "Tensor", value = {{.*}} : tensor<16xf16>
// CHECK-NEXT: %[[S:.*]] = tx8be.constant {{{.*}}mem_layout = Cx{{.*}} : tensor<16xf32>
// CHECK-NEXT: %[[O:.*]] = tx8be.constant {{{.*}}mem_layout = Cx{{.*}} : tensor<16xf32>
// CHECK-NEXT: %[[M:.*]] = tx8be.constant {{{.*}}mem_layout = Cx{{.*}} : tensor<16xf32>
// CHECK-NEXT: %[[V:.*]] = tx8be.constant {{{.*}}mem_layout = Cx{{.*}} : tensor<16xf32>
// CHECK-NEXT: %[[BIAS:.*]] = tx8be.constant {{{.*}}mem_layout = Cx{{.*}} : tensor<24xf16>
// CHECK-NEXT: %[[NONE:.*]] = tx8be.none : none
// CHECK-NEXT: %[[XN:.*]] = tx8be.channel_norm %arg0 to <NCx> {{{.*}}mem_layout = NCx{{.*}}}
// CHECK-NEXT: %[[WN:.*]] = tx8be.channel_norm %[[W]] to <Cx> {{{.*}}mem_layout = Cx{{.*}}layout_str = "HWOI"}
// CHECK-NEXT: %[[CONV:.*]] = tx8be.conv %[[XN]], %[[WN]], %[[B]] {{.*}}mem_layout = NCx{{.*}}layout_str = "NHWC-HWOI-NHWC"}
// CHECK-NEXT: %[[BN:.*]] = tx8be.batchnorm_inference %[[CONV]], %[[S]], %[[O]], %[[M]], %[[V]] {{{.*}}mem_layout = NCx{{.*}}layout_str = "NHWC"}
// CHECK-NEXT: %[[RELU:.*]] = tx8be.relu %[[BN]] {{{.*}}mem_layout = NCx{{.*}}layout_str = "NTensor"}
// CHECK-NEXT: %[[GW:.*]] = tx8be.channel_norm %arg1 to <Cx>
// CHECK-NEXT: %[[GEMM:.*]] = tx8be.gemm %[[RELU]], %[[GW]], %[[NONE]] {{{.*}}mem_layout = NCx{{.*}}layout_str = "NTensor-Tensor-NTensor"}
// CHECK-NEXT: %[[ADD:.*]] = tx8be.add %[[GEMM]], %[[BIAS]] {{{.*}}mem_layout = NCx{{.*}}layout_str = "NTensor"}
// CHECK-NEXT: return %[[ADD]]
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<2x8x8x16xf16>, %gw: tensor<16x24xf16>) -> tensor<2x8x8x24xf16> {
    %w = tx8be.constant {value = dense<1.0> : tensor<3x3x16x16xf16>} : tensor<3x3x16x16xf16>
    %b = tx8be.constant {value = dense<0.5> : tensor<16xf16>} : tensor<16xf16>
    %s = tx8be.constant {value = dense<1.0> : tensor<16xf32>} : tensor<16xf32>
    %o = tx8be.constant {value = dense<0.0> : tensor<16xf32>} : tensor<16xf32>
    %m = tx8be.constant {value = dense<0.1> : tensor<16xf32>} : tensor<16xf32>
    %v = tx8be.constant {value = dense<2.0> : tensor<16xf32>} : tensor<16xf32>
    %bias = tx8be.constant {value = dense<0.25> : tensor<24xf16>} : tensor<24xf16>
    %none = tx8be.none : none
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<2x8x8x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf16> -> tensor<2x8x8x16xf16>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v : tensor<2x8x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x8x16xf16>
    %2 = tx8be.relu %1 : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
    %3 = tx8be.gemm %2, %gw, %none : tensor<2x8x8x16xf16>, tensor<16x24xf16>, none -> tensor<2x8x8x24xf16>
    %4 = tx8be.add %3, %bias : tensor<2x8x8x24xf16>, tensor<24xf16> -> tensor<2x8x8x24xf16>
    return %4 : tensor<2x8x8x24xf16>
  }
}
