// RUN: npuc-opt %s --verify-diagnostics
// An op's trailing loc( left open runs to the end of the file: the syntax
// engine reports it at the loc keyword (it once read one byte past the
// input, found by the fuzzer).

func.func @open_loc(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{expected ')' to close the op's loc(}}
  hivm.hir.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) loc("x.mlir":1:2
  return
}
