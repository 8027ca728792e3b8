// DDR layouts as tx8-const-norm and tx8-group-ldst leave them: a constant
// stored as the image of its Cx layout (8 f32 padded to a 256-byte batch:
// 64 elements), a group result kept in DDR as Cx (the store_var's
// dev_info), and a DDR-only group (group_tag 2) reshaping a compact result.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32, tx8be.const_container = [dense<[1.0, -2.0, 3.0, 0.5, -1.5, 2.5, 4.0, -0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<64xf32>]} {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<32xf32> {
    %c = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<8xf32>
    %m = tx8be.group(%x, %c) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
      %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
      %2 = tx8be.load_var %a1 : tensor<8xf32> -> tensor<8xf32>
      %3 = tx8be.mul %1, %2 : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
      %4 = tx8be.store_var %3 : tensor<4x8xf32> -> tensor<4x8xf32>
      tx8be.return %4 : tensor<4x8xf32>
    }
    %r = tx8be.group(%m) : (tensor<4x8xf32>) -> (tensor<32xf32>) attributes {group_id = 1 : si32, group_tag = 2 : i32} {
    ^bb0(%a0: tensor<4x8xf32>):
      %1 = tx8be.reshape %a0 : tensor<4x8xf32> -> tensor<32xf32>
      tx8be.return %1 : tensor<32xf32>
    }
    %y = tx8be.group(%r) : (tensor<32xf32>) -> (tensor<32xf32>) attributes {group_id = 2 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<32xf32>):
      %1 = tx8be.load_var %a0 : tensor<32xf32> -> tensor<32xf32>
      %2 = tx8be.abs %1 : tensor<32xf32> -> tensor<32xf32>
      %3 = tx8be.store_var %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<32xf32> -> tensor<32xf32>
      tx8be.return %3 : tensor<32xf32>
    }
    return %y : tensor<32xf32>
  }
}
