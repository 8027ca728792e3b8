// hivm-bubble-up-extract-slice through scf.for and scf.if.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s

// scf.for: the loop carries the slice (init, iter_arg, yielded value) and
// the body computes only it; other loop-carried values are untouched.
// CHECK-LABEL: func.func @for_carried(
// CHECK-SAME:    %[[A:.*]]: tensor<64x8xf32>, %[[B:.*]]: tensor<64x8xf32>, %[[O:.*]]: index)
// CHECK:         %[[INIT:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<16x8xf32>
// CHECK-NEXT:    %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[K:.*]] = %{{.*}}) -> (tensor<16x8xf32>, index) {
// CHECK-NEXT:      %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]], 0] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<16x8xf32>
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT:      %[[SUM:.*]] = hivm.hir.vadd ins(%[[ACC]], %[[SB]] : tensor<16x8xf32>, tensor<16x8xf32>) outs(%[[E]] : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:      %[[K1:.*]] = arith.addi %[[K]]
// CHECK-NEXT:      scf.yield %[[SUM]], %[[K1]] : tensor<16x8xf32>, index
// CHECK-NEXT:    } {keep_me}
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
// CHECK-NOT:     npuc.bubble_unslice
func.func @for_carried(%a: tensor<64x8xf32>, %b: tensor<64x8xf32>, %o: index) -> (tensor<16x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<64x8xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a, %k = %c0) -> (tensor<64x8xf32>, index) {
    %0 = hivm.hir.vadd ins(%acc, %b : tensor<64x8xf32>, tensor<64x8xf32>) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
    %k1 = arith.addi %k, %c1 : index
    scf.yield %0, %k1 : tensor<64x8xf32>, index
  } {keep_me}
  %s = tensor.extract_slice %r#0[%o, 0] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<16x8xf32>
  return %s, %r#1 : tensor<16x8xf32>, index
}

// -----
// The offset computed after the loop (from values available before it)
// moves in front of the loop.
// CHECK-LABEL: func.func @for_offset_after(
// CHECK-SAME:    %[[A:.*]]: tensor<64xf32>, %[[I:.*]]: index)
// CHECK:         %[[OFF:.*]] = affine.apply #{{.*}}()[%[[I]]]
// CHECK-NEXT:    %[[INIT:.*]] = tensor.extract_slice %[[A]][%[[OFF]]] [32] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<32xf32>) {
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:      hivm.hir.vexp ins(%[[ACC]] : tensor<32xf32>) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
func.func @for_offset_after(%a: tensor<64xf32>, %i: index) -> tensor<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %a) -> (tensor<64xf32>) {
    %0 = hivm.hir.vexp ins(%acc : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %0 : tensor<64xf32>
  }
  %o = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%i]
  %s = tensor.extract_slice %r[%o] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----
// scf.if: each branch yields the slice and computes only it.
// CHECK-LABEL: func.func @if_branches(
// CHECK-SAME:    %[[C:.*]]: i1, %[[A:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (tensor<8xf32>) {
// CHECK-NEXT:      %[[SA:.*]] = tensor.extract_slice %[[A]][8] [8] [1] {to_be_bubbled_slice}
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:      %[[ABS:.*]] = hivm.hir.vabs ins(%[[SA]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:      scf.yield %[[ABS]] : tensor<8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[SB:.*]] = tensor.extract_slice %[[B]][8] [8] [1] {to_be_bubbled_slice}
// CHECK-NEXT:      scf.yield %[[SB]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @if_branches(%c: i1, %a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = scf.if %c -> (tensor<16xf32>) {
    %0 = hivm.hir.vabs ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %0 : tensor<16xf32>
  } else {
    scf.yield %b : tensor<16xf32>
  }
  %s = tensor.extract_slice %r[8] [8] [1] {to_be_bubbled_slice} : tensor<16xf32> to tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----
// An scf.if result also used whole: the slice becomes an extra result.
// CHECK-LABEL: func.func @if_extra_result(
// CHECK-SAME:    %[[C:.*]]: i1, %[[A:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[C]] -> (tensor<16xf32>, tensor<8xf32>) {
// CHECK-NEXT:      %[[SA:.*]] = tensor.extract_slice %[[A]][0] [8] [1] {to_be_bubbled_slice}
// CHECK-NEXT:      scf.yield %[[A]], %[[SA]] : tensor<16xf32>, tensor<8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[SB:.*]] = tensor.extract_slice %[[B]][0] [8] [1] {to_be_bubbled_slice}
// CHECK-NEXT:      scf.yield %[[B]], %[[SB]] : tensor<16xf32>, tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @if_extra_result(%c: i1, %a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<8xf32>) {
  %r = scf.if %c -> (tensor<16xf32>) {
    scf.yield %a : tensor<16xf32>
  } else {
    scf.yield %b : tensor<16xf32>
  }
  %s = tensor.extract_slice %r[0] [8] [1] {to_be_bubbled_slice} : tensor<16xf32> to tensor<8xf32>
  return %r, %s : tensor<16xf32>, tensor<8xf32>
}

// -----
// The sub-block loop of a kernel: the slice before the store moves up to
// the loads, which read only their half. The ops shared one empty init
// outside the loop: they share its smaller replacement, made there.
// CHECK-LABEL: func.func @sub_block_loop(
// CHECK-SAME:    %[[X:.*]]: memref<64x16xf32>, %[[Y:.*]]: memref<64x16xf32>, %[[OUT:.*]]: memref<64x16xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<32x16xf32>
// CHECK-NEXT:    scf.for %[[SB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[O:.*]] = affine.apply #{{.*}}()[%[[SB]]]
// CHECK-NEXT:      %[[VX:.*]] = memref.subview %[[X]][%[[O]], 0] [32, 16] [1, 1]
// CHECK-NEXT:      %[[LX:.*]] = hivm.hir.load ins(%[[VX]] : memref<32x16xf32, strided<[16, 1], offset: ?>>) outs(%[[E]] : tensor<32x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:      %[[VY:.*]] = memref.subview %[[Y]][%[[O]], 0] [32, 16] [1, 1]
// CHECK-NEXT:      %[[LY:.*]] = hivm.hir.load ins(%[[VY]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:      %[[SUM:.*]] = hivm.hir.vadd ins(%[[LX]], %[[LY]] : tensor<32x16xf32>, tensor<32x16xf32>) outs(%[[E]] : tensor<32x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:      %[[VO:.*]] = memref.subview %[[OUT]][%[[O]], 0] [32, 16] [1, 1]
// CHECK-NEXT:      hivm.hir.store ins(%[[SUM]] : tensor<32x16xf32>) outs(%[[VO]] : {{.*}})
// CHECK-NEXT:    } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
// CHECK-NOT:     to_be_bubbled_slice
func.func @sub_block_loop(%x: memref<64x16xf32>, %y: memref<64x16xf32>, %out: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<64x16xf32>
  scf.for %sb = %c0 to %c2 step %c1 {
    %o = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%sb]
    %a = hivm.hir.load ins(%x : memref<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
    %b = hivm.hir.load ins(%y : memref<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
    %0 = hivm.hir.vadd ins(%a, %b : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
    %s = tensor.extract_slice %0[%o, 0] [32, 16] [1, 1] {to_be_bubbled_slice} : tensor<64x16xf32> to tensor<32x16xf32>
    %v = memref.subview %out[%o, 0] [32, 16] [1, 1] : memref<64x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
    hivm.hir.store ins(%s : tensor<32x16xf32>) outs(%v : memref<32x16xf32, strided<[16, 1], offset: ?>>)
  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
  return
}

// -----
// A loop over 8 tiles of 64 of its carried tensor, computed elementwise:
// the slice of 256 becomes the same loop over 8 tiles of 32 of the slice.
// CHECK: #[[TILE:.*]] = affine_map<()[s0] -> (s0 * 32)>
// CHECK-LABEL: func.func @for_tiles(
// CHECK-SAME:    %[[A:.*]]: tensor<512xf32>, %[[O:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.extract_slice %[[A]][%[[O]]] [256] [1] {to_be_bubbled_slice} : tensor<512xf32> to tensor<256xf32>
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<256xf32>) {
// CHECK-NEXT:      %[[T:.*]] = affine.apply #[[TILE]]()[%[[I]]]
// CHECK-NEXT:      %[[TILE_V:.*]] = tensor.extract_slice %[[ACC]][%[[T]]] [32] [1] : tensor<256xf32> to tensor<32xf32>
// CHECK-NEXT:      %[[X:.*]] = hivm.hir.vexp ins(%[[TILE_V]] : tensor<32xf32>) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT:      %[[M:.*]] = hivm.hir.vmul ins(%[[X]], %[[TILE_V]] : tensor<32xf32>, tensor<32xf32>) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT:      %[[NEW:.*]] = tensor.insert_slice %[[M]] into %[[ACC]][%[[T]]] [32] [1] : tensor<32xf32> into tensor<256xf32>
// CHECK-NEXT:      scf.yield %[[NEW]] : tensor<256xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     npuc.bubble_unslice
func.func @for_tiles(%a: tensor<512xf32>, %o: index) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %a) -> (tensor<512xf32>) {
    %t = affine.apply affine_map<()[s0] -> (s0 * 64)>()[%i]
    %tile = tensor.extract_slice %acc[%t] [64] [1] : tensor<512xf32> to tensor<64xf32>
    %x = hivm.hir.vexp ins(%tile : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %m = hivm.hir.vmul ins(%x, %tile : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %ins = tensor.insert_slice %m into %acc[%t] [64] [1] : tensor<64xf32> into tensor<512xf32>
    scf.yield %ins : tensor<512xf32>
  }
  %s = tensor.extract_slice %r[%o] [256] [1] {to_be_bubbled_slice} : tensor<512xf32> to tensor<256xf32>
  return %s : tensor<256xf32>
}

// -----
// scf.while: the loop carries the slice (init, both region arguments, the
// condition's argument and the yielded value); the before region computes
// on the carried value too (its slice bubbles through it), the counter is
// untouched. The ops of both regions shared one empty init: they share its
// smaller replacement.
// CHECK-LABEL: func.func @while_carried(
// CHECK-SAME:    %[[A:.*]]: tensor<64x8xf32>, %[[O:.*]]: index, %[[N:.*]]: i32)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<16x8xf32>
// CHECK-NEXT:    %[[R:.*]]:2 = scf.while (%[[ACC:.*]] = %[[INIT]], %[[K:.*]] = %{{.*}}) : (tensor<16x8xf32>, i32) -> (tensor<16x8xf32>, i32) {
// CHECK-NEXT:      %[[GO:.*]] = arith.cmpi slt, %[[K]], %[[N]] : i32
// CHECK-NEXT:      %[[ABS:.*]] = hivm.hir.vabs ins(%[[ACC]] : tensor<16x8xf32>) outs(%[[E]] : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[ABS]], %[[K]] : tensor<16x8xf32>, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<16x8xf32>, %[[J:.*]]: i32):
// CHECK-NEXT:      %[[EXP:.*]] = hivm.hir.vexp ins(%[[X]] : tensor<16x8xf32>) outs(%[[E]] : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:      %[[J1:.*]] = arith.addi %[[J]]
// CHECK-NEXT:      scf.yield %[[EXP]], %[[J1]] : tensor<16x8xf32>, i32
// CHECK-NEXT:    } attributes {keep_me}
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
// CHECK-NOT:     npuc.bubble_unslice
func.func @while_carried(%a: tensor<64x8xf32>, %o: index, %n: i32) -> (tensor<16x8xf32>, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %e = tensor.empty() : tensor<64x8xf32>
  %r:2 = scf.while (%acc = %a, %k = %c0) : (tensor<64x8xf32>, i32) -> (tensor<64x8xf32>, i32) {
    %go = arith.cmpi slt, %k, %n : i32
    %abs = hivm.hir.vabs ins(%acc : tensor<64x8xf32>) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
    scf.condition(%go) %abs, %k : tensor<64x8xf32>, i32
  } do {
  ^bb0(%x: tensor<64x8xf32>, %j: i32):
    %0 = hivm.hir.vexp ins(%x : tensor<64x8xf32>) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %0, %j1 : tensor<64x8xf32>, i32
  } attributes {keep_me}
  %s = tensor.extract_slice %r#0[%o, 0] [16, 8] [1, 1] {to_be_bubbled_slice} : tensor<64x8xf32> to tensor<16x8xf32>
  return %s, %r#1 : tensor<16x8xf32>, i32
}
