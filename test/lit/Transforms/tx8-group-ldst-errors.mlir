// tx8-group-ldst errors: groups whose boundary it cannot tell. Nothing is
// changed then.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-group-ldst -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-group-ldst 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-2: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      // expected-error@+1 {{tx8-group-ldst: 'arith.addf' in a group is no tx8be op: its loads and stores are unknown}}
      %r = arith.addf %a, %a : tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-group-ldst: the group's body must end in tx8be.return}}
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.subgraph_return %r : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}
