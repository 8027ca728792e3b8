// gemm (K = 2048) + bias, then relu, on 2 tiles with 32 KiB of SPM each:
// tx8-search-ksplit.test.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<16x2048xf32>, %w: tensor<2048x64xf32>, %b: tensor<64xf32>) -> (tensor<16x64xf32>) {
    %h = tx8be.gemm %x, %w, %b : tensor<16x2048xf32>, tensor<2048x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
    %r = tx8be.relu %h : tensor<16x64xf32> -> tensor<16x64xf32>
    return %r : tensor<16x64xf32>
  }
}
