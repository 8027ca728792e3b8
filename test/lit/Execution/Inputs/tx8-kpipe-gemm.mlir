// gemm (K = 2048) + bias, then relu, f32 on one tile with 512 KiB of
// SPM: tx8-kpipe.test.
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<256x2048xf32>, %w: tensor<2048x256xf32>, %b: tensor<256xf32>) -> (tensor<256x256xf32>) {
    %h = tx8be.gemm %x, %w, %b : tensor<256x2048xf32>, tensor<2048x256xf32>, tensor<256xf32> -> tensor<256x256xf32>
    %r = tx8be.relu %h : tensor<256x256xf32> -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
}
