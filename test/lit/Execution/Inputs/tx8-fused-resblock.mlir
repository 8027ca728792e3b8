// tx8-fused-resblock-flat.mlir after the layout passes, its ops in one group
// as tx8-group-pattern leaves them (block arguments are the DDR inputs, no
// loads or stores yet): the channel_norms the layout passes placed are in
// the group, and the add reads the conv's input (the residual).
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%arg0: tensor<1x6x4x8xf16>, %arg1: tensor<3x3x8x8xf16>, %arg2: tensor<8xf16>, %arg3: tensor<8xf16>, %arg4: tensor<8xf16>, %arg5: tensor<8xf16>) -> tensor<1x6x4x8xf16> {
    %0 = tx8be.none : none
    %g:1 = tx8be.group(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<1x6x4x8xf16>, tensor<3x3x8x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<1x6x4x8xf16>) {
    ^bb0(%b0: tensor<1x6x4x8xf16>, %b1: tensor<3x3x8x8xf16>, %b2: tensor<8xf16>, %b3: tensor<8xf16>, %b4: tensor<8xf16>, %b5: tensor<8xf16>):
      %1 = tx8be.channel_norm %b0 to <NCx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NTensor"} : tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
      %2 = tx8be.channel_norm %b1 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "Tensor"} : tensor<3x3x8x8xf16> -> tensor<3x3x8x8xf16>
      %3 = tx8be.conv %1, %2, %0 strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NHWC-HWOI-NHWC"} : tensor<1x6x4x8xf16>, tensor<3x3x8x8xf16>, none -> tensor<1x6x4x8xf16>
      %4 = tx8be.channel_norm %b2 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "Tensor"} : tensor<8xf16> -> tensor<8xf16>
      %5 = tx8be.channel_norm %b3 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "Tensor"} : tensor<8xf16> -> tensor<8xf16>
      %6 = tx8be.channel_norm %b4 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "Tensor"} : tensor<8xf16> -> tensor<8xf16>
      %7 = tx8be.channel_norm %b5 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "Tensor"} : tensor<8xf16> -> tensor<8xf16>
      %8 = tx8be.batchnorm_inference %3, %4, %5, %6, %7 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, epsilon = 1.000000e-03 : f32, layout_str = "NHWC"} : tensor<1x6x4x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16> -> tensor<1x6x4x8xf16>
      %9 = tx8be.relu %8 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NHWC"} : tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
      %10 = tx8be.add %9, %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NHWC"} : tensor<1x6x4x8xf16>, tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
      %11 = tx8be.relu %10 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NHWC"} : tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
      tx8be.return %11 : tensor<1x6x4x8xf16>
    }
    return %g#0 : tensor<1x6x4x8xf16>
  }
}

