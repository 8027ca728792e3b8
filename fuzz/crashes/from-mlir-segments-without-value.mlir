func.func @f() {
  hivm.hir.custom {operandSegmentSizes, symbol = "x"} "d.x"
  return
}
