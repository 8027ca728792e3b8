// An elementwise chain with a residual on 2x2 tiles, fused into one group.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<256x64xf32>) -> tensor<256x64xf32> {
    %0 = tx8be.exp %x : tensor<256x64xf32> -> tensor<256x64xf32>
    %1 = tx8be.relu %0 : tensor<256x64xf32> -> tensor<256x64xf32>
    %2 = tx8be.add %1, %x : tensor<256x64xf32>, tensor<256x64xf32> -> tensor<256x64xf32>
    %3 = tx8be.mul %2, %1 : tensor<256x64xf32>, tensor<256x64xf32> -> tensor<256x64xf32>
    %4 = tx8be.sigmoid %3 : tensor<256x64xf32> -> tensor<256x64xf32>
    return %4 : tensor<256x64xf32>
  }
}
