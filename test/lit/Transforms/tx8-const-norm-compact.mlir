// tx8-const-norm by default (the contract of the tx8 code generator: DDR
// holds compact data and each load converts it to its dev_info's layout):
// a channel_norm of a load_const is folded into the load — the channel_norm
// goes, the load_const's dev_info takes its layout — and the entry stays
// compact, so load_consts of one entry may read it in different layouts
// without new entries. The unpack reshape still makes its own entry.
// RUN: npuc-opt %s --split-input-file --tx8-const-norm | FileCheck %s

// CHECK-LABEL: module attributes {tx8be.const_container = [
// CHECK-SAME: dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>,
// CHECK-SAME: dense<1.000000e+00> : tensor<300x3xf32>,
// CHECK-SAME: dense<{{\[\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]]> : tensor<1x16xi8>]}
// CHECK: %[[A:.*]] = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>} : tensor<2x3xf32>
// CHECK-NEXT: %[[D:.*]] = tx8be.load_const[0] : tensor<2x3xf32>
// CHECK-NEXT: tx8be.add %[[A]], %[[B]]
// CHECK-NEXT: tx8be.add {{.*}}, %[[D]]
// CHECK-NEXT: %[[E:.*]] = tx8be.load_const[1] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>} : tensor<300x3xf32>
// CHECK-NEXT: tx8be.relu %[[E]]
// CHECK-NEXT: %[[Q:.*]] = tx8be.load_const[2] : tensor<1x16xi8>
// CHECK-NEXT: tx8be.unpack %[[Q]] : tensor<1x16xi8> -> tensor<1x16xf16>
// CHECK-NOT: channel_norm
module attributes {tx8be.const_container = [dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<1.0> : tensor<300x3xf32>, dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi8>]} {
  func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<300x3xf32>, tensor<1x16xf16>) {
    %a = tx8be.load_const[0] : tensor<2x3xf32>
    %an = tx8be.channel_norm %a to <Cx> : tensor<2x3xf32> -> tensor<2x3xf32>
    %b = tx8be.load_const[0] : tensor<2x3xf32>
    %bn = tx8be.channel_norm %b to <NCx> : tensor<2x3xf32> -> tensor<2x3xf32>
    %d = tx8be.load_const[0] : tensor<2x3xf32>
    %0 = tx8be.add %an, %bn : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    %1 = tx8be.add %0, %d : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    %e = tx8be.load_const[1] : tensor<300x3xf32>
    %en = tx8be.channel_norm %e to <NCx> : tensor<300x3xf32> -> tensor<300x3xf32>
    %2 = tx8be.relu %en : tensor<300x3xf32> -> tensor<300x3xf32>
    %q = tx8be.load_const[2] : tensor<4x4xi8>
    %u = tx8be.unpack %q : tensor<4x4xi8> -> tensor<1x16xf16>
    return %1, %2, %u : tensor<2x3xf32>, tensor<300x3xf32>, tensor<1x16xf16>
  }
}

// -----

// Back to compact: the load reads the compact entry as Tensor. Readers
// that disagree on the layout are fine: each load converts for itself.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<4xf32>]}
// CHECK: tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, {{.*}}>} : tensor<4xf32>
// CHECK-NEXT: tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}>} : tensor<4xf32>
// CHECK-NOT: channel_norm
module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4xf32>
    %an = tx8be.channel_norm %a to <Tensor> : tensor<4xf32> -> tensor<4xf32>
    %b = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4xf32>
    %0 = tx8be.add %an, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
