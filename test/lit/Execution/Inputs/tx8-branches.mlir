// Independent branches over 16 tiles (tx8-barrier.test): tanh of x is
// returned alone; relu and exp of x are transposed (each tile then reads
// what other tiles wrote), added and multiplied by w. One group per op.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x64xf32>) {
    %n = tx8be.none : none
    %t0 = tx8be.tanh %x : tensor<64x64xf32> -> tensor<64x64xf32>
    %a = tx8be.relu %x : tensor<64x64xf32> -> tensor<64x64xf32>
    %b = tx8be.exp %x : tensor<64x64xf32> -> tensor<64x64xf32>
    %c = tx8be.transpose %a permutation = [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
    %d = tx8be.transpose %b permutation = [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
    %e = tx8be.add %c, %d : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    %f = tx8be.gemm %e, %w, %n : tensor<64x64xf32>, tensor<64x32xf32>, none -> tensor<64x32xf32>
    return %f, %t0 : tensor<64x32xf32>, tensor<64x64xf32>
  }
}
