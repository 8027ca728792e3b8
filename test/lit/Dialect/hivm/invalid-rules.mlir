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

// -----
// The global matmuls (matmul, mix_matmul, mix_group_matmul): operand ranks,
// then descale (with a mode other than DescaleNull) and bias against the
// columns of b; dynamic sizes pass.
func.func @matmul_a_3d(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{'hivm.hir.matmul' op matrix A and matrix B must be 2D}}
  hivm.hir.matmul ins(%a, %b : memref<2x16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}

// -----
func.func @mix_group_matmul_a_2d(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %t: memref<4xi64>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_group_matmul' op matrix A must be 3D}}
  hivm.hir.mix_group_matmul ins(%a, %b, %t : memref<16x16xf16>, memref<16x16xf16>, memref<4xi64>) outs(%c : memref<16x16xf16>)
  return
}

// -----
func.func @mix_group_matmul_tokens_2d(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %t: memref<4x4xi64>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_group_matmul' op matrix TokensPerExpert must be 1D}}
  hivm.hir.mix_group_matmul ins(%a, %b, %t : memref<2x16x16xf16>, memref<16x16xf16>, memref<4x4xi64>) outs(%c : memref<16x16xf16>)
  return
}

// -----
func.func @matmul_mode_without_descale(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.matmul' op The descaleMode is defined, descale params must be defined!}}
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale_mode = #hivm.descale_mode<DescalePerChannel>
  return
}

// -----
func.func @matmul_descale_2d(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %d: memref<8x8xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.matmul' op descale must must be 1D}}
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale = %d : memref<8x8xf16> descale_mode = #hivm.descale_mode<DescalePerChannel>
  return
}

// -----
func.func @matmul_per_tensor_size(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %d: memref<8xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.matmul' op The descaleMode is DescalePerTensor, the size of descale is equal to 1}}
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale = %d : memref<8xf16> descale_mode = #hivm.descale_mode<DescalePerTensor>
  return
}

// -----
func.func @matmul_per_channel_size(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %d: memref<4xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_matmul' op The descaleMode is DescalePerChannel, the size of descale is equal to the col size of B}}
  hivm.hir.mix_matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale = %d : memref<4xf16> descale_mode = #hivm.descale_mode<DescalePerChannel>
  return
}

// -----
func.func @matmul_bias_size(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %bias: memref<16xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.matmul' op The size of bias is equal to the col size of B}}
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) bias = %bias : memref<16xf16>
  return
}

// -----
func.func @matmul_bias_2d(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %bias: memref<1x8xf16>, %c: memref<16x8xf16>) {
  // expected-error @+1 {{'hivm.hir.matmul' op bias must must be 1D}}
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) bias = %bias : memref<1x8xf16>
  return
}

// -----
// Valid: sizes that match, dynamic ones, DescaleNull without descale.
func.func @matmul_descale_ok(%a: memref<16x32xf16>, %b: memref<32x8xf16>, %d: memref<8xf16>, %d1: memref<1xf16>, %dd: memref<?xf16>, %bias: memref<8xf16>, %c: memref<16x8xf16>) {
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) bias = %bias : memref<8xf16> descale = %d : memref<8xf16> descale_mode = #hivm.descale_mode<DescalePerChannel>
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale = %d1 : memref<1xf16> descale_mode = #hivm.descale_mode<DescalePerTensor>
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale = %dd : memref<?xf16> descale_mode = #hivm.descale_mode<DescalePerTensor>
  hivm.hir.matmul ins(%a, %b : memref<16x32xf16>, memref<32x8xf16>) outs(%c : memref<16x8xf16>) descale_mode = #hivm.descale_mode<DescaleNull>
  return
}

// -----
func.func @pointer_cast_no_addr() {
  // expected-error @+1 {{'hivm.hir.pointer_cast' op addrs of PointerCastOp should not be empty!}}
  %0 = hivm.hir.pointer_cast() : memref<16xf16, #hivm.address_space<ub>>
  return
}

// -----
func.func @fixpipe_dual_sub_block(%l0c: memref<16x16xf16, #hivm.address_space<cc>>, %ub: memref<16x16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{'hivm.hir.fixpipe' op sub_block_idx must not be set when dual_dst_mode is enabled!}}
  hivm.hir.fixpipe {sub_block_idx = #hivm.fixpipe_sub_block<sub_block_1>} ins(%l0c : memref<16x16xf16, #hivm.address_space<cc>>) outs(%ub : memref<16x16xf16, #hivm.address_space<ub>>) dual_dst_mode = #hivm.fixpipe_dual_dst_mode<COLUMN_SPLIT>
  return
}

// -----
// NO_DUAL is no dual mode: sub_block_idx may be set.
func.func @fixpipe_no_dual(%l0c: memref<16x16xf16, #hivm.address_space<cc>>, %ub: memref<16x16xf16, #hivm.address_space<ub>>) {
  hivm.hir.fixpipe {sub_block_idx = #hivm.fixpipe_sub_block<sub_block_1>} ins(%l0c : memref<16x16xf16, #hivm.address_space<cc>>) outs(%ub : memref<16x16xf16, #hivm.address_space<ub>>) dual_dst_mode = #hivm.fixpipe_dual_dst_mode<NO_DUAL>
  return
}

// -----
func.func @vadd_broadcast_and_transpose(%x: memref<4x8xf16>, %y: memref<4x1xf16>, %z: memref<8x4xf16>) {
  // expected-error @+1 {{Broadcast OTF and Transpose OTF cannot be enabled at the same time}}
  hivm.hir.vadd ins(%x, %y : memref<4x8xf16>, memref<4x1xf16>) outs(%z : memref<8x4xf16>) broadcast = [1] transpose = [1, 0]
  return
}

// -----
func.func @vreduce_temp_2d(%s: memref<3x10xi32>, %d: memref<1x10xi32>, %t: memref<3x16xi32>) {
  // expected-error @+1 {{temp_buffer'rank should be one}}
  hivm.hir.vreduce <max> ins(%s : memref<3x10xi32>) outs(%d : memref<1x10xi32>) temp_buffer(%t : memref<3x16xi32>) reduce_dims = [0]
  return
}

// -----
func.func @convert_layout_element(%m: memref<128x128xf16>) {
  // expected-error @+1 {{'hivm.hir.convert_layout' op requires the same element type for all operands and results}}
  %0 = hivm.hir.convert_layout %m output_shape [8, 8, 16, 16] {srcLayout = #hivm.data_layout<ND>, dstLayout = #hivm.data_layout<nZ>} : (memref<128x128xf16>) -> memref<8x8x16x16xf32>
  return
}

// -----
// custom and custom_macro: scratch buffers as two lists of one length.
func.func @custom_types_only(%x: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Either extra buffers' types or sizes missing}}
  hivm.hir.custom {extra_buffers_types = [f32]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----
func.func @custom_macro_lengths(%x: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op Extra buffers' types and sizes mismatch}}
  hivm.hir.custom_macro {extra_buffers_types = [f32, f16], extra_buffers_sizes = [64 : i64]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----
// custom_macro: one sync_related_args value per sync_event_slots entry.
func.func @custom_macro_args_without_slots(%x: memref<4xf32>, %e: i64) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op sync_related_args should be empty}}
  hivm.hir.custom_macro "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) sync_related_args(%e : i64)
  return
}

// -----
func.func @custom_macro_args_count(%x: memref<4xf32>, %e: i64) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op 'sync_related_args' should be of size 2 (one per entry of 'sync_event_slots')}}
  hivm.hir.custom_macro {sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait>, #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_MTE2>, set>]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) sync_related_args(%e : i64)
  return
}

// -----
// custom_macro: one event id per pipe pair among the slots that name one
// (<set pipe, wait pipe, wait|set, <event>>), waited or set.
func.func @custom_macro_duplicate_event(%x: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op duplicate user-specified sync event id on the same pipe pair}}
  hivm.hir.custom_macro {sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID0>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID0>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, set, <EVENT_ID0>>]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----
// Another event id, another pipe pair, or no event id: no duplicate.
func.func @custom_macro_distinct_events(%x: memref<4xf32>) {
  hivm.hir.custom_macro {sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID0>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, set, <EVENT_ID1>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE1>, #hivm.pipe<PIPE_MTE2>, wait, <EVENT_ID0>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait>]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----
// Without arguments the slots are fine (a pass fills the arguments in).
func.func @custom_macro_slots_only(%x: memref<4xf32>) {
  hivm.hir.custom_macro {sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait>]} "k" ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----
// custom/custom_macro: an input's inplace_outs names an output that is the
// same value (operand-map).
func.func @inplace_out_of_range(%a: tensor<16xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op inplace_outs must be a valid outs operand index}}
  %0 = hivm.hir.custom "k" ins(%a : tensor<16xf32> {inplace_outs = 1 : i32}) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----
func.func @inplace_twice(%a: tensor<16xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op inplace_outs cannot map multiple ins operands to the same outs operand}}
  %0:2 = hivm.hir.custom "k" ins(%a, %a : tensor<16xf32> {inplace_outs = 0 : i32}, tensor<16xf32> {inplace_outs = 0 : i32}) outs(%a, %a : tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return
}

// -----
func.func @inplace_type(%a: tensor<16xf16>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op inplace_outs requires mapped ins and outs operands to have identical ranked tensor or memref types}}
  %0 = hivm.hir.custom_macro "k" ins(%a : tensor<16xf16> {inplace_outs = 0 : i32}) outs(%b : tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----
func.func @inplace_value(%a: tensor<16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op inplace_outs requires each mapped ins operand to be the same SSA value as its mapped outs operand}}
  %0 = hivm.hir.custom "k" ins(%a : tensor<16xf32> {inplace_outs = 0 : i32}) outs(%b : tensor<16xf32>) -> tensor<16xf32>
  return
}
