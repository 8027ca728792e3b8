module {
  func.func @simple(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %y = arith.addi %x, %c0 : i32
    return %y : i32
  }
}
