// One group of four compute ops with three outputs, one of them yielded
// twice, as tx8-group-pattern would leave it before tx8-group-ldst.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 2 : i32} {
func.func @main(%x: tensor<4x16xf16>, %y: tensor<4x16xf16>, %v: tensor<16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  %0:3 = tx8be.group(%x, %y, %v) : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  ^bb0(%a: tensor<4x16xf16>, %b: tensor<4x16xf16>, %c: tensor<16xf16>):
    %1 = tx8be.add %a, %c : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
    %2 = tx8be.relu %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    %3 = tx8be.mul %2, %a : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    %4 = tx8be.sub %3, %b : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    tx8be.return %2, %4, %4 : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
  }
  return %0#0, %0#1, %0#2 : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
}
}
