// tx8-pipeline-ports.test, the order of the invariant loads: a 3x3
// convolution, sigmoid, tanh, sigmoid and a 1x1 convolution in one group on
// one tile; the 1x1 weights are first read after the 3x3 convolution.
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<1x32x16x8xf32>, %w1: tensor<3x3x8x8xf32>, %w2: tensor<1x1x8x8xf32>) -> tensor<1x32x16x8xf32> {
    %none = tx8be.none : none
    %0 = tx8be.group(%x, %w1, %w2) : (tensor<1x32x16x8xf32>, tensor<3x3x8x8xf32>, tensor<1x1x8x8xf32>) -> (tensor<1x32x16x8xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<1x32x16x8xf32>, %a1: tensor<3x3x8x8xf32>, %a2: tensor<1x1x8x8xf32>):
      %1 = tx8be.load_var %a0 : tensor<1x32x16x8xf32> -> tensor<1x32x16x8xf32>
      %2 = tx8be.load_var %a1 : tensor<3x3x8x8xf32> -> tensor<3x3x8x8xf32>
      %3 = tx8be.load_var %a2 : tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
      %4 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x32x16x8xf32>, tensor<3x3x8x8xf32>, none -> tensor<1x32x16x8xf32>
      %5 = tx8be.sigmoid %4 : tensor<1x32x16x8xf32> -> tensor<1x32x16x8xf32>
      %6 = tx8be.tanh %5 : tensor<1x32x16x8xf32> -> tensor<1x32x16x8xf32>
      %7 = tx8be.sigmoid %6 : tensor<1x32x16x8xf32> -> tensor<1x32x16x8xf32>
      %8 = tx8be.conv %7, %3, %none strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x32x16x8xf32>, tensor<1x1x8x8xf32>, none -> tensor<1x32x16x8xf32>
      %9 = tx8be.store_var %8 : tensor<1x32x16x8xf32> -> tensor<1x32x16x8xf32>
      tx8be.return %9 : tensor<1x32x16x8xf32>
    }
    return %0 : tensor<1x32x16x8xf32>
  }
}
