// The vector half of a mix kernel: |x| of 64 elements.
module {
  func.func @abs_mix_aiv(%x: memref<64xf32>, %out: memref<64xf32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    %buf = memref.alloc() : memref<64xf32>
    hivm.hir.load ins(%x : memref<64xf32>) outs(%buf : memref<64xf32>)
    %t = bufferization.to_tensor %buf restrict writable : memref<64xf32> to tensor<64xf32>
    %e = tensor.empty() : tensor<64xf32>
    %a = hivm.hir.vabs ins(%t : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    hivm.hir.store ins(%a : tensor<64xf32>) outs(%out : memref<64xf32>)
    return
  }
}
