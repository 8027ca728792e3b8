// hivm-bubble-up-extract-slice through HIVM ops: each marked slice of an
// HIVM op's result becomes the op on marked slices of its operands, down to
// block arguments, tensor.empty and loads.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s
// RUN: npuc-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(hivm-bubble-up-extract-slice))' \
// RUN:   | FileCheck %s

// Elementwise: a scalar operand passes through, the init (an empty tensor)
// becomes an empty tensor of the slice's shape, the old op goes away.
// CHECK-LABEL: func.func @binary_scalar(
// CHECK-SAME:    %[[A:.*]]: tensor<16x8xf32>, %[[S:.*]]: f32, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = hivm.hir.vmul ins(%[[SA]], %[[S]] : tensor<4x8xf32>, f32) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @binary_scalar(%a: tensor<16x8xf32>, %s: f32, %o: index) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = hivm.hir.vmul ins(%a, %s : tensor<16x8xf32>, f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = tensor.extract_slice %0[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----
// A chain with a dynamic size: every op shrinks to tensor<?x..>. The ops
// that shared one empty init share one new empty tensor, made where the old
// one was, with a buffer_size_in_byte hint (half of 64 elements).
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %[[A:.*]]: tensor<64xf16>, %[[B:.*]]: tensor<64xf16>, %[[O:.*]]: index, %[[N:.*]]: index)
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty(%[[N]]) : tensor<?xf16>
// CHECK-NEXT:    annotation.mark %[[E0]] {buffer_size_in_byte = 64 : i64} : tensor<?xf16>
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]]] [%[[N]]] [1] {to_be_bubbled_slice} : tensor<64xf16> to tensor<?xf16>
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]]] [%[[N]]] [1] {to_be_bubbled_slice} : tensor<64xf16> to tensor<?xf16>
// CHECK-NEXT:    %[[ADD:.*]] = hivm.hir.vadd ins(%[[SA]], %[[SB]] : tensor<?xf16>, tensor<?xf16>) outs(%[[E0]] : tensor<?xf16>) -> tensor<?xf16>
// CHECK-NEXT:    %[[EXP:.*]] = hivm.hir.vexp ins(%[[ADD]] : tensor<?xf16>) outs(%[[E0]] : tensor<?xf16>) -> tensor<?xf16>
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT:    annotation.mark %[[E2]] {buffer_size_in_byte = 128 : i64}
// CHECK-NEXT:    %[[CAST:.*]] = hivm.hir.vcast ins(%[[EXP]] : tensor<?xf16>) outs(%[[E2]] : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    return %[[CAST]]
func.func @chain(%a: tensor<64xf16>, %b: tensor<64xf16>, %o: index, %n: index) -> tensor<?xf32> {
  %e = tensor.empty() : tensor<64xf16>
  %f = tensor.empty() : tensor<64xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %1 = hivm.hir.vexp ins(%0 : tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %2 = hivm.hir.vcast ins(%1 : tensor<64xf16>) outs(%f : tensor<64xf32>) -> tensor<64xf32>
  %3 = tensor.extract_slice %2[%o] [%n] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<?xf32>
  return %3 : tensor<?xf32>
}

// -----
// An op used whole elsewhere stays, and is recomputed on the slice.
// CHECK-LABEL: func.func @shared_producer(
// CHECK:         %[[FULL:.*]] = hivm.hir.vabs ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK:         %[[PART:.*]] = hivm.hir.vabs ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK:         return %[[FULL]], %[[PART]]
func.func @shared_producer(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = hivm.hir.vabs ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = tensor.extract_slice %0[4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %0, %1 : tensor<8xf32>, tensor<4xf32>
}

// -----
// Implicit broadcast (`broadcast = [...]`): an input's size-1 dims keep
// offset 0 / size 1 (a whole input needs no slice), and a broadcast dim
// whose result size becomes 1 leaves the attribute.
// CHECK-LABEL: func.func @implicit_broadcast(
// CHECK-SAME:    %[[A:.*]]: tensor<1x16xf32>, %[[B:.*]]: tensor<8x1xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]], 0] [1, 1] [1, 1] {to_be_bubbled_slice} : tensor<8x1xf32> to tensor<1x1xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x16xf32>
// CHECK-NEXT:    hivm.hir.vadd ins(%[[A]], %[[SB]] : tensor<1x16xf32>, tensor<1x1xf32>) outs(%[[E]] : tensor<1x16xf32>) broadcast = [1] -> tensor<1x16xf32>
func.func @implicit_broadcast(%a: tensor<1x16xf32>, %b: tensor<8x1xf32>, %o: index) -> tensor<1x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<1x16xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) broadcast = [0, 1] -> tensor<8x16xf32>
  %1 = tensor.extract_slice %0[%o, 0] [1, 16] [1, 1] {to_be_bubbled_slice} : tensor<8x16xf32> to tensor<1x16xf32>
  return %1 : tensor<1x16xf32>
}

// -----
// vbrc: the broadcast dim keeps offset 0 / size 1 in the input.
// CHECK-LABEL: func.func @vbrc_rows(
// CHECK-SAME:    %[[A:.*]]: tensor<1x32xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][0, %[[O]]] [1, 16] [1, 1] {to_be_bubbled_slice} : tensor<1x32xf32> to tensor<1x16xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT:    hivm.hir.vbrc ins(%[[SA]] : tensor<1x16xf32>) outs(%[[E]] : tensor<8x16xf32>) broadcast_dims = [0] -> tensor<8x16xf32>
func.func @vbrc_rows(%a: tensor<1x32xf32>, %o: index) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %0 = hivm.hir.vbrc ins(%a : tensor<1x32xf32>) outs(%e : tensor<8x32xf32>) broadcast_dims = [0] -> tensor<8x32xf32>
  %1 = tensor.extract_slice %0[0, %o] [8, 16] [1, 1] {to_be_bubbled_slice} : tensor<8x32xf32> to tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----
// vbrc of a scalar: only the init is sliced.
// CHECK-LABEL: func.func @vbrc_scalar(
// CHECK-SAME:    %[[S:.*]]: f16, %[[O:.*]]: index, %[[N:.*]]: index)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf16>
// CHECK-NEXT:    annotation.mark %[[E]] {buffer_size_in_byte = 128 : i64}
// CHECK-NEXT:    hivm.hir.vbrc ins(%[[S]] : f16) outs(%[[E]] : tensor<?xf16>) -> tensor<?xf16>
func.func @vbrc_scalar(%s: f16, %o: index, %n: index) -> tensor<?xf16> {
  %e = tensor.empty() : tensor<128xf16>
  %0 = hivm.hir.vbrc ins(%s : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
  %1 = tensor.extract_slice %0[%o] [%n] [1] {to_be_bubbled_slice} : tensor<128xf16> to tensor<?xf16>
  return %1 : tensor<?xf16>
}

// -----
// A vbrc whose slice leaves nothing to broadcast is the slice of its input.
// CHECK-LABEL: func.func @vbrc_vanishes(
// CHECK-SAME:    %[[A:.*]]: tensor<1x32xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][0, %[[O]]] [1, 8] [1, 1] {to_be_bubbled_slice} : tensor<1x32xf32> to tensor<1x8xf32>
// CHECK-NEXT:    return %[[SA]]
func.func @vbrc_vanishes(%a: tensor<1x32xf32>, %o: index) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %0 = hivm.hir.vbrc ins(%a : tensor<1x32xf32>) outs(%e : tensor<4x32xf32>) broadcast_dims = [0] -> tensor<4x32xf32>
  %1 = tensor.extract_slice %0[2, %o] [1, 8] [1, 1] {to_be_bubbled_slice} : tensor<4x32xf32> to tensor<1x8xf32>
  return %1 : tensor<1x8xf32>
}

// -----
// vreduce: the reduced dim stays whole in the input (a dynamic one through
// tensor.dim) and 0 / 1 in the result.
// CHECK-LABEL: func.func @vreduce_rows(
// CHECK-SAME:    %[[A:.*]]: tensor<16x?xf32>, %[[O:.*]]: index)
// CHECK:         %[[D:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<16x?xf32>
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [4, %[[D]]] [1, 1] {to_be_bubbled_slice} : tensor<16x?xf32> to tensor<4x?xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x1xf32>
// CHECK-NEXT:    hivm.hir.vreduce <max> ins(%[[SA]] : tensor<4x?xf32>) outs(%[[E]] : tensor<4x1xf32>) reduce_dims = [1] -> tensor<4x1xf32>
func.func @vreduce_rows(%a: tensor<16x?xf32>, %o: index) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<16x1xf32>
  %0 = hivm.hir.vreduce <max> ins(%a : tensor<16x?xf32>) outs(%e : tensor<16x1xf32>) reduce_dims = [1] -> tensor<16x1xf32>
  %1 = tensor.extract_slice %0[%o, 0] [4, 1] [1, 1] {to_be_bubbled_slice} : tensor<16x1xf32> to tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}

// -----
// vtranspose: the input slice is the permuted slice.
// CHECK-LABEL: func.func @vtranspose(
// CHECK-SAME:    %[[A:.*]]: tensor<8x4x2xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][0, %[[O]], 0] [8, 2, 2] [1, 1, 1] {to_be_bubbled_slice} : tensor<8x4x2xf32> to tensor<8x2x2xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x2x8xf32>
// CHECK-NEXT:    hivm.hir.vtranspose ins(%[[SA]] : tensor<8x2x2xf32>) outs(%[[E]] : tensor<2x2x8xf32>) permutation = [2, 1, 0] -> tensor<2x2x8xf32>
func.func @vtranspose(%a: tensor<8x4x2xf32>, %o: index) -> tensor<2x2x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %0 = hivm.hir.vtranspose ins(%a : tensor<8x4x2xf32>) outs(%e : tensor<2x4x8xf32>) permutation = [2, 1, 0] -> tensor<2x4x8xf32>
  %1 = tensor.extract_slice %0[0, %o, 0] [2, 2, 8] [1, 1, 1] {to_be_bubbled_slice} : tensor<2x4x8xf32> to tensor<2x2x8xf32>
  return %1 : tensor<2x2x8xf32>
}

// -----
// vinterleave: the interleaved last dim stays whole.
// CHECK-LABEL: func.func @vinterleave(
// CHECK-SAME:    %[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<8x4xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [2, 4] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]], 0] [2, 4] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK-NEXT:    hivm.hir.vinterleave ins(%[[SA]], %[[SB]] : tensor<2x4xf32>, tensor<2x4xf32>) outs(%[[E]] : tensor<2x8xf32>) interleave_channel_nums = 2 -> tensor<2x8xf32>
func.func @vinterleave(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %o: index) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = hivm.hir.vinterleave ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x8xf32>) interleave_channel_nums = 2 -> tensor<8x8xf32>
  %1 = tensor.extract_slice %0[%o, 0] [2, 8] [1, 1] {to_be_bubbled_slice} : tensor<8x8xf32> to tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----
// varange: dst[i, j] = offset + 16 i + j; the slice starts at 16 o + 8.
// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 * 16 + 8)>
// CHECK-LABEL: func.func @varange(
// CHECK-SAME:    %[[O:.*]]: index)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[OFF:.*]] = affine.apply #[[MAP]]()[%[[O]]]
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xi32>
// CHECK-NEXT:    hivm.hir.varange offset[%[[OFF]]] strides[%[[C16]], %[[C1]]] outs(%[[E]] : tensor<4x8xi32>) -> tensor<4x8xi32>
func.func @varange(%o: index) -> tensor<4x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %e = tensor.empty() : tensor<8x16xi32>
  %0 = hivm.hir.varange offset[%c0] strides[%c16, %c1] outs(%e : tensor<8x16xi32>) -> tensor<8x16xi32>
  %1 = tensor.extract_slice %0[%o, 8] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<8x16xi32> to tensor<4x8xi32>
  return %1 : tensor<4x8xi32>
}

// -----
// bitcast between tensors of one shape.
// CHECK-LABEL: func.func @bitcast(
// CHECK-SAME:    %[[A:.*]]: tensor<8x8xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<8x8xf32> to tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = hivm.hir.bitcast %[[SA]] : tensor<4x8xf32> -> tensor<4x8xi32>
// CHECK-NEXT:    return %[[R]]
func.func @bitcast(%a: tensor<8x8xf32>, %o: index) -> tensor<4x8xi32> {
  %0 = hivm.hir.bitcast %a : tensor<8x8xf32> -> tensor<8x8xi32>
  %1 = tensor.extract_slice %0[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<8x8xi32> to tensor<4x8xi32>
  return %1 : tensor<4x8xi32>
}

// -----
// load: a stop point; the memref source gets a subview.
// CHECK-LABEL: func.func @load(
// CHECK-SAME:    %[[M:.*]]: memref<16x8xf16>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[M]][%[[O]], 0] [4, 8] [1, 1] : memref<16x8xf16> to memref<4x8xf16, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xf16>
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : memref<4x8xf16, strided<[8, 1], offset: ?>>) outs(%[[E]] : tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NOT:     to_be_bubbled_slice
func.func @load(%m: memref<16x8xf16>, %o: index) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<16x8xf16>
  %0 = hivm.hir.load ins(%m : memref<16x8xf16>) outs(%e : tensor<16x8xf16>) -> tensor<16x8xf16>
  %1 = tensor.extract_slice %0[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf16> to tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}

// -----
// stride_load: result[i] = i < numels ? src[offset + 3 i] : other; the
// slice at o starts at 4 + 3 o and has clamp(20 - o, 0, 8) elements.
// CHECK-LABEL: func.func @stride_load(
// CHECK-SAME:    %[[M:.*]]: memref<?xf32>, %[[O:.*]]: index)
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG:     %[[C20:.*]] = arith.constant 20 : i64
// CHECK:         %[[OI:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK-NEXT:    %[[M3:.*]] = arith.muli %[[OI]], %[[C3]] : i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[M3]], %[[C4]] : i64
// CHECK-NEXT:    %[[OI2:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK-NEXT:    %[[LEFT:.*]] = arith.subi %[[C20]], %[[OI2]] : i64
// CHECK-NEXT:    %[[POS:.*]] = arith.maxsi %[[LEFT]], %[[C0]] : i64
// CHECK-NEXT:    %[[CNT:.*]] = arith.minsi %[[POS]], %[[C8]] : i64
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    hivm.hir.stride_load ins(%[[M]] : memref<?xf32>) outs(%[[E]] : tensor<8xf32>) offset(%[[OFF]] : i64) strides([%[[C3]] : i64]) numels([%[[CNT]] : i64]) -> tensor<8xf32>
func.func @stride_load(%m: memref<?xf32>, %o: index) -> tensor<8xf32> {
  %off = arith.constant 4 : i64
  %st = arith.constant 3 : i64
  %n = arith.constant 20 : i64
  %e = tensor.empty() : tensor<32xf32>
  %0 = hivm.hir.stride_load ins(%m : memref<?xf32>) outs(%e : tensor<32xf32>) offset(%off : i64) strides([%st : i64]) numels([%n : i64]) -> tensor<32xf32>
  %1 = tensor.extract_slice %0[%o] [8] [1] {to_be_bubbled_slice} : tensor<32xf32> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----
// indirect_load: the offsets and mask tensors are sliced; the base memref
// and the scalar `other` pass through.
// CHECK-LABEL: func.func @indirect_load(
// CHECK-SAME:    %[[M:.*]]: memref<?xf32>, %[[I:.*]]: tensor<16x8xi64>, %[[K:.*]]: tensor<16x8xi1>, %[[O:.*]]: index)
// CHECK:         %[[SI:.*]] = tensor.extract_slice %[[I]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[SK:.*]] = tensor.extract_slice %[[K]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    hivm.hir.indirect_load ins(%[[M]] : memref<?xf32>, %[[SI]] : tensor<4x8xi64>, %[[SK]] : tensor<4x8xi1>, %{{.*}} : f32) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @indirect_load(%m: memref<?xf32>, %idx: tensor<16x8xi64>, %mask: tensor<16x8xi1>, %o: index) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %other = arith.constant 0.0 : f32
  %0 = hivm.hir.indirect_load ins(%m : memref<?xf32>, %idx : tensor<16x8xi64>, %mask : tensor<16x8xi1>, %other : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = tensor.extract_slice %0[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
