// conv 3x3 (Cin = 16384, Cout = 8) at 2x2 plus a bias, then relu, f16, on
// the 16 tiles of the default mesh: tx8-convk.test (K across tiles).
module {
  func.func @main(%x: tensor<1x2x2x16384xf16>, %w: tensor<3x3x8x16384xf16>, %b: tensor<8xf16>) -> (tensor<1x2x2x8xf16>) {
    %h = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x2x2x16384xf16>, tensor<3x3x8x16384xf16>, tensor<8xf16> -> tensor<1x2x2x8xf16>
    %r = tx8be.relu %h : tensor<1x2x2x8xf16> -> tensor<1x2x2x8xf16>
    return %r : tensor<1x2x2x8xf16>
  }
}
