// conv-batchnorm-relu-add-relu (a ResNet block's tail): one group.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>, %b: tensor<4xf32>, %s: tensor<4xf32>, %o: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %r: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 1 : tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>, tensor<4xf32> -> tensor<1x8x8x4xf32>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<1x8x8x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x8x8x4xf32>
    %2 = tx8be.relu %1 : tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    %3 = tx8be.add %2, %r : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    %4 = tx8be.relu %3 : tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    return %4 : tensor<1x8x8x4xf32>
  }
}
