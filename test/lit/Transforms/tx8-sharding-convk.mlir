// The reduce split of a conv's K, its input channels
// (docs/passes/tx8-sharding.md): in time, partial sums in SPM across the
// channel slices, where no slice with every input channel fits SPM; and
// across a team of tiles where that is cheapest (small output, many input
// channels).
// RUN: npuc-opt %s --split-input-file --tx8-sharding | FileCheck %s
// RUN: npuc-opt %s --split-input-file --tx8-sharding=search-report=true -o %t.out 2>&1 | FileCheck %s --check-prefix=REPORT

// 3x3, 16384 -> 8 channels at 2x2, f16: the input channels 8 ways across
// tiles, the output channels 2 ways.
// CHECK-LABEL: func.func @k_across_tiles
// CHECK: tx8be.conv
// CHECK-SAME: reduce_sharding = 8 : i64
// CHECK-SAME: reduce_split = 2048 : i64
// CHECK-SAME: shape_spatial_sharding = [1, 1, 1, 2]
// REPORT: sharding 1x2x1x8 slice 1x1x2x1: {{[0-9]+}} cycles
// REPORT: sharding 1x1x1x1 slice 1x2x2x8 K 1024 over 16 tiles: {{[0-9]+}} cycles
// REPORT: tx8-search: {{.*}}tx8be.conv: chose sharding 1x1x1x2 slice 1x2x2x4 K 2048 over 8 tiles,
func.func @k_across_tiles(%x: tensor<1x2x2x16384xf16>, %w: tensor<3x3x8x16384xf16>) -> tensor<1x2x2x8xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x2x2x16384xf16>, tensor<3x3x8x16384xf16>) -> (tensor<1x2x2x8xf16>) {
  ^bb0(%a0: tensor<1x2x2x16384xf16>, %a1: tensor<3x3x8x16384xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x2x2x16384xf16> -> tensor<1x2x2x16384xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x8x16384xf16> -> tensor<3x3x8x16384xf16>
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x2x2x16384xf16>, tensor<3x3x8x16384xf16>, none -> tensor<1x2x2x8xf16>
    %4 = tx8be.store_var %3 : tensor<1x2x2x8xf16> -> tensor<1x2x2x8xf16>
    tx8be.return %4 : tensor<1x2x2x8xf16>
  }
  return %0 : tensor<1x2x2x8xf16>
}

// -----

// A 1x1 conv whose input channels fill 4 MiB at a single pixel: no slice
// of every input channel fits 3 MiB of SPM, so the channels go in slices
// in time (and across tiles).
// CHECK-LABEL: func.func @k_in_time
// CHECK: tx8be.conv
// CHECK-SAME: reduce_split =
// REPORT: tx8-search: {{.*}}tx8be.conv: chose sharding {{[0-9x]+}} slice {{[0-9x]+}} K {{[0-9]+}}
func.func @k_in_time(%x: tensor<1x1x1x2097152xf16>, %w: tensor<1x1x16x2097152xf16>) -> tensor<1x1x1x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x1x1x2097152xf16>, tensor<1x1x16x2097152xf16>) -> (tensor<1x1x1x16xf16>) {
  ^bb0(%a0: tensor<1x1x1x2097152xf16>, %a1: tensor<1x1x16x2097152xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x1x1x2097152xf16> -> tensor<1x1x1x2097152xf16>
    %2 = tx8be.load_var %a1 : tensor<1x1x16x2097152xf16> -> tensor<1x1x16x2097152xf16>
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x1x1x2097152xf16>, tensor<1x1x16x2097152xf16>, none -> tensor<1x1x1x16xf16>
    %4 = tx8be.store_var %3 : tensor<1x1x1x16xf16> -> tensor<1x1x1x16xf16>
    tx8be.return %4 : tensor<1x1x1x16xf16>
  }
  return %0 : tensor<1x1x1x16xf16>
}

// -----

// A given sharding (2 ways on the output channels) with a given
// reduce_sharding (4 ways on the input channels): both kept, only the
// splits searched.
// CHECK-LABEL: func.func @given_k_ways
// CHECK: tx8be.conv
// CHECK-SAME: reduce_sharding = 4 : i64
// CHECK-SAME: sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 2]
// REPORT: tx8-search: {{.*}}tx8be.conv: chose sharding 1x1x1x2 slice {{[0-9x]+}} K {{[0-9]+}} over 4 tiles,
func.func @given_k_ways(%x: tensor<1x4x4x1024xf16>, %w: tensor<3x3x16x1024xf16>) -> tensor<1x4x4x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w) : (tensor<1x4x4x1024xf16>, tensor<3x3x16x1024xf16>) -> (tensor<1x4x4x16xf16>) {
  ^bb0(%a0: tensor<1x4x4x1024xf16>, %a1: tensor<3x3x16x1024xf16>):
    %1 = tx8be.load_var %a0 : tensor<1x4x4x1024xf16> -> tensor<1x4x4x1024xf16>
    %2 = tx8be.load_var %a1 : tensor<3x3x16x1024xf16> -> tensor<3x3x16x1024xf16>
    %3 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] {reduce_sharding = 4 : i64, tile_parallel = #tx8be.parallel_attr<parallel = tp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 1, 1, 2]>} : tensor<1x4x4x1024xf16>, tensor<3x3x16x1024xf16>, none -> tensor<1x4x4x16xf16>
    %4 = tx8be.store_var %3 : tensor<1x4x4x16xf16> -> tensor<1x4x4x16xf16>
    tx8be.return %4 : tensor<1x4x4x16xf16>
  }
  return %0 : tensor<1x4x4x16xf16>
}
