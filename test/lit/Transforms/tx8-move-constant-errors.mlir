// tx8-move-constant errors: constants it cannot store, users whose loads
// it cannot tell, load_consts without data, a bad tile mesh. Each fails
// the pass with a located error and no output.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-move-constant=aligned-data=true -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-move-constant=aligned-data=true 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-12: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: constant has no 'value'}}
    %c = tx8be.constant : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// A dense_resource without its blob (a text printed with --elide-weights),
// with a blob shorter than its type, of i1 elements.
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: dense_resource<missing> has no data in the file (a graph printed with --elide-weights cannot be compiled)}}
    %c = tx8be.constant {value = dense_resource<missing> : tensor<4xf32>} : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: dense_resource<short> holds 12 bytes, its type needs 16}}
    %c = tx8be.constant {value = dense_resource<short> : tensor<4xf32>} : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040000080BF"
    }
  }
#-}

// -----

module {
  func.func @main(%x: tensor<8xi1>) -> tensor<8xi1> {
    // expected-error@+1 {{tx8-move-constant: unsupported constant kind: elements are not a whole number of bytes}}
    %c = tx8be.constant {value = dense_resource<bits> : tensor<8xi1>} : tensor<8xi1>
    %0 = tx8be.add %x, %c : tensor<8xi1>, tensor<8xi1> -> tensor<8xi1>
    return %0 : tensor<8xi1>
  }
}

// -----

// A constant kind the container does not hold: strings, sparse.
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: unsupported constant kind: 'value' must be dense integer or float elements}}
    %c = tx8be.constant {value = sparse<[[1]], [2.0]> : tensor<4xf32>} : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: unsupported constant kind: 'value' must be dense integer or float elements}}
    %c = tx8be.constant {value = "weights.bin"} : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: the type of 'value' differs from the result type}}
    %c = tx8be.constant {value = dense<1.0> : tensor<4xf16>} : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @main() -> tensor<4xi1> {
    // expected-error@+1 {{tx8-move-constant: unsupported constant kind: elements are not a whole number of bytes}}
    %c = tx8be.constant {value = dense<true> : tensor<4xi1>} : tensor<4xi1>
    return %c : tensor<4xi1>
  }
}

// -----

// An aligned constant must have a TX8 dtype to be laid out.
module {
  func.func @main(%x: tensor<2x4xf64>) -> tensor<2x4xf64> {
    // expected-error@+1 {{tx8-move-constant: cannot lay the constant out in Cx: its element type has no TX8 layout (f16, bf16, f32 or i8)}}
    %c = tx8be.constant {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, value = dense<1.0> : tensor<4xf64>} : tensor<4xf64>
    %0 = tx8be.add %x, %c : tensor<2x4xf64>, tensor<4xf64> -> tensor<2x4xf64>
    return %0 : tensor<2x4xf64>
  }
}

// -----

// Only the op library knows whether an op loads an operand.
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = tx8be.constant {value = dense<1.0> : tensor<4xf32>} : tensor<4xf32>
    // expected-error@+1 {{tx8-move-constant: 'arith.addf' reads a tx8be constant but is no tx8be op: whether it loads it is unknown}}
    %0 = arith.addf %x, %c : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module attributes {tx8be.const_container = [dense<1.0> : tensor<4xf32>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{tx8-move-constant: load_const[1] has no entry in the constant container (1 entries)}}
    %c = tx8be.load_const[1] : tensor<4xf32>
    %0 = tx8be.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// expected-error@+1 {{tx8be.tile_dx must be a positive integer}}
module attributes {tx8be.tile_dx = 0 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
