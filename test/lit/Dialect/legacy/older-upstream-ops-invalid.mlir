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

// -----

// MLIR 22's linalg builds no region for an unsigned kind on floats (its
// parser crashes, mlir-opt's too): an error at the op instead. The
// anchor's HFusionToHIVM test writes max_unsigned on f32.
func.func @unsigned_on_floats(%a: memref<6x6xf32>, %d: memref<6x6xf32>) {
  // expected-error @+1 {{'linalg.elemwise_binary' is an op of older MLIR that MLIR 22 replaced by linalg.elementwise, whose kind max_unsigned takes integer elements in MLIR 22}}
  linalg.elemwise_binary {fun = #linalg.binary_fn<max_unsigned>} ins(%a, %a : memref<6x6xf32>, memref<6x6xf32>) outs(%d : memref<6x6xf32>)
  return
}

// -----

func.func @math_on_integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{whose kind exp takes floating-point elements in MLIR 22}}
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<4xi32>) outs(%a : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The same written as MLIR 22's own op.
func.func @modern_unsigned_on_floats(%a: memref<6xf32>, %d: memref<6xf32>) {
  // expected-error @+1 {{linalg.elementwise kind div_unsigned takes integer elements in MLIR 22 (its linalg builds no region for floats and crashes}}
  linalg.elementwise kind=#linalg.elementwise_kind<div_unsigned> ins(%a, %a : memref<6xf32>, memref<6xf32>) outs(%d : memref<6xf32>)
  return
}

// -----

func.func @modern_math_on_integers(%a: memref<6xi8>, %d: memref<6xi8>) {
  // expected-error @+1 {{linalg.elementwise kind sqrt takes floating-point elements in MLIR 22}}
  linalg.elementwise kind=#linalg.elementwise_kind<sqrt> indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>] ins(%a : memref<6xi8>) outs(%d : memref<6xi8>)
  return
}

// -----

// What MLIR 22 builds passes through: unsigned on integers, math on floats.
func.func @buildable(%a: memref<6xi32>, %f: memref<6xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%a, %a : memref<6xi32>, memref<6xi32>) outs(%a : memref<6xi32>)
  linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%f : memref<6xf32>) outs(%f : memref<6xf32>)
  return
}

// -----

// The element type is found before a memref's layout.
func.func @strided(%a: memref<6xf32, strided<[1]>>, %d: memref<6xf32, strided<[1]>>) {
  // expected-error @+1 {{linalg.elementwise kind max_unsigned takes integer elements in MLIR 22}}
  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%a, %a : memref<6xf32, strided<[1]>>, memref<6xf32, strided<[1]>>) outs(%d : memref<6xf32, strided<[1]>>)
  return
}
