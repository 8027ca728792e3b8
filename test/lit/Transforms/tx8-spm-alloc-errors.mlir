// tx8-spm-alloc's errors: each names the op and the reason, fails the pass.
// The slices are given by hand (no tx8-sharding) and SPM is 4 KiB.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-spm-alloc=spm-bytes=4096 -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-spm-alloc=spm-bytes=4096 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-6: error:
// FAIL-NOT: error:

// No temporal slice: tx8-sharding did not run.
func.func @unsharded(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.group(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
    // expected-error@+1 {{tx8be.relu: no dev_info temporal_mem_slice of its rank (run tx8-sharding first)}}
    %2 = tx8be.relu %1 : tensor<4x8xf32> -> tensor<4x8xf32>
    %3 = tx8be.store_var %2 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %3 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A slice of 0 rows.
func.func @empty_slice(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.group(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
    // expected-error@+1 {{tx8be.relu: temporal_mem_slice dimension 0 is 0, outside [1, 4]}}
    %2 = tx8be.relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [0, 8], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x8xf32> -> tensor<4x8xf32>
    %3 = tx8be.store_var %2 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %3 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// The whole 64x32 f32 tensor as one slice: even with the sum written in
// place of x, x and y take 16 KiB; SPM has 4.
func.func @too_big(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = tx8be.group(%x, %y) : (tensor<64x32xf32>, tensor<64x32xf32>) -> (tensor<64x32xf32>) {
  ^bb0(%a0: tensor<64x32xf32>, %a1: tensor<64x32xf32>):
    %1 = tx8be.load_var %a0 : tensor<64x32xf32> -> tensor<64x32xf32>
    %2 = tx8be.load_var %a1 : tensor<64x32xf32> -> tensor<64x32xf32>
    // expected-error@+1 {{tx8be.add: the group does not fit SPM at the chosen split: its buffers need 16384 bytes per tile, SPM has 4096}}
    %3 = tx8be.add %1, %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [64, 32], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
    %4 = tx8be.store_var %3 : tensor<64x32xf32> -> tensor<64x32xf32>
    tx8be.return %4 : tensor<64x32xf32>
  }
  return %0 : tensor<64x32xf32>
}

// -----

// The plan fails: a group of tag 0 with no compute op.
func.func @no_compute(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{tx8be.group has no compute op}}
  tx8be.group(%x) : (tensor<4x8xf32>) attributes {group_tag = 0 : i32} {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return
  }
  return %x : tensor<4x8xf32>
}

// -----

// A channel_norm's dev_info lacks fields: read before anything is written.
func.func @malformed_norm(%x: tensor<4x8xf32>, %s: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.group(%x, %s) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
    // expected-error@+1 {{malformed dev_info}}
    %2 = tx8be.channel_norm %1 to <Cx> {dev_info = #tx8be.dev_attr<imm_size = 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
    %3 = tx8be.load_var %a1 : tensor<8xf32> -> tensor<8xf32>
    %4 = tx8be.batchnorm_inference %2, %3, %3, %3, %3 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [4, 8], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    %5 = tx8be.store_var %4 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %5 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A temporal slice of the wrong rank.
func.func @slice_rank(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.group(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf32> -> tensor<4x8xf32>
    // expected-error@+1 {{tx8be.exp: no dev_info temporal_mem_slice of its rank}}
    %2 = tx8be.exp %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [4], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x8xf32> -> tensor<4x8xf32>
    %3 = tx8be.store_var %2 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %3 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
