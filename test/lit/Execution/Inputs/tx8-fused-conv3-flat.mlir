// tx8-fused-conv3.mlir's graph as users write it: the pipeline groups it
// one op per group (tx8-group-single).
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x32x16x4xf32>, %w1: tensor<3x3x4x4xf32>, %w2: tensor<3x3x4x4xf32>, %w3: tensor<3x3x4x4xf32>) -> tensor<1x16x8x4xf32> {
    %none = tx8be.none : none
    %5 = tx8be.conv %x, %w1, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x16x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x32x16x4xf32>
    %6 = tx8be.conv %5, %w2, %none strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x16x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
    %7 = tx8be.conv %6, %w3, %none strides = [1, 1] pads = [2, 2, 2, 2] dilations = [2, 2] : tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
    return %7 : tensor<1x16x8x4xf32>
  }
}
