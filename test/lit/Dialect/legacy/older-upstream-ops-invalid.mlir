// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t
// An old op that cannot be read says what MLIR 22 replaced it by and what
// was expected, at the op.

func.func @unknown_kind(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.elemwise_binary' is an op of older MLIR that MLIR 22 replaced by linalg.elementwise; expected `{fun = #linalg.binary_fn<K>}` (K an elementwise kind) and ins(two values) outs(..)}}
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<frobnicate>} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_arity(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.elemwise_unary' is an op of older MLIR that MLIR 22 replaced by linalg.elementwise}}
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @to_memref_of_nothing(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_memref' is an op of older MLIR that MLIR 22 replaced by bufferization.to_buffer; expected `%t : memref<..>`}}
  %0 = bufferization.to_memref %arg0 : tensor<4xf32>
  return
}

// -----

func.func @scalar_to_splat(%arg0: vector<4xf32>) {
  // expected-error @+1 {{'vector.splat' is an op of older MLIR that MLIR 22 replaced by vector.broadcast}}
  %0 = vector.splat %arg0 : f32
  return
}

// -----

// What MLIR 22's own verifiers reject stays their error, at the op.
func.func @slice_past_empty_dim(%arg0: tensor<0x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{is out-of-bounds}}
  // expected-note @+1 {{see current operation}}
  %0 = tensor.extract_slice %arg0[1, 0] [1, 4] [1, 1] : tensor<0x4xf32> to tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
