func.func @main(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>) -> tensor<1x6x6x16xf16> {
  %b = tx8be.none : none
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [4611686018427387904, 1] : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>, none -> tensor<1x6x6x16xf16>
  return %0 : tensor<1x6x6x16xf16>
}
