// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Errors for the AIE2 / AIE2P aievec ops: types outside an op's
// signatures (the shapes and element types mlir-aie accepts), operands
// that must share a type, and shuffle modes (mlir-aie's invalid.mlir cases,
// with our wording).

func.func @matmul_element_type(%A : vector<4x8xf16>, %B : vector<8x4xf16>, %C : vector<4x4xf32>) -> vector<4x4xf32> {
  // expected-error @+1 {{'aievec.matmul' does not support lhs vector<4x8xf16>, rhs vector<8x4xf16>, acc vector<4x4xf32>}}
  %0 = aievec.matmul %A, %B, %C : vector<4x8xf16>, vector<8x4xf16> into vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

func.func @matmul_contraction(%A : vector<2x4xi16>, %B : vector<2x8xi16>, %C : vector<4x8xi32>) -> vector<4x8xi32> {
  // expected-error @+1 {{'aievec.matmul' does not support lhs vector<2x4xi16>, rhs vector<2x8xi16>, acc vector<4x8xi32>}}
  %0 = aievec.matmul %A, %B, %C : vector<2x4xi16>, vector<2x8xi16> into vector<4x8xi32>
  return %0 : vector<4x8xi32>
}

// -----

func.func @matmul_shape(%A : vector<4x4xbf16>, %B : vector<4x4xbf16>, %C : vector<4x4xf32>) -> vector<4x4xf32> {
  // expected-error @+1 {{'aievec.matmul' does not support lhs vector<4x4xbf16>, rhs vector<4x4xbf16>, acc vector<4x4xf32>}}
  %0 = aievec.matmul %A, %B, %C : vector<4x4xbf16>, vector<4x4xbf16>
                                  into vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

func.func @matmul_accumulator(%A : vector<2x4xi16>, %B : vector<4x8xi16>, %C : vector<2x8xi32>) -> vector<2x8xi32> {
  // expected-error @+1 {{'aievec.matmul' does not support lhs vector<2x4xi16>, rhs vector<4x8xi16>, acc vector<2x8xi32>}}
  %0 = aievec.matmul %A, %B, %C : vector<2x4xi16>, vector<4x8xi16> into vector<2x8xi32>
  return %0 : vector<2x8xi32>
}

// -----

func.func @matmul_aie2p_acc(%A : vector<8x8xi8>, %B : vector<8x8xi8>, %C : vector<8x8xi64>) -> vector<8x8xi64> {
  // expected-error @+1 {{'aievec.matmul_aie2p' does not support lhs vector<8x8xi8>, rhs vector<8x8xi8>, acc vector<8x8xi64>}}
  %0 = aievec.matmul_aie2p %A, %B, %C : vector<8x8xi8>, vector<8x8xi8> into vector<8x8xi64>
  return %0 : vector<8x8xi64>
}

// -----

func.func @shuffle_element_width(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{'aievec.shuffle' does not support mode t32_4x4, result vector<32xi16>, rhs none}}
  %r = aievec.shuffle %v [t32_4x4] : vector<32xi16>
  return %r : vector<32xi16>
}

// -----

func.func @shuffle_extra_operand(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{'aievec.shuffle' does not support mode t16_4x8, result vector<32xi16>, rhs vector<32xi16>}}
  %r = aievec.shuffle %v, %v [t16_4x8] : vector<32xi16>
  return %r : vector<32xi16>
}

// -----

func.func @shuffle_missing_operand(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{'aievec.shuffle' does not support mode t16_16x4_lo, result vector<32xi16>, rhs none}}
  %r = aievec.shuffle %v [t16_16x4_lo] : vector<32xi16>
  return %r : vector<32xi16>
}

// -----

func.func @shuffle_unknown_mode(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{'t16_3x3' is not a valid mode of 'aievec.shuffle'}}
  %r = aievec.shuffle %v [t16_3x3] : vector<32xi16>
  return %r : vector<32xi16>
}

// -----

func.func @shuffle_mode_not_a_word(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{expected a keyword for 'mode' of 'aievec.shuffle', found '"t16_4x8"'}}
  %r = aievec.shuffle %v ["t16_4x8"] : vector<32xi16>
  return %r : vector<32xi16>
}

// -----

// Written in the generic form, a mode outside the list is caught by the
// signatures.
func.func @shuffle_generic_mode(%v : vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{'aievec.shuffle' does not support mode t9_9x9}}
  %r = "aievec.shuffle"(%v) {mode = "t9_9x9"} : (vector<32xi16>) -> vector<32xi16>
  return %r : vector<32xi16>
}

// -----

func.func @mul_elem_acc(%a : vector<32xi8>, %b : vector<32xi8>) -> vector<32xi64> {
  // expected-error @+1 {{'aievec.mul_elem' does not support lhs vector<32xi8>, result vector<32xi64>}}
  %0 = aievec.mul_elem %a, %b : vector<32xi8>, vector<32xi8>, vector<32xi64>
  return %0 : vector<32xi64>
}

// -----

func.func @mul_elem_operand_types(%a : vector<16xi32>, %b : vector<16xf32>) -> vector<16xi64> {
  // expected-error @+1 {{'rhs' of 'aievec.mul_elem' must have the type of 'lhs'}}
  %0 = aievec.mul_elem %a, %b : vector<16xi32>, vector<16xf32>, vector<16xi64>
  return %0 : vector<16xi64>
}

// -----

func.func @band_width(%a : vector<8xi32>) -> vector<8xi32> {
  // expected-error @+1 {{'aievec.band' does not support lhs vector<8xi32>}}
  %0 = aievec.band %a, %a : vector<8xi32>, vector<8xi32>, vector<8xi32>
  return %0 : vector<8xi32>
}

// -----

func.func @sel_result_type(%a : vector<16xi32>, %b : vector<16xi32>, %s : ui32) -> vector<16xf32> {
  // expected-error @+1 {{'result' of 'aievec.sel' must have the type of 'lhs'}}
  %0 = aievec.sel %a, %b, %s : vector<16xi32>, vector<16xi32>, ui32, vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// add_elem prints one type for its operands and result; in the generic
// form they can differ, and must not.
func.func @add_elem_generic(%a : vector<16xi32>, %b : vector<32xi16>) -> vector<16xi32> {
  // expected-error @+1 {{'rhs' of 'aievec.add_elem' must have the type of 'result'}}
  %0 = "aievec.add_elem"(%a, %b) : (vector<16xi32>, vector<32xi16>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// -----

func.func @broadcast_scalar_type(%s : i64) -> vector<8xi64> {
  // expected-error @+1 {{'aievec.broadcast_scalar' does not support source i64}}
  %0 = aievec.broadcast_scalar %s : i64, vector<8xi64>
  return %0 : vector<8xi64>
}

// -----

func.func @ext_elem_index(%v : vector<16xi32>, %i : index) -> i32 {
  // expected-error @+1 {{'aievec.ext_elem' does not support index index, result i32}}
  %0 = aievec.ext_elem %v, %i : vector<16xi32>, index, i32
  return %0 : i32
}

// -----

func.func @inv_type(%v : vector<16xbf16>) -> vector<16xbf16> {
  // expected-error @+1 {{'aievec.inv' does not support result vector<16xbf16>}}
  %0 = aievec.inv %v : vector<16xbf16>
  return %0 : vector<16xbf16>
}
