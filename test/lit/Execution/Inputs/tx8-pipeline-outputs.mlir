// One group of four ops with two outputs (one yielded twice), an input read
// by two ops and a [C] vector, on 2x2 tiles (tx8-fused-outputs.mlir, larger).
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
func.func @main(%x: tensor<256x96xf16>, %y: tensor<256x96xf16>, %v: tensor<96xf16>) -> (tensor<256x96xf16>, tensor<256x96xf16>, tensor<256x96xf16>) {
  %0:3 = tx8be.group(%x, %y, %v) : (tensor<256x96xf16>, tensor<256x96xf16>, tensor<96xf16>) -> (tensor<256x96xf16>, tensor<256x96xf16>, tensor<256x96xf16>) {
  ^bb0(%a: tensor<256x96xf16>, %b: tensor<256x96xf16>, %c: tensor<96xf16>):
    %1 = tx8be.add %a, %c : tensor<256x96xf16>, tensor<96xf16> -> tensor<256x96xf16>
    %2 = tx8be.relu %1 : tensor<256x96xf16> -> tensor<256x96xf16>
    %3 = tx8be.mul %2, %a : tensor<256x96xf16>, tensor<256x96xf16> -> tensor<256x96xf16>
    %4 = tx8be.sub %3, %b : tensor<256x96xf16>, tensor<256x96xf16> -> tensor<256x96xf16>
    tx8be.return %2, %4, %4 : tensor<256x96xf16>, tensor<256x96xf16>, tensor<256x96xf16>
  }
  return %0#0, %0#1, %0#2 : tensor<256x96xf16>, tensor<256x96xf16>, tensor<256x96xf16>
}
}
