// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// The table verifier on tx8be ops, written in MLIR's generic form since the
// custom syntax cannot express most of these errors.

func.func @operand_count(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{'tx8be.gemm' has 2 operands, which do not fit its operand groups}}
  %0 = "tx8be.gemm"(%arg0, %arg0) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @operand_kind(%arg0: tensor<4x8xf16>, %arg1: f16) {
  // expected-error @+1 {{operand 'b' of 'tx8be.gemm' must be a tensor}}
  %0 = "tx8be.gemm"(%arg0, %arg1, %arg1) : (tensor<4x8xf16>, f16, f16) -> tensor<4x4xf16>
  return
}

// -----

func.func @result_kind(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{result of 'tx8be.relu' must be a tensor}}
  %0 = "tx8be.relu"(%arg0) : (tensor<4x8xf16>) -> f16
  return
}

// -----

func.func @result_count(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{'tx8be.exp' expects 1 result, got 0}}
  "tx8be.exp"(%arg0) : (tensor<4x8xf16>) -> ()
  return
}

// -----

func.func @attr_missing(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{'tx8be.transpose' needs attribute 'permutation'}}
  %0 = "tx8be.transpose"(%arg0) : (tensor<4x8xf16>) -> tensor<8x4xf16>
  return
}

// -----

func.func @attr_kind() {
  // expected-error @+1 {{attribute 'const_map_id' of 'tx8be.load_const' has the wrong kind}}
  %0 = "tx8be.load_const"() {const_map_id = "3"} : () -> tensor<4xf16>
  return
}

// -----

func.func @layout_mnemonic(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{attribute 'layout' of 'tx8be.channel_norm' has the wrong kind}}
  %0 = "tx8be.channel_norm"(%arg0) {layout = #tx8be.mem_scope<SPM>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @dev_info_mnemonic(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{attribute 'dev_info' of 'tx8be.relu' has the wrong kind}}
  %0 = "tx8be.relu"(%arg0) {dev_info = #tx8be.parallel_attr<parallel = dp>} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @parallel_not_opaque(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{attribute 'tile_parallel' of 'tx8be.add' has the wrong kind}}
  %0 = "tx8be.add"(%arg0, %arg0) {tile_parallel = {dp_dim_x = 1 : i32}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @group_region(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{'tx8be.group' expects 1 region}}
  %0 = "tx8be.group"(%arg0) {group_id = 0 : si32} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @group_attr(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{attribute 'need_barrier' of 'tx8be.group' has the wrong kind}}
  %0 = "tx8be.group"(%arg0) ({
  ^bb0(%arg1: tensor<4x8xf16>):
    "tx8be.return"(%arg1) : (tensor<4x8xf16>) -> ()
  }) {need_barrier = 1 : i32} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @unknown_op(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{unknown op 'tx8be.gem' in dialect 'tx8be'; did you mean 'tx8be.gemm'}}
  %0 = "tx8be.gem"(%arg0) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}
