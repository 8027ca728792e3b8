module {
  func.func @one() {
    return
  }
}
// =====
module {
  func.func @two() {
    return
  }
}
