// tx8-spm-alloc places each group's SPM buffers (one temporal slice at the
// split tx8-sharding chose) with reuse over their lifetimes: offsets in each
// defining op's dev_info.mem_addr, the compute op's scratch in imm_addr, the
// peak in the group's spm_alloc_size. With stats=true a remark per group
// gives the peak, the max-live bound and the bytes without reuse.
// RUN: npuc-opt %s --split-input-file --tx8-sharding --tx8-spm-alloc | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-sharding --tx8-spm-alloc=stats=true -o %t.out

// A load whose only reader is a channel_norm: the group shards N 2 and H 3
// ways (whole rows of W x C: longer DDR runs than W 4 ways), a tile's slice
// is [1, 2, 4, 2]. x's load fills the NCx buffer
// directly (written at step 0), so its compact buffer takes no bytes (at 0,
// empty); the scratch (one region over the whole group: the plan sizes it
// for the largest op needing one) spans the group; nothing else dies
// before another is born: peak, max-live and the bump placement agree.
// CHECK-LABEL: func.func @norm_then_bn
// CHECK: tx8be.group{{.*}}spm_alloc_size = 1280 : ui32
// CHECK: tx8be.load_var {{.*}}dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NTensor, {{.*}}mem_addr = [0]>
// CHECK: tx8be.channel_norm {{.*}}dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx, {{.*}}mem_addr = [512]>
// CHECK: tx8be.load_var {{.*}}mem_addr = [768]>
// CHECK: tx8be.batchnorm_inference {{.*}}dev_info = #tx8be.dev_attr<imm_size = 512, mem_layout = NCx, {{.*}}temporal_mem_slice = [1, 2, 4, 2], source_type = 0, imm_addr = 0, mem_addr = [1024]>
func.func @norm_then_bn(%x: tensor<2x6x4x2xf32>, %s: tensor<2xf32>) -> tensor<2x6x4x2xf32> {
  // expected-remark@+1 {{tx8be.group: SPM peak 1280 bytes, max-live 1280, 1280 without reuse}}
  %0 = tx8be.group(%x, %s) : (tensor<2x6x4x2xf32>, tensor<2xf32>) -> (tensor<2x6x4x2xf32>) {
  ^bb0(%a0: tensor<2x6x4x2xf32>, %a1: tensor<2xf32>):
    %1 = tx8be.load_var %a0 : tensor<2x6x4x2xf32> -> tensor<2x6x4x2xf32>
    %2 = tx8be.channel_norm %1 to <NCx> : tensor<2x6x4x2xf32> -> tensor<2x6x4x2xf32>
    %3 = tx8be.load_var %a1 : tensor<2xf32> -> tensor<2xf32>
    %4 = tx8be.batchnorm_inference %2, %3, %3, %3, %3 : tensor<2x6x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<2x6x4x2xf32>
    %5 = tx8be.store_var %4 : tensor<2x6x4x2xf32> -> tensor<2x6x4x2xf32>
    tx8be.return %5 : tensor<2x6x4x2xf32>
  }
  return %0 : tensor<2x6x4x2xf32>
}

// -----

// Reuse across steps: y dies at the add (which writes over x in place), so
// w, loaded after it, takes y's place at 256; the mul writes over the sum.
// 512 bytes instead of the 1280 of a bump allocation.
// CHECK-LABEL: func.func @reuse_steps
// CHECK: tx8be.group{{.*}}spm_alloc_size = 512 : ui32
// CHECK: tx8be.load_var {{.*}}mem_addr = [0]>
// CHECK: tx8be.load_var {{.*}}mem_addr = [256]>
// CHECK: tx8be.add {{.*}}mem_addr = [0]>
// CHECK: tx8be.load_var {{.*}}mem_addr = [256]>
// CHECK: tx8be.mul {{.*}}mem_addr = [0]>
func.func @reuse_steps(%x: tensor<2x8x40xf16>, %y: tensor<2x8x40xf16>, %w: tensor<2x8x40xf16>) -> tensor<2x8x40xf16> {
  // expected-remark@+1 {{tx8be.group: SPM peak 512 bytes, max-live 512, 1280 without reuse}}
  %0 = tx8be.group(%x, %y, %w) : (tensor<2x8x40xf16>, tensor<2x8x40xf16>, tensor<2x8x40xf16>) -> (tensor<2x8x40xf16>) {
  ^bb0(%a0: tensor<2x8x40xf16>, %a1: tensor<2x8x40xf16>, %a2: tensor<2x8x40xf16>):
    %1 = tx8be.load_var %a0 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %2 = tx8be.load_var %a1 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %3 = tx8be.add %1, %2 : tensor<2x8x40xf16>, tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %4 = tx8be.load_var %a2 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %5 = tx8be.mul %3, %4 : tensor<2x8x40xf16>, tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %6 = tx8be.store_var %5 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    tx8be.return %6 : tensor<2x8x40xf16>
  }
  return %0 : tensor<2x8x40xf16>
}

// -----

// memInplace: add writes over its first operand, which dies at the add.
// CHECK-LABEL: func.func @inplace_add
// CHECK: tx8be.group{{.*}}spm_alloc_size = 512 : ui32
// CHECK: tx8be.load_var {{.*}}mem_addr = [0]>
// CHECK: tx8be.load_var {{.*}}mem_addr = [256]>
// CHECK: tx8be.add {{.*}}mem_addr = [0]>
func.func @inplace_add(%x: tensor<64x32xf16>, %y: tensor<64x32xf16>) -> tensor<64x32xf16> {
  // expected-remark@+1 {{tx8be.group: SPM peak 512 bytes, max-live 512, 768 without reuse}}
  %0 = tx8be.group(%x, %y) : (tensor<64x32xf16>, tensor<64x32xf16>) -> (tensor<64x32xf16>) {
  ^bb0(%a0: tensor<64x32xf16>, %a1: tensor<64x32xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x32xf16> -> tensor<64x32xf16>
    %2 = tx8be.load_var %a1 : tensor<64x32xf16> -> tensor<64x32xf16>
    %3 = tx8be.add %1, %2 : tensor<64x32xf16>, tensor<64x32xf16> -> tensor<64x32xf16>
    %4 = tx8be.store_var %3 : tensor<64x32xf16> -> tensor<64x32xf16>
    tx8be.return %4 : tensor<64x32xf16>
  }
  return %0 : tensor<64x32xf16>
}

// -----

// Not in place: the first operand is a broadcast [C] vector, smaller than
// the result.
// CHECK-LABEL: func.func @vector_first
// CHECK: tx8be.group{{.*}}spm_alloc_size = 768 : ui32
// CHECK: tx8be.load_var {{.*}}mem_addr = [0]>
// CHECK: tx8be.load_var {{.*}}mem_addr = [256]>
// CHECK: tx8be.sub {{.*}}mem_addr = [512]>
func.func @vector_first(%v: tensor<32xf16>, %y: tensor<64x32xf16>) -> tensor<64x32xf16> {
  // expected-remark@+1 {{tx8be.group: SPM peak 768 bytes, max-live 768, 768 without reuse}}
  %0 = tx8be.group(%v, %y) : (tensor<32xf16>, tensor<64x32xf16>) -> (tensor<64x32xf16>) {
  ^bb0(%a0: tensor<32xf16>, %a1: tensor<64x32xf16>):
    %1 = tx8be.load_var %a0 : tensor<32xf16> -> tensor<32xf16>
    %2 = tx8be.load_var %a1 : tensor<64x32xf16> -> tensor<64x32xf16>
    %3 = tx8be.sub %1, %2 : tensor<32xf16>, tensor<64x32xf16> -> tensor<64x32xf16>
    %4 = tx8be.store_var %3 : tensor<64x32xf16> -> tensor<64x32xf16>
    tx8be.return %4 : tensor<64x32xf16>
  }
  return %0 : tensor<64x32xf16>
}

// -----

// relu in place of its input; the channel_norm of the result, which the
// store reads, is live with it at the conversion, so it sits apart.
// CHECK-LABEL: func.func @relu_norm
// CHECK: tx8be.group{{.*}}spm_alloc_size = 512 : ui32
// CHECK: tx8be.load_var {{.*}}mem_addr = [0]>
// CHECK: tx8be.relu {{.*}}mem_addr = [0]>
// CHECK: tx8be.channel_norm {{.*}}mem_addr = [256]>
func.func @relu_norm(%x: tensor<2x8x40xf16>) -> tensor<2x8x40xf16> {
  // expected-remark@+1 {{tx8be.group: SPM peak 512 bytes, max-live 512, 768 without reuse}}
  %0 = tx8be.group(%x) : (tensor<2x8x40xf16>) -> (tensor<2x8x40xf16>) {
  ^bb0(%a0: tensor<2x8x40xf16>):
    %1 = tx8be.load_var %a0 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %2 = tx8be.relu %1 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %3 = tx8be.channel_norm %2 to <NCx> : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    %4 = tx8be.store_var %3 : tensor<2x8x40xf16> -> tensor<2x8x40xf16>
    tx8be.return %4 : tensor<2x8x40xf16>
  }
  return %0 : tensor<2x8x40xf16>
}

// -----

// gemm reads both operands while it writes the result: nothing to reuse.
// Each tile runs its 128 rows in two slices of 64, so a's slice and the
// result get two copies (multi-buffering), the largest blocks first; b,
// read whole, is filled once per tile: one copy.
// CHECK-LABEL: func.func @gemm
// CHECK: tx8be.group{{.*}}spm_alloc_size = 36864 : ui32
// CHECK: tx8be.load_var {{.*}}multi_buf_num = 2{{.*}}mem_addr = [0, 16384]>
// CHECK: tx8be.load_var {{.*}}multi_buf_num = 1{{.*}}mem_addr = [32768]>
// CHECK: tx8be.gemm {{.*}}imm_size = 0, {{.*}}imm_addr = 0, mem_addr = [8192, 24576]>
func.func @gemm(%a: tensor<2048x32xf32>, %b: tensor<32x24xf32>) -> tensor<2048x24xf32> {
  %none = tx8be.none : none
  // expected-remark@+1 {{tx8be.group: SPM peak 36864 bytes, max-live 36864, 20480 without reuse; 2 buffers in 2 copies}}
  %0 = tx8be.group(%a, %b) : (tensor<2048x32xf32>, tensor<32x24xf32>) -> (tensor<2048x24xf32>) {
  ^bb0(%a0: tensor<2048x32xf32>, %a1: tensor<32x24xf32>):
    %1 = tx8be.load_var %a0 : tensor<2048x32xf32> -> tensor<2048x32xf32>
    %2 = tx8be.load_var %a1 : tensor<32x24xf32> -> tensor<32x24xf32>
    %3 = tx8be.gemm %1, %2, %none : tensor<2048x32xf32>, tensor<32x24xf32>, none -> tensor<2048x24xf32>
    %4 = tx8be.store_var %3 : tensor<2048x24xf32> -> tensor<2048x24xf32>
    tx8be.return %4 : tensor<2048x24xf32>
  }
  return %0 : tensor<2048x24xf32>
}

// -----

// A DDR-only group (group_tag 2, no compute op) has no SPM buffers: skipped.
// CHECK-LABEL: func.func @ddr_only
// CHECK: tx8be.group{{.*}}attributes {group_id = 0 : si32, group_tag = 2 : i32} {
// CHECK-NOT: spm_alloc_size
// CHECK-NOT: mem_addr
// CHECK: return
func.func @ddr_only(%x: tensor<2x4x8xf16>) -> tensor<8x8xf16> {
  %0 = tx8be.group(%x) : (tensor<2x4x8xf16>) -> (tensor<8x8xf16>) attributes {group_id = 0 : si32, group_tag = 2 : i32} {
  ^bb0(%a0: tensor<2x4x8xf16>):
    %r = tx8be.reshape %a0 : tensor<2x4x8xf16> -> tensor<8x8xf16>
    tx8be.return %r : tensor<8x8xf16>
  }
  return %0 : tensor<8x8xf16>
}
