// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// The ops the ONNX front end adds (issue 19): cast between float types and
// erf, in their custom syntax, printed back exactly.
module {
  func.func @main(%arg0: tensor<2x8x80xf32>) -> tensor<2x8x80xf32> {
    %0 = tx8be.cast %arg0 : tensor<2x8x80xf32> -> tensor<2x8x80xbf16>
    %1 = tx8be.erf %0 {layout_str = "Tensor"} : tensor<2x8x80xbf16> -> tensor<2x8x80xbf16>
    %2 = tx8be.cast %1 : tensor<2x8x80xbf16> -> tensor<2x8x80xf16>
    %3 = tx8be.cast %2 : tensor<2x8x80xf16> -> tensor<2x8x80xf32>
    return %3 : tensor<2x8x80xf32>
  }
}
