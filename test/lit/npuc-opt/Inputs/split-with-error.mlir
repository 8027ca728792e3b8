// Checked by ../split-input-file.mlir: the error is reported at its line in
// this file, not at its line in the chunk.
module {
  func.func @good_before() {
    return
  }
}
// -----
module {
  func.func @bad(%x: i32) -> i32 {
    // CHECK: split-with-error.mlir:[[@LINE+1]]:{{[0-9]+}}: error: use of value '%x' expects different type
    %y = arith.addi %x, %x : i64
    return %y : i32
  }
}
// -----
module {
  func.func @good_after() {
    return
  }
}
