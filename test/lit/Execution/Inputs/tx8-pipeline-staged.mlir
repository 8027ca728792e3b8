// A ResNet basic block (conv3x3 - batchnorm - relu - conv3x3 - batchnorm -
// add(x) - relu), 2x28x28x64 f16 on 2x2 tiles, written flat: the input of
// tx8-pipeline-staged.test (the staged slice loop).
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<2x28x28x64xf16>, %w1: tensor<3x3x64x64xf16>, %w2: tensor<3x3x64x64xf16>, %s: tensor<64xf16>, %o: tensor<64xf16>, %m: tensor<64xf16>, %v: tensor<64xf16>) -> tensor<2x28x28x64xf16> {
    %none = tx8be.none : none
    %0 = tx8be.conv %x, %w1, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<2x28x28x64xf16>, tensor<3x3x64x64xf16>, none -> tensor<2x28x28x64xf16>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<2x28x28x64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16> -> tensor<2x28x28x64xf16>
    %2 = tx8be.relu %1 : tensor<2x28x28x64xf16> -> tensor<2x28x28x64xf16>
    %3 = tx8be.conv %2, %w2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<2x28x28x64xf16>, tensor<3x3x64x64xf16>, none -> tensor<2x28x28x64xf16>
    %4 = tx8be.batchnorm_inference %3, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<2x28x28x64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16> -> tensor<2x28x28x64xf16>
    %5 = tx8be.add %4, %x : tensor<2x28x28x64xf16>, tensor<2x28x28x64xf16> -> tensor<2x28x28x64xf16>
    %6 = tx8be.relu %5 : tensor<2x28x28x64xf16> -> tensor<2x28x28x64xf16>
    return %6 : tensor<2x28x28x64xf16>
  }
}
