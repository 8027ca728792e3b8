// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// The `verify:` rules of the tx8be table (docs/op-tables.md): relations
// between operands, results and attributes, checked as the input is read,
// in custom and generic form alike.
// A reshape that changes the element count compiled, and the program read
// past its buffer; now npuc-compile stops at the op and writes nothing.
// RUN: rm -rf %t.out %t.dir && mkdir %t.dir
// RUN: sed -n '/^func.func @reshape_count/,/^}/p' %s > %t.dir/reshape.mlir
// RUN: not npuc-compile --target=tx8 %t.dir/reshape.mlir -o %t.out 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMPILE
// RUN: not test -e %t.out
// COMPILE: reshape.mlir:3:8: error: 'tx8be.reshape' must keep the element count: 'input' has 32 elements, 'output' 33

func.func @reshape_count(%x: tensor<4x8xf32>) -> tensor<3x11xf32> {
  // expected-error@+1 {{'tx8be.reshape' must keep the element count: 'input' has 32 elements, 'output' 33}}
  %0 = tx8be.reshape %x : tensor<4x8xf32> -> tensor<3x11xf32>
  return %0 : tensor<3x11xf32>
}

// -----

func.func @reshape_generic(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{must keep the element count: 'input' has 32 elements, 'output' 16}}
  %0 = "tx8be.reshape"(%x) : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Dynamic sizes cannot be compared: the rule passes them.
func.func @reshape_dynamic(%x: tensor<?x8xf32>) -> tensor<2x16xf32> {
  %0 = tx8be.reshape %x : tensor<?x8xf32> -> tensor<2x16xf32>
  %1 = tx8be.reshape %0 : tensor<2x16xf32> -> tensor<32xf32>
  %2 = tx8be.reshape %1 : tensor<32xf32> -> tensor<2x16xf32>
  return %2 : tensor<2x16xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{attribute 'permutation' of 'tx8be.transpose' must be a permutation of 0..1 (the dimensions of 'input')}}
  %0 = tx8be.transpose %x permutation = [5, 9] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @transpose_short(%x: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  // expected-error@+1 {{must be a permutation of 0..2}}
  %0 = tx8be.transpose %x permutation = [1, 0] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}

// -----

func.func @transpose_shape(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'tx8be.transpose' dimension 0 of 'output' is 4, but dimension 1 of 'input' is 8}}
  %0 = tx8be.transpose %x permutation = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @transpose_rank(%x: tensor<4x8xf32>) -> tensor<8x4x1xf32> {
  // expected-error@+1 {{'tx8be.transpose': 'output' must have the rank of 'input' (2)}}
  %0 = tx8be.transpose %x permutation = [1, 0] : tensor<4x8xf32> -> tensor<8x4x1xf32>
  return %0 : tensor<8x4x1xf32>
}

// -----

func.func @conv_group_zero(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x16x8xf16>) -> tensor<1x14x14x16xf16> {
  %b = tx8be.none : none
  // expected-error@+1 {{attribute 'group' of 'tx8be.conv' must be a positive integer}}
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] group = 0 : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, none -> tensor<1x14x14x16xf16>
  return %0 : tensor<1x14x14x16xf16>
}

// -----

func.func @conv_group_channels(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x16x1xf16>) -> tensor<1x14x14x16xf16> {
  %b = tx8be.none : none
  // expected-error@+1 {{attribute 'group' of 'tx8be.conv' (3) must divide dimension 3 of 'input' (8)}}
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] group = 3 : tensor<1x16x16x8xf16>, tensor<3x3x16x1xf16>, none -> tensor<1x14x14x16xf16>
  return %0 : tensor<1x14x14x16xf16>
}

// -----

func.func @conv_strides(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x16x8xf16>) -> tensor<1x14x14x16xf16> {
  %b = tx8be.none : none
  // expected-error@+1 {{attribute 'strides' of 'tx8be.conv' must hold positive integers}}
  %0 = tx8be.conv %x, %w, %b strides = [0, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, none -> tensor<1x14x14x16xf16>
  return %0 : tensor<1x14x14x16xf16>
}

// -----

func.func @conv_dilations(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x16x8xf16>) -> tensor<1x14x14x16xf16> {
  %b = tx8be.none : none
  // expected-error@+1 {{attribute 'dilations' of 'tx8be.conv' must hold positive integers}}
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, -1] : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, none -> tensor<1x14x14x16xf16>
  return %0 : tensor<1x14x14x16xf16>
}

// -----

func.func @conv_pads(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x16x8xf16>) -> tensor<1x14x14x16xf16> {
  %b = tx8be.none : none
  // expected-error@+1 {{attribute 'pads' of 'tx8be.conv' must hold non-negative integers}}
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, -2, 0, 0] dilations = [1, 1] : tensor<1x16x16x8xf16>, tensor<3x3x16x8xf16>, none -> tensor<1x14x14x16xf16>
  return %0 : tensor<1x14x14x16xf16>
}

// -----

func.func @pool_kernel(%x: tensor<2x6x5x65xf32>) -> tensor<2x3x3x65xf32> {
  // expected-error@+1 {{attribute 'kernel' of 'tx8be.max_pool' must hold positive integers}}
  %0 = tx8be.max_pool %x kernel = [0, 3] strides = [2, 2] pads = [1, 1, 1, 1] : tensor<2x6x5x65xf32> -> tensor<2x3x3x65xf32>
  return %0 : tensor<2x3x3x65xf32>
}

// -----

// A callee that is not a symbol printed as `tx8be.call[]`, which does not
// parse back; it is refused as it is read.
func.func @call_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{attribute 'callee' of 'tx8be.call' must be a symbol (@name)}}
  %0 = "tx8be.call"(%x) {callee = "sg0"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @call_int(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{must be a symbol}}
  %0 = tx8be.call[3] (%x) : (tensor<4xf32>) -> (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
