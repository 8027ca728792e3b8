// conv 3x3 (Cin = 512, Cout = 64) + bias, then relu, f16 on one tile with
// 192 KiB of SPM: tx8-kpipe.test.
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x16x16x512xf16>, %w: tensor<3x3x64x512xf16>, %b: tensor<64xf16>) -> (tensor<1x16x16x64xf16>) {
    %h = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x16x512xf16>, tensor<3x3x64x512xf16>, tensor<64xf16> -> tensor<1x16x16x64xf16>
    %r = tx8be.relu %h : tensor<1x16x16x64xf16> -> tensor<1x16x16x64xf16>
    return %r : tensor<1x16x16x64xf16>
  }
}
