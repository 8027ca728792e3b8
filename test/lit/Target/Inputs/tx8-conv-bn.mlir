// Two groups in the TX8 contract's post-grouping form: a conv whose weight
// is constant 0 of the container, then a batchnorm whose input is loaded
// compact and converted to NCx by a channel_norm.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32, tx8be.const_container = [dense<[[[[0.5, -1.0]]]]> : tensor<1x1x1x2xf32>]} {
  func.func @main(%x: tensor<2x6x4x2xf32>, %s: tensor<1xf32>) -> tensor<2x6x4x1xf32> {
    %w = tx8be.load_const[0] : tensor<1x1x1x2xf32>
    %none = tx8be.none : none
    %y = tx8be.group(%x, %w) : (tensor<2x6x4x2xf32>, tensor<1x1x1x2xf32>) -> (tensor<2x6x4x1xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<2x6x4x2xf32>, %a1: tensor<1x1x1x2xf32>):
      %1 = tx8be.load_var %a0 : tensor<2x6x4x2xf32> -> tensor<2x6x4x2xf32>
      %2 = tx8be.load_var %a1 : tensor<1x1x1x2xf32> -> tensor<1x1x1x2xf32>
      %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<2x6x4x2xf32>, tensor<1x1x1x2xf32>, none -> tensor<2x6x4x1xf32>
      %4 = tx8be.store_var %3 : tensor<2x6x4x1xf32> -> tensor<2x6x4x1xf32>
      tx8be.return %4 : tensor<2x6x4x1xf32>
    }
    %z = tx8be.group(%y, %s) : (tensor<2x6x4x1xf32>, tensor<1xf32>) -> (tensor<2x6x4x1xf32>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<2x6x4x1xf32>, %a1: tensor<1xf32>):
      %1 = tx8be.load_var %a0 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NTensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x6x4x1xf32> -> tensor<2x6x4x1xf32>
      %2 = tx8be.channel_norm %1 to <NCx> : tensor<2x6x4x1xf32> -> tensor<2x6x4x1xf32>
      %3 = tx8be.load_var %a1 : tensor<1xf32> -> tensor<1xf32>
      %4 = tx8be.batchnorm_inference %2, %3, %3, %3, %3 {epsilon = 1.0e-03 : f32} : tensor<2x6x4x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<2x6x4x1xf32>
      %5 = tx8be.store_var %4 : tensor<2x6x4x1xf32> -> tensor<2x6x4x1xf32>
      tx8be.return %5 : tensor<2x6x4x1xf32>
    }
    return %z : tensor<2x6x4x1xf32>
  }
}
