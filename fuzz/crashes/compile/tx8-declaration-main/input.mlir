func.func private @main(%a: tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf16>
