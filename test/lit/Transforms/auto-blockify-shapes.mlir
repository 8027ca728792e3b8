// Kernels of other shapes: several get_block_idx ops at any depth, counts of
// other types, a count computed in a region, ops the legality check allows.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   -auto-blockify-parallel-loop=physical-block-num=4 | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   -auto-blockify-parallel-loop="physical-block-num=4 mode=ceildiv" \
// RUN:   | FileCheck %s --check-prefix=CEIL

// Every get_block_idx in the body reads the loop's index: the first one at
// the top level stays for the loop's bounds, the others are replaced, each
// with the index cast to its type.
func.func @many_indices(%out: memref<64xi32>, %n: i32, %flag: i1) attributes {hacc.entry} {
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %b2 = hivm.hir.get_block_idx -> i32
  memref.store %b2, %out[%i] : memref<64xi32>
  scf.if %flag {
    %b3 = hivm.hir.get_block_idx -> i64
    %j = arith.index_cast %b3 : i64 to index
    %v = arith.trunci %b3 : i64 to i32
    memref.store %v, %out[%j] : memref<64xi32>
  }
  return
}
// CHECK-LABEL: func.func @many_indices(
// CHECK-SAME: %[[OUT:.*]]: memref<64xi32>, %[[N:.*]]: i32, %[[FLAG:.*]]: i1)
// CHECK-NEXT: annotation.mark %[[N]]
// CHECK-NEXT: %[[B:.*]] = hivm.hir.get_block_idx -> i64
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[LB:.*]] = arith.trunci %[[B]] : i64 to i32
// CHECK-NEXT: scf.for %[[IV:.*]] = %[[LB]] to %[[N]] step %[[STEP]] : i32 {
// CHECK-NEXT:   %[[I64:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK-NEXT:   %[[I:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT:   memref.store %[[IV]], %[[OUT]][%[[I]]]
// CHECK-NEXT:   scf.if %[[FLAG]] {
// CHECK-NEXT:     %[[J:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT:     %[[V:.*]] = arith.trunci %[[I64]] : i64 to i32
// CHECK-NEXT:     memref.store %[[V]], %[[OUT]][%[[J]]]
// CHECK-NEXT:   }
// CHECK-NEXT: } {autoblockify.subloop}
// CHECK-NOT: get_block_idx

// -----

// Only nested block indices: the pass reads the index once before the loop.
func.func @nested_only(%out: memref<64xi32>, %n: i64) attributes {hacc.entry} {
  annotation.mark %n {logical_block_num} : i64
  scf.execute_region {
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    scf.yield
  }
  return
}
// An i64 count needs no cast of the i64 block index.
// CHECK-LABEL: func.func @nested_only(
// CHECK-SAME: %[[OUT:.*]]: memref<64xi32>, %[[N:.*]]: i64)
// CHECK-NEXT: annotation.mark %[[N]]
// CHECK-NEXT: %[[B:.*]] = hivm.hir.get_block_idx -> i64
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 4 : i64
// CHECK-NEXT: scf.for %[[IV:.*]] = %[[B]] to %[[N]] step %[[STEP]] : i64 {
// CHECK-NEXT:   scf.execute_region {
// CHECK-NEXT:     arith.index_cast %[[IV]] : i64 to index
// CHECK:      } {autoblockify.subloop}

// -----

// An index count, computed through a region: the region op stays in front
// with what it reads; the rest moves.
func.func @index_count(%out: memref<64xi32>, %a: i32, %flag: i1) attributes {hacc.entry} {
  %c2 = arith.constant 2 : index
  %ai = arith.index_cast %a : i32 to index
  %c7 = arith.constant 7 : i32
  %n = scf.if %flag -> index {
    %d = arith.muli %ai, %c2 : index
    scf.yield %d : index
  } else {
    scf.yield %ai : index
  }
  annotation.mark %n {logical_block_num} : index
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  memref.store %c7, %out[%i] : memref<64xi32>
  return
}
// CHECK-LABEL: func.func @index_count(
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[AI:.*]] = arith.index_cast
// CHECK-NEXT: %[[N:.*]] = scf.if
// CHECK:      annotation.mark %[[N]] {logical_block_num} : index
// CHECK-NEXT: %[[B:.*]] = hivm.hir.get_block_idx -> i64
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[LB:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-NEXT: scf.for %[[IV:.*]] = %[[LB]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT:   %[[IDX:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT:   arith.constant 7 : i32
// CHECK-NEXT:   arith.index_cast %[[IDX]] : i64 to index
// CHECK:      } {autoblockify.subloop}

// -----

// Intra-core pipe flags, barriers and plain (or atomic = none) stores keep
// blocks independent.
func.func @allowed(%src: memref<16xf32>, %dst: memref<?xf32>, %n: i32) attributes {hacc.entry} {
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %c16 = arith.constant 16 : index
  %off = arith.muli %i, %c16 : index
  %d = memref.subview %dst[%off] [16] [1] : memref<?xf32> to memref<16xf32, strided<[1], offset: ?>>
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%src : memref<16xf32>) outs(%d : memref<16xf32, strided<[1], offset: ?>>) atomic = <none>
  return
}
// CHECK-LABEL: func.func @allowed
// CHECK: scf.for
// CHECK: hivm.hir.set_flag
// CHECK: hivm.hir.store
// CHECK: } {autoblockify.subloop}

// -----

// A constant count above the physical one is blockified; in ceildiv mode a
// multiple of the physical count needs no guard (no round runs past it).
func.func @constant_multiple(%out: memref<64xi32>) attributes {hacc.entry} {
  %n = arith.constant 12 : i32
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}
// CHECK-LABEL: func.func @constant_multiple
// CHECK: scf.for
// CEIL-LABEL: func.func @constant_multiple
// CEIL: %[[R:.*]] = arith.ceildivsi
// CEIL: scf.for %{{.*}} = %{{.*}} to %[[R]]
// CEIL-NOT: scf.if
// CEIL: } {autoblockify.subloop}

// -----

func.func @constant_not_multiple(%out: memref<64xi32>) attributes {hacc.entry} {
  %n = arith.constant 13 : i32
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}
// CEIL-LABEL: func.func @constant_not_multiple
// CEIL: arith.cmpi slt
// CEIL-NEXT: scf.if
