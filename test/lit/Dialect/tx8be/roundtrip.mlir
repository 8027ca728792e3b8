// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// Every tx8be op in its custom syntax, each optional clause present and
// absent, with the structured attributes of docs/tx8.md: printing gives
// back exactly the input.
module {
  tx8be.subgraph "sg0" {
  ^bb0(%arg0: tensor<2x8x8x131xbf16>, %arg1: tensor<131xf32>, %arg2: tensor<131xf32>, %arg3: tensor<131xf32>, %arg4: tensor<131xf32>):
    %0 = tx8be.group(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<2x8x8x131xbf16>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32>) -> (tensor<2x8x8x131xbf16>) attributes {dev_region = #tx8be.region_attr<tile_dx = 4, tile_dy = 4>, group_id = 0 : si32, group_tag = 0 : i32, need_barrier = true, pipeline_parallel = false, sp_stage_num = 1 : i32, spm_alloc_size = 65536 : ui32, stream_offline = array<i32: 0>, stream_online_check = array<i32: 1, 2>, template_id = -1 : si32} {
    ^bb0(%arg5: tensor<2x8x8x131xbf16>, %arg6: tensor<131xf32>, %arg7: tensor<131xf32>, %arg8: tensor<131xf32>, %arg9: tensor<131xf32>):
      %1 = tx8be.load_var %arg5 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8, 131], source_type = 0, imm_addr = 0, mem_addr = [0, 34816]>, mem_scope = #tx8be.mem_scope<SPM>} : tensor<2x8x8x131xbf16> -> tensor<2x8x8x131xbf16>
      %2 = tx8be.load_var %arg6 : tensor<131xf32> -> tensor<131xf32>
      %3 = tx8be.load_var %arg7 : tensor<131xf32> -> tensor<131xf32>
      %4 = tx8be.load_var %arg8 : tensor<131xf32> -> tensor<131xf32>
      %5 = tx8be.load_var %arg9 : tensor<131xf32> -> tensor<131xf32>
      %6 = tx8be.batchnorm_inference %1, %2, %3, %4, %5 {chip_parallel = #tx8be.parallel_attr<parallel = dp, is_dp_inner = true, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = false, shape_spatial_sharding = [1, 1, 1, 1]>, epsilon = 9.99999997E-7 : f32, layout_str = "NHWC", tile_parallel = #tx8be.parallel_attr<parallel = dp_tp, is_dp_inner = false, dp_dim_x = 2, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 4, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [2, 2, 4, 1]>} : tensor<2x8x8x131xbf16>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32> -> tensor<2x8x8x131xbf16>
      %7 = tx8be.store_var %6 {mem_scope = #tx8be.mem_scope<DDR>} : tensor<2x8x8x131xbf16> -> tensor<2x8x8x131xbf16>
      tx8be.return %7 : tensor<2x8x8x131xbf16>
    }
    tx8be.subgraph_return %0 : tensor<2x8x8x131xbf16>
  }
  tx8be.subgraph "empty" attributes {tx8be.note = "no results"} {
    tx8be.subgraph_return
  }
  func.func @main(%arg0: tensor<2x8x8x131xbf16>, %arg1: tensor<131xf32>) -> tensor<2x8x8x131xbf16> {
    %0 = tx8be.call[@sg0] (%arg0, %arg1, %arg1, %arg1, %arg1) : (tensor<2x8x8x131xbf16>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32>, tensor<131xf32>) -> (tensor<2x8x8x131xbf16>)
    tx8be.call[@empty] () {note} : ()
    return %0 : tensor<2x8x8x131xbf16>
  }
  func.func @compute(%arg0: tensor<64x32xf16>, %arg1: tensor<32x16xf16>, %arg2: tensor<16xf16>, %arg3: tensor<1x16x16x8xf16>, %arg4: tensor<3x3x16x8xf16>) -> tensor<64x16xf16> {
    %0 = tx8be.constant {value = dense<1.000000e+00> : tensor<16xf16>} : tensor<16xf16>
    %1 = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [16], source_type = 0, imm_addr = 0, mem_addr = [0]>, layout_str = "Tensor", value = dense<0.000000e+00> : tensor<16xf16>} : tensor<16xf16>
    %2 = tx8be.load_const[0] : tensor<16xf16>
    %3 = tx8be.load_const[1] {bypasscodegen = true, mem_scope = #tx8be.mem_scope<3DDRAM>} : tensor<16xf16>
    %4 = tx8be.none : none
    %5 = tx8be.gemm %arg0, %arg1, %4 : tensor<64x32xf16>, tensor<32x16xf16>, none -> tensor<64x16xf16>
    %6 = tx8be.gemm %arg0, %arg0, %2 transpose_b {layout_str = "Tensor-Tensor-Tensor"} : tensor<64x32xf16>, tensor<64x32xf16>, tensor<16xf16> -> tensor<64x64xf16>
    %7 = tx8be.gemm %arg0, %arg0, %4 transpose_a : tensor<64x32xf16>, tensor<64x32xf16>, none -> tensor<32x32xf16>
    %8 = tx8be.gemm %arg1, %arg0, %4 transpose_a transpose_b : tensor<32x16xf16>, tensor<64x32xf16>, none -> tensor<16x64xf16>
    %9 = tx8be.conv %arg3, %arg4, %arg2 strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, tensor<16xf16> -> tensor<1x16x16x16xf16>
    %10 = tx8be.conv %arg3, %arg4, %4 strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] group = 1 {layout_str = "NHWC-HWOI-NHWC"} : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, none -> tensor<1x7x7x16xf16>
    %11 = tx8be.channel_norm %5 to <Cx> : tensor<64x16xf16> -> tensor<64x16xf16>
    %12 = tx8be.channel_norm %11 to <Tensor> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [64, 16], source_type = 0, imm_addr = 0, mem_addr = [4096]>} : tensor<64x16xf16> -> tensor<64x16xf16>
    %13 = tx8be.add %12, %0 : tensor<64x16xf16>, tensor<16xf16> -> tensor<64x16xf16>
    %14 = tx8be.sub %13, %12 : tensor<64x16xf16>, tensor<64x16xf16> -> tensor<64x16xf16>
    %15 = tx8be.mul %14, %arg2 {layout_str = "Tensor"} : tensor<64x16xf16>, tensor<16xf16> -> tensor<64x16xf16>
    %16 = tx8be.div %15, %13 : tensor<64x16xf16>, tensor<64x16xf16> -> tensor<64x16xf16>
    %17 = tx8be.relu %16 : tensor<64x16xf16> -> tensor<64x16xf16>
    %18 = tx8be.gelu %17 : tensor<64x16xf16> -> tensor<64x16xf16>
    %19 = tx8be.exp %18 : tensor<64x16xf16> -> tensor<64x16xf16>
    %20 = tx8be.log %19 : tensor<64x16xf16> -> tensor<64x16xf16>
    %21 = tx8be.sigmoid %20 : tensor<64x16xf16> -> tensor<64x16xf16>
    %22 = tx8be.tanh %21 : tensor<64x16xf16> -> tensor<64x16xf16>
    %23 = tx8be.sqrt %22 : tensor<64x16xf16> -> tensor<64x16xf16>
    %24 = tx8be.rsqrt %23 : tensor<64x16xf16> -> tensor<64x16xf16>
    %25 = tx8be.abs %24 {dev_info = #tx8be.dev_attr<imm_size = 128, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [8, 16], source_type = 1, imm_addr = 0, mem_addr = [256]>} : tensor<64x16xf16> -> tensor<64x16xf16>
    return %25 : tensor<64x16xf16>
  }
  func.func @shapes(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<16x4xi8>, %arg3: tensor<4xf16>) -> tuple<tensor<32xf32>, tensor<8x4xf32>> {
    %0 = tx8be.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
    %1 = tx8be.broadcast %arg1 dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
    %2 = tx8be.transpose %1 permutation = [1, 0] {layout_str = "Tensor"} : tensor<4x8xf32> -> tensor<8x4xf32>
    %3 = tx8be.unpack %arg2, %arg3 bits = 4 : tensor<16x4xi8>, tensor<4xf16> -> tensor<16x8xf16>
    %4 = tx8be.unpack %arg2 : tensor<16x4xi8> -> tensor<16x4xf16>
    %5 = tx8be.tuple %0, %2 : tensor<32xf32>, tensor<8x4xf32> -> tuple<tensor<32xf32>, tensor<8x4xf32>>
    tx8be.group(%0) : (tensor<32xf32>) {
    ^bb0(%arg4: tensor<32xf32>):
      %6 = tx8be.store_var %arg4 : tensor<32xf32> -> tensor<32xf32>
      tx8be.return
    }
    return %5 : tuple<tensor<32xf32>, tensor<8x4xf32>>
  }
}
