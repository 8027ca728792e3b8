// When the work cannot be split, hivm-bind-sub-block restores the function
// and falls back to 1:1: every store-like op runs on sub-block 0 only,
// guarded by `hivm.hir.get_sub_block_idx == 0`, and a remark at the op that
// caused it says why.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --hivm-bind-sub-block=emit-remarks=true | FileCheck %s
// A second run leaves the guarded functions alone ({limit_sub_block_id0} on
// the scf.if around a store), with no remark:
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block 2>/dev/null \
// RUN:   | npuc-opt --split-input-file --hivm-bind-sub-block 2>%t.second | FileCheck %s
// RUN: not grep . %t.second

// The seed's fallback example, when no axis can be halved (63 is odd): the
// computation stays whole, only the store is guarded. The guard's zero is
// at the top of the function, where MLIR's folder keeps constants (and
// bishengir's output has it).
// CHECK-LABEL: func.func @odd_size(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[E:.*]] = hivm.hir.vexp ins(%{{.*}} : tensor<63xf16>)
// CHECK:         %[[A:.*]] = hivm.hir.vabs ins(%[[E]] : tensor<63xf16>)
// CHECK:         %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// CHECK:         %[[IDX:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK:         %[[Z:.*]] = arith.cmpi eq, %[[IDX]], %[[C0]] : index
// CHECK:         scf.if %[[Z]] {
// CHECK-NEXT:      hivm.hir.store ins(%[[A]] : tensor<63xf16>) outs(%{{.*}} : memref<63xf16>)
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
func.func @odd_size(%src: tensor<63xf16>, %init: tensor<63xf16>, %output: memref<63xf16>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %t0 = hivm.hir.vexp ins(%src : tensor<63xf16>) outs(%init : tensor<63xf16>) -> tensor<63xf16>
  %t1 = hivm.hir.vabs ins(%t0 : tensor<63xf16>) outs(%init : tensor<63xf16>) -> tensor<63xf16>
  // expected-remark@+1 {{cannot split the work over two vector sub-blocks, falling back to 1:1 (stores on sub-block 0 only): no parallel axis to split in two: dim 0 of the stored value is odd}}
  hivm.hir.store ins(%t1 : tensor<63xf16>) outs(%output : memref<63xf16>)
  return
}

// -----

// CHECK-LABEL: func.func @dynamic_size(
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store ins(%{{.*}} : tensor<?xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
func.func @dynamic_size(%x: tensor<?xf32>, %out: memref<?xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  // expected-remark@+1 {{no parallel axis to split in two: dim 0 of the stored value is dynamic}}
  hivm.hir.store ins(%x : tensor<?xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// Every dim of the stored value is reduced on its way to a store (rows by
// one reduction, columns by the other): no axis is left.
// CHECK-LABEL: func.func @reduce_only(
// CHECK:         hivm.hir.vreduce <sum> ins(%{{.*}} : tensor<16x64xf32>) {{.*}} reduce_dims = [0]
// CHECK:         hivm.hir.vreduce <max> ins(%{{.*}} : tensor<16x64xf32>) {{.*}} reduce_dims = [1]
// CHECK:         } {limit_sub_block_id0}
// CHECK:         } {limit_sub_block_id0}
// CHECK:         } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
func.func @reduce_only(%x: tensor<16x64xf32>, %o: memref<16x64xf32>, %r0: memref<1x64xf32>, %r1: memref<16x1xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e0 = tensor.empty() : tensor<1x64xf32>
  %a = hivm.hir.vreduce <sum> ins(%x : tensor<16x64xf32>) outs(%e0 : tensor<1x64xf32>) reduce_dims = [0] -> tensor<1x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %b = hivm.hir.vreduce <max> ins(%x : tensor<16x64xf32>) outs(%e1 : tensor<16x1xf32>) reduce_dims = [1] -> tensor<16x1xf32>
  // expected-remark@+1 {{no parallel axis to split in two: dim 0 of the stored value is reduced}}
  hivm.hir.store ins(%x : tensor<16x64xf32>) outs(%o : memref<16x64xf32>)
  hivm.hir.store ins(%a : tensor<1x64xf32>) outs(%r0 : memref<1x64xf32>)
  hivm.hir.store ins(%b : tensor<16x1xf32>) outs(%r1 : memref<16x1xf32>)
  return
}

// -----

// Half of the only even dim is 4 floats, 16 bytes: less than one 32-byte
// DMA block.
// CHECK-LABEL: func.func @short_rows(
// CHECK:         } {limit_sub_block_id0}
func.func @short_rows(%x: tensor<1x1x1x8xf32>, %out: memref<1x1x1x8xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  // expected-remark@+1 {{no parallel axis to split in two: dim 3 of the stored value splits rows of less than 32 bytes}}
  hivm.hir.store ins(%x : tensor<1x1x1x8xf32>) outs(%out : memref<1x1x1x8xf32>)
  return
}

// -----

// The kernel updates its input in place: halves would race.
// CHECK-LABEL: func.func @in_place(
// CHECK:         } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
func.func @in_place(%x: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %buf = memref.alloc() : memref<64xf32>
  hivm.hir.load ins(%x : memref<64xf32>) outs(%buf : memref<64xf32>)
  %t = bufferization.to_tensor %buf restrict writable : memref<64xf32> to tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vabs ins(%t : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark@+1 {{the kernel stores to memory it also loads from (argument 0); the sub-blocks could overwrite what the other reads}}
  hivm.hir.store ins(%a : tensor<64xf32>) outs(%x : memref<64xf32>)
  return
}

// -----

// No pattern narrows arith.addf on tensors: the slice is stuck below it.
// The original function comes back (no half-sized op stays).
// CHECK-LABEL: func.func @unsupported_op(
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<64xf32>
// CHECK:         } {limit_sub_block_id0}
// CHECK-NOT:     tensor<32xf32>
func.func @unsupported_op(%x: tensor<64xf32>, %y: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vabs ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark@+1 {{cannot bubble the slice up through 'arith.addf'}}
  %s = arith.addf %a, %y : tensor<64xf32>
  hivm.hir.store ins(%s : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// One store can be halved, the other has an odd axis: no partial split.
// CHECK-LABEL: func.func @partial(
// CHECK:         } {limit_sub_block_id0}
// CHECK:         } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
func.func @partial(%x: tensor<64xf32>, %o1: memref<64xf32>, %y: tensor<63xf32>, %o2: memref<63xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  hivm.hir.store ins(%x : tensor<64xf32>) outs(%o1 : memref<64xf32>)
  // expected-remark@+1 {{this store cannot be cut along the axis chosen for the others}}
  hivm.hir.store ins(%y : tensor<63xf32>) outs(%o2 : memref<63xf32>)
  return
}

// -----

// A body of several blocks does not fit in the sub-block loop.
// CHECK-LABEL: func.func @branches(
// CHECK:         } {limit_sub_block_id0}
// expected-remark@+1 {{the function body is not one block ending in a return without values}}
func.func @branches(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  cf.br ^bb1
^bb1:
  hivm.hir.store ins(%x : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// A store with a result: the guard yields the result on sub-block 0 and
// the destination, unchanged, on the other.
// CHECK-LABEL: func.func @guarded_result(
// CHECK-SAME:      %[[WS:[^:]*]]: tensor<63xf32>)
// CHECK:         %[[R:.*]] = scf.if %{{.*}} -> (tensor<63xf32>) {
// CHECK-NEXT:      %[[S:.*]] = hivm.hir.store ins(%{{.*}} : tensor<63xf32>) outs(%[[WS]] : tensor<63xf32>) -> tensor<63xf32>
// CHECK-NEXT:      scf.yield %[[S]] : tensor<63xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[WS]] : tensor<63xf32>
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK:         annotation.mark %[[R]] : tensor<63xf32>
func.func @guarded_result(%x: tensor<63xf32>, %ws: tensor<63xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  // expected-remark@+1 {{dim 0 of the stored value is odd}}
  %w = hivm.hir.store ins(%x : tensor<63xf32>) outs(%ws : tensor<63xf32>) -> tensor<63xf32>
  annotation.mark %w : tensor<63xf32>
  return
}

// -----

// The loop body reads another part of the carried value than the one a
// sub-block would carry: the patterns leave a loop placeholder, and the
// function comes back exactly as it was (a whole 64-element loop).
// CHECK-LABEL: func.func @rotate(
// CHECK:         %[[R:.*]] = scf.for {{.*}} -> (tensor<64xf32>) {
// CHECK:           tensor.extract_slice %{{.*}}[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
// CHECK:           tensor.insert_slice %{{.*}} into %{{.*}}[32] [32] [1] : tensor<32xf32> into tensor<64xf32>
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store ins(%[[R]] : tensor<64xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK-NOT:     npuc.bubble_unslice
func.func @rotate(%init: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %h = tensor.extract_slice %acc[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
    %e = tensor.empty() : tensor<32xf32>
    %x = hivm.hir.vexp ins(%h : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    %n = tensor.insert_slice %x into %acc[32] [32] [1] : tensor<32xf32> into tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  }
  // expected-remark@+1 {{cannot bubble the slice up through a loop-carried value: the loop body slices the carried value differently}}
  hivm.hir.store ins(%r : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The same with scf.while: its body reads another part of the carried value
// than the one a sub-block would carry; the function comes back as it was.
// CHECK-LABEL: func.func @while_rotate(
// CHECK:         %[[R:.*]] = scf.while (%{{.*}} = %{{.*}}) : (tensor<64xf32>) -> tensor<64xf32> {
// CHECK:           tensor.insert_slice %{{.*}} into %{{.*}}[32] [32] [1] : tensor<32xf32> into tensor<64xf32>
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store ins(%[[R]] : tensor<64xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK-NOT:     npuc.bubble_unslice
func.func @while_rotate(%init: tensor<64xf32>, %out: memref<64xf32>, %go: i1) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %r = scf.while (%acc = %init) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%go) %acc : tensor<64xf32>
  } do {
  ^bb0(%a: tensor<64xf32>):
    %h = tensor.extract_slice %a[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
    %e = tensor.empty() : tensor<32xf32>
    %x = hivm.hir.vexp ins(%h : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    %n = tensor.insert_slice %x into %a[32] [32] [1] : tensor<32xf32> into tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  }
  // expected-remark@+1 {{cannot bubble the slice up through a loop-carried value: the loop body slices the carried value differently}}
  hivm.hir.store ins(%r : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// An empty tensor (a zero-size inner dim) passes the analyzer (64 rows,
// even; zero-byte rows), but MLIR rejects the half the tiling cuts: a
// static offset 0 into a dim of size 0 is out of bounds. The tiled
// function does not verify, so it comes back whole and 1:1, with MLIR's
// reason in the remark.
// CHECK-LABEL: func.func @empty_rows(
// CHECK:         %[[E:.*]] = hivm.hir.vexp ins(%{{.*}} : tensor<64x0xf32>) outs(%{{.*}} : tensor<64x0xf32>) -> tensor<64x0xf32>
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store ins(%[[E]] : tensor<64x0xf32>) outs(%{{.*}} : memref<64x0xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
// CHECK-NOT:     to_be_bubbled_slice
func.func @empty_rows(%x: tensor<64x0xf32>, %out: memref<64x0xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64x0xf32>
  %y = hivm.hir.vexp ins(%x : tensor<64x0xf32>) outs(%e : tensor<64x0xf32>) -> tensor<64x0xf32>
  // expected-remark@+1 {{falling back to 1:1 (stores on sub-block 0 only): the tiled function does not verify: offset 1 is out-of-bounds: 0 >= 0}}
  hivm.hir.store ins(%y : tensor<64x0xf32>) outs(%out : memref<64x0xf32>)
  return
}

// -----

// The store's chain alone would bubble for certain, but the function
// already holds a marked slice, which the bubble-up takes up too and which
// stops below math.sqrt: the pass must have kept its copy to come back to
// (not an internal error) and falls back.
// CHECK-LABEL: func.func @marked_elsewhere(
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store ins(%{{.*}} : tensor<64x64xf32>) outs(%{{.*}} : memref<64x64xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
// CHECK-NOT:     tiled_op
func.func @marked_elsewhere(%a: tensor<64x64xf32>, %out: memref<64x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  hivm.hir.store ins(%0 : tensor<64x64xf32>) outs(%out : memref<64x64xf32>)
  // expected-remark@+1 {{falling back to 1:1 (stores on sub-block 0 only): cannot bubble the slice up through 'math.sqrt'}}
  %s = math.sqrt %a : tensor<64x64xf32>
  %m = tensor.extract_slice %s[0, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : tensor<64x64xf32> to tensor<32x64xf32>
  annotation.mark %m {keep} : tensor<32x64xf32>
  return
}

// -----

// Guards share one zero: the constant already at the top of the function.
// CHECK-LABEL: func.func @zero_shared(
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : index
// CHECK-NOT:     arith.constant 0 : index
// CHECK:         arith.cmpi eq, %{{.*}}, %[[Z0]] : index
// CHECK-NOT:     arith.constant 0 : index
// CHECK:         arith.cmpi eq, %{{.*}}, %[[Z0]] : index
func.func @zero_shared(%x: tensor<63xf32>, %a: memref<63xf32>, %b: memref<63xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : index
  // expected-remark@+1 {{dim 0 of the stored value is odd}}
  hivm.hir.store ins(%x : tensor<63xf32>) outs(%a : memref<63xf32>)
  hivm.hir.store ins(%x : tensor<63xf32>) outs(%b : memref<63xf32>)
  return
}
