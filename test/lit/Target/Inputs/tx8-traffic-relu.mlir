// One relu over 64x64 bf16, flat: one group, 16 tiles of 4 rows (tx8-traffic.test).
module {
  func.func @main(%x: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
    %r = tx8be.relu %x : tensor<64x64xbf16> -> tensor<64x64xbf16>
    return %r : tensor<64x64xbf16>
  }
}
