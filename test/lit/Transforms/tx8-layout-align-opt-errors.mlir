// tx8-layout-align-opt: a dev_info the patterns would rewrite but cannot
// read is an error before anything changes.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-layout-align-opt -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-layout-align-opt 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: malformed dev_info
// CHECK-NOT: func.func

func.func @bad_constant(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error@+1 {{malformed dev_info: #tx8be.dev_attr: missing field 'mem_addr'}}
  %c = tx8be.constant {value = dense<1.0> : tensor<16xf16>, dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0>} : tensor<16xf16>
  %cn = tx8be.channel_norm %c to <Cx> : tensor<16xf16> -> tensor<16xf16>
  %0 = tx8be.add %x, %cn : tensor<2x8x16xf16>, tensor<16xf16> -> tensor<2x8x16xf16>
  return %0 : tensor<2x8x16xf16>
}

// -----

func.func @bad_channel_norm(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // expected-error@+1 {{malformed dev_info: #tx8be.dev_attr: malformed value of 'mem_layout'}}
  %0 = tx8be.channel_norm %x to <NCx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Dx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  return %0 : tensor<2x8x16xf16>
}
