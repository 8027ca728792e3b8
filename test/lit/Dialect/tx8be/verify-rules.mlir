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

// -----

// A tx8be.slice is read from its input at offsets + i * strides, i below
// the result's size: every read must be inside the input (issue 15: it
// was checked only by --target=tx8's slice rules; npuc-opt accepted it).
func.func @slice_past_end(%a: tensor<2x6x5x65xf32>) -> tensor<2x3x2x65xf32> {
  // expected-error@+1 {{'tx8be.slice' reads outside 'input' along dimension 2: offset 3, size 2 and stride 2 reach index 5, the dimension has 5}}
  %0 = tx8be.slice %a offsets = [0, 1, 3, 0] sizes = [2, 3, 2, 65] strides = [1, 2, 2, 1] : tensor<2x6x5x65xf32> -> tensor<2x3x2x65xf32>
  return %0 : tensor<2x3x2x65xf32>
}

// -----

func.func @slice_generic(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tx8be.slice' reads outside 'input' along dimension 0: offset 5, size 4 and stride 1 reach index 8, the dimension has 8}}
  %0 = "tx8be.slice"(%a) {offsets = array<i64: 5>, sizes = array<i64: 4>, strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Offsets and strides near 2^63: the last index is computed checked.
func.func @slice_overflow(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tx8be.slice' reads outside 'input' along dimension 0: offset 1, size 4 and stride 4611686018427387904 reach an index beyond int64, the dimension has 8}}
  %0 = tx8be.slice %a offsets = [1] sizes = [4] strides = [4611686018427387904] : tensor<8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_offset_overflow(%a: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{reach an index beyond int64}}
  %0 = tx8be.slice %a offsets = [9223372036854775807] sizes = [2] strides = [1] : tensor<8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_negative(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tx8be.slice' dimension 0: the offset (-1) must not be negative and the stride (1) must be positive}}
  %0 = tx8be.slice %a offsets = [-1] sizes = [4] strides = [1] : tensor<8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_stride_zero(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the stride (0) must be positive}}
  %0 = tx8be.slice %a offsets = [0] sizes = [4] strides = [0] : tensor<8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_sizes(%a: tensor<8x8xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{attribute 'sizes' of 'tx8be.slice' must be the shape of 'output': entry 1 is 5, the dimension 4}}
  %0 = tx8be.slice %a offsets = [0, 0] sizes = [4, 5] strides = [1, 1] : tensor<8x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @slice_lengths(%a: tensor<8x8xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{attribute 'offsets' of 'tx8be.slice' must have one entry per dimension of 'input' (2), not 1}}
  %0 = tx8be.slice %a offsets = [0] sizes = [4, 4] strides = [1, 1] : tensor<8x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @slice_rank(%a: tensor<8x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tx8be.slice': 'output' must have the rank of 'input' (2)}}
  %0 = tx8be.slice %a offsets = [0, 0] sizes = [4] strides = [1, 1] : tensor<8x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// What verifies: the last row and column exactly, a size-0 dimension at
// the end of the input (it reads nothing), and a dynamic size (the rule
// cannot tell, as MLIR's own verifiers).
func.func @slice_ok(%a: tensor<8x8xf32>, %d: tensor<?x8xf32>) -> (tensor<4x2xf32>, tensor<0x8xf32>, tensor<2x8xf32>) {
  %0 = tx8be.slice %a offsets = [1, 1] sizes = [4, 2] strides = [2, 6] : tensor<8x8xf32> -> tensor<4x2xf32>
  %1 = tx8be.slice %a offsets = [8, 0] sizes = [0, 8] strides = [1, 1] : tensor<8x8xf32> -> tensor<0x8xf32>
  %2 = tx8be.slice %d offsets = [100, 0] sizes = [2, 8] strides = [1, 1] : tensor<?x8xf32> -> tensor<2x8xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<0x8xf32>, tensor<2x8xf32>
}
