// The table verifier's rules (verify:) and dialect attributes (attrdefs:):
// one case per check, each an error at the op, as bishengir's verifiers
// report them (docs/op-tables.md, "Verifier rules").
// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t

func.func @pipe_not_a_case() {
  // expected-error @+1 {{'PIPE_NOPE' is not a case of '#hivm.pipe'}}
  hivm.hir.set_flag[<PIPE_NOPE>, <PIPE_V>, <EVENT_ID0>]
  return
}

// -----
// expected-error @+1 {{'XYZ' is not a case of '#hivm.module_core_type'}}
module attributes {hivm.module_core_type = #hivm.module_core_type<XYZ>} {
}

// -----
// expected-error @+1 {{unknown attribute '#hivm.no_such_thing'}}
func.func @unknown_attr() attributes {x = #hivm.no_such_thing<1>} {
  return
}

// -----
// expected-error @+1 {{'FOO' is not a case of '#hacc.function_kind'}}
func.func @hacc_case() attributes {hacc.function_kind = #hacc.function_kind<FOO>} {
  return
}

// -----
// A memory space of ours is checked too.
// expected-error @+1 {{'l9' is not a case of '#hivm.address_space'}}
func.func @space(%m: memref<4xf32, #hivm.address_space<l9>>) {
  return
}

// -----
func.func @permutation_out_of_rank(%s: memref<4x8xf32>, %d: memref<8x4xf32>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op have invalid index inside permutation array}}
  hivm.hir.vtranspose ins(%s : memref<4x8xf32>) outs(%d : memref<8x4xf32>) permutation = [5, 9]
  return
}

// -----
func.func @permutation_repeats(%s: memref<4x8xf32>, %d: memref<8x4xf32>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op expects 'permutation' to be a permutation}}
  hivm.hir.vtranspose ins(%s : memref<4x8xf32>) outs(%d : memref<8x4xf32>) permutation = [1, 1]
  return
}

// -----
func.func @three_swaps(%s: memref<2x3x4x5xf32>, %d: memref<3x4x5x2xf32>) {
  // expected-error @+1 {{Vtranspose supports only swapping two axes}}
  hivm.hir.vtranspose ins(%s : memref<2x3x4x5xf32>) outs(%d : memref<3x4x5x2xf32>) permutation = [1, 2, 3, 0]
  return
}

// -----
func.func @mixed_elements(%a: memref<4xf16>, %d: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vadd' op requires the same element type for all operands}}
  hivm.hir.vadd ins(%a, %a : memref<4xf16>, memref<4xf16>) outs(%d : memref<4xf32>)
  return
}

// -----
func.func @vector_only(%a: memref<4xi16>, %c: i16) {
  // expected-error @+1 {{'hivm.hir.vor' op failed to verify that operand at index 1 is vector-only}}
  hivm.hir.vor ins(%a, %c : memref<4xi16>, i16) outs(%a : memref<4xi16>)
  return
}

// -----
func.func @arity(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vadd' op elementwise op expected 2 inputs}}
  hivm.hir.vadd ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----
func.func @brc_empty(%s: memref<1xi32>, %d: memref<8xi32>) {
  // expected-error @+1 {{'hivm.hir.vbrc' op have empty broadcast dims array}}
  hivm.hir.vbrc ins(%s : memref<1xi32>) outs(%d : memref<8xi32>) broadcast_dims = []
  return
}

// -----
func.func @brc_not_one(%s: memref<2xi32>, %d: memref<8xi32>) {
  // expected-error @+1 {{'hivm.hir.vbrc' op invalid source vector shape}}
  hivm.hir.vbrc ins(%s : memref<2xi32>) outs(%d : memref<8xi32>) broadcast_dims = [0]
  return
}

// -----
func.func @brc_scalar(%s: i32, %d: memref<8xi32>) {
  // expected-error @+1 {{'hivm.hir.vbrc' op broadcast dims must be empty for scalar src}}
  hivm.hir.vbrc ins(%s : i32) outs(%d : memref<8xi32>) broadcast_dims = [0]
  return
}

// -----
func.func @reduce_too_many(%s: memref<8xf32>, %d: memref<1xf32>) {
  // expected-error @+1 {{'hivm.hir.vreduce' op have too many indices in the reduce dims array}}
  hivm.hir.vreduce <max> ins(%s : memref<8xf32>) outs(%d : memref<1xf32>) reduce_dims = [0, 1]
  return
}

// -----
func.func @reduce_dst_not_one(%s: memref<2x8xf32>, %d: memref<2x8xf32>) {
  // expected-error @+1 {{'hivm.hir.vreduce' op invalid dst vector shape}}
  hivm.hir.vreduce <max> ins(%s : memref<2x8xf32>) outs(%d : memref<2x8xf32>) reduce_dims = [1]
  return
}

// -----
func.func @arange_strides(%d: memref<4x8xi32>, %c: index) {
  // expected-error @+1 {{'hivm.hir.varange' op stride array size should match the rank of dst}}
  hivm.hir.varange strides[%c] outs(%d : memref<4x8xi32>)
  return
}

// -----
func.func @pad_value_required(%s: memref<16xf16, #hivm.address_space<gm>>, %d: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{'hivm.hir.load' op if padmode is PadValue, pad_value is required!}}
  hivm.hir.load ins(%s : memref<16xf16, #hivm.address_space<gm>>) outs(%d : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue>
  return
}

// -----
func.func @load_to_gm(%s: memref<16xf16, #hivm.address_space<gm>>, %d: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{'hivm.hir.load' op only support src == gm and dst != gm currently!}}
  hivm.hir.load ins(%s : memref<16xf16, #hivm.address_space<gm>>) outs(%d : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----
func.func @load_tensor_to_memref(%s: tensor<16xf16>, %d: memref<16xf16>) {
  // expected-error @+1 {{'hivm.hir.load' op dst/src should be memref/memref or tensor/tensor}}
  hivm.hir.load ins(%s : tensor<16xf16>) outs(%d : memref<16xf16>)
  return
}

// -----
func.func @store_from_gm(%s: memref<16xf16, #hivm.address_space<gm>>, %d: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{'hivm.hir.store' op only support store ub to gm currently!}}
  hivm.hir.store ins(%s : memref<16xf16, #hivm.address_space<gm>>) outs(%d : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----
func.func @copy_gm_to_gm(%s: memref<16xf16, #hivm.address_space<gm>>, %d: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{'hivm.hir.copy' op Unsupported copy from gm to this memory space!}}
  hivm.hir.copy ins(%s : memref<16xf16, #hivm.address_space<gm>>) outs(%d : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----
func.func @lock_dynamic() {
  // expected-error @+1 {{'hivm.hir.create_sync_block_lock' op should only support static shape}}
  %l = hivm.hir.create_sync_block_lock : memref<?xi64>
  return
}

// -----
func.func @workspace_dims(%w: memref<?xi8>, %n: index) {
  // expected-error @+1 {{'memref_ext.alloc_workspace' op dimension operand count does not equal memref dynamic dimension count}}
  %0 = memref_ext.alloc_workspace(%n) from %w offset = [%n] : from memref<?xi8> to memref<100xi8>
  return
}

// -----
func.func @return_outside_scope() {
  // expected-error @+1 {{'scope.return' op expects parent op 'scope.scope'}}
  scope.return
  return
}

// -----
func.func @scope_yields_wrong_type() {
  %c = arith.constant 0.0 : f32
  // expected-error @+1 {{'scope.scope' op region control flow edge from Region #0 to parent results}}
  %0 = scope.scope : () -> i32 {
    scope.return %c : f32
  }
  return
}

// -----
func.func @scope_two_blocks() {
  // expected-error @+1 {{'scope.scope' op expects region #0 to have 0 or 1 blocks}}
  "scope.scope"() ({
  ^bb0:
    "scope.return"() : () -> ()
  ^bb1:
    "scope.return"() : () -> ()
  }) : () -> ()
  return
}
