// Three chained convs in one group on one tile: 3x3 stride 1, 3x3 stride 2,
// 3x3 dilation 2; the third conv's output rows need the second's rows with
// its halo, which need the first's rows at twice the stride with theirs.
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x32x16x4xf32>, %w1: tensor<3x3x4x4xf32>, %w2: tensor<3x3x4x4xf32>, %w3: tensor<3x3x4x4xf32>) -> tensor<1x16x8x4xf32> {
    %none = tx8be.none : none
    %0 = tx8be.group(%x, %w1, %w2, %w3) : (tensor<1x32x16x4xf32>, tensor<3x3x4x4xf32>, tensor<3x3x4x4xf32>, tensor<3x3x4x4xf32>) -> (tensor<1x16x8x4xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<1x32x16x4xf32>, %a1: tensor<3x3x4x4xf32>, %a2: tensor<3x3x4x4xf32>, %a3: tensor<3x3x4x4xf32>):
      %1 = tx8be.load_var %a0 : tensor<1x32x16x4xf32> -> tensor<1x32x16x4xf32>
      %2 = tx8be.load_var %a1 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
      %3 = tx8be.load_var %a2 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
      %4 = tx8be.load_var %a3 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
      %5 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x16x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x32x16x4xf32>
      %6 = tx8be.conv %5, %3, %none strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x16x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
      %7 = tx8be.conv %6, %4, %none strides = [1, 1] pads = [2, 2, 2, 2] dilations = [2, 2] : tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
      %8 = tx8be.store_var %7 : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
      tx8be.return %8 : tensor<1x16x8x4xf32>
    }
    return %0 : tensor<1x16x8x4xf32>
  }
}
