// A gemm's or conv's reduce_split (the K slice tx8-sharding chose; a
// conv's K is its input channels) is checked by the group plan every later
// pass and the code generator build: it must be an integer in [1, K) on
// the group's only gemm or conv (a gemm not batched nor transpose_a, a
// conv not grouped) whose operands 0 and 1 are loads read by it alone.
// (tx8-sharding itself decides it again.)
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-spm-alloc -o %t.out

func.func @out_of_range(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<4x64xf32>, tensor<64x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x64xf32>, %a1: tensor<64x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.load_var %a1 : tensor<64x8xf32> -> tensor<64x8xf32>
    // expected-error@+1 {{tx8be.gemm: reduce_split 64 is not a K slice in [1, 64) of a gemm or conv the group can split}}
    %3 = tx8be.gemm %1, %2, %none {reduce_split = 64 : i64} : tensor<4x64xf32>, tensor<64x8xf32>, none -> tensor<4x8xf32>
    %4 = tx8be.store_var %3 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %4 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// a is computed in the group (its K slices would need the relu per slice).
func.func @computed_a(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<4x64xf32>, tensor<64x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x64xf32>, %a1: tensor<64x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.load_var %a1 : tensor<64x8xf32> -> tensor<64x8xf32>
    %5 = tx8be.relu %1 : tensor<4x64xf32> -> tensor<4x64xf32>
    // expected-error@+1 {{tx8be.gemm: reduce_split must be an integer on the group's only gemm or conv (a gemm not batched nor transpose_a, a conv not grouped) whose operands 0 and 1 are loads read by it alone}}
    %3 = tx8be.gemm %5, %2, %none {reduce_split = 16 : i64} : tensor<4x64xf32>, tensor<64x8xf32>, none -> tensor<4x8xf32>
    %4 = tx8be.store_var %3 : tensor<4x8xf32> -> tensor<4x8xf32>
    tx8be.return %4 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A reduce_sharding (K across tiles, tx8-sharding's) without the gemm's
// reduce_split.
func.func @without_reduce_split(%a: tensor<8x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<8x64xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<8x1024xf32>, tensor<1024x64xf32>) -> (tensor<8x64xf32>) {
  ^bb0(%a0: tensor<8x1024xf32>, %a1: tensor<1024x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<8x1024xf32> -> tensor<8x1024xf32>
    %2 = tx8be.load_var %a1 : tensor<1024x64xf32> -> tensor<1024x64xf32>
    // expected-error@+1 {{tx8be.gemm: reduce_sharding 4 cannot split K (1024) across tiles: it needs the gemm's reduce_split}}
    %3 = tx8be.gemm %1, %2, %none {reduce_sharding = 4 : i64} : tensor<8x1024xf32>, tensor<1024x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}

// -----

// A grouped conv: each group's input channels feed its own output
// channels only, so the input channels are not one K.
func.func @grouped_conv(%x: tensor<1x4x4x32xf16>, %w: tensor<3x3x32x16xf16>) -> tensor<1x4x4x32xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x32xf16>, tensor<3x3x32x16xf16>) -> (tensor<1x4x4x32xf16>) {
  ^bb0(%a0: tensor<1x4x4x32xf16>, %a1: tensor<3x3x32x16xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x32xf16> -> tensor<1x4x4x32xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x32x16xf16> -> tensor<3x3x32x16xf16>
    // expected-error@+1 {{tx8be.conv: reduce_split must be an integer on the group's only gemm or conv (a gemm not batched nor transpose_a, a conv not grouped) whose operands 0 and 1 are loads read by it alone}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 2 {reduce_split = 8 : i64} : tensor<1x4x4x32xf16>, tensor<3x3x32x16xf16>, none -> tensor<1x4x4x32xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x32xf16> -> tensor<1x4x4x32xf16>
    tx8be.return %4 : tensor<1x4x4x32xf16>
  }
  return %0 : tensor<1x4x4x32xf16>
}

// -----

// A conv's K slice beyond its 64 input channels.
func.func @conv_out_of_range(%x: tensor<1x4x4x64xf16>, %w: tensor<3x3x8x64xf16>) -> tensor<1x4x4x8xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x64xf16>, tensor<3x3x8x64xf16>) -> (tensor<1x4x4x8xf16>) {
  ^bb0(%a0: tensor<1x4x4x64xf16>, %a1: tensor<3x3x8x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x64xf16> -> tensor<1x4x4x64xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x8x64xf16> -> tensor<3x3x8x64xf16>
    // expected-error@+1 {{tx8be.conv: reduce_split 128 is not a K slice in [1, 64) of a gemm or conv the group can split}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {reduce_split = 128 : i64} : tensor<1x4x4x64xf16>, tensor<3x3x8x64xf16>, none -> tensor<1x4x4x8xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x8xf16> -> tensor<1x4x4x8xf16>
    tx8be.return %4 : tensor<1x4x4x8xf16>
  }
  return %0 : tensor<1x4x4x8xf16>
}

// -----

// A conv's reduce_sharding without its reduce_split.
func.func @conv_without_reduce_split(%x: tensor<1x4x4x64xf16>, %w: tensor<3x3x8x64xf16>) -> tensor<1x4x4x8xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x64xf16>, tensor<3x3x8x64xf16>) -> (tensor<1x4x4x8xf16>) {
  ^bb0(%a0: tensor<1x4x4x64xf16>, %a1: tensor<3x3x8x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x64xf16> -> tensor<1x4x4x64xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x8x64xf16> -> tensor<3x3x8x64xf16>
    // expected-error@+1 {{tx8be.conv: reduce_sharding 2 cannot split K (64) across tiles: it needs the conv's reduce_split}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {reduce_sharding = 2 : i64} : tensor<1x4x4x64xf16>, tensor<3x3x8x64xf16>, none -> tensor<1x4x4x8xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x8xf16> -> tensor<1x4x4x8xf16>
    tx8be.return %4 : tensor<1x4x4x8xf16>
  }
  return %0 : tensor<1x4x4x8xf16>
}
