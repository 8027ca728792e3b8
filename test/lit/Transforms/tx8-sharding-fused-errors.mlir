// The group plan's refusals on groups of several compute ops, located at
// the op (docs/passes/tx8-sharding.md).
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-sharding -o %t.out

// Outputs of two shapes: each output slice is the anchor's slice, so all
// outputs must have the anchor's shape.
func.func @two_shapes(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>) {
  %none = tx8be.none : none
  %0:2 = tx8be.group(%x, %w) : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>) {
  ^bb0(%a0: tensor<1x8x8x4xf32>, %a1: tensor<3x3x4x4xf32>):
    %1 = tx8be.load_var %a0 : tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    %2 = tx8be.load_var %a1 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
    %3 = tx8be.relu %1 : tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    %4 = tx8be.conv %3, %2, %none strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x4x4x4xf32>
    // expected-error@+1 {{tx8be.store_var: unsupported: the group's outputs must have one shape (the slices of its last output, 1x4x4x4, drive the loop), this one is 1x8x8x4: split the group here}}
    %5 = tx8be.store_var %3 : tensor<1x8x8x4xf32> -> tensor<1x8x8x4xf32>
    %6 = tx8be.store_var %4 : tensor<1x4x4x4xf32> -> tensor<1x4x4x4xf32>
    tx8be.return %5, %6 : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>
  }
  return %0#0, %0#1 : tensor<1x8x8x4xf32>, tensor<1x4x4x4xf32>
}

// -----

// A compute op whose result nothing reads and no store keeps.
func.func @dead(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %0 = tx8be.group(%x) : (tensor<4x16xf16>) -> (tensor<4x16xf16>) {
  ^bb0(%a0: tensor<4x16xf16>):
    %1 = tx8be.load_var %a0 : tensor<4x16xf16> -> tensor<4x16xf16>
    // expected-error@+1 {{tx8be.exp: unsupported: its value is neither read in the group nor stored}}
    %2 = tx8be.exp %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    %3 = tx8be.relu %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    %4 = tx8be.store_var %3 : tensor<4x16xf16> -> tensor<4x16xf16>
    tx8be.return %4 : tensor<4x16xf16>
  }
  return %0 : tensor<4x16xf16>
}

// -----

// A store of a group input: group results are computed in the group.
func.func @store_input(%x: tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
  %0:2 = tx8be.group(%x) : (tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
  ^bb0(%a0: tensor<4x16xf16>):
    %1 = tx8be.load_var %a0 : tensor<4x16xf16> -> tensor<4x16xf16>
    %2 = tx8be.relu %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    %3 = tx8be.store_var %2 : tensor<4x16xf16> -> tensor<4x16xf16>
    // expected-error@+1 {{tx8be.store_var: unsupported operand: it must store a compute result of the group (or its channel_norm)}}
    %4 = tx8be.store_var %1 : tensor<4x16xf16> -> tensor<4x16xf16>
    tx8be.return %3, %4 : tensor<4x16xf16>, tensor<4x16xf16>
  }
  return %0#0, %0#1 : tensor<4x16xf16>, tensor<4x16xf16>
}

// -----

// A layout conflict between two ops of the group: the relu's result is
// NTensor (compact), the conv's NCx; the add computes in the relu's layout
// (its first computed operand's) and the conv's result is not in it.
func.func @conflict(%x: tensor<1x4x4x8xf32>, %w: tensor<1x1x8x8xf32>) -> tensor<1x4x4x8xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>) -> (tensor<1x4x4x8xf32>) {
  ^bb0(%a0: tensor<1x4x4x8xf32>, %a1: tensor<1x1x8x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x8xf32> -> tensor<1x4x4x8xf32>
    %2 = tx8be.load_var %a1 : tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
    %3 = tx8be.relu %1 : tensor<1x4x4x8xf32> -> tensor<1x4x4x8xf32>
    %4 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>, none -> tensor<1x4x4x8xf32>
    // expected-error@+1 {{tx8be.add: layout conflict: operand #1 is aligned (NCx) but the op computes in NTensor (a tx8be.channel_norm must convert it)}}
    %5 = tx8be.add %3, %4 : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32> -> tensor<1x4x4x8xf32>
    %6 = tx8be.store_var %5 : tensor<1x4x4x8xf32> -> tensor<1x4x4x8xf32>
    tx8be.return %6 : tensor<1x4x4x8xf32>
  }
  return %0 : tensor<1x4x4x8xf32>
}
