// What hivm-bind-sub-block does with marks others left: a store some
// partition pass already bound to a sub-block ({already_sub_block_bound})
// is not guarded again; a distributed custom op without results (a barrier)
// runs on sub-block 0 only, like a store, while those with results (a wait,
// a peer's pointer) stay on both; with enable-tile=false the cube function
// of a mix kernel loses its tiling_dim_mapping marks, the vector half no
// longer splitting. The pass says nothing in any of these.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --hivm-bind-sub-block='enable-tile=false' | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --hivm-bind-sub-block | FileCheck %s --check-prefix=TILE

// CHECK-LABEL: func.func @bound_store
// CHECK-NOT:     scf.if
// CHECK:         hivm.hir.store {{.*}}already_sub_block_bound
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.store
// CHECK:         } {limit_sub_block_id0}
func.func @bound_store(%a: memref<16xf32>, %b: memref<16xf32>)
    attributes {hivm.func_core_type = #hivm.func_core_type<AIV>,
                hivm.part_of_mix} {
  %m = memref.alloc() : memref<16xf32>
  %t = bufferization.to_tensor %m restrict writable : memref<16xf32>
  hivm.hir.store ins(%t : tensor<16xf32>) outs(%a : memref<16xf32>) {already_sub_block_bound}
  hivm.hir.store ins(%t : tensor<16xf32>) outs(%b : memref<16xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @barrier_only
// CHECK:         hivm.hir.get_sub_block_idx
// CHECK:         scf.if
// CHECK-NEXT:      hivm.hir.custom {{.*}}"dist.aclshmem_barrier_all"
// CHECK:         } {limit_sub_block_id0}
// TILE-LABEL:  func.func @barrier_only
// TILE:          scf.if
// TILE-NEXT:       hivm.hir.custom {{.*}}"dist.aclshmem_barrier_all"
// TILE:          } {limit_sub_block_id0}
func.func @barrier_only()
    attributes {hivm.func_core_type = #hivm.func_core_type<AIV>,
                hivm.part_of_mix} {
  hivm.hir.custom {hivm.is_distributed, symbol = "aclshmem_barrier_all"} "dist.aclshmem_barrier_all"
  return
}

// -----

// TILE-LABEL:  func.func @dataflow_only
// TILE-NOT:      get_sub_block_idx
// TILE-NOT:      scf.if
// TILE:          return
func.func @dataflow_only(%s: memref<1xi32>) -> i32
    attributes {hivm.func_core_type = #hivm.func_core_type<AIV>,
                hivm.part_of_mix} {
  %r = arith.constant 0 : i32
  %n = hivm.hir.custom {hivm.is_distributed, symbol = "aclshmem_n_pes"} "dist.aclshmem_n_pes" -> i32
  return %n : i32
}

// -----

// CHECK-LABEL: func.func @cube_half
// CHECK-NOT:     tiling_dim_mapping
// CHECK:         annotation.mark %{{.*}} {hivm.tiling_dim = 0 : index}
// CHECK-NOT:     tiling_dim_mapping
// CHECK:         return
// TILE-LABEL:  func.func @cube_half
// TILE:          annotation.mark %{{.*}} {tiling_dim_mapping = {"1" = 1 : index}}
// TILE:          annotation.mark %{{.*}} {hivm.tiling_dim = 0 : index, tiling_dim_mapping = {"0" = 1 : index}}
func.func @cube_half()
    attributes {hivm.func_core_type = #hivm.func_core_type<AIC>,
                hivm.part_of_mix} {
  %e = tensor.empty() : tensor<16x16xf16>
  annotation.mark %e {tiling_dim_mapping = {"1" = 1 : index}} : tensor<16x16xf16>
  annotation.mark %e {hivm.tiling_dim = 0 : index, tiling_dim_mapping = {"0" = 1 : index}} : tensor<16x16xf16>
  return
}
