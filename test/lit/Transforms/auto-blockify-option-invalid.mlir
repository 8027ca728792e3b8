// physical-block-num must be positive: the pass fails at the module before
// looking at any function.
// RUN: npuc-opt %s --verify-diagnostics -auto-blockify-parallel-loop=physical-block-num=0 -o %t.out
// RUN: npuc-opt %s --verify-diagnostics -auto-blockify-parallel-loop=physical-block-num=-2 -o %t.out
// RUN: not npuc-opt %s -auto-blockify-parallel-loop=physical-block-num=-2 2>&1 | FileCheck %s
// CHECK: error: auto-blockify-parallel-loop: physical-block-num must be positive, got -2

// expected-error@+1 {{auto-blockify-parallel-loop: physical-block-num must be positive, got}}
module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @k(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}
