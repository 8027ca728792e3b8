// Without a block index there is nothing to distribute: the module comes
// out as it went in, without a diagnostic, mark or no mark. Functions that
// are not device entries are never touched.
// RUN: npuc-opt %s --verify-diagnostics -auto-blockify-parallel-loop -o %t.pass
// RUN: npuc-opt %s -o %t.plain
// RUN: diff %t.plain %t.pass
// RUN: FileCheck %s < %t.pass

module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // No block index, a mark and no spec: still no error.
  func.func @same_for_all(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    %c0 = arith.constant 0 : index
    annotation.mark %n {logical_block_num} : i32
    memref.store %n, %out[%c0] : memref<64xi32>
    return
  }
  func.func @no_mark(%out: memref<64xi32>) attributes {hacc.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    memref.store %c1, %out[%c0] : memref<64xi32>
    return
  }
  // Not a device entry: not a kernel, even with a mark and a block index.
  func.func @helper(%out: memref<64xi32>, %n: i32) {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
  func.func private @declared(%n: i32) attributes {hacc.entry}
}

// CHECK-NOT: scf.for
// CHECK-NOT: npuc.physical_block_num
