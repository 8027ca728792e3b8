func.func @f(%a : memref<6x6xf32>, %b : memref<6x6xf32>, %d : memref<6x6xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%a, %b : memref<6x6xf32>, memref<6x6xf32>) outs(%d : memref<6x6xf32>)
  return
}
