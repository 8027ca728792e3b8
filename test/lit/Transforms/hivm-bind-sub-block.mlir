// hivm-bind-sub-block splits the AIV function of a mix kernel over its two
// vector sub-blocks: the dimension analyzer picks an axis, each store keeps
// its half (offset %sb * size/2, %sb the induction variable of the sub-block
// loop the pass leaves, as bishengir's does: hivm-map-for-to-sub-block binds
// it), and the slices bubble up to the function's inputs. Fallbacks:
// hivm-bind-sub-block-fallback.mlir.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --hivm-bind-sub-block | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --hivm-bind-sub-block=all-vector-kernels=true | FileCheck %s --check-prefix=ALL
// A second run leaves split functions alone ({tiled_op}, {limit_sub_block_id0}):
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block 2>/dev/null \
// RUN:   | npuc-opt --split-input-file --hivm-bind-sub-block | FileCheck %s

// The seed's example: exp then abs of 64 halves, each sub-block computes 32.
// CHECK: #[[$HALF32:.*]] = affine_map<()[s0] -> (s0 * 32)>
// CHECK-LABEL: func.func @seed_success(
// CHECK-SAME:      %[[SRC:[^:]*]]: tensor<64xf16>, %[[INIT:[^:]*]]: tensor<64xf16>, %[[OUT:[^:]*]]: memref<64xf16>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %[[SB:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply #[[$HALF32]]()[%[[SB]]]
// CHECK-NEXT:      %[[V:.*]] = memref.subview %[[OUT]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : memref<64xf16> to memref<32xf16, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[S:.*]] = tensor.extract_slice %[[SRC]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf16> to tensor<32xf16>
// CHECK-NEXT:      %[[I0:.*]] = tensor.extract_slice %[[INIT]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf16> to tensor<32xf16>
// CHECK-NEXT:      %[[E:.*]] = hivm.hir.vexp ins(%[[S]] : tensor<32xf16>) outs(%[[I0]] : tensor<32xf16>) -> tensor<32xf16>
// CHECK:           %[[A:.*]] = hivm.hir.vabs ins(%[[E]] : tensor<32xf16>) outs(%{{.*}} : tensor<32xf16>) -> tensor<32xf16>
// CHECK-NEXT:      hivm.hir.store ins(%[[A]] : tensor<32xf16>) outs(%[[V]] : memref<32xf16, strided<[1], offset: ?>>) {tiled_op}
// CHECK-NEXT:    } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
// CHECK-NOT:     get_sub_block_idx
// CHECK-NOT:     limit_sub_block_id0
// CHECK:         return
func.func @seed_success(%src: tensor<64xf16>, %init: tensor<64xf16>, %output: memref<64xf16>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %t0 = hivm.hir.vexp ins(%src : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
  %t1 = hivm.hir.vabs ins(%t0 : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
  hivm.hir.store ins(%t1 : tensor<64xf16>) outs(%output : memref<64xf16>)
  return
}

// -----

// Both dims of 16x64 can be halved: the outer one is.
// CHECK-LABEL: func.func @outer_axis(
// CHECK:         %[[OFF:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// CHECK:         memref.subview %{{.*}}[%[[OFF]], 0] [8, 64] [1, 1] {to_be_bubbled_slice} : memref<16x64xf32> to memref<8x64xf32, strided<[64, 1], offset: ?>>
// CHECK:         tensor.extract_slice %{{.*}}[%[[OFF]], 0] [8, 64] [1, 1] {to_be_bubbled_slice} : tensor<16x64xf32> to tensor<8x64xf32>
// CHECK:         hivm.hir.vexp ins(%{{.*}} : tensor<8x64xf32>)
// CHECK:         hivm.hir.store {{.*}} {tiled_op}
func.func @outer_axis(%x: tensor<16x64xf32>, %out: memref<16x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<16x64xf32>
  %a = hivm.hir.vexp ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  hivm.hir.store ins(%a : tensor<16x64xf32>) outs(%out : memref<16x64xf32>)
  return
}

// -----

// An odd outer dim: the inner one is halved.
// CHECK-LABEL: func.func @odd_outer(
// CHECK:         tensor.extract_slice %{{.*}}[0, %{{.*}}] [15, 32] [1, 1] {to_be_bubbled_slice} : tensor<15x64xf32> to tensor<15x32xf32>
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<15x32xf32>) {{.*}} {tiled_op}
func.func @odd_outer(%x: tensor<15x64xf32>, %out: memref<15x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<15x64xf32>
  %a = hivm.hir.vexp ins(%x : tensor<15x64xf32>) outs(%e : tensor<15x64xf32>) -> tensor<15x64xf32>
  hivm.hir.store ins(%a : tensor<15x64xf32>) outs(%out : memref<15x64xf32>)
  return
}

// -----

// A reduction over dim 0 feeds the store: dim 0 must stay whole, dim 1 is
// halved and the reduction runs on all 16 rows of its 32 columns.
// CHECK-LABEL: func.func @reduce_rows(
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}] [16, 32] [1, 1] {to_be_bubbled_slice} : tensor<16x64xf32> to tensor<16x32xf32>
// CHECK:         hivm.hir.vreduce <sum> ins(%[[S]] : tensor<16x32xf32>) outs(%{{.*}} : tensor<1x32xf32>) reduce_dims = [0] -> tensor<1x32xf32>
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<1x32xf32>) {{.*}} {tiled_op}
func.func @reduce_rows(%x: tensor<16x64xf32>, %out: memref<1x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<1x64xf32>
  %r = hivm.hir.vreduce <sum> ins(%x : tensor<16x64xf32>) outs(%e : tensor<1x64xf32>) reduce_dims = [0] -> tensor<1x64xf32>
  hivm.hir.store ins(%r : tensor<1x64xf32>) outs(%out : memref<1x64xf32>)
  return
}

// -----

// A transpose carries the axis across: the store's dim 0 is the input's
// dim 1, so the input is sliced on dim 1.
// CHECK-LABEL: func.func @transposed(
// CHECK:         %[[OFF:.*]] = affine.apply
// CHECK:         memref.subview %{{.*}}[%[[OFF]], 0] [32, 16] [1, 1]
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[0, %[[OFF]]] [16, 32] [1, 1] {to_be_bubbled_slice} : tensor<16x64xf32> to tensor<16x32xf32>
// CHECK:         hivm.hir.vtranspose ins(%[[S]] : tensor<16x32xf32>) outs(%{{.*}} : tensor<32x16xf32>) permutation = [1, 0] -> tensor<32x16xf32>
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<32x16xf32>) {{.*}} {tiled_op}
func.func @transposed(%x: tensor<16x64xf32>, %out: memref<64x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64x16xf32>
  %t = hivm.hir.vtranspose ins(%x : tensor<16x64xf32>) outs(%e : tensor<64x16xf32>) permutation = [1, 0] -> tensor<64x16xf32>
  hivm.hir.store ins(%t : tensor<64x16xf32>) outs(%out : memref<64x16xf32>)
  return
}

// -----

// The majority wins over the outer dim: three stores share the columns of
// %x (the row of %w is broadcast along them, %y is %x transposed), two
// share its rows; the columns are halved, inner dim of %x included.
// CHECK-LABEL: func.func @majority(
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<16x32xf32>) {{.*}} {tiled_op}
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<32x16xf32>) {{.*}} {tiled_op}
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<1x32xf32>) {{.*}} {tiled_op}
func.func @majority(%x: tensor<16x64xf32>, %w: tensor<1x64xf32>, %o1: memref<16x64xf32>, %o2: memref<64x16xf32>, %o3: memref<1x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<16x64xf32>
  %b = hivm.hir.vbrc ins(%w : tensor<1x64xf32>) outs(%e : tensor<16x64xf32>) broadcast_dims = [0] -> tensor<16x64xf32>
  %s = hivm.hir.vadd ins(%x, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  hivm.hir.store ins(%s : tensor<16x64xf32>) outs(%o1 : memref<16x64xf32>)
  %et = tensor.empty() : tensor<64x16xf32>
  %y = hivm.hir.vtranspose ins(%x : tensor<16x64xf32>) outs(%et : tensor<64x16xf32>) permutation = [1, 0] -> tensor<64x16xf32>
  hivm.hir.store ins(%y : tensor<64x16xf32>) outs(%o2 : memref<64x16xf32>)
  hivm.hir.store ins(%w : tensor<1x64xf32>) outs(%o3 : memref<1x64xf32>)
  return
}

// -----

// A broadcast joins the two axes of one value (an outer sum of a vector
// with itself): still split, with a remark; strict mode goes off.
// CHECK-LABEL: func.func @broadcast_across(
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<8x16xf32>) {{.*}} {tiled_op}
// expected-remark@+1 {{Selected tiling dim might have broadcast two different axis. Automatically disables strict mode.}}
func.func @broadcast_across(%v: tensor<16xf32>, %out: memref<16x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<16x16xf32>
  %col = tensor.expand_shape %v [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %a = hivm.hir.vbrc ins(%col : tensor<16x1xf32>) outs(%e : tensor<16x16xf32>) broadcast_dims = [1] -> tensor<16x16xf32>
  %row = tensor.expand_shape %v [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %b = hivm.hir.vbrc ins(%row : tensor<1x16xf32>) outs(%e : tensor<16x16xf32>) broadcast_dims = [0] -> tensor<16x16xf32>
  %s = hivm.hir.vadd ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  hivm.hir.store ins(%s : tensor<16x16xf32>) outs(%out : memref<16x16xf32>)
  return
}

// -----

// A loop-carried accumulator: the slice goes through the loop's result,
// iter_arg and yield, so the loop carries halves.
// CHECK-LABEL: func.func @loop_accumulate(
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32x16xf32>)
// CHECK:           hivm.hir.vadd ins(%{{.*}}, %{{.*}} : tensor<32x16xf32>, tensor<32x16xf32>)
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<32x16xf32>) {{.*}} {tiled_op}
func.func @loop_accumulate(%x: tensor<64x16xf32>, %init: tensor<64x16xf32>, %out: memref<64x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<64x16xf32>) {
    %e = tensor.empty() : tensor<64x16xf32>
    %s = hivm.hir.vadd ins(%acc, %x : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
    scf.yield %s : tensor<64x16xf32>
  }
  hivm.hir.store ins(%r : tensor<64x16xf32>) outs(%out : memref<64x16xf32>)
  return
}

// -----

// A store into a tensor (a workspace handed to the cube) writes its half;
// readers of the whole see the half inserted into the destination, marks
// mark the half (as bishengir's).
// CHECK-LABEL: func.func @store_into_tensor(
// CHECK-SAME:      %[[WS:[^:]*]]: tensor<64xf32>)
// CHECK:         %[[OFF:.*]] = affine.apply
// CHECK:         %[[D:.*]] = tensor.extract_slice %[[WS]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
// CHECK:         %[[H:.*]] = hivm.hir.store ins(%{{.*}} : tensor<32xf32>) outs(%[[D]] : tensor<32xf32>) {tiled_op} -> tensor<32xf32>
// CHECK:         %[[W:.*]] = tensor.insert_slice %[[H]] into %[[WS]][%[[OFF]]] [32] [1] : tensor<32xf32> into tensor<64xf32>
// CHECK:         annotation.mark %[[H]] : tensor<32xf32>
// CHECK:         tensor.extract %[[W]][%{{.*}}] : tensor<64xf32>
func.func @store_into_tensor(%x: tensor<64xf32>, %ws: tensor<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c63 = arith.constant 63 : index
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vabs ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %w = hivm.hir.store ins(%a : tensor<64xf32>) outs(%ws : tensor<64xf32>) -> tensor<64xf32>
  annotation.mark %w : tensor<64xf32>
  %last = tensor.extract %w[%c63] : tensor<64xf32>
  annotation.mark %last : f32
  return
}

// -----

// A masked tail: the first %n of 64 results are stored. Each sub-block
// computes its 32 and stores the part of [0, %n) inside them: both the value
// and the destination are halved, and the window in each half is
// [0, min(%n - min(off, %n), 32)) (bishengir's form for a window at 0).
// CHECK-LABEL: func.func @window(
// CHECK-SAME:      %[[OUT:[^:]*]]: memref<64xf32>, %[[N:[^:]*]]: index
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK:         scf.for
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// CHECK-NEXT:      %[[D:.*]] = memref.subview %[[OUT]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : memref<64xf32> to memref<32xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
// CHECK-NOT:       tensor<64xf32>
// CHECK:           %[[A:.*]] = hivm.hir.vabs ins(%[[S]] : tensor<32xf32>)
// CHECK-NEXT:      %[[BEFORE:.*]] = arith.minsi %[[OFF]], %[[N]] : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[N]], %[[BEFORE]] : index
// CHECK-NEXT:      %[[SIZE:.*]] = arith.minsi %[[LEFT]], %[[C32]] : index
// CHECK-NEXT:      %[[P:.*]] = tensor.extract_slice %[[A]][0] [%[[SIZE]]] [1] : tensor<32xf32> to tensor<?xf32>
// CHECK-NEXT:      %[[Q:.*]] = memref.subview %[[D]][0] [%[[SIZE]]] [1] : memref<32xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      hivm.hir.store ins(%[[P]] : tensor<?xf32>) outs(%[[Q]] : memref<?xf32, strided<[1], offset: ?>>) {tiled_op}
func.func @window(%x: tensor<64xf32>, %out: memref<64xf32>, %n: index) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vabs ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = tensor.extract_slice %a[0] [%n] [1] : tensor<64xf32> to tensor<?xf32>
  %v = memref.subview %out[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  hivm.hir.store ins(%s : tensor<?xf32>) outs(%v : memref<?xf32, strided<[1]>>)
  return
}

// -----

// A window read at %o and written at 0: each sub-block takes the part of
// [%o, %o+%n) inside its half of %x, lo = max(%o, off), and writes it at
// lo - %o of the whole destination (the windows sit at different places:
// npuc's own form, not bishengir's, whose destination part would ignore %o).
// CHECK-LABEL: func.func @shifted_window(
// CHECK-SAME:      %[[O:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[OFF:.*]] = affine.apply
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
// CHECK:         %[[A:.*]] = hivm.hir.vexp ins(%[[S]] : tensor<32xf32>)
// CHECK-NEXT:    %[[LO:.*]] = arith.maxsi %[[O]], %[[OFF]] : index
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[O]], %[[N]] : index
// CHECK-NEXT:    %[[HEND:.*]] = arith.addi %[[OFF]], %[[C32]] : index
// CHECK-NEXT:    %[[MIN:.*]] = arith.minsi %[[END]], %[[HEND]] : index
// CHECK-NEXT:    %[[HI:.*]] = arith.maxsi %[[LO]], %[[MIN]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT:    %[[AT:.*]] = arith.subi %[[LO]], %[[O]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.subi %[[LO]], %[[OFF]] : index
// CHECK-NEXT:    %[[FROM:.*]] = arith.minsi %[[IN]], %[[C32]] : index
// CHECK-NEXT:    %[[P:.*]] = tensor.extract_slice %[[A]][%[[FROM]]] [%[[SIZE]]] [1] : tensor<32xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[Q:.*]] = memref.subview %{{.*}}[%[[AT]]] [%[[SIZE]]] [1] : memref<64xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    hivm.hir.store ins(%[[P]] : tensor<?xf32>) outs(%[[Q]] : {{.*}}) {tiled_op}
func.func @shifted_window(%x: tensor<64xf32>, %out: memref<64xf32>, %o: index, %n: index) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vexp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = tensor.extract_slice %a[%o] [%n] [1] : tensor<64xf32> to tensor<?xf32>
  %v = memref.subview %out[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  hivm.hir.store ins(%s : tensor<?xf32>) outs(%v : memref<?xf32, strided<[1]>>)
  return
}

// -----

// A store of one element has nothing to split: only sub-block 0 runs it,
// the other store is split.
// CHECK-LABEL: func.func @one_element_store(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %[[SB:.*]] = %[[C0]]
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<32xf32>) {{.*}} {tiled_op}
// CHECK:         %[[Z:.*]] = arith.cmpi eq, %[[SB]], %[[C0]] : index
// CHECK:         scf.if %[[Z]] {
// CHECK-NEXT:      hivm.hir.store ins(%{{.*}} : tensor<1xf32>) outs(%{{.*}} : memref<1xf32>)
// CHECK-NEXT:    } {limit_sub_block_id0}
func.func @one_element_store(%x: tensor<64xf32>, %out: memref<64xf32>, %y: tensor<1xf32>, %flag: memref<1xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64xf32>
  %a = hivm.hir.vabs ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  hivm.hir.store ins(%a : tensor<64xf32>) outs(%out : memref<64xf32>)
  hivm.hir.store ins(%y : tensor<1xf32>) outs(%flag : memref<1xf32>)
  return
}

// -----

// Only AIV functions of mix kernels: pure AIV kernels (all-vector-kernels
// is off) and AIC functions are left alone.
// CHECK-LABEL: func.func @pure_aiv(
// CHECK-NOT:     scf.for
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : memref<64xf32>)
// CHECK-LABEL: func.func @cube_side(
// CHECK-NOT:     scf.for
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : memref<64xf32>)
// With all-vector-kernels, pure AIV kernels are split too.
// ALL-LABEL: func.func @pure_aiv(
// ALL:         hivm.hir.store ins(%{{.*}} : tensor<32xf32>) {{.*}} {tiled_op}
// ALL-LABEL: func.func @cube_side(
// ALL-NOT:     scf.for
func.func @pure_aiv(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  hivm.hir.store ins(%x : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}
func.func @cube_side(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
  hivm.hir.store ins(%x : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The module opts out.
// CHECK-LABEL: func.func @opted_out(
// CHECK-NOT:     scf.for
// CHECK-NOT:     limit_sub_block_id0
// CHECK:         return
module attributes {hivm.disable_auto_tile_and_bind_subblock} {
  func.func @opted_out(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    hivm.hir.store ins(%x : tensor<64xf32>) outs(%out : memref<64xf32>)
    return
  }
}

// -----

// A scf.while carrying the stored value: the loop carries the half (its
// init sliced in front of it), as bishengir's does.
// CHECK-LABEL: func.func @while_loop(
// ALL-LABEL: func.func @while_loop(
// CHECK-SAME:    %[[X:.*]]: tensor<64xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK:         scf.for %[[SB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply #{{.*}}()[%[[SB]]]
// CHECK-NEXT:      %[[DST:.*]] = memref.subview %[[OUT]][%[[OFF]]] [32] [1] {to_be_bubbled_slice}
// CHECK-NEXT:      %[[INIT:.*]] = tensor.extract_slice %[[X]][%[[OFF]]] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
// CHECK-NEXT:      %[[R:.*]]:2 = scf.while (%[[ACC:.*]] = %[[INIT]], %{{.*}} = %{{.*}}) : (tensor<32xf32>, i32) -> (tensor<32xf32>, i32) {
// CHECK:             scf.condition(%{{.*}}) %[[ACC]], %{{.*}} : tensor<32xf32>, i32
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^bb0(%[[A:.*]]: tensor<32xf32>, %{{.*}}: i32):
// CHECK-NEXT:        %[[E:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:        %[[LN:.*]] = hivm.hir.vln ins(%[[A]] : tensor<32xf32>) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
// CHECK:             scf.yield %[[LN]], %{{.*}} : tensor<32xf32>, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      hivm.hir.store ins(%[[R]]#0 : tensor<32xf32>) outs(%[[DST]] : memref<32xf32, strided<[1], offset: ?>>) {tiled_op}
// CHECK-NOT:     npuc.bubble_unslice
func.func @while_loop(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %e = tensor.empty() : tensor<64xf32>
  %r:2 = scf.while (%acc = %x, %k = %c0) : (tensor<64xf32>, i32) -> (tensor<64xf32>, i32) {
    %go = arith.cmpi slt, %k, %c4 : i32
    scf.condition(%go) %acc, %k : tensor<64xf32>, i32
  } do {
  ^bb0(%a: tensor<64xf32>, %j: i32):
    %0 = hivm.hir.vln ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %0, %j1 : tensor<64xf32>, i32
  }
  hivm.hir.store ins(%r#0 : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// A scf.while whose condition reads the carried value needs it whole: the
// loop runs whole on each sub-block and its result is sliced.
// CHECK-LABEL: func.func @while_condition_reads(
// CHECK:         scf.for %[[SB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[R:.*]] = scf.while (%{{.*}} = %{{.*}}) : (tensor<64xf32>) -> tensor<64xf32> {
// CHECK:           %[[H:.*]] = tensor.extract_slice %[[R]][%{{.*}}] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
// CHECK-NEXT:      hivm.hir.store ins(%[[H]] : tensor<32xf32>) {{.*}} {tiled_op}
// CHECK-NOT:     limit_sub_block_id0
func.func @while_condition_reads(%x: tensor<64xf32>, %out: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : index
  %lim = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.while (%acc = %x) : (tensor<64xf32>) -> tensor<64xf32> {
    %x0 = tensor.extract %acc[%c0] : tensor<64xf32>
    %go = arith.cmpf olt, %x0, %lim : f32
    scf.condition(%go) %acc : tensor<64xf32>
  } do {
  ^bb0(%a: tensor<64xf32>):
    %0 = hivm.hir.vexp ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %0 : tensor<64xf32>
  }
  hivm.hir.store ins(%r : tensor<64xf32>) outs(%out : memref<64xf32>)
  return
}
