// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Errors the table-driven verifier and the syntax reader raise for aievec
// and aievec_aie1 ops: operand kinds and counts, attribute kinds, results,
// unknown names and custom syntax that does not fit the table's format.

func.func @upd_source_kind(%arg0: vector<16xi32>, %arg1: index) {
  // expected-error @+1 {{operand 'source' of 'aievec.upd' must be a memref}}
  %0 = aievec.upd %arg0[%arg1] {index = 0 : i8, offset = 0 : i32} : vector<16xi32>, vector<16xi32>
  return
}

// -----

func.func @upd_segments(%arg0: memref<64xi32>, %arg1: index) {
  // expected-error @+1 {{'aievec.upd' has 2 operands, which do not fit its operand groups (operandSegmentSizes missing or wrong)}}
  %0 = "aievec.upd"(%arg0, %arg1) {index = 0 : i8, offset = 0 : i32} : (memref<64xi32>, index) -> vector<16xi32>
  return
}

// -----

func.func @upd_offset_kind(%arg0: memref<64xi32>, %arg1: index) {
  // expected-error @+1 {{attribute 'offset' of 'aievec.upd' has the wrong kind}}
  %0 = aievec.upd %arg0[%arg1] {index = 0 : i8, offset = "224"} : memref<64xi32>, vector<16xi32>
  return
}

// -----

func.func @srs_shift_kind(%arg0: vector<8xi80>, %arg1: f32) {
  // expected-error @+1 {{operand 'shift' of 'aievec.srs' must be an integer or index}}
  %0 = aievec.srs %arg0, %arg1 : vector<8xi80>, f32, vector<8xi32>
  return
}

// -----

func.func @shift_isacc_kind(%arg0: vector<32xi16>, %arg1: i32) {
  // expected-error @+1 {{attribute 'isAcc' of 'aievec.shift' has the wrong kind}}
  %0 = aievec.shift %arg0, %arg0, %arg1 {isAcc = 0 : i32} : vector<32xi16>, vector<32xi16>, i32, vector<32xi16>
  return
}

// -----

func.func @mac_operands(%arg0: vector<16xi32>, %arg1: vector<8xi32>) {
  // expected-error @+1 {{'aievec_aie1.mac' has 2 operands, which do not fit its operand groups}}
  %0 = "aievec_aie1.mac"(%arg0, %arg1) {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "0"} : (vector<16xi32>, vector<8xi32>) -> vector<8xi80>
  return
}

// -----

func.func @mac_offsets_kind(%arg0: vector<16xi32>, %arg1: vector<8xi32>, %arg2: vector<8xi80>) {
  // expected-error @+1 {{attribute 'xoffsets' of 'aievec_aie1.mac' has the wrong kind}}
  %0 = aievec_aie1.mac %arg0, %arg1, %arg2 {xoffsets = 1985229328 : i32, xstart = "0", zoffsets = "0x00000000", zstart = "0"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
  return
}

// -----

func.func @mac_fmsub_kind(%arg0: vector<16xi32>, %arg1: vector<8xi32>, %arg2: vector<8xi80>) {
  // expected-error @+1 {{attribute 'fmsub' of 'aievec_aie1.mac' has the wrong kind}}
  %0 = aievec_aie1.mac %arg0, %arg1, %arg2 {fmsub = "true"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
  return
}

// -----

func.func @mul_results(%arg0: vector<16xi16>) {
  // expected-error @+1 {{'aievec_aie1.mul' expects 1 result, got 2}}
  %0:2 = "aievec_aie1.mul"(%arg0, %arg0) : (vector<16xi16>, vector<16xi16>) -> (vector<16xi48>, vector<16xi48>)
  return
}

// -----

func.func @select_string(%arg0: vector<32xi16>) {
  // expected-error @+1 {{attribute 'select' of 'aievec_aie1.select' has the wrong kind}}
  %0 = aievec_aie1.select %arg0 {select = 3435973836 : i64} : vector<32xi16>, vector<32xi16>
  return
}

// -----

func.func @unknown_op(%arg0: vector<16xi16>) {
  // expected-error @+1 {{unknown op 'aievec_aie1.mak' in dialect 'aievec_aie1'; did you mean 'aievec_aie1.mac'}}
  %0 = aievec_aie1.mak %arg0, %arg0 : vector<16xi16>, vector<16xi16>, vector<16xi48>
  return
}

// -----

func.func @unknown_generic(%arg0: vector<16xi16>) {
  // expected-error @+1 {{unknown op 'aievec.upds' in dialect 'aievec'; did you mean 'aievec.upd'}}
  %0 = "aievec.upds"(%arg0) : (vector<16xi16>) -> vector<16xi48>
  return
}

// -----

func.func @srs_needs_shift(%arg0: vector<16xi48>) {
  // expected-error @+1 {{expected ',' in custom syntax of 'aievec.srs', found '{'}}
  %0 = aievec.srs %arg0 {shift = 0 : i8} : vector<16xi48>, vector<16xi16>
  return
}
