func.func @f(%a : memref<6xi32>, %d : memref<6xi32>) {
  linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : memref<6xi32>) outs(%d : memref<6xi32>)
  return
}
