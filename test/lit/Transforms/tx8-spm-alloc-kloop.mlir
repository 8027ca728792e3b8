// tx8-spm-alloc's copies of a reduce split's K-slice loads (the pipelined
// K loop, docs/tx8.md): each load of the gemm's K slices gets two copies
// (COPY_K: the K loop reads one while the next K slice's load fills the
// other; never three), tried before the per-slice copies; when they do not
// fit SPM the K loop keeps one copy (its loads then wait for the gemm),
// as with multi-buf=1. The partial sums keep one. The slice and the K
// slice are given by hand: one slice of 4 x 8, K in slices of 16 (a's
// 4 x 16 and b's 16 x 8, f32: 256 and 512 bytes).
// RUN: npuc-opt %s --verify-diagnostics --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=2048 stats=true})' | FileCheck %s --check-prefix=FITS
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=1536 stats=true})' 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4096 multi-buf=1 stats=true})' 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: not npuc-opt %s --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=1024})' 2>&1 | FileCheck %s --check-prefix=NOFIT

// Two copies of each K-slice load in 2 KiB (one copy of each: 1280 bytes).
// FITS: spm_alloc_size = 2048 : ui32
// FITS: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// FITS: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// FITS: tx8be.gemm {{.*}}multi_buf_en = false, multi_buf_num = 1,
// In 1.5 KiB they do not fit: one copy each, the gemm's loads wait.
// FALLBACK: remark: tx8-spm-alloc: tx8be.group: SPM peak 1280 bytes, max-live 1280, 1280 without reuse; 0 buffers in 1 copies (loads 0 of 0, stores 0 of 1, intermediates 0 of 0, K-slice loads 0 of 2 in 1)
// FALLBACK: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1,
// FALLBACK: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1,
// NOFIT: error: tx8-spm-alloc: tx8be.gemm: the group does not fit SPM at the chosen split: its buffers need 1280 bytes per tile, SPM has 1024
func.func @k_loop(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %none = tx8be.none : none
  // expected-remark@+1 {{SPM peak 2048 bytes, max-live 2048, 1280 without reuse; 2 buffers in 1 copies (loads 0 of 0, stores 0 of 1, intermediates 0 of 0, K-slice loads 2 of 2 in 2)}}
  %0 = tx8be.group(%a, %b) : (tensor<4x64xf32>, tensor<64x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x64xf32>, %a1: tensor<64x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.load_var %a1 : tensor<64x8xf32> -> tensor<64x8xf32>
    %3 = tx8be.gemm %1, %2, %none {reduce_split = 16 : i64, dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [4, 8], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x64xf32>, tensor<64x8xf32>, none -> tensor<4x8xf32>
    %4 = tx8be.store_var %3 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %4 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
