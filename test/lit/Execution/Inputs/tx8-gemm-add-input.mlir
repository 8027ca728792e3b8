// A flat gemm with bias, then an add of a graph input: the input's
// channel_norm is read by the add, which computes in the gemm result's
// unbatched Cx (tx8-gemm-add-input.test).
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%arg0: tensor<13x18xf16>, %w: tensor<18x48xf16>, %arg1: tensor<48xf16>, %arg2: tensor<13x48xf16>) -> (tensor<13x48xf16>) {
    %t0 = tx8be.gemm %arg0, %w, %arg1 : tensor<13x18xf16>, tensor<18x48xf16>, tensor<48xf16> -> tensor<13x48xf16>
    %t1 = tx8be.add %t0, %arg2 : tensor<13x48xf16>, tensor<13x48xf16> -> tensor<13x48xf16>
    return %t1 : tensor<13x48xf16>
  }
}
