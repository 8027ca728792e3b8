// A given reduce_sharding (the gemm's or conv's K across a team of tiles, with the
// anchor's tile_parallel sharding_is_given = true) that cannot be honoured
// is a located error naming K (docs/passes/tx8-sharding.md, "Errors"); the
// group plan's own check is in tx8-reduce-split-errors.mlir.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-sharding -o %t.out

// 2 ways on N times 16 on K need 32 tiles; the default mesh has 16.
func.func @too_many_tiles(%a: tensor<8x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<8x64xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<8x1024xf32>, tensor<1024x64xf32>) -> (tensor<8x64xf32>) {
  ^bb0(%a0: tensor<8x1024xf32>, %a1: tensor<1024x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<8x1024xf32> -> tensor<8x1024xf32>
    %2 = tx8be.load_var %a1 : tensor<1024x64xf32> -> tensor<1024x64xf32>
    // expected-error@+1 {{the given sharding with reduce_sharding 16 (K across tiles) needs 32 tiles, the group has 16}}
    %3 = tx8be.gemm %1, %2, %none {reduce_sharding = 16 : i64, tile_parallel = #tx8be.parallel_attr<parallel = tp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 2]>} : tensor<8x1024xf32>, tensor<1024x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}

// -----

// K = 4 in 3 parts of 2: the third would be empty.
func.func @empty_part(%a: tensor<8x4xf32>, %b: tensor<4x64xf32>) -> tensor<8x64xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<8x4xf32>, tensor<4x64xf32>) -> (tensor<8x64xf32>) {
  ^bb0(%a0: tensor<8x4xf32>, %a1: tensor<4x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<8x4xf32> -> tensor<8x4xf32>
    %2 = tx8be.load_var %a1 : tensor<4x64xf32> -> tensor<4x64xf32>
    // expected-error@+1 {{the given reduce_sharding 3 cannot split K (the last dimension of the gemm's a, 4 long) across tiles: 2 to 4 ways, each tile's part not empty}}
    %3 = tx8be.gemm %1, %2, %none {reduce_sharding = 3 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1]>} : tensor<8x4xf32>, tensor<4x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}

// -----

// a is computed in the group (a relu of the load): its K parts would need
// the relu per part; this gemm's K does not split.
func.func @computed_a(%a: tensor<8x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<8x64xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<8x1024xf32>, tensor<1024x64xf32>) -> (tensor<8x64xf32>) {
  ^bb0(%a0: tensor<8x1024xf32>, %a1: tensor<1024x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<8x1024xf32> -> tensor<8x1024xf32>
    %2 = tx8be.load_var %a1 : tensor<1024x64xf32> -> tensor<1024x64xf32>
    %5 = tx8be.relu %1 : tensor<8x1024xf32> -> tensor<8x1024xf32>
    // expected-error@+1 {{the given reduce_sharding 4 splits K (the last dimension of the gemm's a) across tiles, but the group cannot split this K}}
    %3 = tx8be.gemm %5, %2, %none {reduce_sharding = 4 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1]>} : tensor<8x1024xf32>, tensor<1024x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}

// -----

// A conv's K is its input channels: 4 ways on the output channels times
// 8 on the input channels need 32 tiles.
func.func @conv_too_many_tiles(%x: tensor<1x4x4x1024xf16>, %w: tensor<3x3x16x1024xf16>) -> tensor<1x4x4x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x1024xf16>, tensor<3x3x16x1024xf16>) -> (tensor<1x4x4x16xf16>) {
  ^bb0(%a0: tensor<1x4x4x1024xf16>, %a1: tensor<3x3x16x1024xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x1024xf16> -> tensor<1x4x4x1024xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x16x1024xf16> -> tensor<3x3x16x1024xf16>
    // expected-error@+1 {{the given sharding with reduce_sharding 8 (K across tiles) needs 32 tiles, the group has 16}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {reduce_sharding = 8 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 4]>} : tensor<1x4x4x1024xf16>, tensor<3x3x16x1024xf16>, none -> tensor<1x4x4x16xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
    tx8be.return %4 : tensor<1x4x4x16xf16>
  }
  return %0 : tensor<1x4x4x16xf16>
}

// -----

// 3 input channels in 4 parts: the last would be empty.
func.func @conv_empty_part(%x: tensor<1x4x4x3xf16>, %w: tensor<3x3x16x3xf16>) -> tensor<1x4x4x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x3xf16>, tensor<3x3x16x3xf16>) -> (tensor<1x4x4x16xf16>) {
  ^bb0(%a0: tensor<1x4x4x3xf16>, %a1: tensor<3x3x16x3xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x3xf16> -> tensor<1x4x4x3xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x16x3xf16> -> tensor<3x3x16x3xf16>
    // expected-error@+1 {{the given reduce_sharding 4 cannot split K (the input channels, the last dimension of the conv's input, 3 long) across tiles: 2 to 3 ways, each tile's part not empty}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {reduce_sharding = 4 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 1]>} : tensor<1x4x4x3xf16>, tensor<3x3x16x3xf16>, none -> tensor<1x4x4x16xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
    tx8be.return %4 : tensor<1x4x4x16xf16>
  }
  return %0 : tensor<1x4x4x16xf16>
}

// -----

// A grouped conv: its input channels are not one K.
func.func @conv_grouped(%x: tensor<1x4x4x32xf16>, %w: tensor<3x3x32x16xf16>) -> tensor<1x4x4x32xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x32xf16>, tensor<3x3x32x16xf16>) -> (tensor<1x4x4x32xf16>) {
  ^bb0(%a0: tensor<1x4x4x32xf16>, %a1: tensor<3x3x32x16xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x32xf16> -> tensor<1x4x4x32xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x32x16xf16> -> tensor<3x3x32x16xf16>
    // expected-error@+1 {{the given reduce_sharding 2 splits K (the input channels, the last dimension of the conv's input) across tiles, but the group cannot split this K}}
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 2 {reduce_sharding = 2 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 1]>} : tensor<1x4x4x32xf16>, tensor<3x3x32x16xf16>, none -> tensor<1x4x4x32xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x32xf16> -> tensor<1x4x4x32xf16>
    tx8be.return %4 : tensor<1x4x4x32xf16>
  }
  return %0 : tensor<1x4x4x32xf16>
}
