// A ResNet basic block's first half as users write it: conv 3x3 -> batchnorm
// -> relu -> add the block's input -> relu. With tx8be.opt_group = 0 (no
// pattern set) the pipeline groups it one op per group (tx8-group-single).
module attributes {tx8be.opt_group = 0 : i32, tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
  func.func @main(%x: tensor<1x6x4x8xf16>, %w: tensor<3x3x8x8xf16>, %s: tensor<8xf16>, %o: tensor<8xf16>, %m: tensor<8xf16>, %v: tensor<8xf16>) -> tensor<1x6x4x8xf16> {
    %none = tx8be.none : none
    %0 = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x6x4x8xf16>, tensor<3x3x8x8xf16>, none -> tensor<1x6x4x8xf16>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.000000e-03 : f32} : tensor<1x6x4x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16> -> tensor<1x6x4x8xf16>
    %2 = tx8be.relu %1 : tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
    %3 = tx8be.add %2, %x : tensor<1x6x4x8xf16>, tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
    %4 = tx8be.relu %3 : tensor<1x6x4x8xf16> -> tensor<1x6x4x8xf16>
    return %4 : tensor<1x6x4x8xf16>
  }
}
