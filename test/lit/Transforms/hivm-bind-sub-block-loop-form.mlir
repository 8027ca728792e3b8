// The sub-block loop hivm-bind-sub-block leaves (bishengir's form): the
// constants of the body move to the top of the function, one per value and
// type, the loop's bounds first and each other constant in front of those
// met before it (as MLIR's folder leaves them); the offsets are affine.apply
// of the induction variable at the top of the body; a store kept whole is
// guarded on the induction variable. hivm-map-for-to-sub-block then binds
// the loop: what npuc-compile's pipeline runs.
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block | FileCheck %s
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block --hivm-map-for-to-sub-block \
// RUN:   | FileCheck %s --check-prefix=BOUND

// CHECK: #[[$M32:.*]] = affine_map<()[s0] -> (s0 * 32)>
// CHECK-LABEL: func.func @constants(
// CHECK-NEXT:    %[[F:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[C1I:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %[[SB:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply #[[$M32]]()[%[[SB]]]
// CHECK-NOT:       arith.constant
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args
// CHECK:             arith.addi %{{.*}}, %[[C1I]] : i32
// CHECK:           hivm.hir.store {{.*}} {tiled_op}
// CHECK:           %[[Z:.*]] = arith.cmpi eq, %[[SB]], %[[C0]] : index
// CHECK-NEXT:      scf.if %[[Z]] {
// CHECK-NEXT:        hivm.hir.store ins(%{{.*}} : tensor<1xf32>)
// CHECK-NEXT:      } {limit_sub_block_id0}
// CHECK-NEXT:    } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
// CHECK-NEXT:    return
// BOUND-LABEL: func.func @constants(
// BOUND-NOT:     map_for_to_forall
// BOUND:         %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// BOUND-NEXT:    %[[SB:.*]] = arith.index_cast %[[ID]] : i64 to index
// BOUND-NEXT:    affine.apply #{{.*}}()[%[[SB]]]
// BOUND:         arith.cmpi eq, %[[SB]], %{{.*}} : index
// BOUND-NOT:     map_for_to_forall
func.func @constants(%x: tensor<64xf32>, %out: memref<64xf32>, %y: tensor<1xf32>, %flag: memref<1xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x, %n = %one) -> (tensor<64xf32>, i32) {
    %e = tensor.empty() : tensor<64xf32>
    %a = hivm.hir.vadd ins(%acc, %f : tensor<64xf32>, f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %m = arith.addi %n, %one : i32
    scf.yield %a, %m : tensor<64xf32>, i32
  }
  hivm.hir.store ins(%r#0 : tensor<64xf32>) outs(%out : memref<64xf32>)
  hivm.hir.store ins(%y : tensor<1xf32>) outs(%flag : memref<1xf32>)
  return
}
