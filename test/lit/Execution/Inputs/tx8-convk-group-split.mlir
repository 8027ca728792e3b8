// tx8-convk-group.mlir grouped as tx8-group-pattern grouped it when it
// sized the conv with all its input channels at once: the conv and the
// add in one group, the relu in its own, the sum going to DDR and back.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x16x16x512xf16>, %w: tensor<1x1x128x512xf16>, %b: tensor<128xf16>, %r: tensor<1x16x16x128xf16>) -> tensor<1x16x16x128xf16> {
    %0 = tx8be.group(%x, %w, %b, %r) : (tensor<1x16x16x512xf16>, tensor<1x1x128x512xf16>, tensor<128xf16>, tensor<1x16x16x128xf16>) -> (tensor<1x16x16x128xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<1x16x16x512xf16>, %a1: tensor<1x1x128x512xf16>, %a2: tensor<128xf16>, %a3: tensor<1x16x16x128xf16>):
      %1 = tx8be.load_var %a0 : tensor<1x16x16x512xf16> -> tensor<1x16x16x512xf16>
      %2 = tx8be.load_var %a1 : tensor<1x1x128x512xf16> -> tensor<1x1x128x512xf16>
      %3 = tx8be.load_var %a2 : tensor<128xf16> -> tensor<128xf16>
      %4 = tx8be.load_var %a3 : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      %5 = tx8be.conv %1, %2, %3 strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x16x16x512xf16>, tensor<1x1x128x512xf16>, tensor<128xf16> -> tensor<1x16x16x128xf16>
      %6 = tx8be.add %5, %4 : tensor<1x16x16x128xf16>, tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      %7 = tx8be.store_var %6 : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      tx8be.return %7 : tensor<1x16x16x128xf16>
    }
    %8 = tx8be.group(%0) : (tensor<1x16x16x128xf16>) -> (tensor<1x16x16x128xf16>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<1x16x16x128xf16>):
      %1 = tx8be.load_var %a0 : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      %2 = tx8be.relu %1 : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      %3 = tx8be.store_var %2 : tensor<1x16x16x128xf16> -> tensor<1x16x16x128xf16>
      tx8be.return %3 : tensor<1x16x16x128xf16>
    }
    return %8 : tensor<1x16x16x128xf16>
  }
}
