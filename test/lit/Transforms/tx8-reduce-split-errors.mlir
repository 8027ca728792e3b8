// A gemm's reduce_split (the K slice tx8-sharding chose) is checked by the
// group plan every later pass and the code generator build: it must be an
// integer in [1, K) on the group's only gemm, not batched, whose a and b
// are loads read by it alone. (tx8-sharding itself decides it again.)
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --tx8-spm-alloc -o %t.out

func.func @out_of_range(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %none = tx8be.none : none
  %0 = tx8be.group(%a, %b) : (tensor<4x64xf32>, tensor<64x8xf32>) -> (tensor<4x8xf32>) {
  ^bb0(%a0: tensor<4x64xf32>, %a1: tensor<64x8xf32>):
    %1 = tx8be.load_var %a0 : tensor<4x64xf32> -> tensor<4x64xf32>
    %2 = tx8be.load_var %a1 : tensor<64x8xf32> -> tensor<64x8xf32>
    // expected-error@+1 {{tx8be.gemm: reduce_split 64 is not a K slice in [1, 64) of a gemm the group can split}}
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
    // expected-error@+1 {{tx8be.gemm: reduce_split must be an integer on the group's only gemm, not batched, whose a and b are loads read by it alone}}
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
