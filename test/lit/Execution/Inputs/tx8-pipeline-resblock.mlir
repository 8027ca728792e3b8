// A ResNet basic block (conv3x3 - batchnorm - relu - conv3x3 - batchnorm -
// add(x) - relu) written flat on one tile: the block's input feeds the
// first convolution (with its halo) and the residual add (an extract).
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x16x16x16xf32>, %w1: tensor<3x3x16x16xf32>, %w2: tensor<3x3x16x16xf32>, %s: tensor<16xf32>, %o: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
    %none = tx8be.none : none
    %0 = tx8be.conv %x, %w1, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x16x16xf32>, tensor<3x3x16x16xf32>, none -> tensor<1x16x16x16xf32>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<1x16x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<1x16x16x16xf32>
    %2 = tx8be.relu %1 : tensor<1x16x16x16xf32> -> tensor<1x16x16x16xf32>
    %3 = tx8be.conv %2, %w2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x16x16xf32>, tensor<3x3x16x16xf32>, none -> tensor<1x16x16x16xf32>
    %4 = tx8be.batchnorm_inference %3, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<1x16x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<1x16x16x16xf32>
    %5 = tx8be.add %4, %x : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32> -> tensor<1x16x16x16xf32>
    %6 = tx8be.relu %5 : tensor<1x16x16x16xf32> -> tensor<1x16x16x16xf32>
    return %6 : tensor<1x16x16x16xf32>
  }
}
