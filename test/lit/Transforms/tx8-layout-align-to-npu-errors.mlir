// tx8-layout-align-to-npu: what it cannot place is an error at the op,
// naming it and the reason: no layout yet, a layout that names none, a
// conflict no channel_norm resolves (an aligned-only op on a dtype Cx/NCx
// cannot hold), a dynamic shape, a dev_info it cannot read.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-layout-align-to-npu -o %t.out
// RUN: not npuc-opt %s --split-input-file --tx8-layout-align-to-npu 2>&1 | FileCheck %s
// CHECK-COUNT-7: error: tx8-layout-align-to-npu
// CHECK: error: '#tx8be.dev_attr' has no field 'mem'
// CHECK-NOT: func.func

func.func @no_layout(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{tx8-layout-align-to-npu: 'tx8be.relu' has no layout_str: run tx8-layout-init and tx8-layout-transmit first}}
  %0 = tx8be.relu %x : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @unknown_layout(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{'tx8be.exp' has no layout_str: run tx8-layout-init}}
  %0 = tx8be.exp %x {layout_str = "UNKNOWN"} : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @bad_layout(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{'tx8be.exp' has an invalid layout_str: 'NHWC' does not name a layout of the rank-2 result}}
  %0 = tx8be.exp %x {layout_str = "NHWC"} : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @int32_batchnorm(%x: tensor<2x4x16xi32>, %s: tensor<16xf32>) -> tensor<2x4x16xi32> {
  // expected-error@+1 {{'tx8be.batchnorm_inference' needs operand 0 in NCx, but Cx/NCx hold f16, bf16, f32 and i8 only}}
  %0 = tx8be.batchnorm_inference %x, %s, %s, %s, %s {layout_str = "NTensor"} : tensor<2x4x16xi32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x4x16xi32>
  return %0 : tensor<2x4x16xi32>
}

// -----

func.func @f64_weight(%a: tensor<8x32xf16>, %b: tensor<32x16xf64>) -> tensor<8x16xf16> {
  %none = tx8be.none : none
  // expected-error@+1 {{'tx8be.gemm' needs operand 1 in Cx, but Cx/NCx hold f16, bf16, f32 and i8 only}}
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor-Tensor-Tensor"} : tensor<8x32xf16>, tensor<32x16xf64>, none -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

func.func @dynamic(%x: tensor<?x16xf16>) -> tensor<?x16xf16> {
  // expected-error@+1 {{'tx8be.relu' has a result without a static shape: memory layouts place static tensors only}}
  %0 = tx8be.relu %x {layout_str = "Tensor"} : tensor<?x16xf16> -> tensor<?x16xf16>
  return %0 : tensor<?x16xf16>
}

// -----

func.func @dynamic_operand(%x: tensor<?x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{'tx8be.batchnorm_inference' has operand 0 without a static shape}}
  %0 = tx8be.batchnorm_inference %x, %x, %x, %x, %x {layout_str = "Tensor"} : tensor<?x16xf16>, tensor<?x16xf16>, tensor<?x16xf16>, tensor<?x16xf16>, tensor<?x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @bad_dev_info(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{'#tx8be.dev_attr' has no field 'mem'}}
  %0 = tx8be.relu %x {layout_str = "Tensor", dev_info = #tx8be.dev_attr<mem = Cx>} : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}
