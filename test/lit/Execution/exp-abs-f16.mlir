// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/exp_abs.yaml -o %t/out
// RUN: %cc %S/Inputs/check_exp_abs.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// CHECK: ok |exp(x)| within 1 ulp: 64 elements
// The Auto-Subtiling seed's vexp -> vabs chain on f16, loaded from and
// stored to global memory.
module {
  func.func @exp_abs(%src: memref<64xf16>, %out: memref<64xf16>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %alloc = memref.alloc() : memref<64xf16>
    hivm.hir.load ins(%src : memref<64xf16>) outs(%alloc : memref<64xf16>)
    %t = bufferization.to_tensor %alloc restrict writable : memref<64xf16> to tensor<64xf16>
    %init = tensor.empty() : tensor<64xf16>
    %t0 = hivm.hir.vexp ins(%t : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
    %t1 = hivm.hir.vabs ins(%t0 : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
    hivm.hir.store ins(%t1 : tensor<64xf16>) outs(%out : memref<64xf16>)
    return
  }
}
