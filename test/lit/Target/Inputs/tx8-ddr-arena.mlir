// DDR placement (tx8-ddr-arena.test): a 48-byte input declared before a
// 16 KiB one, two [64] constants declared in the opposite order of their
// first use; one op per group.
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%s: tensor<3x4xf32>, %x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<3x4xf32>) {
    %late = tx8be.constant {value = dense<0.5> : tensor<64xf32>} : tensor<64xf32>
    %early = tx8be.constant {value = dense<-0.25> : tensor<64xf32>} : tensor<64xf32>
    %a = tx8be.add %x, %early : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
    %b = tx8be.relu %a : tensor<64x64xf32> -> tensor<64x64xf32>
    %c = tx8be.mul %b, %late : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
    %t = tx8be.relu %s : tensor<3x4xf32> -> tensor<3x4xf32>
    return %c, %t : tensor<64x64xf32>, tensor<3x4xf32>
  }
}
