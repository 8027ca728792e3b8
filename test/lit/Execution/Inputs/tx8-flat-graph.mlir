module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<2x6x6x8xf32>, %w: tensor<3x3x16x8xf32>, %g: tensor<16x5xf32>) -> tensor<2x6x6x5xf32> {
    %b = tx8be.constant {value = dense<[0.5, -0.5, 0.25, 1.0, 0.0, 2.0, -1.0, 0.125, 0.5, -0.5, 0.25, 1.0, 0.0, 2.0, -1.0, 0.125]> : tensor<16xf32>} : tensor<16xf32>
    %s = tx8be.constant {value = dense<[1.0, 2.0, 0.5, 1.5, 1.0, 2.0, 0.5, 1.5, 1.0, 2.0, 0.5, 1.5, 1.0, 2.0, 0.5, 1.5]> : tensor<16xf32>} : tensor<16xf32>
    %o = tx8be.constant {value = dense<0.25> : tensor<16xf32>} : tensor<16xf32>
    %m = tx8be.constant {value = dense<[0.0, 0.5, -0.5, 1.0, 0.0, 0.5, -0.5, 1.0, 0.0, 0.5, -0.5, 1.0, 0.0, 0.5, -0.5, 1.0]> : tensor<16xf32>} : tensor<16xf32>
    %v = tx8be.constant {value = dense<[1.0, 4.0, 0.25, 2.0, 1.0, 4.0, 0.25, 2.0, 1.0, 4.0, 0.25, 2.0, 1.0, 4.0, 0.25, 2.0]> : tensor<16xf32>} : tensor<16xf32>
    %a = tx8be.constant {value = dense<[1.0, -1.0, 0.5, 0.0, 3.0]> : tensor<5xf32>} : tensor<5xf32>
    %n = tx8be.none : none
    %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<2x6x6x8xf32>, tensor<3x3x16x8xf32>, tensor<16xf32> -> tensor<2x6x6x16xf32>
    %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-6 : f32} : tensor<2x6x6x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x6x6x16xf32>
    %2 = tx8be.relu %1 : tensor<2x6x6x16xf32> -> tensor<2x6x6x16xf32>
    %3 = tx8be.gemm %2, %g, %n : tensor<2x6x6x16xf32>, tensor<16x5xf32>, none -> tensor<2x6x6x5xf32>
    %4 = tx8be.add %3, %a : tensor<2x6x6x5xf32>, tensor<5xf32> -> tensor<2x6x6x5xf32>
    return %4 : tensor<2x6x6x5xf32>
  }
}
