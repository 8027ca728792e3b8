// A transformer FFN, seq 64, 128-512-128, f16, flat as a user writes it (no hints): tx8-search-ffn.test.
module {
  func.func @main(%x: tensor<1x64x128xf16>, %w1: tensor<128x512xf16>, %w2: tensor<512x128xf16>, %b1: tensor<512xf16>, %b2: tensor<128xf16>) -> (tensor<1x64x128xf16>) {
    %h = tx8be.gemm %x, %w1, %b1 : tensor<1x64x128xf16>, tensor<128x512xf16>, tensor<512xf16> -> tensor<1x64x512xf16>
    %a = tx8be.gelu %h : tensor<1x64x512xf16> -> tensor<1x64x512xf16>
    %y = tx8be.gemm %a, %w2, %b2 : tensor<1x64x512xf16>, tensor<512x128xf16>, tensor<128xf16> -> tensor<1x64x128xf16>
    return %y : tensor<1x64x128xf16>
  }
}
