func.func @main(%a: tensor<0x8xf16>) -> tensor<0x8xf16> {
  %0 = tx8be.relu %a : tensor<0x8xf16> -> tensor<0x8xf16>
  return %0 : tensor<0x8xf16>
}
