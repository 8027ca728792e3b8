func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {
  hivm.hir.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) loc(