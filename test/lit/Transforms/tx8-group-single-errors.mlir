// tx8-group-single errors: ops it cannot group. Nothing is grouped then.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-group-single -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-group-single 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-2: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.relu %x : tensor<4xf32> -> tensor<4xf32>
    // expected-error@+1 {{tx8-group-single: a tx8be.constant cannot be grouped: run tx8-move-constant first}}
    %c = tx8be.constant {value = dense<1.0> : tensor<4xf32>} : tensor<4xf32>
    %1 = tx8be.add %0, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-group-single: 'arith.addf' is no tx8be op and cannot be grouped}}
    %0 = arith.addf %x, %x : tensor<4xf32>
    %1 = tx8be.relu %0 : tensor<4xf32> -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
