// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/broadcast_add.yaml -o %t/out
// RUN: %cc %S/Inputs/check_broadcast_add.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// CHECK: ok (a + b) * s: 128 elements
// A column broadcast by `broadcast = [1]`, then a scalar operand.
module {
  func.func @broadcast_add(%a: memref<8x16xf32>, %b: memref<8x1xf32>, %s: f32, %out: memref<8x16xf32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %a0 = memref.alloc() : memref<8x16xf32>
    hivm.hir.load ins(%a : memref<8x16xf32>) outs(%a0 : memref<8x16xf32>)
    %b0 = memref.alloc() : memref<8x1xf32>
    hivm.hir.load ins(%b : memref<8x1xf32>) outs(%b0 : memref<8x1xf32>)
    %ta = bufferization.to_tensor %a0 restrict writable : memref<8x16xf32> to tensor<8x16xf32>
    %tb = bufferization.to_tensor %b0 restrict writable : memref<8x1xf32> to tensor<8x1xf32>
    %e = tensor.empty() : tensor<8x16xf32>
    %sum = hivm.hir.vadd ins(%ta, %tb : tensor<8x16xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) broadcast = [1] -> tensor<8x16xf32>
    %prod = hivm.hir.vmul ins(%sum, %s : tensor<8x16xf32>, f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    hivm.hir.store ins(%prod : tensor<8x16xf32>) outs(%out : memref<8x16xf32>)
    return
  }
}
