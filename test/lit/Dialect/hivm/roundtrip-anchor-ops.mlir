// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// The HIVM ops and clauses added from AscendNPU-IR's op definitions, in the
// custom syntax bishengir prints: printing gives back exactly the input.
module {
  func.func @unary_math(%arg0: tensor<16xf32>, %arg1: tensor<16xi32>, %arg2: memref<64xi8>) -> tensor<16xf32> {
    %0 = tensor.empty() : tensor<16xf32>
    %1 = tensor.empty() : tensor<16xi1>
    %2 = hivm.hir.vexp2 ins(%arg0 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %3 = hivm.hir.vlog2 ins(%2 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %4 = hivm.hir.vlog10 ins(%3 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %5 = hivm.hir.vlog1p ins(%4 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %6 = hivm.hir.vexpm1 ins(%5 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %7 = hivm.hir.vilogb ins(%6 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %8 = hivm.hir.vatan ins(%7 : tensor<16xf32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %9 = hivm.hir.vtan ins(%8 : tensor<16xf32>) outs(%0 : tensor<16xf32>) temp_buffer(%arg2 : memref<64xi8>) -> tensor<16xf32>
    %10 = hivm.hir.vldexp ins(%9, %arg1 : tensor<16xf32>, tensor<16xi32>) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
    %11 = hivm.hir.visinf ins(%10 : tensor<16xf32>) outs(%1 : tensor<16xi1>) -> tensor<16xi1>
    %12 = hivm.hir.visnan ins(%10 : tensor<16xf32>) outs(%1 : tensor<16xi1>) -> tensor<16xi1>
    return %10 : tensor<16xf32>
  }
  func.func @integer_ops(%arg0: memref<8xi32>, %arg1: memref<8xi32>, %arg2: memref<8xi32>, %arg3: memref<8xi16>, %arg4: memref<8xi16>, %arg5: memref<32xi8>, %arg6: memref<8xf16>, %arg7: memref<8xi1>) {
    hivm.hir.vmodui ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2 : memref<8xi32>)
    hivm.hir.vmulext ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2, %arg2 : memref<8xi32>, memref<8xi32>)
    hivm.hir.vmulextui ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2, %arg2 : memref<8xi32>, memref<8xi32>)
    hivm.hir.vmulextended ins(%arg3, %arg4 : memref<8xi16>, memref<8xi16>) outs(%arg3, %arg4 : memref<8xi16>, memref<8xi16>) temp_buffer(%arg5 : memref<32xi8>)
    hivm.hir.vmax ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2 : memref<8xi32>) is_signed = false
    hivm.hir.vdiv ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2 : memref<8xi32>) isSigned = false isHP = true
    hivm.hir.vmin ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2 : memref<8xi32>) temp_buffer(%arg5 : memref<32xi8>) is_signed = false
    hivm.hir.vshr ins(%arg0, %arg1 : memref<8xi32>, memref<8xi32>) outs(%arg2 : memref<8xi32>) round : true is_signed : false
    hivm.hir.vcmp ins(%arg6, %arg6 : memref<8xf16>, memref<8xf16>) outs(%arg7 : memref<8xi1>) compare_mode = <le> is_signed : false
    hivm.hir.vcast ins(%arg6 : memref<8xf16>) outs(%arg0 : memref<8xi32>) temp_buffer(%arg5 : memref<32xi8>) round_mode = <floor>
    return
  }
  func.func @shuffles(%arg0: tensor<4x8xf16>, %arg1: tensor<4x8xi32>, %arg2: memref<128xi8>, %arg3: index) -> tensor<4x8xf16> {
    %0 = tensor.empty() : tensor<4x8xf16>
    %1 = tensor.empty() : tensor<4x16xf16>
    %2 = tensor.empty() : tensor<4x1xf16>
    %3 = tensor.empty() : tensor<4x1xi32>
    %4 = hivm.hir.vcumsum ins(%arg0 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf16>) cum_dims = [1] reverse = false -> tensor<4x8xf16>
    %5 = hivm.hir.vcumprod ins(%4 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf16>) temp_buffer(%arg2 : memref<128xi8>) cum_dims = [0, 1] reverse = true -> tensor<4x8xf16>
    %6 = hivm.hir.vcummax {propagate_nan = false} ins(%5 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf16>) cum_dims = [1] reverse = false -> tensor<4x8xf16>
    %7 = hivm.hir.vcummin ins(%6 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf16>) cum_dims = [1] reverse = true -> tensor<4x8xf16>
    %8:2 = hivm.hir.vsort ins(%7 : tensor<4x8xf16>) outs(%0, %arg1 : tensor<4x8xf16>, tensor<4x8xi32>) descending = true sort_axis = 1 -> tensor<4x8xf16>, tensor<4x8xi32>
    %9:2 = hivm.hir.vdeinterleave ins(%1 : tensor<4x16xf16>) outs(%0, %0 : tensor<4x8xf16>, tensor<4x8xf16>) channel_num = 2 index_mode = <ALL_CHANNELS> -> tensor<4x8xf16>, tensor<4x8xf16>
    %10 = hivm.hir.vflip ins(%9#0 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf16>) flip_axis = 1 -> tensor<4x8xf16>
    %11 = hivm.hir.vconcat dim(1) ins(%10, %10 : tensor<4x8xf16>, tensor<4x8xf16>) outs(%1 : tensor<4x16xf16>) -> tensor<4x16xf16>
    %12 = hivm.hir.vgather ins(%10 : tensor<4x8xf16>) indices(%arg1 : tensor<4x8xi32>) outs(%0 : tensor<4x8xf16>) gather_axis = 1 -> tensor<4x8xf16>
    %13:2 = hivm.hir.vreduce <max_with_index_left> ins(%12 : tensor<4x8xf16>) outs(%2, %3 : tensor<4x1xf16>, tensor<4x1xi32>) temp_buffer(%arg2 : memref<128xi8>) reduce_dims = [1] -> tensor<4x1xf16>, tensor<4x1xi32>
    %14:2 = hivm.hir.vreduce <min_with_index_right> ins(%12 : tensor<4x8xf16>) indices(%arg1 : tensor<4x8xi32>) outs(%2, %3 : tensor<4x1xf16>, tensor<4x1xi32>) reduce_dims = [1] -> tensor<4x1xf16>, tensor<4x1xi32>
    %15 = hivm.hir.vbrc ins(%2 : tensor<4x1xf16>) outs(%0 : tensor<4x8xf16>) temp_buffer(%arg2 : memref<128xi8>) broadcast_dims = [1] -> tensor<4x8xf16>
    %16 = tensor.empty() : tensor<8x4xf16>
    %17 = hivm.hir.vtranspose ins(%15 : tensor<4x8xf16>) outs(%16 : tensor<8x4xf16>) temp_buffer(%arg2 : memref<128xi8>) permutation = [1, 0] disable_align = true -> tensor<8x4xf16>
    %18 = hivm.hir.vinterleave ins(%15, %15 : tensor<4x8xf16>, tensor<4x8xf16>) outs(%1 : tensor<4x16xf16>) interleave_channel_nums = 2 temp_buffer(%arg2 : memref<128xi8>) -> tensor<4x16xf16>
    %19 = hivm.hir.vgathermask ins(%15 : tensor<4x8xf16>) mask(%arg1 : tensor<4x8xi32>) outs(%0 : tensor<4x8xf16>) -> tensor<4x8xf16>
    return %19 : tensor<4x8xf16>
  }
  func.func @buffers(%arg0: i64, %arg1: i64, %arg2: index, %arg3: memref<?xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xi64>, %arg6: tensor<32xi1>, %arg7: i64, %arg8: i64, %arg9: i64) {
    %0 = hivm.hir.pointer_cast(%arg0) : memref<32xf32, #hivm.address_space<ub>>
    %1 = hivm.hir.pointer_cast(%arg0, %arg1) [%arg2] : memref<?xf32, #hivm.address_space<ub>>
    %2 = hivm.hir.local_load ins(%0 : memref<32xf32, #hivm.address_space<ub>>) -> tensor<32xf32>
    hivm.hir.local_store ins(%0 : memref<32xf32, #hivm.address_space<ub>>, %2 : tensor<32xf32>)
    hivm.hir.stride_store ins(%arg4 : tensor<32xf32>) outs(%arg3 : memref<?xf32>) offset(%arg7 : i64) strides([%arg8 : i64]) numels([%arg9 : i64])
    hivm.hir.scatter_store ins(%arg5 : tensor<32xi64>, %arg4 : tensor<32xf32>, %arg8 : i64, %arg6 : tensor<32xi1>) outs(%arg3 : memref<?xf32>) {cache = #hivm.cache_modifier<none>}
    hivm.hir.scatter_store ins(%arg5 : tensor<32xi64>, %arg4 : tensor<32xf32>, %arg8 : i64) outs(%arg3 : memref<?xf32>)
    %3 = hivm.hir.multi_buffer_counter -> i64
    hivm.hir.init_debug
    hivm.hir.finish_debug
    hivm.hir.set_atomic kind = <max>[type = f32]
    return
  }
  func.func @gathers(%arg0: memref<?xf16>, %arg1: memref<4x2xi64>, %arg2: memref<4x2x8xf16>, %arg3: memref<4x2xf16>, %arg4: i64, %arg5: i32, %arg6: i64, %arg7: i64) {
    hivm.hir.embedding_gather ins(%arg0 : memref<?xf16>, %arg1 : memref<4x2xi64>, %arg4 : i64, [%arg6, %arg6, %arg6 : i64, i64, i64], [%arg7, %arg7, %arg7 : i64, i64, i64]) outs(%arg2 : memref<4x2x8xf16>)
    hivm.hir.gatherT ins(%arg0 : memref<?xf16>, %arg1 : memref<4x2xi64>, %arg4 : i64, %arg5 : i32, [%arg7, %arg6 : i64, i64], [%arg5, %arg5 : i32, i32], [%arg6, %arg6 : i64, i64]) outs(%arg3 : memref<4x2xf16>)
    hivm.hir.scatterT ins(%arg0 : memref<?xf16>, %arg3 : memref<4x2xf16>, %arg1 : memref<4x2xi64>, %arg4 : i64, %arg5 : i32, [%arg7, %arg6 : i64, i64], [%arg5, %arg5 : i32, i32], [%arg6, %arg6 : i64, i64])
    hivm.hir.index_put ins(%arg0 : memref<?xf16>, %arg1 : memref<4x2xi64>, %arg3 : memref<4x2xf16>, %arg5 : i32, %arg4 : i64, [%arg7, %arg7 : i64, i64], [%arg6, %arg6 : i64, i64], [%arg7, %arg6 : i64, i64])
    return
  }
  func.func @moves(%arg0: memref<2x32xf32>, %arg1: memref<2x32xf32, #hivm.address_space<ub>>, %arg2: tensor<32x32xf32>, %arg3: memref<32x32xf32>, %arg4: f32, %arg5: i1, %arg6: memref<16x2xui8>, %arg7: memref<16x2xui8, #hivm.address_space<cbuf>>, %arg8: memref<1xf32>) {
    hivm.hir.nd2nz {dst_continuous} ins(%arg0 : memref<2x32xf32>) outs(%arg1 : memref<2x32xf32, #hivm.address_space<ub>>) init_out_buffer = true pad_value = %arg4 : f32
    hivm.hir.nz2nd ins(%arg0 : memref<2x32xf32>) outs(%arg1 : memref<2x32xf32, #hivm.address_space<ub>>)
    hivm.hir.l12ub ins(%arg0 : memref<2x32xf32>) outs(%arg1 : memref<2x32xf32, #hivm.address_space<ub>>)
    hivm.hir.load_scale ins(%arg6 : memref<16x2xui8>) outs(%arg7 : memref<16x2xui8, #hivm.address_space<cbuf>>) is_transposed = true
    hivm.hir.fixpipe {enable_nz2nd} ins(%arg2 : tensor<32x32xf32>) outs(%arg3 : memref<32x32xf32>) quant_scale = %arg4 : f32 dual_dst_mode = <ROW_SPLIT>
    hivm.hir.fixpipe ins(%arg2 : tensor<32x32xf32>) outs(%arg3 : memref<32x32xf32>) unit_flag_mode([#hivm.unit_flag<DISABLED>]) unit_flag_cond(%arg5)
    hivm.hir.load ins(%arg0 : memref<2x32xf32>) outs(%arg1 : memref<2x32xf32, #hivm.address_space<ub>>) {hint} eviction_policy = <EvictFirst> core_type = <VECTOR>
    hivm.hir.copy ins(%arg0 : memref<2x32xf32>) outs(%arg1 : memref<2x32xf32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %arg4 : f32
    hivm.hir.atomic_cas ins(%arg8, %arg8 : memref<1xf32>, memref<1xf32>) outs(%arg8 : memref<1xf32>)
    hivm.hir.atomic_xchg ins(%arg8 : memref<1xf32>) outs(%arg8 : memref<1xf32>)
    return
  }
  func.func @sync(%arg0: memref<1xi64>, %arg1: memref<?xi8>, %arg2: i64) {
    %0 = hivm.hir.create_sync_block_lock from %arg1 : from memref<?xi8> to memref<1xi64>
    hivm.hir.free_lock_var lock_var(%0 : memref<1xi64>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 3 ffts_base_addr = %arg2
    %1 = memref_ext.alloc_workspace() : memref<64xi8>
    %2 = memref_ext.alloc_workspace() from %arg1 : from memref<?xi8> to memref<64xi8>
    return
  }
  func.func @marks(%arg0: tensor<8xf32>, %arg1: f32) {
    annotation.mark %arg0 keys = ["fill"] values = [%arg1 : f32] : tensor<8xf32>
    return
  }
  func.func @matmuls(%arg0: tensor<32x16xf16>, %arg1: tensor<16x32xf16>, %arg2: tensor<32x32xf32>, %arg3: tensor<64xi8>, %arg4: tensor<2x16x32xf16>, %arg5: tensor<2xi64>, %arg6: i64) -> tensor<32x32xf32> {
    %0 = hivm.hir.matmul ins(%arg0, %arg1 : tensor<32x16xf16>, tensor<16x32xf16>) outs(%arg2 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = hivm.hir.matmul ins(%arg0, %arg1 : tensor<32x16xf16>, tensor<16x32xf16>) outs(%0 : tensor<32x32xf32>) b_transpose block_sizes(%arg6, %arg6 : i64, i64) swizzle_offset = %arg6 : i64 -> tensor<32x32xf32>
    %2 = hivm.hir.mix_matmul ins(%arg0, %arg1 : tensor<32x16xf16>, tensor<16x32xf16>) workspace_ins(%arg3 : tensor<64xi8>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = hivm.hir.mix_group_matmul ins(%arg4, %arg0, %arg5 : tensor<2x16x32xf16>, tensor<32x16xf16>, tensor<2xi64>) outs(%2 : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %3 : tensor<32x32xf32>
  }
  func.func @local_mmads(%arg0: tensor<2x16x16xf16>, %arg1: tensor<2x16x16xf16>, %arg2: tensor<2x16x16xf32>, %arg3: i1, %arg4: index, %arg5: tensor<16x32xf8E4M3FN>, %arg6: tensor<32x16xf8E4M3FN>, %arg7: tensor<16x1xi8>, %arg8: tensor<1x16xi8>, %arg9: tensor<16x16xf32>, %arg10: tensor<1x4x8x8xf16>, %arg11: tensor<4x4x3x3xf16>, %arg12: tensor<1x4x6x6xf32>, %arg13: i64) {
    %0 = hivm.hir.batchMmadL1 ins(%arg0, %arg1, %arg3, %arg4, %arg4, %arg4 : tensor<2x16x16xf16>, tensor<2x16x16xf16>, i1, index, index, index) outs(%arg2 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %1 = hivm.hir.mmadmxL1 b_transpose ins(%arg5, %arg6, %arg7, %arg8, %arg3, %arg4, %arg4, %arg4 : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>, tensor<16x1xi8>, tensor<1x16xi8>, i1, index, index, index) outs(%arg9 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %2 = hivm.hir.Conv2dL1 {groups = 1 : i32, padding = 0 : i32} ins(%arg10, %arg11, %arg3 : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16>, i1) outs(%arg12 : tensor<1x4x6x6xf32>) sync_related_args(%arg13 : i64) -> tensor<1x4x6x6xf32>
    %3 = hivm.hir.mmadL1 ins(%arg0, %arg1, %arg3, %arg4, %arg4, %arg4 : tensor<2x16x16xf16>, tensor<2x16x16xf16>, i1, index, index, index) outs(%arg2 : tensor<2x16x16xf32>) sync_related_args(%arg13, %arg13 : i64, i64) -> tensor<2x16x16xf32>
    %4 = hivm.hir.custom_macro {sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>]} "user.macro_sync" ins(%arg0 : tensor<2x16x16xf16>) outs(%arg2 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32> sync_related_args(%arg13 : i64)
    return
  }
  func.func @convolutions(%arg0: tensor<1x4x16xf16>, %arg1: tensor<8x4x3xf16>, %arg2: tensor<1x8x14xf32>, %arg3: i1, %arg4: tensor<8xf32>, %arg5: tensor<1x4x4x8x8xf16>, %arg6: tensor<8x4x3x3x3xf16>, %arg7: tensor<1x8x2x6x6xf32>) {
    %0 = hivm.hir.Conv1dL1 {groups = 1 : i32, padding = 0 : i32} ins(%arg0, %arg1, %arg3, %arg4 : tensor<1x4x16xf16>, tensor<8x4x3xf16>, i1, tensor<8xf32>) outs(%arg2 : tensor<1x8x14xf32>) -> tensor<1x8x14xf32>
    %1 = hivm.hir.Conv3dL1 {groups = 1 : i32, padding = [0, 1, 1]} ins(%arg5, %arg6, %arg3 : tensor<1x4x4x8x8xf16>, tensor<8x4x3x3x3xf16>, i1) outs(%arg7 : tensor<1x8x2x6x6xf32>) -> tensor<1x8x2x6x6xf32>
    return
  }
  func.func @gather_masked(%arg0: memref<?xf32>, %arg1: tensor<16xi32>, %arg2: i64, %arg3: tensor<16xi1>, %arg4: tensor<16xf32>) -> tensor<16xf32> {
    %0 = hivm.hir.gather_load ins(%arg0 : memref<?xf32>, %arg1 : tensor<16xi32>, %arg2 : i64, %arg3 : tensor<16xi1>, %arg4 : tensor<16xf32>) outs(%arg4 : tensor<16xf32>) {isVolatile = false} -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
  func.func @macros(%arg0: memref<8xf32>, %arg1: memref<8xf32>) {
    hivm.hir.custom_macro {symbol = "k_copy"} "user.copy" ins(%arg0 : memref<8xf32>) outs(%arg1 : memref<8xf32>)
    return
  }
  func.func @layouts(%arg0: tensor<1x2x16x32xf16>, %arg1: memref<2x3xf16>, %arg2: memref<4x?xf16>, %arg3: index, %arg4: f16) {
    %0 = hivm.hir.convert_layout %arg0 output_shape [32, 32] {dstLayout = #hivm.data_layout<ND>, srcLayout = #hivm.data_layout<Fractal, fractalSizes = [16, 32]>} : (tensor<1x2x16x32xf16>) -> tensor<32x32xf16>
    %1 = hivm.hir.convert_layout %arg0 output_shape [%arg3, 32] {dstLayout = #hivm.data_layout<ND>, srcLayout = #hivm.data_layout<Fractal, fractalSizes = [16, 32]>} : (tensor<1x2x16x32xf16>) -> tensor<?x32xf16>
    hivm.hir.vpad ins(%arg1 : memref<2x3xf16>) outs(%arg2 : memref<4x?xf16>) low[1, %arg3] high[1, 0] pad_value %arg4 : f16
    return
  }
}
