// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Errors in tx8be's custom syntax, at the offending token.

func.func @bad_layout(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{'NC' is not a valid layout of 'tx8be.channel_norm'}}
  %0 = tx8be.channel_norm %arg0 to <NC> : tensor<4x8xf16> -> tensor<4x8xf16>
  return
}

// -----

func.func @missing_to(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{expected 'to' in custom syntax of 'tx8be.channel_norm', found '<'}}
  %0 = tx8be.channel_norm %arg0 <NCx> : tensor<4x8xf16> -> tensor<4x8xf16>
  return
}

// -----

func.func @missing_bias(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{expected ',' in custom syntax of 'tx8be.gemm', found ':'}}
  %0 = tx8be.gemm %arg0, %arg0 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @conv_strides(%arg0: tensor<1x4x4x8xf16>, %arg1: tensor<1x1x8x8xf16>, %arg2: none) {
  // expected-error @+1 {{expected an integer list [..] for 'strides' of 'tx8be.conv', found '1'}}
  %0 = tx8be.conv %arg0, %arg1, %arg2 strides = 1 pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>, none -> tensor<1x4x4x8xf16>
  return
}

// -----

func.func @unknown_op(%arg0: tensor<4x8xf16>) {
  // expected-error @+1 {{unknown op 'tx8be.rellu' in dialect 'tx8be'; did you mean 'tx8be.relu'}}
  %0 = tx8be.rellu %arg0 : tensor<4x8xf16> -> tensor<4x8xf16>
  return
}
