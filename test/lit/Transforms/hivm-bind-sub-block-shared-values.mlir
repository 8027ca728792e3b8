// hivm-bind-sub-block on values several ops read. The slice of each reader
// climbs through the value's producer, which the bubble-up cannot shrink
// while others read it: each reader gets its own copy of the producer on
// the half, and the copies above it too. Equal copies are then merged, so
// each op of the original is computed once per sub-block, on its half.
// Only ops of our tables that compute a value and nothing else merge: not
// loads or stores, and not across blocks.
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block | FileCheck %s

// A diamond (%0 read by %1 twice and by %2; %1 by %2 and %4) and two
// stores of values that share ops: six ops, each once, on 32 rows.
// CHECK-LABEL: func.func @diamond(
// CHECK-SAME:    %[[X:[^:]*]]: memref<64x16xf32>, %[[Y:[^:]*]]: memref<64x16xf32>, %[[S:[^:]*]]: f32
// CHECK:         %[[A:.*]] = bufferization.to_tensor %{{.*}} : memref<32x16xf32> to tensor<32x16xf32>
// CHECK:         %[[B:.*]] = bufferization.to_tensor %{{.*}} : memref<32x16xf32> to tensor<32x16xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<32x16xf32>
// CHECK-NEXT:    %[[V0:.*]] = hivm.hir.vadd ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK-NEXT:    %[[V1:.*]] = hivm.hir.vmul ins(%[[V0]], %[[V0]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK-NEXT:    %[[V2:.*]] = hivm.hir.vsub ins(%[[V1]], %[[V0]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK-NEXT:    %[[V3:.*]] = hivm.hir.vmax ins(%[[V2]], %[[S]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK-NEXT:    %[[V4:.*]] = hivm.hir.vabs ins(%[[V1]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK-NEXT:    %[[V5:.*]] = hivm.hir.vmin ins(%[[V3]], %[[V4]] : {{.*}}) outs(%[[E]] : tensor<32x16xf32>)
// CHECK:         hivm.hir.store ins(%[[V5]] : tensor<32x16xf32>) {{.*}} {tiled_op}
// CHECK-NOT:     hivm.hir.v
// CHECK:         hivm.hir.store ins(%[[V2]] : tensor<32x16xf32>) {{.*}} {tiled_op}
// CHECK-NEXT:  } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
// CHECK-NEXT:    return
func.func @diamond(%x: memref<64x16xf32>, %y: memref<64x16xf32>, %s: f32, %o1: memref<64x16xf32>, %o2: memref<64x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %bx = memref.alloc() : memref<64x16xf32>
  hivm.hir.load ins(%x : memref<64x16xf32>) outs(%bx : memref<64x16xf32>)
  %a = bufferization.to_tensor %bx restrict writable : memref<64x16xf32> to tensor<64x16xf32>
  %by = memref.alloc() : memref<64x16xf32>
  hivm.hir.load ins(%y : memref<64x16xf32>) outs(%by : memref<64x16xf32>)
  %b = bufferization.to_tensor %by restrict writable : memref<64x16xf32> to tensor<64x16xf32>
  %e = tensor.empty() : tensor<64x16xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %1 = hivm.hir.vmul ins(%0, %0 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %2 = hivm.hir.vsub ins(%1, %0 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %3 = hivm.hir.vmax ins(%2, %s : tensor<64x16xf32>, f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %4 = hivm.hir.vabs ins(%1 : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %5 = hivm.hir.vmin ins(%3, %4 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  hivm.hir.store ins(%5 : tensor<64x16xf32>) outs(%o1 : memref<64x16xf32>)
  hivm.hir.store ins(%2 : tensor<64x16xf32>) outs(%o2 : memref<64x16xf32>)
  return
}

// -----

// Two loads of one tensor become one (a load from a tensor copies a
// value), and so do the adds that read them. Loads from memory (a memref
// operand) are not merged, nor are equal ops that differ in an attribute
// (an identity transpose).
// CHECK-LABEL: func.func @merged_or_not(
// CHECK:         %[[L:.*]] = hivm.hir.load ins(%{{.*}} : tensor<32x16xf32>)
// CHECK-NOT:     hivm.hir.load ins(%{{.*}} : tensor<32x16xf32>)
// CHECK:         %[[V:.*]] = hivm.hir.vadd ins(%[[L]], %[[L]] : tensor<32x16xf32>, tensor<32x16xf32>) outs(%{{.*}} : tensor<32x16xf32>) -> tensor<32x16xf32>
// CHECK:         %[[W:.*]] = hivm.hir.vadd ins(%[[L]], %[[L]] : tensor<32x16xf32>, tensor<32x16xf32>) outs(%{{.*}} : tensor<32x16xf32>) transpose = [0, 1] -> tensor<32x16xf32>
// CHECK-NOT:     hivm.hir.vadd
// CHECK:         hivm.hir.store ins(%[[V]] : tensor<32x16xf32>)
// CHECK:         hivm.hir.store ins(%[[W]] : tensor<32x16xf32>)
// CHECK:         hivm.hir.store ins(%[[V]] : tensor<32x16xf32>)
// CHECK-COUNT-2: hivm.hir.load ins(%{{.*}} : memref<32x16xf32, strided<[16, 1], offset: ?>>) outs(%{{.*}} : tensor<32x16xf32>)
func.func @merged_or_not(%t: tensor<64x16xf32>, %m: memref<64x16xf32>, %o1: memref<64x16xf32>, %o2: memref<64x16xf32>, %o3: memref<64x16xf32>, %o4: memref<64x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64x16xf32>
  %l0 = hivm.hir.load ins(%t : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %l1 = hivm.hir.load ins(%t : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %0 = hivm.hir.vadd ins(%l0, %l1 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %1 = hivm.hir.vadd ins(%l0, %l1 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) transpose = [0, 1] -> tensor<64x16xf32>
  hivm.hir.store ins(%0 : tensor<64x16xf32>) outs(%o1 : memref<64x16xf32>)
  hivm.hir.store ins(%1 : tensor<64x16xf32>) outs(%o2 : memref<64x16xf32>)
  hivm.hir.store ins(%0 : tensor<64x16xf32>) outs(%o3 : memref<64x16xf32>)
  %m0 = hivm.hir.load ins(%m : memref<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m1 = hivm.hir.load ins(%m : memref<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %2 = hivm.hir.vmax ins(%m0, %m1 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  hivm.hir.store ins(%2 : tensor<64x16xf32>) outs(%o4 : memref<64x16xf32>)
  return
}
