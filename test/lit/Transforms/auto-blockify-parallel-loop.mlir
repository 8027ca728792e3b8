// auto-blockify-parallel-loop on a Triton-style vector kernel (the shape of
// the Auto Blockify seed's add_kernel): the logical count a*b*c and its mark
// and get_block_idx stay in front; everything else moves into the loop and
// reads the loop's block index.
// RUN: npuc-opt %s -auto-blockify-parallel-loop | FileCheck %s --check-prefix=STRIDED
// RUN: npuc-opt %s --pass-pipeline='builtin.module(auto-blockify-parallel-loop{mode=strided})' \
// RUN:   | FileCheck %s --check-prefix=STRIDED
// RUN: npuc-opt %s -auto-blockify-parallel-loop=mode=ceildiv | FileCheck %s --check-prefix=CEIL
// The output parses, verifies and prints again (also in generic form).
// RUN: npuc-opt %s -auto-blockify-parallel-loop | npuc-opt --mlir-print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// RUN: npuc-opt %s -auto-blockify-parallel-loop=mode=ceildiv | npuc-opt -o %t.out
// The structure AscendNPU-IR's test (auto-blockify-parallel-loop.mlir)
// checks, here on our own kernel: test/conformance/blockify.sh checks the
// upstream file itself.
// RUN: npuc-opt %s -auto-blockify-parallel-loop -verify-diagnostics | FileCheck %s --check-prefix=CONF
// CONF: "VECTOR_CORE_COUNT", [[PHYSICAL:[0-9]+]]
// CONF: annotation.mark %[[UB:.*]] {logical_block_num}
// CONF: %[[LB64:.*]] = hivm.hir.get_block_idx
// CONF: %[[STEP:.*]] = arith.constant [[PHYSICAL]]
// CONF: %[[LB32:.*]] = arith.trunci %[[LB64]]
// CONF: scf.for %{{.*}} = %[[LB32]] to %[[UB]] step %[[STEP]]
// CONF: autoblockify.subloop

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @scale(%x: memref<?xf32>, %y: memref<?xf32>, %n: i32, %a: i32, %b: i32, %c: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c512 = arith.constant 512 : index
    %c512_i32 = arith.constant 512 : i32
    %half = arith.constant 5.000000e-01 : f32
    hivm.hir.set_mask_norm
    %ab = arith.muli %a, %b : i32
    %abc = arith.muli %ab, %c : i32
    annotation.mark %abc {logical_block_num} : i32
    %bid = hivm.hir.get_block_idx -> i64
    %bid32 = arith.trunci %bid : i64 to i32
    %bc = arith.muli %c, %b : i32
    %q = arith.divsi %bid32, %bc : i32
    %pid = arith.remsi %q, %a : i32
    %start32 = arith.muli %pid, %c512_i32 : i32
    %start = arith.index_cast %start32 : i32 to index
    %end = arith.addi %start, %c512 : index
    %len = arith.index_cast %n : i32 to index
    %lim = arith.maxsi %start, %len : index
    %stop = arith.minsi %end, %lim : index
    %size = arith.subi %stop, %start : index
    %src = memref.reinterpret_cast %x to offset: [%start], sizes: [512], strides: [1] : memref<?xf32> to memref<512xf32, strided<[1], offset: ?>>
    %buf = memref.alloc() : memref<512xf32>
    %srcv = memref.subview %src[0] [%size] [1] : memref<512xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %bufv = memref.subview %buf[0] [%size] [1] : memref<512xf32> to memref<?xf32, strided<[1]>>
    hivm.hir.load ins(%srcv : memref<?xf32, strided<[1], offset: ?>>) outs(%bufv : memref<?xf32, strided<[1]>>)
    %t = bufferization.to_tensor %buf restrict writable : memref<512xf32>
    %e = tensor.empty() : tensor<512xf32>
    %r = hivm.hir.vmul ins(%t, %half : tensor<512xf32>, f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
    %dst = memref.reinterpret_cast %y to offset: [%start], sizes: [512], strides: [1] : memref<?xf32> to memref<512xf32, strided<[1], offset: ?>>
    %rs = tensor.extract_slice %r[0] [%size] [1] : tensor<512xf32> to tensor<?xf32>
    %dstv = memref.subview %dst[0] [%size] [1] : memref<512xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    hivm.hir.store ins(%rs : tensor<?xf32>) outs(%dstv : memref<?xf32, strided<[1], offset: ?>>)
    return
  }
}

// The physical count is the AIV kernel's VECTOR_CORE_COUNT, 48.
// STRIDED-LABEL: func.func @scale(
// STRIDED-SAME: %[[A:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: i32, %[[C:[a-z0-9]+]]: i32)
// STRIDED-SAME: npuc.physical_block_num = 48 : i64
// STRIDED-NEXT:  %[[AB:.*]] = arith.muli %[[A]], %[[B]] : i32
// STRIDED-NEXT:  %[[N:.*]] = arith.muli %[[AB]], %[[C]] : i32
// STRIDED-NEXT:  annotation.mark %[[N]] {logical_block_num} : i32
// STRIDED-NEXT:  %[[BID:.*]] = hivm.hir.get_block_idx -> i64
// STRIDED-NEXT:  %[[STEP:.*]] = arith.constant 48 : i32
// STRIDED-NEXT:  %[[LB:.*]] = arith.trunci %[[BID]] : i64 to i32
// STRIDED-NEXT:  scf.for %[[IV:.*]] = %[[LB]] to %[[N]] step %[[STEP]] : i32 {
// The loop's index replaces the block index, as get_block_idx typed it.
// STRIDED-NEXT:    %[[IDX:.*]] = arith.extsi %[[IV]] : i32 to i64
// STRIDED-NEXT:    arith.constant 512 : index
// STRIDED-NEXT:    arith.constant 512 : i32
// STRIDED-NEXT:    arith.constant 5.000000e-01 : f32
// STRIDED-NEXT:    hivm.hir.set_mask_norm
// STRIDED-NEXT:    %[[IDX32:.*]] = arith.trunci %[[IDX]] : i64 to i32
// STRIDED-NEXT:    %[[BC:.*]] = arith.muli %[[C]], %[[B]] : i32
// STRIDED-NEXT:    arith.divsi %[[IDX32]], %[[BC]] : i32
// STRIDED:         hivm.hir.load
// STRIDED:         hivm.hir.vmul
// STRIDED:         hivm.hir.store
// STRIDED-NEXT:  } {autoblockify.subloop}
// STRIDED-NEXT:  return
// STRIDED-NOT:   get_block_idx

// The seed's form, with an in-range guard instead of its clamp to the count.
// CEIL-LABEL: func.func @scale(
// CEIL-SAME: npuc.physical_block_num = 48 : i64
// CEIL:        %[[AB:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CEIL-NEXT:   %[[N:.*]] = arith.muli %[[AB]], %{{.*}} : i32
// CEIL-NEXT:   annotation.mark %[[N]] {logical_block_num} : i32
// CEIL-NEXT:   %[[BID:.*]] = hivm.hir.get_block_idx -> i64
// CEIL-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CEIL-NEXT:   %[[P:.*]] = arith.constant 48 : i32
// CEIL-NEXT:   %[[ROUNDS:.*]] = arith.ceildivsi %[[N]], %[[P]] : i32
// CEIL-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CEIL-NEXT:   %[[BID32:.*]] = arith.trunci %[[BID]] : i64 to i32
// CEIL-NEXT:   scf.for %[[O:.*]] = %[[ZERO]] to %[[ROUNDS]] step %[[ONE]] : i32 {
// CEIL-NEXT:     %[[BASE:.*]] = arith.muli %[[O]], %[[P]] : i32
// CEIL-NEXT:     %[[I:.*]] = arith.addi %[[BASE]], %[[BID32]] : i32
// CEIL-NEXT:     %[[IN:.*]] = arith.cmpi slt, %[[I]], %[[N]] : i32
// CEIL-NEXT:     scf.if %[[IN]] {
// CEIL-NEXT:       %[[IDX:.*]] = arith.extsi %[[I]] : i32 to i64
// CEIL:            hivm.hir.set_mask_norm
// CEIL-NEXT:       arith.trunci %[[IDX]] : i64 to i32
// CEIL:            hivm.hir.store
// CEIL-NEXT:     }
// CEIL-NEXT:   } {autoblockify.subloop}
// CEIL-NEXT:   return
// CEIL-NOT:    arith.minsi %{{.*}}, %[[N]]

// GENERIC: "hivm.hir.get_block_idx"() : () -> i64
// GENERIC: "scf.for"
// GENERIC: "hivm.hir.store"
// GENERIC: "scf.yield"() : () -> ()
// GENERIC-NEXT: }) {autoblockify.subloop} : (i32, i32, i32) -> ()
