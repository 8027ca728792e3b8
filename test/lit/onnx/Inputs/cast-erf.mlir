module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%arg0: tensor<2x8x80xf32>) -> (tensor<2x8x80xf32>, tensor<2x8x80xf32>, tensor<2x8x80xf32>) {
    %0 = tx8be.cast %arg0 : tensor<2x8x80xf32> -> tensor<2x8x80xf16>
    %1 = tx8be.erf %0 : tensor<2x8x80xf16> -> tensor<2x8x80xf16>
    %2 = tx8be.cast %1 : tensor<2x8x80xf16> -> tensor<2x8x80xf32>
    %3 = tx8be.cast %arg0 : tensor<2x8x80xf32> -> tensor<2x8x80xbf16>
    %4 = tx8be.cast %3 : tensor<2x8x80xbf16> -> tensor<2x8x80xf32>
    %5 = tx8be.erf %arg0 : tensor<2x8x80xf32> -> tensor<2x8x80xf32>
    return %2, %4, %5 : tensor<2x8x80xf32>, tensor<2x8x80xf32>, tensor<2x8x80xf32>
  }
}
