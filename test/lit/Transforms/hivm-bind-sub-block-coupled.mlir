// hivm-bind-sub-block on a tightly coupled UB buffer (the cube writes it
// through a fixpipe, the vector half reads it as a tensor), and on
// hivm.hir.debug: as bishengir's, the buffer is narrowed to the sub-block's
// half and its mark names the dim ({hivm.tiling_dim = d : index, tiledAlloc},
// which the cube side reads to write each half), and a debug print of a value
// that holds the tiled axis prints the half ({tiled_op}).
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block | FileCheck %s

// CHECK-LABEL: func.func @coupled_read(
// CHECK:         scf.for %[[SB:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply #{{.*}}()[%[[SB]]]
// CHECK:           %[[UB:.*]] = memref.alloc() : memref<32x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:      annotation.mark %[[UB]] {effects = ["write", "read"], hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>, hivm.tiling_dim = 0 : index, tiledAlloc} : memref<32x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:      annotation.mark %[[UB]] {hivm.multi_buffer = 2 : i32} : memref<32x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:      %[[CAST:.*]] = memref.memory_space_cast %[[UB]] : memref<32x16xf32, #hivm.address_space<ub>> to memref<32x16xf32>
// CHECK-NEXT:      %[[T:.*]] = bufferization.to_tensor %[[CAST]] restrict writable : memref<32x16xf32>
// CHECK-NOT:       tensor.extract_slice
// CHECK:           %[[E:.*]] = hivm.hir.vexp ins(%[[T]] : tensor<32x16xf32>)
// CHECK-NEXT:      hivm.hir.debug {debugtype = "print", hex = false, prefix = " e: ", tcoretype = #hivm.tcore_type<VECTOR>, tiled_op} %[[E]] : tensor<32x16xf32>
// CHECK-NEXT:      hivm.hir.debug {debugtype = "print", hex = false, prefix = " s: ", tcoretype = #hivm.tcore_type<VECTOR>} %{{.*}} : tensor<1xf32>
// CHECK:           hivm.hir.store ins(%{{.*}} : tensor<32x16xf32>) outs(%{{.*}} : memref<32x16xf32, strided<[16, 1], offset: ?>>) {tiled_op}
// CHECK:         } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
func.func @coupled_read(%out: memref<64x16xf32>, %s: tensor<1xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %ub = memref.alloc() : memref<64x16xf32, #hivm.address_space<ub>>
  annotation.mark %ub {effects = ["write", "read"], hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>} : memref<64x16xf32, #hivm.address_space<ub>>
  annotation.mark %ub {hivm.multi_buffer = 2 : i32} : memref<64x16xf32, #hivm.address_space<ub>>
  %cast = memref.memory_space_cast %ub : memref<64x16xf32, #hivm.address_space<ub>> to memref<64x16xf32>
  %t = bufferization.to_tensor %cast restrict writable : memref<64x16xf32>
  %e0 = tensor.empty() : tensor<64x16xf32>
  %e = hivm.hir.vexp ins(%t : tensor<64x16xf32>) outs(%e0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  hivm.hir.debug {debugtype = "print", hex = false, prefix = " e: ", tcoretype = #hivm.tcore_type<VECTOR>} %e : tensor<64x16xf32>
  hivm.hir.debug {debugtype = "print", hex = false, prefix = " s: ", tcoretype = #hivm.tcore_type<VECTOR>} %s : tensor<1xf32>
  %r = hivm.hir.vabs ins(%e : tensor<64x16xf32>) outs(%e0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  hivm.hir.store ins(%r : tensor<64x16xf32>) outs(%out : memref<64x16xf32>)
  return
}

// -----

// A buffer that is not tightly coupled, read through a cast with a mark on
// the alloc, is narrowed too and its marks move; only a tightly coupled
// buffer's mark gets the tiling dim.
// CHECK-LABEL: func.func @plain_read(
// CHECK:           %[[UB:.*]] = memref.alloc() : memref<8x64xf32, #hivm.address_space<ub>>
// CHECK-NEXT:      annotation.mark %[[UB]] {hivm.multi_buffer = 2 : i32} : memref<8x64xf32, #hivm.address_space<ub>>
// CHECK-NOT:       tiledAlloc
// CHECK:           hivm.hir.store ins(%{{.*}} : tensor<8x64xf32>) {{.*}} {tiled_op}
func.func @plain_read(%out: memref<16x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %ub = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  annotation.mark %ub {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
  %cast = memref.memory_space_cast %ub : memref<16x64xf32, #hivm.address_space<ub>> to memref<16x64xf32>
  %t = bufferization.to_tensor %cast restrict writable : memref<16x64xf32>
  %e0 = tensor.empty() : tensor<16x64xf32>
  %r = hivm.hir.vabs ins(%t : tensor<16x64xf32>) outs(%e0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  hivm.hir.store ins(%r : tensor<16x64xf32>) outs(%out : memref<16x64xf32>)
  return
}
