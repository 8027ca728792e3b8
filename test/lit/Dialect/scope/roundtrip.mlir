// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// scope.scope: a region op; nested ops of every dialect convert too.
#map = affine_map<()[s0] -> (s0 * 32)>
module {
  func.func @scope(%arg0: memref<?xf32>, %arg1: tensor<64xf32>) -> tensor<64xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = tensor.empty() : tensor<32xf32>
    %1 = scope.scope : () -> tensor<64xf32> {
      %3 = scf.for %arg2 = %c0 to %c2 step %c1 iter_args(%arg3 = %arg1) -> (tensor<64xf32>) {
        %4 = affine.apply #map()[%arg2]
        %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%4], sizes: [32], strides: [1] : memref<?xf32> to memref<32xf32, strided<[1], offset: ?>>
        %alloc = memref.alloc() : memref<32xf32>
        hivm.hir.load ins(%reinterpret_cast : memref<32xf32, strided<[1], offset: ?>>) outs(%alloc : memref<32xf32>)
        %5 = bufferization.to_tensor %alloc restrict writable : memref<32xf32> to tensor<32xf32>
        %6 = hivm.hir.vln ins(%5 : tensor<32xf32>) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
        %inserted_slice = tensor.insert_slice %6 into %arg3[%4] [32] [1] : tensor<32xf32> into tensor<64xf32>
        scf.yield %inserted_slice : tensor<64xf32>
      }
      scope.return %3 : tensor<64xf32>
    } {outline = true}
    %2 = scope.scope : () -> tensor<64xf32> {
      scope.return %1 : tensor<64xf32>
    }
    return %2 : tensor<64xf32>
  }
}
