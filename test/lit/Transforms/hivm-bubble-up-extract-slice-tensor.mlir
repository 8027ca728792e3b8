// hivm-bubble-up-extract-slice through tensor ops, arith.select and
// rank-reducing slices.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s

// tensor.empty: a stop point; the slice becomes an empty tensor.
// CHECK-LABEL: func.func @empty(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:    return %[[E]]
func.func @empty(%o: index) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %1 = tensor.extract_slice %e[%o, 0] [4, 16] [1, 1] {to_be_bubbled_slice} : tensor<8x16xf32> to tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----
// A dynamic empty tensor keeps its sizes and hints the size of a tile of
// two sub-blocks: ceil(115 / 2) * 80 * 2 bytes.
// CHECK-LABEL: func.func @empty_dynamic(
// CHECK-SAME:    %[[N:.*]]: index)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x80xf16>
// CHECK-NEXT:    annotation.mark %[[E]] {buffer_size_in_byte = 9280 : i64} : tensor<?x80xf16>
func.func @empty_dynamic(%n: index) -> tensor<?x80xf16> {
  %e = tensor.empty() : tensor<115x80xf16>
  %1 = tensor.extract_slice %e[0, 0] [%n, 80] [1, 1] {to_be_bubbled_slice} : tensor<115x80xf16> to tensor<?x80xf16>
  return %1 : tensor<?x80xf16>
}

// -----
// Extract of extract on one dim: the offsets add up in one affine.apply.
// CHECK: #[[MAP:.*]] = affine_map<()[s0, s1] -> (s0 + s1)>
// CHECK-LABEL: func.func @extract_same_dim(
// CHECK-SAME:    %[[A:.*]]: tensor<64x8xf32>, %[[P:.*]]: index, %[[O:.*]]: index)
// CHECK-NEXT:    %[[OFF:.*]] = affine.apply #[[MAP]]()[%[[P]], %[[O]]]
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[OFF]], 0] [8, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<8x8xf32>
// CHECK-NEXT:    return %[[S]]
func.func @extract_same_dim(%a: tensor<64x8xf32>, %p: index, %o: index) -> tensor<8x8xf32> {
  %0 = tensor.extract_slice %a[%p, 0] [32, 8] [1, 1] : tensor<64x8xf32> to tensor<32x8xf32>
  %1 = tensor.extract_slice %0[%o, 0] [8, 8] [1, 1] {to_be_bubbled_slice} : tensor<32x8xf32> to tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----
// Extract of extract on different dims: the marked slice goes first, the
// parent keeps its offsets and attributes.
// CHECK-LABEL: func.func @extract_other_dim(
// CHECK-SAME:    %[[A:.*]]: tensor<64x16xf32>, %[[P:.*]]: index, %[[O:.*]]: index)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][0, %[[O]]] [64, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x16xf32> to tensor<64x8xf32>
// CHECK-NEXT:    %[[T:.*]] = tensor.extract_slice %[[S]][%[[P]], 0] [32, 8] [1, 1] {keep_me} : tensor<64x8xf32> to tensor<32x8xf32>
// CHECK-NEXT:    return %[[T]]
func.func @extract_other_dim(%a: tensor<64x16xf32>, %p: index, %o: index) -> tensor<32x8xf32> {
  %0 = tensor.extract_slice %a[%p, 0] [32, 16] [1, 1] {keep_me} : tensor<64x16xf32> to tensor<32x16xf32>
  %1 = tensor.extract_slice %0[0, %o] [32, 8] [1, 1] {to_be_bubbled_slice} : tensor<32x16xf32> to tensor<32x8xf32>
  return %1 : tensor<32x8xf32>
}

// -----
// Static offsets add up statically.
// CHECK-LABEL: func.func @extract_static(
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %{{.*}}[20] [8] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<8xf32>
// CHECK-NEXT:    return %[[S]]
func.func @extract_static(%a: tensor<64xf32>) -> tensor<8xf32> {
  %0 = tensor.extract_slice %a[16] [32] [1] : tensor<64xf32> to tensor<32xf32>
  %1 = tensor.extract_slice %0[4] [8] [1] {to_be_bubbled_slice} : tensor<32xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// A rank-reducing parent: the dim it drops stays whole in the marked slice.
// CHECK-LABEL: func.func @extract_rank_reducing_parent(
// CHECK-SAME:    %[[A:.*]]: tensor<4x32xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][0, %[[O]]] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<4x32xf32> to tensor<4x8xf32>
// CHECK-NEXT:    %[[T:.*]] = tensor.extract_slice %[[S]][3, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
// CHECK-NEXT:    return %[[T]]
func.func @extract_rank_reducing_parent(%a: tensor<4x32xf32>, %o: index) -> tensor<8xf32> {
  %0 = tensor.extract_slice %a[3, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<32xf32>
  %1 = tensor.extract_slice %0[%o] [8] [1] {to_be_bubbled_slice} : tensor<32xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// Two marked slices merge into one.
// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 + 16)>
// CHECK-LABEL: func.func @extract_both_marked(
// CHECK-SAME:    %[[A:.*]]: tensor<64xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[OFF:.*]] = affine.apply #[[MAP]]()[%[[O]]]
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[OFF]]] [8] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<8xf32>
// CHECK-NEXT:    return %[[S]]
func.func @extract_both_marked(%a: tensor<64xf32>, %o: index) -> tensor<8xf32> {
  %0 = tensor.extract_slice %a[16] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
  %1 = tensor.extract_slice %0[%o] [8] [1] {to_be_bubbled_slice} : tensor<32xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// A marked rank-reducing slice: a marked full-rank slice bubbles, a plain
// rank-reducing one drops the dim at the end.
// CHECK-LABEL: func.func @rank_reducing(
// CHECK-SAME:    %[[A:.*]]: tensor<4x64xf32>, %[[B:.*]]: tensor<4x64xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][2, %[[O]]] [1, 32] [1, 1] {to_be_bubbled_slice} : tensor<4x64xf32> to tensor<1x32xf32>
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][2, %[[O]]] [1, 32] [1, 1] {to_be_bubbled_slice} : tensor<4x64xf32> to tensor<1x32xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x32xf32>
// CHECK-NEXT:    %[[R:.*]] = hivm.hir.vadd ins(%[[SA]], %[[SB]] : tensor<1x32xf32>, tensor<1x32xf32>) outs(%[[E]] : tensor<1x32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT:    %[[D:.*]] = tensor.extract_slice %[[R]][0, 0] [1, 32] [1, 1] : tensor<1x32xf32> to tensor<32xf32>
// CHECK-NEXT:    return %[[D]]
func.func @rank_reducing(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>, %o: index) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %1 = tensor.extract_slice %0[2, %o] [1, 32] [1, 1] {to_be_bubbled_slice} : tensor<4x64xf32> to tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----
// insert_slice covering the window's dim: source and destination are both
// sliced; the insert keeps its offset on the other dim.
// CHECK-LABEL: func.func @insert_covering(
// CHECK-SAME:    %[[S:.*]]: tensor<4x16xf32>, %[[D:.*]]: tensor<16x16xf32>, %[[P:.*]]: index, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SD:.*]] = tensor.extract_slice %[[D]][0, %[[O]]] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x16xf32> to tensor<16x8xf32>
// CHECK-NEXT:    %[[SS:.*]] = tensor.extract_slice %[[S]][0, %[[O]]] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<4x16xf32> to tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[SS]] into %[[SD]][%[[P]], 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @insert_covering(%s: tensor<4x16xf32>, %d: tensor<16x16xf32>, %p: index, %o: index) -> tensor<16x8xf32> {
  %0 = tensor.insert_slice %s into %d[%p, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<16x16xf32>
  %1 = tensor.extract_slice %0[0, %o] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x16xf32> to tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----
// insert_slice at the window's own offset: the inserted element sits at 0.
// CHECK-LABEL: func.func @insert_at_window(
// CHECK-SAME:    %[[S:.*]]: tensor<1xf32>, %[[D:.*]]: tensor<64xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SD:.*]] = tensor.extract_slice %[[D]][%[[O]]] [8] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[S]] into %[[SD]][0] [1] [1] : tensor<1xf32> into tensor<8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @insert_at_window(%s: tensor<1xf32>, %d: tensor<64xf32>, %o: index) -> tensor<8xf32> {
  %0 = tensor.insert_slice %s into %d[%o] [1] [1] : tensor<1xf32> into tensor<64xf32>
  %1 = tensor.extract_slice %0[%o] [8] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// insert_slice partly overlapping the window: the part of the source inside
// it is clamped at run time: it starts at clamp(p - o, 0, 16) in the window
// and clamp(o - p, 0, 8) in the source.
// CHECK-LABEL: func.func @insert_partial(
// CHECK-SAME:    %[[S:.*]]: tensor<8xf32>, %[[D:.*]]: tensor<64xf32>, %[[P:.*]]: index, %[[O:.*]]: index)
// CHECK:         %[[D0:.*]] = arith.subi %[[P]], %[[O]] : index
// CHECK-NEXT:    %[[D1:.*]] = arith.maxsi %[[D0]], %{{.*}} : index
// CHECK-NEXT:    %[[START:.*]] = arith.minsi %[[D1]], %{{.*}} : index
// CHECK:         %[[COUNT:.*]] = arith.subi %{{.*}}, %[[START]] : index
// CHECK-NEXT:    %[[B0:.*]] = arith.subi %[[O]], %[[P]] : index
// CHECK-NEXT:    %[[B1:.*]] = arith.maxsi %[[B0]], %{{.*}} : index
// CHECK-NEXT:    %[[SRCOFF:.*]] = arith.minsi %[[B1]], %{{.*}} : index
// CHECK-NEXT:    %[[SS:.*]] = tensor.extract_slice %[[S]][%[[SRCOFF]]] [%[[COUNT]]] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[SD:.*]] = tensor.extract_slice %[[D]][%[[O]]] [16] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<16xf32>
// CHECK-NEXT:    tensor.insert_slice %[[SS]] into %[[SD]][%[[START]]] [%[[COUNT]]] [1] : tensor<?xf32> into tensor<16xf32>
func.func @insert_partial(%s: tensor<8xf32>, %d: tensor<64xf32>, %p: index, %o: index) -> tensor<16xf32> {
  %0 = tensor.insert_slice %s into %d[%p] [8] [1] : tensor<8xf32> into tensor<64xf32>
  %1 = tensor.extract_slice %0[%o] [16] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----
// expand_shape: an outer sliced dim with whole inner dims is a contiguous
// run of the source.
// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 * 16)>
// CHECK-LABEL: func.func @expand(
// CHECK-SAME:    %[[A:.*]]: tensor<128xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[OFF:.*]] = affine.apply #[[MAP]]()[%[[O]]]
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<128xf32> to tensor<32xf32>
// CHECK-NEXT:    %[[X:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
// CHECK-NEXT:    return %[[X]]
func.func @expand(%a: tensor<128xf32>, %o: index) -> tensor<2x16xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [8, 16] : tensor<128xf32> into tensor<8x16xf32>
  %1 = tensor.extract_slice %0[%o, 0] [2, 16] [1, 1] {to_be_bubbled_slice} : tensor<8x16xf32> to tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----
// expand_shape with a dynamic size: output_shape takes the slice's size.
// CHECK-LABEL: func.func @expand_dynamic(
// CHECK-SAME:    %[[A:.*]]: tensor<64xf32>, %[[O:.*]]: index, %[[N:.*]]: index)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[O]]] [%[[N]]] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<?xf32>
// CHECK-NEXT:    tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [%[[N]], 1] : tensor<?xf32> into tensor<?x1xf32>
func.func @expand_dynamic(%a: tensor<64xf32>, %o: index, %n: index) -> tensor<?x1xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32>
  %1 = tensor.extract_slice %0[%o, 0] [%n, 1] [1, 1] {to_be_bubbled_slice} : tensor<64x1xf32> to tensor<?x1xf32>
  return %1 : tensor<?x1xf32>
}

// -----
// A reshape of an empty tensor is an empty tensor.
// CHECK-LABEL: func.func @expand_empty(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x1xf32>
// CHECK-NEXT:    return %[[E]]
func.func @expand_empty() -> tensor<2x1xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = tensor.expand_shape %e [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  %1 = tensor.extract_slice %0[2, 0] [2, 1] [1, 1] {to_be_bubbled_slice} : tensor<8x1xf32> to tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
}

// -----
// collapse_shape with one non-unit dim in the group: that dim is sliced.
// CHECK-LABEL: func.func @collapse_unit(
// CHECK-SAME:    %[[A:.*]]: tensor<1x64x4xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][0, %[[O]], 0] [1, 32, 4] [1, 1, 1] {to_be_bubbled_slice} : tensor<1x64x4xf32> to tensor<1x32x4xf32>
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %[[S]] {{\[\[}}0, 1], [2]] : tensor<1x32x4xf32> into tensor<32x4xf32>
// CHECK-NEXT:    return %[[C]]
func.func @collapse_unit(%a: tensor<1x64x4xf32>, %o: index) -> tensor<32x4xf32> {
  %0 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<1x64x4xf32> into tensor<64x4xf32>
  %1 = tensor.extract_slice %0[%o, 0] [32, 4] [1, 1] {to_be_bubbled_slice} : tensor<64x4xf32> to tensor<32x4xf32>
  return %1 : tensor<32x4xf32>
}

// -----
// collapse_shape of 4x16 with an offset provably a multiple of 16: whole
// rows 2 i .. 2 i + 1.
// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-LABEL: func.func @collapse_aligned(
// CHECK-SAME:    %[[A:.*]]: tensor<4x16xf32>, %[[I:.*]]: index)
// CHECK-NEXT:    %[[ROW:.*]] = affine.apply #[[MAP]]()[%[[I]]]
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[ROW]], 0] [2, 16] [1, 1] {to_be_bubbled_slice} : tensor<4x16xf32> to tensor<2x16xf32>
// CHECK-NEXT:    tensor.collapse_shape %[[S]] {{\[\[}}0, 1]] : tensor<2x16xf32> into tensor<32xf32>
func.func @collapse_aligned(%a: tensor<4x16xf32>, %i: index) -> tensor<32xf32> {
  %o = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%i]
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %1 = tensor.extract_slice %0[%o] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----
// collapse_shape, static: part of one row is one index and a slice of it.
// CHECK-LABEL: func.func @collapse_in_row(
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %{{.*}}[1, 4] [1, 8] [1, 1] {to_be_bubbled_slice} : tensor<4x16xf32> to tensor<1x8xf32>
// CHECK-NEXT:    tensor.collapse_shape %[[S]] {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
func.func @collapse_in_row(%a: tensor<4x16xf32>) -> tensor<8xf32> {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %1 = tensor.extract_slice %0[20] [8] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// arith.select on tensors with a scalar condition.
// CHECK-LABEL: func.func @select(
// CHECK-SAME:    %[[C:.*]]: i1, %[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][4] [4] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][4] [4] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[C]], %[[SA]], %[[SB]] : tensor<4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @select(%c: i1, %a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %0 = arith.select %c, %a, %b : tensor<8xf32>
  %1 = tensor.extract_slice %0[4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----
// arith.select with a tensor condition slices it too.
// CHECK-LABEL: func.func @select_tensor_cond(
// CHECK-SAME:    %[[C:.*]]: tensor<8xi1>, %[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SC:.*]] = tensor.extract_slice %[[C]][0] [4] [1] {to_be_bubbled_slice} : tensor<8xi1> to tensor<4xi1>
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][0] [4] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][0] [4] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    arith.select %[[SC]], %[[SA]], %[[SB]] : tensor<4xi1>, tensor<4xf32>
func.func @select_tensor_cond(%c: tensor<8xi1>, %a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %0 = arith.select %c, %a, %b : tensor<8xi1>, tensor<8xf32>
  %1 = tensor.extract_slice %0[0] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}
