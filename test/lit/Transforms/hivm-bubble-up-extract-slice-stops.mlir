// Where bubbling stops: block arguments keep their marked slice, empty
// tensors and loads absorb it; unmarked slices and functions without marks
// are left alone.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s

// A function argument: the marked slice stays.
// CHECK-LABEL: func.func @arg(
// CHECK-SAME:    %[[A:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
// CHECK-NEXT:    return %[[S]]
func.func @arg(%a: tensor<8xf32>) -> tensor<4xf32> {
  %1 = tensor.extract_slice %a[4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----
// A marked slice of a whole argument folds away (the greedy driver folds).
// CHECK-LABEL: func.func @arg_whole(
// CHECK-SAME:    %[[A:.*]]: tensor<8x4xf32>)
// CHECK-NEXT:    return %[[A]]
func.func @arg_whole(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %1 = tensor.extract_slice %a[0, 0] [8, 4] [1, 1] {to_be_bubbled_slice} : tensor<8x4xf32> to tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----
// A loop's iter_arg is a block argument too.
// CHECK-LABEL: func.func @iter_arg(
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<8xf32>) {
// CHECK-NEXT:      %[[S:.*]] = tensor.extract_slice %[[ACC]][4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
// CHECK-NEXT:      hivm.hir.store ins(%[[S]] : tensor<4xf32>)
// CHECK-NEXT:      hivm.hir.vexp ins(%[[ACC]] : tensor<8xf32>)
func.func @iter_arg(%a: tensor<8xf32>, %m: memref<4xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<8xf32>) {
    %1 = tensor.extract_slice %acc[4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
    hivm.hir.store ins(%1 : tensor<4xf32>) outs(%m : memref<4xf32>)
    %0 = hivm.hir.vexp ins(%acc : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----
// A load stops bubbling at memory: its source is narrowed with a subview
// (no marked slice of memory); its init, an argument, keeps a marked slice.
// Both ops read the argument: they share one slice, at the top.
// CHECK-LABEL: func.func @load_into_arg(
// CHECK-SAME:    %[[M:.*]]: memref<16xf32>, %[[I:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[SI:.*]] = tensor.extract_slice %[[I]][8] [8] [1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[M]][8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
// CHECK-NEXT:    %[[L:.*]] = hivm.hir.load ins(%[[V]] : memref<8xf32, strided<[1], offset: 8>>) outs(%[[SI]] : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    hivm.hir.vrelu ins(%[[L]] : tensor<8xf32>) outs(%[[SI]] : tensor<8xf32>) -> tensor<8xf32>
func.func @load_into_arg(%m: memref<16xf32>, %init: tensor<16xf32>) -> tensor<8xf32> {
  %0 = hivm.hir.load ins(%m : memref<16xf32>) outs(%init : tensor<16xf32>) -> tensor<16xf32>
  %1 = hivm.hir.vrelu ins(%0 : tensor<16xf32>) outs(%init : tensor<16xf32>) -> tensor<16xf32>
  %2 = tensor.extract_slice %1[8] [8] [1] {to_be_bubbled_slice} : tensor<16xf32> to tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----
// Unmarked slices stay where they are, and a function without marked
// slices is not touched at all (not even its duplicate constants).
// CHECK-LABEL: func.func @unmarked(
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[X:.*]] = hivm.hir.vexp ins(%{{.*}} : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    tensor.extract_slice %[[X]][4] [4] [1] : tensor<8xf32> to tensor<4xf32>
func.func @unmarked(%a: tensor<8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c0_0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = tensor.extract_slice %0[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}
