// tx8-group-mapping errors: a tile mesh the target does not have, or one
// that is not a positive integer. No group is changed.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-group-mapping -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-group-mapping 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-4: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

// expected-error@+1 {{tx8-group-mapping: the tile mesh 8x4 (tx8be.tile_dx x tx8be.tile_dy) exceeds the target's 4x4 tiles}}
module attributes {tx8be.tile_dx = 8 : i32, tx8be.tile_dy = 4 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}

// -----

// expected-error@+1 {{tx8-group-mapping: the tile mesh 1x5 (tx8be.tile_dx x tx8be.tile_dy) exceeds the target's 4x4 tiles}}
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 5 : i32} {
}

// -----

// expected-error@+1 {{tx8be.tile_dy must be a positive integer}}
module attributes {tx8be.tile_dy = -1 : i32} {
}

// -----

// expected-error@+1 {{tx8be.tile_dx must be a positive integer}}
module attributes {tx8be.tile_dx = "4"} {
}
