// tx8-spm-alloc's copies for an op that defines several SPM buffers and
// for the intermediates (docs/passes/tx8-spm-alloc.md, "Multi-buffering").
// The residual block's input load defines two buffers (the conv's window
// with its halo, slot 0, and the add's extract, slot 1): its mem_addr
// lists slots x copies offsets copy-major (entry c * 2 + s is copy c of
// slot s). The conv and relu results and the extract are intermediates.
// Four slices of 4 rows on one tile, given by hand (no tx8-sharding; the
// weight, whose O rows follow the output channels, is then read whole by
// every slice: invariant, no copies), in shrinking SPM:
// every buffer in three copies (64 KiB); two of the loads and stores and
// the intermediates that fit, by benefit (6656, 5120 and 4608 bytes: 3, 1
// and 0 of 3); two of the loads only, the extract repeating its one
// address (4096); none (3072). The result prints and reads back the same.
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=65536 stats=true})' -o %t.all 2>&1 | FileCheck %s --check-prefix=ALLR
// RUN: FileCheck %s --check-prefix=ALL --input-file=%t.all
// RUN: npuc-opt %t.all -o %t.again && diff %t.all %t.again
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=6656 stats=true})' -o %t.6656 2>&1 | FileCheck %s --check-prefix=I3
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=5120 stats=true})' -o %t.5120 2>&1 | FileCheck %s --check-prefix=I1
// RUN: FileCheck %s --check-prefix=I1IR --input-file=%t.5120
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4608 stats=true})' -o %t.4608 2>&1 | FileCheck %s --check-prefix=I0
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4096 stats=true})' -o %t.4096 2>&1 | FileCheck %s --check-prefix=LOADS
// RUN: FileCheck %s --check-prefix=LOADSIR --input-file=%t.4096
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=3072 stats=true})' -o %t.3072 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=NONEIR --input-file=%t.3072

// ALLR: remark: tx8-spm-alloc: tx8be.group: SPM peak 9216 bytes, max-live 9216, 3584 without reuse; 5 buffers in 3 copies (loads 1 of 1, stores 1 of 1, intermediates 3 of 3)
// ALL: spm_alloc_size = 9216 : ui32
// ALL: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// ALL: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [{{[0-9]+}}]>
// ALL: tx8be.conv {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// ALL: tx8be.relu {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// ALL: tx8be.add {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// I3: 5 buffers in 2 copies (loads 1 of 1, stores 1 of 1, intermediates 3 of 3)
// I1: 3 buffers in 2 copies (loads 1 of 1, stores 1 of 1, intermediates 1 of 3)
// I1IR: tx8be.load_var {{.*}}multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// I0: 2 buffers in 2 copies (loads 1 of 1, stores 1 of 1, intermediates 0 of 3)
// LOADS: 1 buffers in 2 copies (loads 1 of 1, stores 0 of 1, intermediates 0 of 3)
// LOADSIR: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, [[X:[0-9]+]], {{[0-9]+}}, [[X]]]>
// LOADSIR: tx8be.add {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [{{[0-9]+}}]>
// NONE: 0 buffers in 1 copies (loads 0 of 1, stores 0 of 1, intermediates 0 of 3)
// NONEIR: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [0, {{[0-9]+}}]>
func.func @residual(%x: tensor<1x16x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x16x8x4xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>) -> (tensor<1x16x8x4xf32>) {
  ^bb0(%a0: tensor<1x16x8x4xf32>, %a1: tensor<3x3x4x4xf32>):
    %1 = tx8be.load_var %a0 : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    %2 = tx8be.load_var %a1 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NTensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8, 4], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
    %4 = tx8be.relu %3 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NTensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8, 4], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    %5 = tx8be.add %4, %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NTensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8, 4], source_type = 0, imm_addr = 0, mem_addr = []>, tile_parallel = #tx8be.parallel_attr<parallel = dp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 1]>} : tensor<1x16x8x4xf32>, tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    %6 = tx8be.store_var %5 : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    tx8be.return %6 : tensor<1x16x8x4xf32>
  }
  return %0 : tensor<1x16x8x4xf32>
}
