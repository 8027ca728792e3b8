// tx8-const-norm errors: a container or load_const that does not hold
// together, constants it cannot lay out or re-view. Each fails the pass
// with a located error and no output.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-const-norm=aligned-data=true -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-const-norm=aligned-data=true 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-8: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-const-norm: load_const[2] has no entry in the constant container (1 entries)}}
    %c = tx8be.load_const[2] : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// expected-error@+1 {{tx8-const-norm: tx8be.const_container must be an array of dense elements}}
module attributes {tx8be.const_container = dense<1.0> : tensor<4xf32>} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// Unknown constant kinds in the container.
// expected-error@+1 {{tx8-const-norm: entry 1 of tx8be.const_container is not dense integer or float elements}}
module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>, "weights.bin"]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

module attributes {tx8be.const_container = [dense<1.0> : tensor<2x4xf64>]} {
  func.func @main() -> tensor<2x4xf64> {
    %c = tx8be.load_const[0] : tensor<2x4xf64>
    // expected-error@+1 {{tx8-const-norm: cannot lay the constant out in NCx: its element type has no TX8 layout (f16, bf16, f32 or i8)}}
    %n = tx8be.channel_norm %c to <NCx> : tensor<2x4xf64> -> tensor<2x4xf64>
    return %n : tensor<2x4xf64>
  }
}

// -----

// The entry's data is one layout; its readers must agree on which.
module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = tx8be.load_const[0] : tensor<4xf32>
    // expected-error@+1 {{tx8-const-norm: load_const[0] reads its entry as Cx, another load_const of it as Tensor}}
    %b = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4xf32>
    %0 = tx8be.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// An entry that is not the image of the layout its reader claims.
module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>]} {
  func.func @main() -> tensor<4xf32> {
    // expected-error@+1 {{tx8-const-norm: cannot lay the constant out in Tensor: its data does not fill the layout it is said to be in}}
    %b = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4xf32>
    %n = tx8be.channel_norm %b to <Tensor> : tensor<4xf32> -> tensor<4xf32>
    return %n : tensor<4xf32>
  }
}

// -----

module attributes {tx8be.const_container = [dense<1> : tensor<6x4xi8>]} {
  func.func @main() -> tensor<2x16xf16> {
    // expected-error@+1 {{tx8-const-norm: the packed weights of tx8be.unpack must be [K, N] with K a multiple of 4 to be viewed as [K/4, 4N]}}
    %q = tx8be.load_const[0] : tensor<6x4xi8>
    %u = tx8be.unpack %q : tensor<6x4xi8> -> tensor<2x16xf16>
    return %u : tensor<2x16xf16>
  }
}

// -----

module attributes {tx8be.const_container = [dense<1> : tensor<256xi8>]} {
  func.func @main() -> tensor<1x16xf16> {
    // expected-error@+1 {{tx8-const-norm: the packed weights of tx8be.unpack are in Cx; only compact data can be re-viewed}}
    %q = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<4x4xi8>
    %u = tx8be.unpack %q : tensor<4x4xi8> -> tensor<1x16xf16>
    return %u : tensor<1x16xf16>
  }
}
