// gemm (K = 2048) + bias, then relu, on a 2 x 2 mesh with 64 KiB of SPM:
// N given 2 ways and K 2 ways across each pair of tiles, each tile's part
// in two slices of rows: tx8-ktiles.test.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<64x2048xf32>, %w: tensor<2048x64xf32>, %b: tensor<64xf32>) -> (tensor<64x64xf32>) {
    %h = tx8be.gemm %x, %w, %b {reduce_sharding = 2 : i64} : tensor<64x2048xf32>, tensor<2048x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
    %r = tx8be.relu %h {tile_parallel = #tx8be.parallel_attr<parallel = tp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 2]>} : tensor<64x64xf32> -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
}
