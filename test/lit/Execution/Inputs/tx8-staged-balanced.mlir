// A ResNet basic block (conv3x3 - batchnorm - relu - conv3x3 - batchnorm -
// add(x) - relu), 1x56x56x64 f16 on the 4x4 tiles, written flat (bench
// (c)'s graph): the input of tx8-staged-balanced.test (the staged loop's
// balanced slices).
module {
  func.func @main(%x: tensor<1x56x56x64xf16>, %w1: tensor<3x3x64x64xf16>, %w2: tensor<3x3x64x64xf16>, %s: tensor<64xf16>, %o: tensor<64xf16>, %m: tensor<64xf16>, %v: tensor<64xf16>) -> tensor<1x56x56x64xf16> {
    %none = tx8be.none : none
    %0 = tx8be.conv %x, %w1, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x56x56x64xf16>, tensor<3x3x64x64xf16>, none -> tensor<1x56x56x64xf16>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<1x56x56x64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16> -> tensor<1x56x56x64xf16>
    %2 = tx8be.relu %1 : tensor<1x56x56x64xf16> -> tensor<1x56x56x64xf16>
    %3 = tx8be.conv %2, %w2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x56x56x64xf16>, tensor<3x3x64x64xf16>, none -> tensor<1x56x56x64xf16>
    %4 = tx8be.batchnorm_inference %3, %s, %o, %m, %v {epsilon = 1.0e-5 : f32} : tensor<1x56x56x64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16> -> tensor<1x56x56x64xf16>
    %5 = tx8be.add %4, %x : tensor<1x56x56x64xf16>, tensor<1x56x56x64xf16> -> tensor<1x56x56x64xf16>
    %6 = tx8be.relu %5 : tensor<1x56x56x64xf16> -> tensor<1x56x56x64xf16>
    return %6 : tensor<1x56x56x64xf16>
  }
}
