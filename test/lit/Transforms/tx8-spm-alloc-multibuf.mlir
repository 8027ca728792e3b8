// tx8-spm-alloc's multi-buffering (the software pipeline's copies): each
// per-slice buffer (here a load and a stored result; intermediates and
// ops of several buffers: tx8-spm-alloc-multibuf-ops.mlir) gets
// tile.multi_buf copies (3 by
// default, the multi-buf option overrides), fewer when they do not fit SPM,
// one when the tile has a single slice; its op's dev_info says
// multi_buf_en, multi_buf_num and one mem_addr per copy. The copies live
// over the whole slice (nothing shares them, in place or by reuse). Slices
// are given by hand (no tx8-sharding); SPM is 4 KiB.
// RUN: npuc-opt %s --split-input-file --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4096})' | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4096 stats=true})' -o %t.out
// RUN: npuc-opt %s --split-input-file --pass-pipeline='builtin.module(tx8-spm-alloc{spm-bytes=4096 multi-buf=1})' | FileCheck %s --check-prefix=ONE
// RUN: not npuc-opt %s --split-input-file --pass-pipeline='builtin.module(tx8-spm-alloc{multi-buf=4})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tx8-spm-alloc: multi-buf (or the target's tile.multi_buf) must be 1, 2 or 3, not 4
// ONE-NOT: multi_buf_en = true

// Four slices of 256 bytes: three copies of the load and of the stored
// relu result fit (6 x 256 bytes); the relu no longer writes over its
// input in place.
// CHECK-LABEL: func.func @fits3
// CHECK: spm_alloc_size = 1536 : ui32
// CHECK: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// CHECK: tx8be.relu {{.*}}multi_buf_en = true, multi_buf_num = 3, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// With one copy: the relu in place, 256 bytes.
// ONE-LABEL: func.func @fits3
// ONE: spm_alloc_size = 256 : ui32
// ONE: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [0]>
// ONE: tx8be.relu {{.*}}mem_addr = [0]>
func.func @fits3(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-remark@+1 {{SPM peak 1536 bytes, max-live 1536, 512 without reuse; 2 buffers in 3 copies}}
  %0 = tx8be.group(%x) : (tensor<4x64xf32>) -> (tensor<4x64xf32>) {
  ^bb0(%a0: tensor<4x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 64], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x64xf32> -> tensor<4x64xf32>
    %3 = tx8be.store_var %2 : tensor<4x64xf32> -> tensor<4x64xf32>
    tx8be.return %3 : tensor<4x64xf32>
  }
  return %0 : tensor<4x64xf32>
}

// -----

// Slices of 1 KiB: three copies would take 6 KiB, two take 4 KiB.
// CHECK-LABEL: func.func @fits2
// CHECK: spm_alloc_size = 4096 : ui32
// CHECK: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// CHECK: tx8be.relu {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
func.func @fits2(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  // expected-remark@+1 {{SPM peak 4096 bytes, max-live 4096, 2048 without reuse; 2 buffers in 2 copies}}
  %0 = tx8be.group(%x) : (tensor<4x256xf32>) -> (tensor<4x256xf32>) {
  ^bb0(%a0: tensor<4x256xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x256xf32> -> tensor<4x256xf32>
    %2 = tx8be.relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 256], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x256xf32> -> tensor<4x256xf32>
    %3 = tx8be.store_var %2 : tensor<4x256xf32> -> tensor<4x256xf32>
    tx8be.return %3 : tensor<4x256xf32>
  }
  return %0 : tensor<4x256xf32>
}

// -----

// Slices of 2 KiB: two copies would take 8 KiB; one copy, in place.
// CHECK-LABEL: func.func @fits1
// CHECK: spm_alloc_size = 2048 : ui32
// CHECK: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [0]>
// CHECK: tx8be.relu {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [0]>
func.func @fits1(%x: tensor<4x512xf32>) -> tensor<4x512xf32> {
  // expected-remark@+1 {{SPM peak 2048 bytes, max-live 2048, 4096 without reuse; 0 buffers in 1 copies}}
  %0 = tx8be.group(%x) : (tensor<4x512xf32>) -> (tensor<4x512xf32>) {
  ^bb0(%a0: tensor<4x512xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x512xf32> -> tensor<4x512xf32>
    %2 = tx8be.relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 512], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x512xf32> -> tensor<4x512xf32>
    %3 = tx8be.store_var %2 : tensor<4x512xf32> -> tensor<4x512xf32>
    tx8be.return %3 : tensor<4x512xf32>
  }
  return %0 : tensor<4x512xf32>
}

// -----

// One slice per tile: nothing to overlap, one copy.
// CHECK-LABEL: func.func @one_slice
// CHECK: tx8be.load_var {{.*}}multi_buf_en = false, multi_buf_num = 1, {{.*}}mem_addr = [0]>
func.func @one_slice(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-remark@+1 {{0 buffers in 1 copies}}
  %0 = tx8be.group(%x) : (tensor<4x64xf32>) -> (tensor<4x64xf32>) {
  ^bb0(%a0: tensor<4x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [4, 64], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x64xf32> -> tensor<4x64xf32>
    %3 = tx8be.store_var %2 : tensor<4x64xf32> -> tensor<4x64xf32>
    tx8be.return %3 : tensor<4x64xf32>
  }
  return %0 : tensor<4x64xf32>
}

// -----

// Two slices: two copies at most. The [64] vector follows the channel
// axis (a split axis of the group, though this slice takes it whole), so
// it is loaded per slice too. (Weights, read whole by construction, are
// loaded once and keep one copy: test/lit/Execution/tx8-pipeline.test.)
// CHECK-LABEL: func.func @two_slices
// CHECK: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// CHECK: tx8be.load_var {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// CHECK: tx8be.add {{.*}}multi_buf_en = true, multi_buf_num = 2, {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
func.func @two_slices(%x: tensor<2x64xf32>, %v: tensor<64xf32>) -> tensor<2x64xf32> {
  // expected-remark@+1 {{3 buffers in 2 copies}}
  %0 = tx8be.group(%x, %v) : (tensor<2x64xf32>, tensor<64xf32>) -> (tensor<2x64xf32>) {
  ^bb0(%a0: tensor<2x64xf32>, %a1: tensor<64xf32>):
    %1 = tx8be.load_var %a0 : tensor<2x64xf32> -> tensor<2x64xf32>
    %2 = tx8be.load_var %a1 : tensor<64xf32> -> tensor<64xf32>
    %3 = tx8be.add %1, %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 64], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x64xf32>, tensor<64xf32> -> tensor<2x64xf32>
    %4 = tx8be.store_var %3 : tensor<2x64xf32> -> tensor<2x64xf32>
    tx8be.return %4 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}
