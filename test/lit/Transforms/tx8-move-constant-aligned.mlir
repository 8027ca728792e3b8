// A constant already aligned (tx8-layout-align-opt's ConstChannelNormErase
// sets Cx on rank-1 constants). By default DDR holds compact data and the
// load converts: the entry is the value as it is, and the dev_info goes
// with every load_const. With aligned-data the entry is the Cx image: 3
// f32 channels padded to 4, the batch padded to 256 bytes = 64 f32.
// RUN: npuc-opt %s --tx8-move-constant | FileCheck %s
// RUN: npuc-opt %s --tx8-move-constant=aligned-data=true | FileCheck %s --check-prefix=ALIGNED
// CHECK: tx8be.const_container = [dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>]
// CHECK: tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}>} : tensor<3xf32>
// ALIGNED: tx8be.const_container = [dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00, 0.000000e+00,
// ALIGNED-SAME: 0.000000e+00]> : tensor<64xf32>]
// ALIGNED: tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, {{.*}}>} : tensor<3xf32>
module {
  func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
    %s = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [3], source_type = 0, imm_addr = 0, mem_addr = [0]>, value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : tensor<3xf32>
    %0 = tx8be.mul %x, %s : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
    return %0 : tensor<4x3xf32>
  }
}

