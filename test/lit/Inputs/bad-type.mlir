module {
  func.func @bad(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i64
    return %y : i32
  }
}
