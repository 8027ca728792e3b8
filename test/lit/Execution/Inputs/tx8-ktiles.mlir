// gemm (K = 16384, M = 16, N = 64) in bf16 on the 16 tiles of the default
// mesh: tx8-ktiles.test.
module {
  func.func @main(%x: tensor<16x16384xbf16>, %w: tensor<16384x64xbf16>) -> (tensor<16x64xbf16>) {
    %n = tx8be.none : none
    %h = tx8be.gemm %x, %w, %n : tensor<16x16384xbf16>, tensor<16384x64xbf16>, none -> tensor<16x64xbf16>
    return %h : tensor<16x64xbf16>
  }
}
