// One group: conv 3x3 (Cin = 1024, Cout = 64) + bias, plus a residual,
// then relu, f16 on 2 tiles with 32 KiB of SPM each: tx8-convk.test.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x8x8x1024xf16>, %w: tensor<3x3x64x1024xf16>, %b: tensor<64xf16>, %r: tensor<1x8x8x64xf16>) -> tensor<1x8x8x64xf16> {
    %0 = tx8be.group(%x, %w, %b, %r) : (tensor<1x8x8x1024xf16>, tensor<3x3x64x1024xf16>, tensor<64xf16>, tensor<1x8x8x64xf16>) -> (tensor<1x8x8x64xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<1x8x8x1024xf16>, %a1: tensor<3x3x64x1024xf16>, %a2: tensor<64xf16>, %a3: tensor<1x8x8x64xf16>):
      %1 = tx8be.load_var %a0 : tensor<1x8x8x1024xf16> -> tensor<1x8x8x1024xf16>
      %2 = tx8be.load_var %a1 : tensor<3x3x64x1024xf16> -> tensor<3x3x64x1024xf16>
      %3 = tx8be.load_var %a2 : tensor<64xf16> -> tensor<64xf16>
      %4 = tx8be.load_var %a3 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
      %5 = tx8be.conv %1, %2, %3 strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x1024xf16>, tensor<3x3x64x1024xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
      %6 = tx8be.add %5, %4 : tensor<1x8x8x64xf16>, tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
      %7 = tx8be.relu %6 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
      %8 = tx8be.store_var %7 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
      tx8be.return %8 : tensor<1x8x8x64xf16>
    }
    return %0 : tensor<1x8x8x64xf16>
  }
}
