// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t
// Errors of the ave table: enum values and operand kinds.

func.func @bad_pattern() {
  // expected-error @+1 {{'EVERY' is not a valid pattern of 'ave.hir.pge'}}
  %0 = ave.hir.pge <EVERY> : vector<64xi1>
  return
}

// -----

func.func @not_a_vector(%arg0: tensor<4xf32>, %arg1: vector<64xi1>) {
  // expected-error @+1 {{operand 'lhs' of 'ave.hir.vadd' must be a vector}}
  %0 = ave.hir.vadd %arg0, %arg0, %arg1 : tensor<4xf32>, vector<64xi1>
  return
}
