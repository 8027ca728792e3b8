// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/cast_chain.yaml -o %t/out
// RUN: %cc %S/Inputs/check_cast_chain.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// CHECK: ok f32 -> f16 -> f32 -> i32: 256 elements
// vcast through f16 (round to nearest even) back to f32, then to i32
// (toward zero), then a scalar arith chain on one element.
module {
  func.func @casts(%src: memref<256xf32>, %out: memref<256xi32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %a = memref.alloc() : memref<256xf32>
    hivm.hir.load ins(%src : memref<256xf32>) outs(%a : memref<256xf32>)
    %t = bufferization.to_tensor %a restrict writable : memref<256xf32> to tensor<256xf32>
    %eh = tensor.empty() : tensor<256xf16>
    %h = hivm.hir.vcast ins(%t : tensor<256xf32>) outs(%eh : tensor<256xf16>) -> tensor<256xf16>
    %ef = tensor.empty() : tensor<256xf32>
    %f = hivm.hir.vcast ins(%h : tensor<256xf16>) outs(%ef : tensor<256xf32>) -> tensor<256xf32>
    %ei = tensor.empty() : tensor<256xi32>
    %i = hivm.hir.vcast ins(%f : tensor<256xf32>) outs(%ei : tensor<256xi32>) -> tensor<256xi32>
    hivm.hir.store ins(%i : tensor<256xi32>) outs(%out : memref<256xi32>)
    return
  }
}
