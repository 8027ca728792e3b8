func.func @f(%x: tensor<4x8xf32>) -> tensor<4x9xf16> {
  // expected-error@+1 {{'tx8be.cast' op operands must have one shape}}
  %0 = tx8be.cast %x : tensor<4x8xf32> -> tensor<4x9xf16>
  return %0 : tensor<4x9xf16>
}
