// tx8be's structured attributes and constant ids are checked by the table
// verifier (tx8be-attrs.yaml, the verify: rule of load_const).
// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t

func.func @negative_const_id() {
  // expected-error @+1 {{'tx8be.load_const' op const_map_id must not be negative}}
  %0 = tx8be.load_const[-1] : tensor<16xf16>
  return
}

// -----
func.func @field_twice(%a: tensor<4x8xf16>) {
  // expected-error @+1 {{'#tx8be.dev_attr': field 'imm_size' given twice}}
  %0 = "tx8be.relu"(%a) {dev_info = #tx8be.dev_attr<imm_size = 0, imm_size = 1>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----
func.func @negative_field(%a: tensor<4x8xf16>) {
  // expected-error @+1 {{'#tx8be.dev_attr': field 'imm_size' must be an integer >= 0}}
  %0 = "tx8be.relu"(%a) {dev_info = #tx8be.dev_attr<imm_size = -4, mem_layout = NCx>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----
func.func @unknown_field(%a: tensor<4x8xf16>) {
  // expected-error @+1 {{'#tx8be.dev_attr' has no field 'imm_sz'}}
  %0 = "tx8be.relu"(%a) {dev_info = #tx8be.dev_attr<imm_sz = 0>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}
