// tx8-pipeline-ports.test: a 3x3 convolution widening 16 to 64 channels,
// then gelu, sigmoid, gelu, fused into one group on one tile.
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x32x32x16xf16>, %w: tensor<3x3x64x16xf16>) -> tensor<1x32x32x64xf16> {
    %none = tx8be.none : none
    %c = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x32x16xf16>, tensor<3x3x64x16xf16>, none -> tensor<1x32x32x64xf16>
    %r = tx8be.gelu %c : tensor<1x32x32x64xf16> -> tensor<1x32x32x64xf16>
    %s = tx8be.sigmoid %r : tensor<1x32x32x64xf16> -> tensor<1x32x32x64xf16>
    %t = tx8be.gelu %s : tensor<1x32x32x64xf16> -> tensor<1x32x32x64xf16>
    return %t : tensor<1x32x32x64xf16>
  }
}
