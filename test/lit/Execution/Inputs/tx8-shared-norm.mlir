module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<2x4x4x8xf32>, %w: tensor<3x3x16x8xf32>, %y: tensor<2x4x4x16xf32>, %s: tensor<16xf32>, %o: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<2x4x4x16xf32> {
    %n = tx8be.none : none
    %0 = tx8be.conv %x, %w, %n strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<2x4x4x8xf32>, tensor<3x3x16x8xf32>, none -> tensor<2x4x4x16xf32>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<2x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x4x4x16xf32>
    %2 = tx8be.batchnorm_inference %y, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<2x4x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x4x4x16xf32>
    %3 = tx8be.add %1, %2 : tensor<2x4x4x16xf32>, tensor<2x4x4x16xf32> -> tensor<2x4x4x16xf32>
    %4 = tx8be.add %3, %y : tensor<2x4x4x16xf32>, tensor<2x4x4x16xf32> -> tensor<2x4x4x16xf32>
    return %4 : tensor<2x4x4x16xf32>
  }
}
