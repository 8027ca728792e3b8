// hivm-map-for-to-sub-block alone: the 2-iteration sub-block loop becomes
// its body, the induction variable read from hivm.hir.get_sub_block_idx.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --hivm-map-for-to-sub-block | FileCheck %s

// CHECK-LABEL: func.func @bind(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<64xf32>, %[[OUT:[^:]*]]: memref<64xf32>)
// CHECK-NOT:     scf.for
// CHECK:         %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// CHECK:         %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK:         %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[X]][%[[OFF]]] [32] [1]
// CHECK:         %[[V:.*]] = memref.subview %[[OUT]][%[[OFF]]] [32] [1]
// CHECK:         hivm.hir.store ins(%[[S]] : tensor<32xf32>) outs(%[[V]] : {{.*}})
// CHECK-NEXT:    return
func.func @bind(%x: tensor<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.for %sb = %c0 to %c2 step %c1 {
    %off = arith.muli %sb, %c32 : index
    %s = tensor.extract_slice %x[%off] [32] [1] : tensor<64xf32> to tensor<32xf32>
    %v = memref.subview %out[%off] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: ?>>
    hivm.hir.store ins(%s : tensor<32xf32>) outs(%v : memref<32xf32, strided<[1], offset: ?>>)
  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  return
}

// -----

// The body holds more ops than the loop's block: the body's block takes
// the place of the function's (the function's arguments move with it),
// and the ops around the loop keep their order around the body.
// CHECK-LABEL: func.func @long_body(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<64xf32>, %[[OUT:[^:]*]]: memref<64xf32>)
// CHECK-NOT:     scf.for
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[I]], %[[C32]] : index
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[X]][%[[OFF]]] [32] [1]
// CHECK-NEXT:    %[[E:.*]] = hivm.hir.vexp ins(%[[S]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    %[[A0:.*]] = hivm.hir.vabs ins(%[[E]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    %[[E1:.*]] = hivm.hir.vexp ins(%[[A0]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    %[[A:.*]] = hivm.hir.vabs ins(%[[E1]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[OUT]][%[[OFF]]] [32] [1]
// CHECK-NEXT:    hivm.hir.store ins(%[[A]] : tensor<32xf32>) outs(%[[V]] : {{.*}})
// CHECK-NEXT:    return
func.func @long_body(%x: tensor<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.for %sb = %c0 to %c2 step %c1 {
    %off = arith.muli %sb, %c32 : index
    %s = tensor.extract_slice %x[%off] [32] [1] : tensor<64xf32> to tensor<32xf32>
    %e = hivm.hir.vexp ins(%s : tensor<32xf32>) outs(%s : tensor<32xf32>) -> tensor<32xf32>
    %a0 = hivm.hir.vabs ins(%e : tensor<32xf32>) outs(%s : tensor<32xf32>) -> tensor<32xf32>
    %e1 = hivm.hir.vexp ins(%a0 : tensor<32xf32>) outs(%s : tensor<32xf32>) -> tensor<32xf32>
    %a = hivm.hir.vabs ins(%e1 : tensor<32xf32>) outs(%s : tensor<32xf32>) -> tensor<32xf32>
    %v = memref.subview %out[%off] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: ?>>
    hivm.hir.store ins(%a : tensor<32xf32>) outs(%v : memref<32xf32, strided<[1], offset: ?>>)
  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  return
}

// -----

// The same inside an outer loop whose body is the loop's block: its
// induction variable moves to the inner body's block, which takes its
// place.
// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK-NEXT:      %[[OFF:.*]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[T:.*]] = arith.muli %[[OFF]], %[[J]] : index
// CHECK-NEXT:      %[[U:.*]] = arith.addi %[[T]], %[[J]] : index
// CHECK-NEXT:      memref.store %[[U]], %{{.*}}[%[[OFF]]] : memref<8xindex>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @nested(%out: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %j = %c0 to %c4 step %c1 {
    scf.for %sb = %c0 to %c2 step %c1 {
      %off = arith.addi %sb, %j : index
      %t = arith.muli %off, %j : index
      %u = arith.addi %t, %j : index
      memref.store %u, %out[%off] : memref<8xindex>
    } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  }
  return
}

// -----

// Other loops stay: unmarked, or mapped to something else.
// CHECK-LABEL: func.func @other_loops(
// CHECK-NOT:     get_sub_block_idx
// CHECK:         scf.for
// CHECK:         scf.for
func.func @other_loops(%out: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    memref.store %i, %out[%i] : memref<2xindex>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    memref.store %i, %out[%i] : memref<2xindex>
  } {map_for_to_forall, mapping = [#hivm.block<x>]}
  return
}

// -----

func.func @wrong_bounds(%out: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{sub-block loop must run from 0 to 2 step 1 (one iteration per vector sub-block)}}
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %i, %out[%i] : memref<4xindex>
  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  return
}

// -----

func.func @with_results(%init: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{sub-block loop must not have results}}
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %init) -> (index) {
    %n = arith.addi %a, %i : index
    scf.yield %n : index
  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  return %r : index
}
