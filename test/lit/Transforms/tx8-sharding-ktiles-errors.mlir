// A given reduce_sharding (the gemm's K across a team of tiles, with the
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
    // expected-error@+1 {{the given reduce_sharding 4 splits K (the last dimension of the gemm's a) across tiles, but the group cannot split this gemm's K}}
    %3 = tx8be.gemm %5, %2, %none {reduce_sharding = 4 : i64, tile_parallel = #tx8be.parallel_attr<parallel = none, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1]>} : tensor<8x1024xf32>, tensor<1024x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}
