// A device entry that reads its block index but marks no logical count.
module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @k(%out: memref<64xi32>) attributes {hacc.entry} {
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}
