func.func @main(%a: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = tx8be.group(%a) : (tensor<4x8xf16>) -> (tensor<4x8xf16>) {
  ^bb0(%a0: tensor<4x8xf16>):
    %1 = tx8be.load_var %a0 : tensor<4x8xf16> -> tensor<4x8xf16>
    %2 = tx8be.relu %1 : tensor<4x8xf16> -> tensor<4x8xf16>
    %3 = tx8be.store_var %2 : tensor<4x8xf16> -> tensor<4x8xf16>
    tx8be.return %3 : tensor<4x8xf16>
  }
  return %0 : tensor<4x8xf16>
}
