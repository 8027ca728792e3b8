// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// RUN: not npuc-opt %s --split-input-file 2>&1 | FileCheck %s
// CHECK: locations.mlir:15:12: error: use of undeclared SSA value name
// CHECK: locations.mlir:24:26: error: use of value '%arg0' expects different type
// CHECK: locations.mlir:34:79: error: region entry argument '%arg1' is already in use
// CHECK: locations.mlir:34:67: note: previously referenced here
// CHECK: locations.mlir:42:3: error: operation defines 1 results
// CHECK: locations.mlir:50:99: error: custom op 'arith.bogus' is unknown
// MLIR's own diagnostics inside rewritten text point at the user's source.

func.func @undefined_operand(%arg0: tensor<4xf32>) {
  %0 = hivm.hir.vexp
      ins(%arg0 : tensor<4xf32>)
      // expected-error @+1 {{use of undeclared SSA value name}}
      outs(%missing : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @type_mismatch(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<4xf32>'}}
  %0 = hivm.hir.vexp ins(%arg0 : tensor<8xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// A quoted memory space earlier on the line shifts the rewritten text; the
// error must still land on the second %arg1.
// expected-error @+2 {{region entry argument '%arg1' is already in use}}
// expected-note @+1 {{previously referenced here}}
func.func @shifted(%arg0: memref<4xf32, #hivm.address_space<ub>>, %arg1: i32, %arg1: i32) {
  return
}

// -----

func.func @result_count(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @after_op_on_line(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'arith.bogus' is unknown}}
  %0 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32> %1 = arith.bogus
  return
}
