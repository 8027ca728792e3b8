// conv 1x1 (Cin = 512, Cout = 128) + bias at 16x16, a residual add, then
// relu, f16 on 2 tiles with 32 KiB of SPM each: tx8-convk-group.test.
// tx8-group-pattern makes one group of the three: the conv's K split lets
// them fit.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x16x16x512xf16>, %w: tensor<1x1x128x512xf16>, %b: tensor<128xf16>, %r: tensor<1x16x16x128xf16>) -> (tensor<1x16x16x128xf16>) {
    %h = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x16x16x512xf16>, tensor<1x1x128x512xf16>, tensor<128xf16> -> tensor<1x16x16x128xf16>
    %s = tx8be.add %h, %r : tensor<1x16x16x128xf16>, tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
    %y = tx8be.relu %s : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
    return %y : tensor<1x16x16x128xf16>
  }
}
