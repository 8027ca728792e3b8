// physical-block-num=N wins over the target spec (auto-blockify-cores.mlir),
// and stands in for it when the kernel's core type is unknown. It must be
// positive (auto-blockify-option-invalid.mlir).
// RUN: not npuc-opt %s -auto-blockify-parallel-loop 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: npuc-opt %s -auto-blockify-parallel-loop=physical-block-num=6 | FileCheck %s

// ERR: auto-blockify-option.mlir:[[@LINE+6]]:3: error: auto-blockify-parallel-loop: physical block number cannot be inferred: @no_spec has no hivm.func_core_type and its module no hivm.module_core_type; pass physical-block-num=N
// CHECK-LABEL: func.func @no_spec
// CHECK-SAME: npuc.physical_block_num = 6 : i64
// CHECK: %[[P:.*]] = arith.constant 6 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg1 step %[[P]] : i32
module {
  func.func @no_spec(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}
