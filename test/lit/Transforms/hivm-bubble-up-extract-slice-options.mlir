// strict-mode and sub-blocks. strict-mode refuses what is not exact from
// the IR alone; sub-blocks sets the buffer_size_in_byte hint of buffers
// that bubbling makes dynamic.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice \
// RUN:   | FileCheck %s --check-prefixes=CHECK,LAX
// RUN: npuc-opt %s --split-input-file \
// RUN:   --hivm-bubble-up-extract-slice=strict-mode=false \
// RUN:   | FileCheck %s --check-prefixes=CHECK,LAX
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   '--hivm-bubble-up-extract-slice=strict-mode=true emit-remarks=true' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STRICT
// RUN: npuc-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(hivm-bubble-up-extract-slice{sub-blocks=4}))' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=FOUR
// RUN: not npuc-opt %s --hivm-bubble-up-extract-slice=sub-blocks=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// ZERO: error: hivm-bubble-up-extract-slice: sub-blocks must be at least 1

// An offset into a collapsed 4x16 group that is not provably a multiple
// of 16: without strict-mode it is taken as aligned (as a sub-block tile
// is); strict-mode refuses it.
// LAX-LABEL: func.func @collapse_unaligned(
// LAX-SAME:    %[[A:.*]]: tensor<4x16xf32>, %[[O:.*]]: index)
// LAX-NEXT:    %[[ROW:.*]] = affine.apply #{{.*}}()[%[[O]]]
// LAX-NEXT:    tensor.extract_slice %[[A]][%[[ROW]], 0] [2, 16] [1, 1] {to_be_bubbled_slice}
func.func @collapse_unaligned(%a: tensor<4x16xf32>, %o: index) -> tensor<32xf32> {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'tensor.collapse_shape': strict-mode: the offset into a collapsed group is not provably aligned}}
  %1 = tensor.extract_slice %0[%o] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----
// An insert partly overlapping the window needs run-time clamping:
// strict-mode refuses it.
// LAX-LABEL: func.func @insert_partial(
// LAX:         tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}] [%{{.*}}] [1] : tensor<?xf32> into tensor<16xf32>
func.func @insert_partial(%s: tensor<8xf32>, %d: tensor<64xf32>, %p: index, %o: index) -> tensor<16xf32> {
  %0 = tensor.insert_slice %s into %d[%p] [8] [1] : tensor<8xf32> into tensor<64xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'tensor.insert_slice': strict-mode: the window partly overlaps the inserted region}}
  %1 = tensor.extract_slice %0[%o] [16] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----
// Exact rewrites are the same in both modes. The hint of a dynamic buffer
// is ceil(115 / sub-blocks) * 80 * 2 bytes (strict-mode: the whole 115
// rows, which always hold).
// CHECK-LABEL: func.func @dynamic_tile(
// LAX:         annotation.mark %{{.*}} {buffer_size_in_byte = 9280 : i64} : tensor<?x80xf16>
// STRICT:      annotation.mark %{{.*}} {buffer_size_in_byte = 18400 : i64} : tensor<?x80xf16>
// FOUR-LABEL:  func.func @dynamic_tile(
// FOUR:        annotation.mark %{{.*}} {buffer_size_in_byte = 4640 : i64} : tensor<?x80xf16>
func.func @dynamic_tile(%a: tensor<115x80xf16>, %n: index) -> tensor<?x80xf16> {
  %e = tensor.empty() : tensor<115x80xf16>
  %0 = hivm.hir.vexp ins(%a : tensor<115x80xf16>) outs(%e : tensor<115x80xf16>) -> tensor<115x80xf16>
  %1 = tensor.extract_slice %0[0, 0] [%n, 80] [1, 1] {to_be_bubbled_slice} : tensor<115x80xf16> to tensor<?x80xf16>
  return %1 : tensor<?x80xf16>
}
