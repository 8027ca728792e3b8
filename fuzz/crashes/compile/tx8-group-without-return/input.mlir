// Three groups whose elementwise results may take their first operand's
// SPM (mem_inplace): relu over a loaded x, add of a [C] vector to a loaded
// value, and mul of a loaded value by itself. tx8-spm-alloc places the
// result over the operand that dies at the op; the program must compute
// the same as the reference (tx8-spm-alloc.test).
module attributes {tx8be.tile_dx = 4 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<4x8x64xf32>, %v: tensor<64xf32>) -> tensor<4x8x64xf32> {
    %t0 = tx8be.group(%x) : (tensor<4x8x64xf32>) -> (tensor<4x8x64xf32>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<4x8x64xf32>):
      %1 = tx8be.load_var %a0 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      %2 = tx8be.relu %1 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      %3 = tx8be.store_var %2 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      tx8be.return %3 : tensor<4x8x64xf32>
    }
    %t1 = tx8be.group(%t0, %v) : (tensor<4x8x64xf32>, tensor<64xf32>) -> (tensor<4x8x64xf32>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<4x8x64xf32>, %a1: tensor<64xf32>):
      %1 = tx8be.load_var %a0 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      %2 = tx8be.load_var %a1 : tensor<64xf32> -> tensor<64xf32>
      %3 = tx8be.add %1, %2 : tensor<4x8x64xf32>, tensor<64xf32> -> tensor<4x8x64xf32>
      %4 = tx8be.store_var %3 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
    }
    %t2 = tx8be.group(%t1) : (tensor<4x8x64xf32>) -> (tensor<4x8x64xf32>) attributes {group_id = 2 : si32, group_tag = 0 : i32} {
    ^bb0(%a0: tensor<4x8x64xf32>):
      %1 = tx8be.load_var %a0 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      %2 = tx8be.mul %1, %1 : tensor<4x8x64xf32>, tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      %3 = tx8be.store_var %2 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
      tx8be.return %3 : tensor<4x8x64xf32>
    }
    return %t2 : tensor<4x8x64xf32>
  }
}
