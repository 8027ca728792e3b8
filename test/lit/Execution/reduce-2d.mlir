// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/reduce_2d.yaml -o %t/out
// RUN: %cc %S/Inputs/check_reduce_2d.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// CHECK: ok row sums: 16 elements
// CHECK: ok column maxima: 32 elements
// Reductions over each axis of a 2-D tile: sums along rows, maxima along
// columns, kept as size-1 dimensions.
module {
  func.func @reduce_2d(%src: memref<16x32xf32>, %sums: memref<16x1xf32>, %maxes: memref<1x32xf32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %alloc = memref.alloc() : memref<16x32xf32>
    hivm.hir.load ins(%src : memref<16x32xf32>) outs(%alloc : memref<16x32xf32>)
    %t = bufferization.to_tensor %alloc restrict writable : memref<16x32xf32> to tensor<16x32xf32>
    %e0 = tensor.empty() : tensor<16x1xf32>
    %s = hivm.hir.vreduce <sum> ins(%t : tensor<16x32xf32>) outs(%e0 : tensor<16x1xf32>) reduce_dims = [1] -> tensor<16x1xf32>
    %e1 = tensor.empty() : tensor<1x32xf32>
    %m = hivm.hir.vreduce <max> ins(%t : tensor<16x32xf32>) outs(%e1 : tensor<1x32xf32>) reduce_dims = [0] -> tensor<1x32xf32>
    hivm.hir.store ins(%s : tensor<16x1xf32>) outs(%sums : memref<16x1xf32>)
    hivm.hir.store ins(%m : tensor<1x32xf32>) outs(%maxes : memref<1x32xf32>)
    return
  }
}
