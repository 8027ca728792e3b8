// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// memref_ext.alloc_workspace with and without dynamic sizes.
module {
  func.func @memref_ext(%arg0: memref<?xi8>, %arg1: index) {
    %c0 = arith.constant 0 : index
    %0 = memref_ext.alloc_workspace() from %arg0 offset = [%c0] : from memref<?xi8> to memref<16x16xf32>
    %1 = memref_ext.alloc_workspace(%arg1) from %arg0 offset = [%c0] : from memref<?xi8> to memref<?x16xf32>
    return
  }
}
