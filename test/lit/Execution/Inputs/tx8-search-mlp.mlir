// A 3-layer MLP 128-512-512-128, batch 32, bf16, flat as a user writes it (no hints): tx8-search-mlp.test.
module {
  func.func @main(%x: tensor<32x128xbf16>, %w0: tensor<128x512xbf16>, %b0: tensor<512xbf16>, %w1: tensor<512x512xbf16>, %b1: tensor<512xbf16>, %w2: tensor<512x128xbf16>, %b2: tensor<128xbf16>) -> (tensor<32x128xbf16>) {
    %h0 = tx8be.gemm %x, %w0, %b0 : tensor<32x128xbf16>, tensor<128x512xbf16>, tensor<512xbf16> -> tensor<32x512xbf16>
    %r0 = tx8be.relu %h0 : tensor<32x512xbf16> -> tensor<32x512xbf16>
    %h1 = tx8be.gemm %r0, %w1, %b1 : tensor<32x512xbf16>, tensor<512x512xbf16>, tensor<512xbf16> -> tensor<32x512xbf16>
    %r1 = tx8be.relu %h1 : tensor<32x512xbf16> -> tensor<32x512xbf16>
    %h2 = tx8be.gemm %r1, %w2, %b2 : tensor<32x512xbf16>, tensor<512x128xbf16>, tensor<128xbf16> -> tensor<32x128xbf16>
    return %h2 : tensor<32x128xbf16>
  }
}
