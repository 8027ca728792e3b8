// tx8-sharding's search: weights too big for one tile's SPM are split (N
// across the tiles and in time), a weight the same in every slice of a tile
// stays in SPM, --search-report lists the candidates with their estimated
// cycles, groups alike take the first one's decision (the template
// cache), search-budget bounds the candidates costed.
// RUN: npuc-opt %s --split-input-file --tx8-sharding | FileCheck %s
// RUN: npuc-opt %s --split-input-file --tx8-sharding=search-report=true -o %t.out 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: npuc-opt %s --split-input-file --tx8-sharding="search-report=true search-budget=1" -o %t.out1 2>&1 | FileCheck %s --check-prefix=BUDGET

// An MLP layer, 64 x 4096 times a 4096 x 4096 bf16 weight (32 MiB): no
// tile holds the weight. Rows and N go 4 ways each over the 4 x 4 tiles
// and K in slices of 128 (fp32 partial sums in SPM), each K slice's
// loads issued one K slice ahead into a second copy of their buffers
// (the pipelined K loop), the weight's parts shared by the 4 tiles of a
// ring over the NoC (196,912 cycles; the simulated program 196,952).
// Without the K loop's copies the estimate preferred N 2 ways and K to
// teams of 8 tiles (512 each in one K slice, their partial sums summed
// over the NoC: reduce_sharding), 229,899 cycles (the simulated program
// 213,654); N sharded 16 ways (each tile reading all of `a`) is dearer.
// CHECK-LABEL: func.func @mlp_layer
// CHECK: tx8be.gemm
// CHECK-SAME: temporal_mem_slice = [16, 1024]
// CHECK-SAME: reduce_split = 128
// CHECK-SAME: shape_spatial_sharding = [4, 4]
// The report: every candidate with its cost or why it was dropped, then
// the choice.
// REPORT-DAG: sharding 16x1 slice 4x4096: does not fit ({{[0-9]+}} bytes of SPM, 3145728)
// REPORT-DAG: sharding 1x16 slice 64x256: {{[0-9]+}} cycles ({{[0-9]+}} slices of load {{[0-9]+}} store {{[0-9]+}} ne {{[0-9]+}} ct {{[0-9]+}} noc {{[0-9]+}}; once {{[0-9]+}}), {{[0-9]+}} bytes of SPM
// REPORT-DAG: sharding 2x8 slice 32x512 K 2048: {{[0-9]+}} cycles
// REPORT-DAG: sharding 1x2 slice 64x2048 K 512 over 8 tiles: {{[0-9]+}} cycles
// REPORT: tx8-search: tx8-sharding-search.mlir:[[@LINE+8]]:10: tx8be.gemm: chose sharding 4x4 slice 16x1024 K 128, {{[0-9]+}} cycles, of {{[0-9]+}} candidates
// BUDGET: tx8-search: tx8-sharding-search.mlir:[[@LINE+7]]:10: tx8be.gemm: chose sharding {{[0-9x]+}} slice {{[0-9x]+}}, {{[0-9]+}} cycles, of 1 candidates
func.func @mlp_layer(%a: tensor<64x4096xbf16>, %b: tensor<4096x4096xbf16>, %v: tensor<4096xbf16>) -> tensor<64x4096xbf16> {
  %0 = tx8be.group(%a, %b, %v) : (tensor<64x4096xbf16>, tensor<4096x4096xbf16>, tensor<4096xbf16>) -> (tensor<64x4096xbf16>) {
  ^bb0(%a0: tensor<64x4096xbf16>, %a1: tensor<4096x4096xbf16>, %a2: tensor<4096xbf16>):
    %1 = tx8be.load_var %a0 : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
    %2 = tx8be.load_var %a1 : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
    %3 = tx8be.load_var %a2 : tensor<4096xbf16> -> tensor<4096xbf16>
    %4 = tx8be.gemm %1, %2, %3 : tensor<64x4096xbf16>, tensor<4096x4096xbf16>, tensor<4096xbf16> -> tensor<64x4096xbf16>
    %5 = tx8be.store_var %4 : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
    tx8be.return %5 : tensor<64x4096xbf16>
  }
  return %0 : tensor<64x4096xbf16>
}

// -----

// On one tile a 1024 x 1024 f32 weight (4 MiB) does not fit SPM whole: K
// goes in slices of 128 (partial sums in SPM), the weight in parts of
// whole rows, contiguous in DDR, two copies of each K slice's buffers so
// the next one's loads overlap this one's gemm (353,194 cycles); slices
// of 512 read DDR in longer runs but their copies do not fit, so the
// loads wait for the gemm (372,523); N in two parts of 512 columns would
// read runs of 2 KiB, 4 KiB apart, a bank opened for each.
// CHECK-LABEL: func.func @one_tile
// CHECK: tx8be.gemm
// CHECK-SAME: temporal_mem_slice = [16, 1024]
// CHECK-SAME: reduce_split = 128
// CHECK-SAME: shape_spatial_sharding = [1, 1]
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
func.func @one_tile(%a: tensor<16x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<16x1024xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<16x1024xf32>, tensor<1024x1024xf32>) -> (tensor<16x1024xf32>) {
  ^bb0(%a0: tensor<16x1024xf32>, %a1: tensor<1024x1024xf32>):
    %1 = tx8be.load_var %a0 : tensor<16x1024xf32> -> tensor<16x1024xf32>
    %2 = tx8be.load_var %a1 : tensor<1024x1024xf32> -> tensor<1024x1024xf32>
    %3 = tx8be.gemm %1, %2, %none : tensor<16x1024xf32>, tensor<1024x1024xf32>, none -> tensor<16x1024xf32>
    %4 = tx8be.store_var %3 : tensor<16x1024xf32> -> tensor<16x1024xf32>
    tx8be.return %4 : tensor<16x1024xf32>
  }
  return %0 : tensor<16x1024xf32>
}
}

// -----

// Two groups alike (the ops, types and attributes; not the values): the
// second takes the first's decision without a search. A given sharding
// (4 ways on C) is kept; only the split is searched.
// CHECK-LABEL: func.func @twice
// CHECK: tx8be.relu
// CHECK-SAME: temporal_mem_slice = [[SLICE:\[[0-9, ]+\]]]
// CHECK-SAME: shape_spatial_sharding = [[WAYS:\[[0-9, ]+\]]]
// CHECK: tx8be.relu
// CHECK-SAME: temporal_mem_slice = [[SLICE]]
// CHECK-SAME: shape_spatial_sharding = [[WAYS]]
// CHECK: tx8be.exp
// CHECK-SAME: sharding_is_given = true, shape_spatial_sharding = [1, 4]
// REPORT: tx8-search: tx8-sharding-search.mlir:[[@LINE+9]]:10: tx8be.relu: chose sharding
// REPORT: tx8-search: tx8-sharding-search.mlir:[[@LINE+15]]:10: tx8be.relu: the template of the group at tx8-sharding-search.mlir:[[@LINE+5]]:9: sharding
// REPORT: sharding 1x4 slice
// REPORT-NOT: sharding 2x
// REPORT: tx8-search: tx8-sharding-search.mlir:[[@LINE+19]]:10: tx8be.exp: chose sharding 1x4 slice
func.func @twice(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %g0 = tx8be.group(%x) : (tensor<64x64xf16>) -> (tensor<64x64xf16>) {
  ^bb0(%a0: tensor<64x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x64xf16> -> tensor<64x64xf16>
    %2 = tx8be.relu %1 : tensor<64x64xf16> -> tensor<64x64xf16>
    %3 = tx8be.store_var %2 : tensor<64x64xf16> -> tensor<64x64xf16>
    tx8be.return %3 : tensor<64x64xf16>
  }
  %g1 = tx8be.group(%g0) : (tensor<64x64xf16>) -> (tensor<64x64xf16>) {
  ^bb0(%a0: tensor<64x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x64xf16> -> tensor<64x64xf16>
    %2 = tx8be.relu %1 : tensor<64x64xf16> -> tensor<64x64xf16>
    %3 = tx8be.store_var %2 : tensor<64x64xf16> -> tensor<64x64xf16>
    tx8be.return %3 : tensor<64x64xf16>
  }
  %g2 = tx8be.group(%g1) : (tensor<64x64xf16>) -> (tensor<64x64xf16>) {
  ^bb0(%a0: tensor<64x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x64xf16> -> tensor<64x64xf16>
    %2 = tx8be.exp %1 {tile_parallel = #tx8be.parallel_attr<parallel = tp, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 4, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [1, 4]>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %3 = tx8be.store_var %2 : tensor<64x64xf16> -> tensor<64x64xf16>
    tx8be.return %3 : tensor<64x64xf16>
  }
  return %g2 : tensor<64x64xf16>
}

// -----

// The reduce split: on one tile, x's rows of K = 65536 f32 (256 KiB each)
// and w (4 MiB) cannot both be whole; the search cuts K and the gemm adds
// each K slice's product to fp32 partial sums in SPM (reduce_split on the
// gemm: the K slice).
// CHECK-LABEL: func.func @k_split
// CHECK: tx8be.gemm
// CHECK-SAME: reduce_split = [[K:[0-9]+]] : i64
// CHECK-SAME: shape_spatial_sharding = [1, 1]
// REPORT: tx8-search: tx8-sharding-search.mlir:[[@LINE+8]]:10: tx8be.gemm: chose sharding 1x1 slice {{[0-9x]+}} K {{[0-9]+}},
module attributes {tx8be.tile_dx = 1 : i32, tx8be.tile_dy = 1 : i32} {
func.func @k_split(%a: tensor<16x65536xf32>, %b: tensor<65536x16xf32>, %v: tensor<16xf32>) -> tensor<16x16xf32> {
  %0 = tx8be.group(%a, %b, %v) : (tensor<16x65536xf32>, tensor<65536x16xf32>, tensor<16xf32>) -> (tensor<16x16xf32>) {
  ^bb0(%a0: tensor<16x65536xf32>, %a1: tensor<65536x16xf32>, %a2: tensor<16xf32>):
    %1 = tx8be.load_var %a0 : tensor<16x65536xf32> -> tensor<16x65536xf32>
    %2 = tx8be.load_var %a1 : tensor<65536x16xf32> -> tensor<65536x16xf32>
    %3 = tx8be.load_var %a2 : tensor<16xf32> -> tensor<16xf32>
    %4 = tx8be.gemm %1, %2, %3 : tensor<16x65536xf32>, tensor<65536x16xf32>, tensor<16xf32> -> tensor<16x16xf32>
    %5 = tx8be.store_var %4 : tensor<16x16xf32> -> tensor<16x16xf32>
    tx8be.return %5 : tensor<16x16xf32>
  }
  return %0 : tensor<16x16xf32>
}
}
