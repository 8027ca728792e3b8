// The reduce (K) split across tiles (docs/passes/tx8-sharding.md): a gemm
// with small M and N and a long K leaves most tiles idle or re-reading
// when sharded over its output; the search gives K to a team of tiles,
// each reducing its part into fp32 partial sums summed into the team's
// first tile, when that is cheapest.
// RUN: npuc-opt %s --split-input-file --tx8-sharding | FileCheck %s
// RUN: npuc-opt %s --split-input-file --tx8-sharding=search-report=true -o %t.out 2>&1 | FileCheck %s --check-prefix=REPORT

// [16 x 16384] x [16384 x 64] bf16: K over the 16 tiles, 1024 each.
// CHECK-LABEL: func.func @k_across_tiles
// CHECK: tx8be.gemm
// CHECK-SAME: reduce_sharding = 16 : i64
// CHECK-SAME: reduce_split = 1024 : i64
// CHECK-SAME: shape_spatial_sharding = [1, 1]
// REPORT: sharding 8x2 slice
// REPORT: sharding 1x1 slice 16x64 K 1024 over 16 tiles: {{[0-9]+}} cycles
// REPORT: tx8-search: {{.*}}tx8be.gemm: chose sharding 1x1 slice 16x64 K 1024 over 16 tiles,
func.func @k_across_tiles(%a: tensor<16x16384xbf16>, %b: tensor<16384x64xbf16>) -> tensor<16x64xbf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<16x16384xbf16>, tensor<16384x64xbf16>) -> (tensor<16x64xbf16>) {
  ^bb0(%a0: tensor<16x16384xbf16>, %a1: tensor<16384x64xbf16>):
    %1 = tx8be.load_var %a0 : tensor<16x16384xbf16> -> tensor<16x16384xbf16>
    %2 = tx8be.load_var %a1 : tensor<16384x64xbf16> -> tensor<16384x64xbf16>
    %3 = tx8be.gemm %1, %2, %none : tensor<16x16384xbf16>, tensor<16384x64xbf16>, none -> tensor<16x64xbf16>
    %4 = tx8be.store_var %3 : tensor<16x64xbf16> -> tensor<16x64xbf16>
    tx8be.return %4 : tensor<16x64xbf16>
  }
  return %0 : tensor<16x64xbf16>
}

// -----

// A given sharding (2 ways on N) with a given reduce_sharding (4 ways on
// K): both kept, only the splits searched.
// CHECK-LABEL: func.func @given_k_ways
// CHECK: tx8be.gemm
// CHECK-SAME: reduce_sharding = 4 : i64
// CHECK-SAME: sharding_is_given = true, shape_spatial_sharding = [1, 2]
// REPORT: tx8-search: {{.*}}tx8be.gemm: chose sharding 1x2 slice 8x32 K {{[0-9]+}} over 4 tiles,
func.func @given_k_ways(%a: tensor<8x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<8x64xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<8x1024xf32>, tensor<1024x64xf32>) -> (tensor<8x64xf32>) {
  ^bb0(%a0: tensor<8x1024xf32>, %a1: tensor<1024x64xf32>):
    %1 = tx8be.load_var %a0 : tensor<8x1024xf32> -> tensor<8x1024xf32>
    %2 = tx8be.load_var %a1 : tensor<1024x64xf32> -> tensor<1024x64xf32>
    %3 = tx8be.gemm %1, %2, %none {reduce_sharding = 4 : i64, tile_parallel = #tx8be.parallel_attr<parallel = tp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 2]>} : tensor<8x1024xf32>, tensor<1024x64xf32>, none -> tensor<8x64xf32>
    %4 = tx8be.store_var %3 : tensor<8x64xf32> -> tensor<8x64xf32>
    tx8be.return %4 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}
