// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Every error the syntax engine raises while reading custom syntax.

func.func @unknown_op(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{unknown op 'hivm.hir.vaad' in dialect 'hivm'; did you mean 'hivm.hir.vadd'}}
  %0 = hivm.hir.vaad ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @missing_keyword(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{expected 'outs' in custom syntax of 'hivm.hir.vexp', found '->'}}
  %0 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @missing_paren(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{expected ')' in custom syntax of 'hivm.hir.vexp', found 'outs'}}
  %0 = hivm.hir.vexp ins(%arg0 : tensor<4xf32> outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @missing_operand() {
  // expected-error @+1 {{expected SSA operand 'src' of 'annotation.mark', found '{'}}
  annotation.mark {logical_block_num} : i32
  return
}

// -----

func.func @missing_type(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{expected a type for 'src' of 'hivm.hir.vexp', found ')'}}
  %0 = hivm.hir.vexp ins(%arg0 : ) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @type_count(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.vadd' has 2 operands in 'src' but 1 type}}
  %0 = hivm.hir.vadd ins(%arg0, %arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bad_array(%arg0: tensor<4x1xf32>, %arg1: tensor<4x8xf32>) {
  // expected-error @+1 {{expected an integer in array of 'hivm.hir.vadd', found 'x'}}
  %0 = hivm.hir.vadd ins(%arg1, %arg0 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%arg1 : tensor<4x8xf32>) broadcast = [x] -> tensor<4x8xf32>
  return
}

// -----

func.func @bad_array_separator(%arg0: tensor<4x1xf32>, %arg1: tensor<4x8xf32>) {
  // expected-error @+1 {{expected ',' or ']' in array of 'hivm.hir.vadd', found ';'}}
  %0 = hivm.hir.vadd ins(%arg1, %arg0 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%arg1 : tensor<4x8xf32>) broadcast = [1; 2] -> tensor<4x8xf32>
  return
}

// -----

func.func @bad_enum_value(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xf32>) {
  // expected-error @+1 {{'average' is not a valid arith of 'hivm.hir.vreduce'}}
  %0 = hivm.hir.vreduce <average> ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4x1xf32>) reduce_dims = [1] -> tensor<4x1xf32>
  return
}

// -----

func.func @unclosed_enum(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xf32>) {
  // expected-error @+1 {{expected '>' after sum in 'hivm.hir.vreduce', found 'ins'}}
  %0 = hivm.hir.vreduce <sum ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4x1xf32>) reduce_dims = [1] -> tensor<4x1xf32>
  return
}

// -----

func.func @enum_without_value(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xf32>) {
  // expected-error @+1 {{expected a value of 'arith' in 'hivm.hir.vreduce', found '>'}}
  %0 = hivm.hir.vreduce <> ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4x1xf32>) reduce_dims = [1] -> tensor<4x1xf32>
  return
}

// -----

func.func @attr_kind() {
  // expected-error @+1 {{expected true or false for 'enable' of 'hivm.hir.set_ctrl', found '1'}}
  hivm.hir.set_ctrl 1 at ctrl[60]
  return
}

// -----

func.func @int_attr() {
  // expected-error @+1 {{expected an integer for 'idx' of 'hivm.hir.set_ctrl', found 'x'}}
  hivm.hir.set_ctrl true at ctrl[-x]
  return
}

// -----

func.func @missing_required_clause(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xf32>) {
  // expected-error @+1 {{expected 'reduce_dims' in custom syntax of 'hivm.hir.vreduce', found '->'}}
  %0 = hivm.hir.vreduce <sum> ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @flag_alternatives() {
  // expected-error @+1 {{unexpected ';' in custom syntax of 'hivm.hir.sync_block_set'}}
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_FIX>] flag = ;
  return
}

// -----

func.func @region_expected() {
  // The error points at the offending token, on the next line.
  // expected-error @+2 {{expected '{' to start the region of 'scope.scope', found 'return'}}
  %0 = scope.scope : () -> i32
  return
}

// -----

func.func @unterminated_dict() {
  // expected-error @+1 {{unterminated attribute dictionary of 'hivm.hir.anchor'}}
  hivm.hir.anchor {id = 0 : i64

// -----

// A dynamic index list holds integers and SSA values only.
func.func @dynamic_index_list_entry(%arg0: tensor<1x2x16x32xf16>) {
  // expected-error @+1 {{expected an integer or SSA value in 'hivm.hir.convert_layout', found 'f32'}}
  %0 = hivm.hir.convert_layout %arg0 output_shape [32, f32] {dstLayout = #hivm.data_layout<ND>, srcLayout = #hivm.data_layout<ND>} : (tensor<1x2x16x32xf16>) -> tensor<32x32xf16>
  return
}

// -----

// Clauses are read in any order, each once: a repeated one is left unread
// and MLIR takes it for an op name.
func.func @clause_twice(%arg0: memref<8xf16>, %arg1: memref<8xi32>) {
  // expected-error @+1 {{custom op 'round_mode' is unknown}}
  hivm.hir.vcast ins(%arg0 : memref<8xf16>) outs(%arg1 : memref<8xi32>) round_mode = <floor> round_mode = <rint>
  return
}

// -----

// A full-form enum value ends at its closing '>'.
func.func @full_enum_unterminated(%arg0: memref<8xf16>, %arg1: memref<8xf16>) {
  // expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
  hivm.hir.load ins(%arg0 : memref<8xf16>) outs(%arg1 : memref<8xf16>) pad_mode = #hivm.padmode<PadValue
  return
}
