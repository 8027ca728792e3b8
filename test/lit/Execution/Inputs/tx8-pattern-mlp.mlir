// gemm-add(bias)-gelu: one group.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<64x16xf32> {
    %n = tx8be.none : none
    %0 = tx8be.gemm %x, %w, %n : tensor<64x32xf32>, tensor<32x16xf32>, none -> tensor<64x16xf32>
    %1 = tx8be.add %0, %b : tensor<64x16xf32>, tensor<16xf32> -> tensor<64x16xf32>
    %2 = tx8be.gelu %1 : tensor<64x16xf32> -> tensor<64x16xf32>
    return %2 : tensor<64x16xf32>
  }
}
