// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// The ops networks use (issue 17) in their custom syntax, each optional
// clause present and absent: printing gives back exactly the input.
module {
  func.func @ops(%arg0: tensor<2x6x5x65xf32>, %arg1: tensor<65xf32>) -> tensor<2x6x5x65xf32> {
    %0 = tx8be.pow %arg0, %arg1 : tensor<2x6x5x65xf32>, tensor<65xf32> -> tensor<2x6x5x65xf32>
    %1 = tx8be.silu %0 : tensor<2x6x5x65xf32> -> tensor<2x6x5x65xf32>
    %2 = tx8be.gelu_tanh %1 {layout_str = "NHWC"} : tensor<2x6x5x65xf32> -> tensor<2x6x5x65xf32>
    %3 = tx8be.clip %2 {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<2x6x5x65xf32> -> tensor<2x6x5x65xf32>
    %4 = tx8be.clip %3 : tensor<2x6x5x65xf32> -> tensor<2x6x5x65xf32>
    %5 = tx8be.reduce_sum %4 axes = [1, 2] : tensor<2x6x5x65xf32> -> tensor<2x1x1x65xf32>
    %6 = tx8be.reduce_max %4 axes = [-1] : tensor<2x6x5x65xf32> -> tensor<2x6x5x1xf32>
    %7 = tx8be.reduce_min %4 axes = [0] : tensor<2x6x5x65xf32> -> tensor<1x6x5x65xf32>
    %8 = tx8be.reduce_mean %4 axes = [3, 2, 1, 0] : tensor<2x6x5x65xf32> -> tensor<1x1x1x1xf32>
    %9 = tx8be.softmax %4 axis = -1 : tensor<2x6x5x65xf32> -> tensor<2x6x5x65xf32>
    %10 = tx8be.layernorm %9, %arg1, %arg1 : tensor<2x6x5x65xf32>, tensor<65xf32>, tensor<65xf32> -> tensor<2x6x5x65xf32>
    %11 = tx8be.layernorm %10, %arg1, %arg1 {epsilon = 1.000000e-03 : f32} : tensor<2x6x5x65xf32>, tensor<65xf32>, tensor<65xf32> -> tensor<2x6x5x65xf32>
    return %11 : tensor<2x6x5x65xf32>
  }
  func.func @moves(%arg0: tensor<2x6x5x65xf32>, %arg1: tensor<2x6x3x65xf32>) -> (tensor<2x6x8x65xf32>, tensor<2x3x2x65xf32>, tensor<2x3x3x65xf32>, tensor<2x3x3x65xf32>, tensor<2x1x1x65xf32>) {
    %0 = tx8be.concat %arg0, %arg1 axis = 2 : tensor<2x6x5x65xf32>, tensor<2x6x3x65xf32> -> tensor<2x6x8x65xf32>
    %1 = tx8be.slice %arg0 offsets = [0, 1, 0, 0] sizes = [2, 3, 2, 65] strides = [1, 2, 2, 1] : tensor<2x6x5x65xf32> -> tensor<2x3x2x65xf32>
    %2 = tx8be.max_pool %arg0 kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] : tensor<2x6x5x65xf32> -> tensor<2x3x3x65xf32>
    %3 = tx8be.avg_pool %arg0 kernel = [2, 2] strides = [2, 2] pads = [0, 1, 0, 1] {layout_str = "NHWC"} : tensor<2x6x5x65xf32> -> tensor<2x3x3x65xf32>
    %4 = tx8be.global_avg_pool %arg0 : tensor<2x6x5x65xf32> -> tensor<2x1x1x65xf32>
    return %0, %1, %2, %3, %4 : tensor<2x6x8x65xf32>, tensor<2x3x2x65xf32>, tensor<2x3x3x65xf32>, tensor<2x3x3x65xf32>, tensor<2x1x1x65xf32>
  }
}
