// conv 3x3 (Cin = 1024, Cout = 64) + bias, then relu, f16 on 2 tiles with
// 32 KiB of SPM each: tx8-convk.test.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x8x8x1024xf16>, %w: tensor<3x3x64x1024xf16>, %b: tensor<64xf16>) -> (tensor<1x8x8x64xf16>) {
    %h = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x1024xf16>, tensor<3x3x64x1024xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
    %r = tx8be.relu %h : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
    return %r : tensor<1x8x8x64xf16>
  }
}
