// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// Every HIVM op in its custom syntax, each optional clause present and
// absent: printing gives back exactly the input.
module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @elementwise(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x1xf32>, %arg3: f32, %arg4: tensor<4x8xi1>, %arg5: tensor<4x8xi32>, %arg6: memref<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = hivm.hir.vadd ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = hivm.hir.vsub ins(%1, %arg2 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%0 : tensor<4x8xf32>) broadcast = [1] -> tensor<4x8xf32>
    %3 = hivm.hir.vmul ins(%2, %arg3 : tensor<4x8xf32>, f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = hivm.hir.vdiv {vector_producer_to_fuse_0} ins(%3, %arg3 : tensor<4x8xf32>, f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = hivm.hir.vmax ins(%4, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = hivm.hir.vmin ins(%5, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = hivm.hir.vexp ins(%6 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %8 = hivm.hir.vln ins(%7 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = hivm.hir.vabs ins(%8 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = hivm.hir.vsqrt ins(%9 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %11 = hivm.hir.vrsqrt ins(%10 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %12 = hivm.hir.vrec ins(%11 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = hivm.hir.vrelu ins(%12 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %14 = hivm.hir.vtanh ins(%13 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %15 = hivm.hir.vsel ins(%arg4, %14, %arg3 : tensor<4x8xi1>, tensor<4x8xf32>, f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %16 = tensor.empty() : tensor<4x8xi1>
    %17 = hivm.hir.vcmp ins(%15, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%16 : tensor<4x8xi1>) compare_mode = <gt> -> tensor<4x8xi1>
    %18 = hivm.hir.vcmp ins(%arg5, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%16 : tensor<4x8xi1>) -> tensor<4x8xi1>
    %19 = hivm.hir.vand ins(%17, %18 : tensor<4x8xi1>, tensor<4x8xi1>) outs(%16 : tensor<4x8xi1>) -> tensor<4x8xi1>
    %20 = tensor.empty() : tensor<4x8xi32>
    %21 = hivm.hir.vor ins(%arg5, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    %22 = hivm.hir.vxor ins(%21, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    %23 = hivm.hir.vnot ins(%22 : tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    %24 = hivm.hir.vshl ins(%23, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    %25 = hivm.hir.vshr ins(%24, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    hivm.hir.vadd ins(%arg6, %arg6 : memref<4x8xf32>, memref<4x8xf32>) outs(%arg6 : memref<4x8xf32>)
    %26 = hivm.hir.vpow ins(%14, %14 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %27 = hivm.hir.vmod ins(%25, %arg5 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%20 : tensor<4x8xi32>) -> tensor<4x8xi32>
    %28 = hivm.hir.vsin ins(%26 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %29 = hivm.hir.vcos ins(%28 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %30 = hivm.hir.verf ins(%29 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %15 : tensor<4x8xf32>
  }
  func.func @shape_ops(%arg0: tensor<1x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<32x16x1xi32>, %arg3: f32, %arg4: tensor<4x8xi1>) -> tensor<8x4xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = hivm.hir.vbrc ins(%arg0 : tensor<1x8xf32>) outs(%0 : tensor<4x8xf32>) broadcast_dims = [0] -> tensor<4x8xf32>
    %2 = hivm.hir.vbrc ins(%arg3 : f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = tensor.empty() : tensor<4x1xf32>
    %4 = hivm.hir.vreduce <sum> ins(%1 : tensor<4x8xf32>) outs(%3 : tensor<4x1xf32>) reduce_dims = [1] -> tensor<4x1xf32>
    %5 = tensor.empty() : tensor<1x8xf32>
    %6 = hivm.hir.vreduce {vector_producer_to_fuse_0} <max> ins(%2 : tensor<4x8xf32>) outs(%5 : tensor<1x8xf32>) unsigned_src = true reduce_dims = [0] -> tensor<1x8xf32>
    %7 = tensor.empty() : tensor<8x4xf32>
    %8 = hivm.hir.vtranspose ins(%arg1 : tensor<4x8xf32>) outs(%7 : tensor<8x4xf32>) permutation = [1, 0] -> tensor<8x4xf32>
    %9 = tensor.empty() : tensor<32x16x2xi32>
    %10 = hivm.hir.vinterleave ins(%arg2, %arg2 : tensor<32x16x1xi32>, tensor<32x16x1xi32>) outs(%9 : tensor<32x16x2xi32>) interleave_channel_nums = 2 -> tensor<32x16x2xi32>
    %11 = tensor.empty() : tensor<4x8xf16>
    %12 = hivm.hir.vcast {enable_overflow = true, enable_saturate = false, hivm.unsigned_mode = #hivm.unsigned_mode<si2si>} ins(%1 : tensor<4x8xf32>) outs(%11 : tensor<4x8xf16>) -> tensor<4x8xf16>
    %13 = hivm.hir.vcast ins(%arg4 : tensor<4x8xi1>) outs(%0 : tensor<4x8xf32>) cast = <cast_unsigned> -> tensor<4x8xf32>
    %14 = hivm.hir.bitcast %1 : tensor<4x8xf32> -> tensor<4x8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %15 = tensor.empty() : tensor<128xi32>
    %16 = hivm.hir.varange offset[%c0] strides[%c1] outs(%15 : tensor<128xi32>) -> tensor<128xi32>
    %17 = hivm.hir.varange strides[%c1] outs(%15 : tensor<128xi32>) -> tensor<128xi32>
    return %8 : tensor<8x4xf32>
  }
  func.func @movement(%arg0: memref<?xf32>, %arg1: memref<16x16xf32, strided<[16, 1], offset: ?>>, %arg2: tensor<16x16xf32>, %arg3: memref<16x16xf16, #hivm.address_space<ub>>, %arg4: tensor<16x16xi64>, %arg5: tensor<16x16xi1>, %arg6: i1, %arg7: f32) -> tensor<16x16xf32> {
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() : memref<16x16xf32>
    hivm.hir.load ins(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%alloc : memref<16x16xf32>)
    hivm.hir.load ins(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%alloc : memref<16x16xf32>) left_padding_num = %c0 : index init_out_buffer = true
    hivm.hir.load ins(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%alloc : memref<16x16xf32>) pad_mode = <PadValue> pad_value = %arg7 : f32 left_padding_num = %c0 : index init_out_buffer = true init_condition = %arg6 : i1 eviction_policy = <EvictFirst> core_type = <VECTOR>
    hivm.hir.load ins(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%alloc : memref<16x16xf32>) may_implicit_transpose_with_last_axis = true
    %0 = tensor.empty() : tensor<16x16xf32>
    %1 = hivm.hir.load ins(%arg2 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) -> tensor<16x16xf32>
    hivm.hir.store ins(%1 : tensor<16x16xf32>) outs(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>)
    hivm.hir.store ins(%1 : tensor<16x16xf32>) outs(%arg1 : memref<16x16xf32, strided<[16, 1], offset: ?>>) {tiled_op}
    %2 = hivm.hir.store ins(%1 : tensor<16x16xf32>) outs(%arg2 : tensor<16x16xf32>) -> tensor<16x16xf32>
    hivm.hir.copy ins(%1 : tensor<16x16xf32>) outs(%alloc : memref<16x16xf32>) {"hivm.inserted-copy"}
    %3 = hivm.hir.copy ins(%1 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %4 = hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%3 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %alloc_0 = memref.alloc() : memref<1x1x16x16xf16>
    hivm.hir.nd2nz {dst_continuous} ins(%arg3 : memref<16x16xf16, #hivm.address_space<ub>>) outs(%alloc_0 : memref<1x1x16x16xf16>)
    %5 = tensor.empty() : tensor<16x16xf32>
    %6 = hivm.hir.indirect_load ins(%arg0 : memref<?xf32>, %arg4 : tensor<16x16xi64>, %arg5 : tensor<16x16xi1>, %4 : tensor<16x16xf32>) outs(%5 : tensor<16x16xf32>) {hivm.vf_mode = #hivm.vf_mode<SIMT>} -> tensor<16x16xf32>
    %7 = hivm.hir.indirect_load ins(%arg0 : memref<?xf32>, %arg4 : tensor<16x16xi64>) outs(%5 : tensor<16x16xf32>) -> tensor<16x16xf32>
    hivm.hir.indirect_store ins(%6 : tensor<16x16xf32>, %arg4 : tensor<16x16xi64>, %arg5 : tensor<16x16xi1>) outs(%arg0 : memref<?xf32>)
    %c1_i32 = arith.constant 1 : i32
    %8 = hivm.hir.gather_load ins(%arg0 : memref<?xf32>, %arg4 : tensor<16x16xi64>, %c1_i32 : i32) outs(%5 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %c4_i64 = arith.constant 4 : i64
    %c3_i64 = arith.constant 3 : i64
    %c16_i64 = arith.constant 16 : i64
    %9 = tensor.empty() : tensor<16xf32>
    %10 = hivm.hir.stride_load ins(%arg0 : memref<?xf32>) outs(%9 : tensor<16xf32>) offset(%c4_i64 : i64) other(%arg7 : f32) strides([%c3_i64 : i64]) numels([%c16_i64 : i64]) {hivm.vf_mode = #hivm.vf_mode<SIMT>} -> tensor<16xf32>
    %11 = hivm.hir.stride_load ins(%arg0 : memref<?xf32>) outs(%9 : tensor<16xf32>) offset(%c4_i64 : i64) strides([%c3_i64, %c3_i64 : i64, i64]) numels([%c16_i64, %c16_i64 : i64, i64]) -> tensor<16xf32>
    return %8 : tensor<16x16xf32>
  }
  func.func @cube(%arg0: tensor<16x16xf16>, %arg1: tensor<16x16xf16>, %arg2: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %true = arith.constant true
    %c16 = arith.constant 16 : index
    %0 = tensor.empty() : tensor<16x16xf32>
    %1 = hivm.hir.mmadL1 ins(%arg0, %arg1, %true, %c16, %c16, %c16 : tensor<16x16xf16>, tensor<16x16xf16>, i1, index, index, index) outs(%0 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %2 = hivm.hir.mmadL1 {already_set_real_mkn, fixpipe_already_inserted = true} ins(%arg0, %arg1, %true, %c16, %c16, %c16, %arg2 : tensor<16x16xf16>, tensor<16x16xf16>, i1, index, index, index, tensor<16x16xf32>) outs(%1 : tensor<16x16xf32>) -> tensor<16x16xf32>
    return %2 : tensor<16x16xf32>
  }
  func.func @control(%arg0: i64, %arg1: i64, %arg2: tensor<16xf32>, %arg3: memref<1xi16>) {
    hivm.hir.set_ffts_base_addr %arg0
    hivm.hir.set_mask_norm
    hivm.hir.set_ctrl false at ctrl[60]
    hivm.hir.set_ctrl true at ctrl[48]
    %0 = hivm.hir.get_block_idx -> i64
    %1 = hivm.hir.get_block_num -> i64
    %2 = hivm.hir.get_sub_block_idx -> i64
    %3 = hivm.hir.get_sub_block_num -> i64
    hivm.hir.anchor {id = 0 : i64}
    hivm.hir.debug {debugtype = "print", hex = false, prefix = " qk: ", tcoretype = #hivm.tcore_type<VECTOR>} %arg2 : tensor<16xf32>
    hivm.hir.custom {symbol = "barrier_all"} "dist.barrier_all"
    %4 = hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_S>} "dist.wait" ins(%arg3, %arg0 : memref<1xi16>, i64) -> i32
    hivm.hir.custom "dist.put" ins(%arg2 : tensor<16xf32>) outs(%arg3 : memref<1xi16>)
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_FIX>] flag = 0
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = %arg1
    hivm.hir.sync_block
    hivm.hir.sync_block[<ALL_CUBE>, 3 : i16] ffts_base_addr = %arg0 tcube_pipe = <PIPE_FIX>
    hivm.hir.sync_block[<ALL_SUB_VECTOR>, 15] tvector_pipe = <PIPE_MTE2> vector_pipe = <PIPE_MTE3>
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %arg1]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %5 = hivm.hir.create_sync_block_lock : memref<1xi64>
    hivm.hir.sync_block_lock lock_var(%5 : memref<1xi64>)
    hivm.hir.sync_block_unlock lock_var(%5 : memref<1xi64>)
    return
  }
}
