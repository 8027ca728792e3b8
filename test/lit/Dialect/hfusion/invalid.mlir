// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t
// Errors of the hfusion table's syntax and verifier, at the offending token.

func.func @unknown_op(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{unknown op 'hfusion.vadd' in dialect 'hfusion'}}
  %0 = hfusion.vadd ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @missing_clause(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>) {
  // expected-error @+1 {{expected 'dimensions' in custom syntax of 'hfusion.reduce_with_index', found '->'}}
  %0:2 = hfusion.reduce_with_index <max> ins(%arg0 : tensor<4x8xf32>) outs(%arg1, %arg1 : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @bad_enum(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>) {
  // expected-error @+1 {{'median' is not a valid reduce_kind of 'hfusion.reduce_with_index'}}
  %0:2 = hfusion.reduce_with_index <median> ins(%arg0 : tensor<4x8xf32>) outs(%arg1, %arg1 : tensor<4xf32>, tensor<4xf32>) dimensions = [1] -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @result_not_outs(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{result #0 of 'hfusion.cast' must have the type of its outs operand}}
  %0 = hfusion.cast ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<8xf32>
  return
}
