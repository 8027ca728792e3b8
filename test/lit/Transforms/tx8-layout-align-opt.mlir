// tx8-layout-align-opt: RedundantChannelNormErase merges channel_norms of
// one value to one layout; ConstChannelNormErase folds the only
// channel_norm of a rank <= 1 constant into the constant's dev_info.
// RUN: npuc-opt %s --tx8-layout-align-opt | FileCheck %s

// ConstChannelNormErase: the constant is laid out in Cx from the start.
// CHECK-LABEL: func.func @const_erase
// CHECK-NEXT: %[[C:.*]] = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}>, layout_str = "Tensor"
// CHECK-NEXT: %[[A:.*]] = tx8be.add %arg0, %[[C]]
// CHECK-NEXT: return %[[A]]
func.func @const_erase(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %c = tx8be.constant {layout_str = "Tensor", value = dense<1.0> : tensor<16xf16>, dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<16xf16>
  %cn = tx8be.channel_norm %c to <Cx> : tensor<16xf16> -> tensor<16xf16>
  %0 = tx8be.add %x, %cn : tensor<2x8x16xf16>, tensor<16xf16> -> tensor<2x8x16xf16>
  return %0 : tensor<2x8x16xf16>
}

// RedundantChannelNormErase: the first of the two stays, in the same
// block; a channel_norm to another layout is another conversion.
// CHECK-LABEL: func.func @redundant
// CHECK-NEXT: %[[N1:.*]] = tx8be.channel_norm %arg0 to <NCx>
// CHECK-NEXT: %[[R:.*]] = tx8be.relu %[[N1]]
// CHECK-NEXT: %[[T:.*]] = tx8be.channel_norm %arg0 to <Cx>
// CHECK-NEXT: %[[E:.*]] = tx8be.exp %[[N1]]
// CHECK-NEXT: %[[L:.*]] = tx8be.log %[[N1]]
// CHECK-NEXT: return %[[R]], %[[E]], %[[T]], %[[L]]
func.func @redundant(%x: tensor<2x8x16xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>) {
  %n1 = tx8be.channel_norm %x to <NCx> : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %0 = tx8be.relu %n1 : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %t = tx8be.channel_norm %x to <Cx> : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %n2 = tx8be.channel_norm %x to <NCx> : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %1 = tx8be.exp %n2 : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %n3 = tx8be.channel_norm %x to <NCx> : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %2 = tx8be.log %n3 : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  return %0, %1, %t, %2 : tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>
}

// Both in turn: merging the constant's two channel_norms leaves it one
// user, which the driver revisits and folds.
// CHECK-LABEL: func.func @merge_then_fold
// CHECK-NEXT: %[[C:.*]] = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx,
// CHECK-NEXT: %[[A:.*]] = tx8be.add %arg0, %[[C]]
// CHECK-NEXT: %[[B:.*]] = tx8be.mul %[[A]], %[[C]]
// CHECK-NEXT: return %[[B]]
func.func @merge_then_fold(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %c = tx8be.constant {value = dense<1.0> : tensor<16xf16>} : tensor<16xf16>
  %c1 = tx8be.channel_norm %c to <Cx> : tensor<16xf16> -> tensor<16xf16>
  %0 = tx8be.add %x, %c1 : tensor<2x8x16xf16>, tensor<16xf16> -> tensor<2x8x16xf16>
  %c2 = tx8be.channel_norm %c to <Cx> : tensor<16xf16> -> tensor<16xf16>
  %1 = tx8be.mul %0, %c2 : tensor<2x8x16xf16>, tensor<16xf16> -> tensor<2x8x16xf16>
  return %1 : tensor<2x8x16xf16>
}

// Left alone: a constant of rank 2 (tx8-const-norm's, once it is a
// load_const), a constant with another user besides its channel_norm,
// channel_norms of one value in different blocks.
// CHECK-LABEL: func.func @kept
// CHECK: %[[W:.*]] = tx8be.constant {value = dense<1.000000e+00> : tensor<4x16xf16>}
// CHECK-NEXT: tx8be.channel_norm %[[W]] to <Cx>
// CHECK: %[[V:.*]] = tx8be.constant {value = dense<2.000000e+00> : tensor<16xf16>}
// CHECK-NEXT: %[[VN:.*]] = tx8be.channel_norm %[[V]] to <Cx>
// CHECK-NEXT: tx8be.add %{{.*}}, %[[VN]]
// CHECK-NEXT: tx8be.sub %{{.*}}, %[[V]]
// CHECK: %[[O:.*]] = tx8be.channel_norm %arg0 to <NCx>
// CHECK: tx8be.group
// CHECK: tx8be.channel_norm %arg0 to <NCx>
func.func @kept(%x: tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  %w = tx8be.constant {value = dense<1.0> : tensor<4x16xf16>} : tensor<4x16xf16>
  %wn = tx8be.channel_norm %w to <Cx> : tensor<4x16xf16> -> tensor<4x16xf16>
  %0 = tx8be.add %x, %wn : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %v = tx8be.constant {value = dense<2.0> : tensor<16xf16>} : tensor<16xf16>
  %vn = tx8be.channel_norm %v to <Cx> : tensor<16xf16> -> tensor<16xf16>
  %1 = tx8be.add %0, %vn : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
  %2 = tx8be.sub %1, %v : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
  %o = tx8be.channel_norm %x to <NCx> : tensor<4x16xf16> -> tensor<4x16xf16>
  %g = tx8be.group(%2) : (tensor<4x16xf16>) -> (tensor<4x16xf16>) {
  ^bb0(%a: tensor<4x16xf16>):
    %i = tx8be.channel_norm %x to <NCx> : tensor<4x16xf16> -> tensor<4x16xf16>
    %3 = tx8be.add %a, %i : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    tx8be.return %3 : tensor<4x16xf16>
  }
  return %2, %o, %g : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
}
