// RUN: rm -rf %t && mkdir -p %t
// RUN: npuc-run %s --spec %S/Inputs/sub_blocks.yaml -o %t/out | FileCheck %s --check-prefix=LAUNCH
// RUN: %cc %S/Inputs/check_sub_blocks.c -o %t/check -lm
// RUN: %t/check %t/out | FileCheck %s
// LAUNCH-DAG: launched_blocks 3
// LAUNCH-DAG: sub_blocks 2
// CHECK: ok each sub-block's half, in every block: 192 elements
// The vector half of a mix kernel runs as two sub-blocks per block; each
// computes |x| for its half of the block's 64 elements, as a 1:2 tiled
// kernel does.
module {
  func.func @halves(%x: memref<192xf32>, %out: memref<192xf32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %b = hivm.hir.get_block_idx -> i64
    %s = hivm.hir.get_sub_block_idx -> i64
    %bi = arith.index_cast %b : i64 to index
    %si = arith.index_cast %s : i64 to index
    %base = arith.muli %bi, %c64 : index
    %half = arith.muli %si, %c32 : index
    %off = arith.addi %base, %half : index
    %src = memref.subview %x[%off] [32] [1] : memref<192xf32> to memref<32xf32, strided<[1], offset: ?>>
    %dst = memref.subview %out[%off] [32] [1] : memref<192xf32> to memref<32xf32, strided<[1], offset: ?>>
    %buf = memref.alloc() : memref<32xf32>
    hivm.hir.load ins(%src : memref<32xf32, strided<[1], offset: ?>>) outs(%buf : memref<32xf32>)
    %t = bufferization.to_tensor %buf restrict writable : memref<32xf32> to tensor<32xf32>
    %e = tensor.empty() : tensor<32xf32>
    %a = hivm.hir.vabs ins(%t : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    hivm.hir.store ins(%a : tensor<32xf32>) outs(%dst : memref<32xf32, strided<[1], offset: ?>>)
    return
  }
}
