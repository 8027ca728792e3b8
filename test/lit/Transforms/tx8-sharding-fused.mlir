// tx8-sharding on groups of several compute ops: the anchor (the output
// defined last) drives the split; a dimension splits only if every op of
// the group allows it along the anchor (conv shards N, H and W; batchnorm
// and the elementwise ops any dimension), the cheapest sharding and split
// for the busiest tile;
// SPM holds every buffer of the group (loads, intermediates, outputs) at
// once; every compute op gets dev_info with its result's SPM offset and
// largest slice, the anchor's compute op the sharding.
// RUN: npuc-opt %s --split-input-file --tx8-sharding | FileCheck %s
// RUN: npuc-opt %s --split-input-file --tx8-sharding=spm-bytes=5376 | FileCheck %s --check-prefix=SMALL
// Gemm -> add bias -> gelu: the 64 rows over the 16 tiles, each reading
// all of b (3 KiB) once and its 4 rows in two slices of 2 (the slice
// loop model's cheapest: the second slice's load overlaps the first's
// chain; it was one slice of 4 by the closed form); the intermediates
// take the gemm's Cx. With 5376 bytes of
// SPM the same fits (it was 8 x 2 tiles in slices of 8 rows).
// CHECK-LABEL: func.func @gemm_bias_gelu
// CHECK: spm_alloc_size = 5376 : ui32
// CHECK: tx8be.gemm
// CHECK-SAME: mem_layout = Cx,{{.*}} temporal_mem_slice = [2, 48],{{.*}} imm_addr = 0, mem_addr = [4608]
// CHECK-NOT: tile_parallel
// CHECK: tx8be.add
// CHECK-SAME: mem_layout = Cx,{{.*}} temporal_mem_slice = [2, 48],{{.*}} imm_addr = 0, mem_addr = [4864]
// CHECK-NOT: tile_parallel
// CHECK: tx8be.gelu
// CHECK-SAME: mem_layout = Cx,{{.*}} temporal_mem_slice = [2, 48],{{.*}} imm_addr = 0, mem_addr = [5120]
// CHECK-SAME: shape_spatial_sharding = [16, 1]
// SMALL-LABEL: func.func @gemm_bias_gelu
// SMALL: spm_alloc_size = 5376 : ui32
// SMALL: tx8be.gelu
// SMALL-SAME: temporal_mem_slice = [2, 48]
// SMALL-SAME: shape_spatial_sharding = [16, 1]
func.func @gemm_bias_gelu(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>, %v: tensor<48xf16>) -> tensor<64x48xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b, %v) : (tensor<64x32xf16>, tensor<32x48xf16>, tensor<48xf16>) -> (tensor<64x48xf16>) {
  ^bb0(%a0: tensor<64x32xf16>, %a1: tensor<32x48xf16>, %a2: tensor<48xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x32xf16> -> tensor<64x32xf16>
    %2 = tx8be.load_var %a1 : tensor<32x48xf16> -> tensor<32x48xf16>
    %3 = tx8be.load_var %a2 : tensor<48xf16> -> tensor<48xf16>
    %4 = tx8be.gemm %1, %2, %none : tensor<64x32xf16>, tensor<32x48xf16>, none -> tensor<64x48xf16>
    %5 = tx8be.add %4, %3 : tensor<64x48xf16>, tensor<48xf16> -> tensor<64x48xf16>
    %6 = tx8be.gelu %5 : tensor<64x48xf16> -> tensor<64x48xf16>
    %7 = tx8be.store_var %6 : tensor<64x48xf16> -> tensor<64x48xf16>
    tx8be.return %7 : tensor<64x48xf16>
  }
  return %0 : tensor<64x48xf16>
}

// -----

// Conv -> conv on one tile: the halos compose, a slice of 8 anchor rows
// needs 10 rows of the first conv's result (and 12 of the input).
// CHECK-LABEL: func.func @conv_conv
// CHECK: tx8be.conv
// CHECK-SAME: temporal_mem_slice = [1, 10, 8, 4]
// CHECK: tx8be.conv
// CHECK-SAME: temporal_mem_slice = [1, 8, 8, 4]
// CHECK-SAME: shape_spatial_sharding = [1, 1, 1, 1]
// SMALL-LABEL: func.func @conv_conv
// With 5376 bytes of SPM the search takes slices of 4 anchor rows (6 of
// the first conv's result): a later slice keeps the input rows the slice
// before loaded (halo_saving), which the estimate credits.
// SMALL: spm_alloc_size = 3840 : ui32
// SMALL: tx8be.conv
// SMALL-SAME: temporal_mem_slice = [1, 6, 8, 4]
// SMALL: tx8be.conv
// SMALL-SAME: temporal_mem_slice = [1, 4, 8, 4]
func.func @conv_conv(%x: tensor<1x16x8x4xf32>, %w1: tensor<3x3x4x4xf32>, %w2: tensor<3x3x4x4xf32>) -> tensor<1x16x8x4xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w1, %w2) : (tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, tensor<3x3x4x4xf32>) -> (tensor<1x16x8x4xf32>) attributes {dev_region = #tx8be.region_attr<tile_dx = 1, tile_dy = 1>} {
  ^bb0(%a0: tensor<1x16x8x4xf32>, %a1: tensor<3x3x4x4xf32>, %a2: tensor<3x3x4x4xf32>):
    %1 = tx8be.load_var %a0 : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    %2 = tx8be.load_var %a1 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
    %3 = tx8be.load_var %a2 : tensor<3x3x4x4xf32> -> tensor<3x3x4x4xf32>
    %4 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
    %5 = tx8be.conv %4, %3, %none strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x16x8x4xf32>, tensor<3x3x4x4xf32>, none -> tensor<1x16x8x4xf32>
    %6 = tx8be.store_var %5 : tensor<1x16x8x4xf32> -> tensor<1x16x8x4xf32>
    tx8be.return %6 : tensor<1x16x8x4xf32>
  }
  return %0 : tensor<1x16x8x4xf32>
}

// -----

// Conv -> batchnorm -> relu: conv shards N, H and W, batchnorm (per
// channel) and relu any dimension, so the group shards N 2 ways and H 8
// ways (all 16 tiles busy); the split then cuts nothing more (C stays whole in time for the
// batchnorm). The batchnorm's scratch is the group's, after all the
// buffers.
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK: spm_alloc_size = 2560 : ui32
// CHECK: tx8be.batchnorm_inference
// CHECK-SAME: imm_size = 768, mem_layout = NCx,{{.*}} temporal_mem_slice = [1, 1, 8, 16],{{.*}} imm_addr = 1792, mem_addr = [1280]
// CHECK: tx8be.relu
// CHECK-SAME: imm_size = 0, mem_layout = NCx
// CHECK-SAME: shape_spatial_sharding = [2, 8, 1, 1]
// Sharded 8 ways along H, a tile's [2, 1, 8, 16] fits 5376 bytes whole.
// SMALL-LABEL: func.func @conv_bn_relu
// SMALL: tx8be.relu
// SMALL-SAME: temporal_mem_slice = [1, 1, 8, 16]

func.func @conv_bn_relu(%x: tensor<2x8x8x16xf16>, %w: tensor<1x1x16x16xf16>, %s: tensor<16xf32>) -> tensor<2x8x8x16xf16> {
  %none = tx8be.none : none
  %0 = tx8be.group(%x, %w, %s) : (tensor<2x8x8x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf32>) -> (tensor<2x8x8x16xf16>) {
  ^bb0(%a0: tensor<2x8x8x16xf16>, %a1: tensor<1x1x16x16xf16>, %a2: tensor<16xf32>):
    %1 = tx8be.load_var %a0 : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
    %2 = tx8be.load_var %a1 : tensor<1x1x16x16xf16> -> tensor<1x1x16x16xf16>
    %3 = tx8be.load_var %a2 : tensor<16xf32> -> tensor<16xf32>
    %4 = tx8be.conv %1, %2, %none strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<2x8x8x16xf16>, tensor<1x1x16x16xf16>, none -> tensor<2x8x8x16xf16>
    %5 = tx8be.batchnorm_inference %4, %3, %3, %3, %3 : tensor<2x8x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x8x16xf16>
    %6 = tx8be.relu %5 : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
    %7 = tx8be.store_var %6 : tensor<2x8x8x16xf16> -> tensor<2x8x8x16xf16>
    tx8be.return %7 : tensor<2x8x8x16xf16>
  }
  return %0 : tensor<2x8x8x16xf16>
}

// -----

// Two outputs of one shape: the gemm's result is stored on the way to the
// exp's, the anchor.
// CHECK-LABEL: func.func @two_outputs
// CHECK: tx8be.gemm
// CHECK-NOT: tile_parallel
// CHECK: tx8be.exp
// CHECK-SAME: temporal_mem_slice = [2, 16]
// CHECK-SAME: shape_spatial_sharding = [16, 1]
func.func @two_outputs(%a: tensor<32x16xf32>, %b: tensor<16x16xf32>) -> (tensor<32x16xf32>, tensor<32x16xf32>) {
  %none = tx8be.none : none
  %0:2 = tx8be.group(%a, %b) : (tensor<32x16xf32>, tensor<16x16xf32>) -> (tensor<32x16xf32>, tensor<32x16xf32>) {
  ^bb0(%a0: tensor<32x16xf32>, %a1: tensor<16x16xf32>):
    %1 = tx8be.load_var %a0 : tensor<32x16xf32> -> tensor<32x16xf32>
    %2 = tx8be.load_var %a1 : tensor<16x16xf32> -> tensor<16x16xf32>
    %3 = tx8be.gemm %1, %2, %none : tensor<32x16xf32>, tensor<16x16xf32>, none -> tensor<32x16xf32>
    %4 = tx8be.exp %3 : tensor<32x16xf32> -> tensor<32x16xf32>
    %5 = tx8be.store_var %3 : tensor<32x16xf32> -> tensor<32x16xf32>
    %6 = tx8be.store_var %4 : tensor<32x16xf32> -> tensor<32x16xf32>
    tx8be.return %5, %6 : tensor<32x16xf32>, tensor<32x16xf32>
  }
  return %0#0, %0#1 : tensor<32x16xf32>, tensor<32x16xf32>
}
