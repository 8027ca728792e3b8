// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/loop_iter_args.yaml -o %t/out
// RUN: %cc %S/Inputs/check_loop_iter_args.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// CHECK: ok running sum and count: 33 elements
// scf.for carrying a tensor and a scalar through iter_args: the tensor
// accumulates one row per iteration, the scalar counts iterations.
module {
  func.func @row_sum(%src: memref<5x32xf32>, %out: memref<32xf32>, %count: memref<1xi32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1 : i32
    %i0 = arith.constant 0 : i32
    %e = tensor.empty() : tensor<32xf32>
    %init = hivm.hir.vbrc ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    %acc:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %init, %n = %i0) -> (tensor<32xf32>, i32) {
      %row = memref.subview %src[%i, 0] [1, 32] [1, 1] : memref<5x32xf32> to memref<32xf32, strided<[1], offset: ?>>
      %buf = memref.alloc() : memref<32xf32>
      hivm.hir.load ins(%row : memref<32xf32, strided<[1], offset: ?>>) outs(%buf : memref<32xf32>)
      %r = bufferization.to_tensor %buf restrict writable : memref<32xf32> to tensor<32xf32>
      %next = hivm.hir.vadd ins(%t, %r : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
      %n1 = arith.addi %n, %one : i32
      scf.yield %next, %n1 : tensor<32xf32>, i32
    }
    hivm.hir.store ins(%acc#0 : tensor<32xf32>) outs(%out : memref<32xf32>)
    memref.store %acc#1, %count[%c0] : memref<1xi32>
    return
  }
}
