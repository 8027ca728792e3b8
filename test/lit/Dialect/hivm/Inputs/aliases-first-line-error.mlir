func.func @f(%arg0: tensor<4xf32>) { %0 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<8xf32>) -> tensor<4xf32>
  return
}
