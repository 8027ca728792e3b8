// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Every error the table-driven verifier raises. The custom syntax cannot
// express most of these, so the ops are written in MLIR's generic form.

func.func @groups(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vadd' has 1 operands, which do not fit its operand groups (operandSegmentSizes missing or wrong)}}
  %0 = "hivm.hir.vadd"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @too_many(%arg0: i64) {
  // expected-error @+1 {{'hivm.hir.set_ffts_base_addr' has 2 operands, which do not fit its operand groups}}
  "hivm.hir.set_ffts_base_addr"(%arg0, %arg0) : (i64, i64) -> ()
  return
}

// -----

func.func @optional_twice(%arg0: index, %arg1: tensor<8xi32>) {
  // expected-error @+1 {{'hivm.hir.varange' takes at most one 'offset' operand, got 2}}
  %0 = "hivm.hir.varange"(%arg0, %arg0, %arg0, %arg1) {operandSegmentSizes = array<i32: 2, 1, 1>} : (index, index, index, tensor<8xi32>) -> tensor<8xi32>
  return
}

// -----

func.func @required_missing() {
  // expected-error @+1 {{'hivm.hir.varange' needs operand 'dst'}}
  %0 = "hivm.hir.varange"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> tensor<8xi32>
  return
}

// -----

func.func @operand_kind(%arg0: f32) {
  // expected-error @+1 {{operand 'dst' of 'hivm.hir.vexp' must be a tensor or memref}}
  %0 = "hivm.hir.vexp"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>} : (f32, f32) -> f32
  return
}

// -----

func.func @dps_type(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{result #0 of 'hivm.hir.vexp' must have the type of its outs operand}}
  %0 = "hivm.hir.vexp"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @dps_count(%arg0: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vexp' has 1 results but 0 tensor outs}}
  %0 = "hivm.hir.vexp"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>} : (memref<4xf32>, memref<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dps_missing(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vexp' needs a result for each tensor in outs}}
  "hivm.hir.vexp"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @result_count() {
  // expected-error @+1 {{'hivm.hir.get_block_idx' expects 1 result, got 0}}
  "hivm.hir.get_block_idx"() : () -> ()
  return
}

// -----

func.func @result_kind() {
  // expected-error @+1 {{result of 'hivm.hir.get_block_idx' must be an integer or index}}
  %0 = "hivm.hir.get_block_idx"() : () -> f32
  return
}

// -----

func.func @attr_missing(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' needs attribute 'permutation'}}
  %0 = "hivm.hir.vtranspose"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @attr_kind(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'permutation' of 'hivm.hir.vtranspose' has the wrong kind}}
  %0 = "hivm.hir.vtranspose"(%arg0, %arg0) {operandSegmentSizes = array<i32: 1, 1, 0>, permutation = "0"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @enum_kind(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xf32>) {
  // expected-error @+1 {{attribute 'arith' of 'hivm.hir.vreduce' has the wrong kind}}
  %0 = "hivm.hir.vreduce"(%arg0, %arg1) {arith = #hivm.compare_mode<gt>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduce_dims = array<i64: 1>} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @regions() {
  // expected-error @+1 {{'scope.scope' expects 1 region}}
  %0 = "scope.scope"() : () -> i32
  return
}

// -----

func.func @unknown_generic(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{unknown op 'hivm.hir.vaad' in dialect 'hivm'; did you mean 'hivm.hir.vadd'}}
  %0 = "hivm.hir.vaad"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
