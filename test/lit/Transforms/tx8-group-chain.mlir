// The five TX8 constant and grouping passes in the order the tx8 target
// runs them, on a small graph as the layout passes leave it (conv ->
// batchnorm -> relu -> reshape -> gemm -> add -> mul; channel_norms where
// layouts change, a rank-1 constant already Cx). Afterwards the top level
// holds only load_const, none, groups and the return; each group loads
// its inputs, holds one compute op (with the channel_norms converting its
// inputs or its result), stores its result and runs on the 4x4 mesh.
// The entries stay compact here (weights-cx=false: the gemm weights' Cx
// image is tx8-const-norm-weights.mlir's subject, and ALIGNED's below).
// RUN: npuc-opt %s --tx8-move-constant --tx8-const-norm=weights-cx=false --tx8-group-single --tx8-group-ldst --tx8-group-mapping | FileCheck %s
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-move-constant,tx8-const-norm{weights-cx=false},tx8-group-single,tx8-group-ldst,tx8-group-mapping)' > %t
// RUN: sed -nE '/^    (%[0-9]+ = tx8be\.(load_const|none|group)|return )/d; /^    [^ }^]/p' %t | FileCheck %s --check-prefix=TOP --allow-empty
// TOP-NOT: {{.}}

// With aligned-data the container holds what DDR would then hold: the
// Cx image of the rank-1 scale (8 f32 in a 256-byte batch); the bias
// compact for the add and as Cx image for the mul (two entries); the gemm
// weights only as Cx image (8 rows of 8 f16 in one 256-byte batch: the
// compact original is gone).
// RUN: npuc-opt %s --tx8-move-constant=aligned-data=true --tx8-const-norm=aligned-data=true | FileCheck %s --check-prefix=ALIGNED
// ALIGNED: tx8be.const_container = [dense<5.000000e-01> : tensor<3x3x8x8xf16>, dense<[1.000000e+00, 2.000000e+00, {{.*}}> : tensor<64xf32>, dense<0.000000e+00> : tensor<8xf32>, dense<[1.000000e+00, {{.*}}, 8.000000e+00]> : tensor<8xf16>, dense<{{.*}}> : tensor<128xf16>, dense<{{.*}}> : tensor<128xf16>]
// ALIGNED: tx8be.load_const[4] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<8x8xf16>
// ALIGNED: tx8be.load_const[3] : tensor<8xf16>
// ALIGNED: tx8be.load_const[5] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<8xf16>

// Entries (compact: DDR holds compact data, each load converts to its
// dev_info's layout): the conv weights, the scale, the zeros, the gemm
// weights, the bias (one entry for both of its layouts).
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<5.000000e-01> : tensor<3x3x8x8xf16>, dense<[1.000000e+00, 2.000000e+00, {{.*}}, 8.000000e+00]> : tensor<8xf32>, dense<0.000000e+00> : tensor<8xf32>, dense<{{.*}}> : tensor<8x8xf16>, dense<[1.000000e+00, {{.*}}, 8.000000e+00]> : tensor<8xf16>], tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32}
// CHECK: %[[NONE:.*]] = tx8be.none
// CHECK-NEXT: %[[W:.*]] = tx8be.load_const[0] {layout_str = "HWOI"}
// CHECK-NEXT: %[[CONV:.*]] = tx8be.group(%arg0, %[[W]]) {{.*}}attributes {dev_region = #tx8be.region_attr<tile_dx = 4, tile_dy = 4>, group_id = 0 : si32, group_tag = 0 : i32}
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x4x4x8xf16>, %[[A1:.*]]: tensor<3x3x8x8xf16>):
// CHECK-NEXT: %[[L0:.*]] = tx8be.load_var %[[A0]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Tensor
// CHECK-NEXT: %[[L1:.*]] = tx8be.load_var %[[A1]]
// CHECK-NEXT: %[[C:.*]] = tx8be.conv %[[L0]], %[[L1]], %[[NONE]]
// CHECK-NEXT: %[[S0:.*]] = tx8be.store_var %[[C]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx
// CHECK-NEXT: tx8be.return %[[S0]]
// CHECK: %[[SC0:.*]] = tx8be.load_const[1] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<8xf32>
// CHECK-NEXT: %[[SC1:.*]] = tx8be.load_const[1] {dev_info
// CHECK-NEXT: %[[Z0:.*]] = tx8be.load_const[2] : tensor<8xf32>
// CHECK-NEXT: %[[Z1:.*]] = tx8be.load_const[2] : tensor<8xf32>
// CHECK-NEXT: %[[BN:.*]] = tx8be.group(%[[CONV]], %[[SC0]], %[[Z0]], %[[Z1]], %[[SC1]]) {{.*}}group_id = 1 : si32, group_tag = 0 : i32}
// CHECK-COUNT-5: tx8be.load_var
// CHECK-NEXT: tx8be.batchnorm_inference
// CHECK-NEXT: tx8be.store_var
// The channel_norm before the reshape converts the relu's result before
// it is stored: it joins the relu's group, after the relu. The reshape
// group works in DDR (no load, no store, tag 2).
// CHECK: %[[RELU:.*]] = tx8be.group(%[[BN]]) {{.*}}group_id = 2 : si32, group_tag = 0 : i32}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.load_var
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.channel_norm {{.*}} to <Tensor>
// CHECK-NEXT: tx8be.store_var
// CHECK: %[[RS:.*]] = tx8be.group(%[[RELU]]) {{.*}}group_id = 3 : si32, group_tag = 2 : i32}
// CHECK-NEXT: ^bb0(%[[A4:.*]]: tensor<1x4x4x8xf16>):
// CHECK-NEXT: %[[R:.*]] = tx8be.reshape %[[A4]]
// CHECK-NEXT: tx8be.return %[[R]]
// The gemm's weights come as Cx with no channel_norm left; its input's
// channel_norm is in its group.
// CHECK: %[[G:.*]] = tx8be.load_const[3] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<8x8xf16>
// CHECK-NEXT: %[[GEMM:.*]] = tx8be.group(%[[RS]], %[[G]]) {{.*}}group_id = 4 : si32, group_tag = 0 : i32}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[LA:.*]] = tx8be.load_var
// CHECK-NEXT: %[[LB:.*]] = tx8be.load_var
// CHECK-NEXT: %[[CA:.*]] = tx8be.channel_norm %[[LA]] to <Cx>
// CHECK-NEXT: tx8be.gemm %[[CA]], %[[LB]], %[[NONE]]
// CHECK: %[[B0:.*]] = tx8be.load_const[4] : tensor<8xf16>
// CHECK-NEXT: %[[ADD:.*]] = tx8be.group(%[[GEMM]], %[[B0]]) {{.*}}group_id = 5 : si32, group_tag = 0 : i32}
// CHECK: tx8be.channel_norm {{.*}} to <Tensor>
// CHECK-NEXT: tx8be.add
// CHECK: %[[B1:.*]] = tx8be.load_const[4] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<8xf16>
// CHECK-NEXT: %[[MUL:.*]] = tx8be.group(%[[ADD]], %[[B1]]) {{.*}}group_id = 6 : si32, group_tag = 0 : i32}
// CHECK: tx8be.mul
// CHECK: return %[[MUL]]
// CHECK-NOT: tx8be.constant
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<1x4x4x8xf16>) -> tensor<16x8xf16> {
    %w = tx8be.constant {layout_str = "HWOI", value = dense<0.5> : tensor<3x3x8x8xf16>} : tensor<3x3x8x8xf16>
    %s = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : tensor<8xf32>
    %z = tx8be.constant {value = dense<0.0> : tensor<8xf32>} : tensor<8xf32>
    %g = tx8be.constant {value = dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]> : tensor<8x8xf16>} : tensor<8x8xf16>
    %b = tx8be.constant {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf16>} : tensor<8xf16>
    %n = tx8be.none : none
    %0 = tx8be.conv %x, %w, %n strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {layout_str = "NHWC-HWOI-NHWC", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<1x4x4x8xf16>, tensor<3x3x8x8xf16>, none -> tensor<1x4x4x8xf16>
    %1 = tx8be.batchnorm_inference %0, %s, %z, %z, %s {layout_str = "NHWC", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<1x4x4x8xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<1x4x4x8xf16>
    %2 = tx8be.relu %1 {layout_str = "NHWC", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<1x4x4x8xf16> -> tensor<1x4x4x8xf16>
    %3 = tx8be.channel_norm %2 to <Tensor> : tensor<1x4x4x8xf16> -> tensor<1x4x4x8xf16>
    %4 = tx8be.reshape %3 {layout_str = "Tensor"} : tensor<1x4x4x8xf16> -> tensor<16x8xf16>
    %5 = tx8be.channel_norm %4 to <Cx> : tensor<16x8xf16> -> tensor<16x8xf16>
    %gn = tx8be.channel_norm %g to <Cx> : tensor<8x8xf16> -> tensor<8x8xf16>
    %6 = tx8be.gemm %5, %gn, %n {layout_str = "Tensor-Tensor-Tensor", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<16x8xf16>, tensor<8x8xf16>, none -> tensor<16x8xf16>
    %t6 = tx8be.channel_norm %6 to <Tensor> : tensor<16x8xf16> -> tensor<16x8xf16>
    %7 = tx8be.add %t6, %b {layout_str = "Tensor"} : tensor<16x8xf16>, tensor<8xf16> -> tensor<16x8xf16>
    %bn = tx8be.channel_norm %b to <Cx> : tensor<8xf16> -> tensor<8xf16>
    %8 = tx8be.mul %7, %bn {layout_str = "Tensor"} : tensor<16x8xf16>, tensor<8xf16> -> tensor<16x8xf16>
    return %8 : tensor<16x8xf16>
  }
}
