// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// With debug info, block arguments carry their loc(...) in the signature.
// RUN: npuc-opt --mlir-print-debuginfo %s -o %t.dbg
// RUN: npuc-opt --mlir-print-debuginfo %t.dbg | diff -u %t.dbg -
// Every aie op in the custom syntax aie-opt prints, each optional
// attribute present and absent, around an aievec kernel: printing gives
// back exactly the input.
module @design {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    %1 = aie.tile(0, 0)
    %2 = aie.buffer(%0) {sym_name = "buf_a"} : memref<256xi32>
    %3 = aie.buffer(%0) {address = 1024 : i32, mem_bank = 1 : i32} : memref<16xi32>
    %4 = aie.lock(%0, 3) {init = 1 : i32, sym_name = "lock_in"}
    %5 = aie.lock(%0)
    %6 = aie.core(%0) {
      aie.use_lock(%4, AcquireGreaterEqual, 1)
      %c0 = arith.constant 0 : index
      %c0_i32 = arith.constant 0 : i32
      %10 = aievec.upd %2[%c0] {index = 0 : i8, offset = 0 : i32} : memref<256xi32>, vector<16xi32>
      %11 = aievec.ups %10 {shift = 0 : i8} : vector<16xi32>, vector<16xi64>
      %12 = aievec.srs %11, %c0_i32 : vector<16xi64>, i32, vector<16xi32>
      aie.use_lock(%4, Release, 1)
      aie.use_lock(%5, Acquire)
      aie.use_lock(%5, Release, 0, NonBlocking)
      aie.end
    } {elf_file = "core_0_2.elf", link_with = "kernel.o", stack_size = 2048 : i32}
    %7 = aie.mem(%0) {
      aie.end
    }
    aie.flow(%1, DMA : 0, %0, DMA : 1)
    aie.flow(%0, Core : 0, %1, South : 2)
    %8 = aie.switchbox(%0) {
      aie.connect<South : 0, Core : 1>
      aie.connect<North : 3, DMA : 0>
    }
    %9 = aie.external_buffer {sym_name = "ext"} : memref<16xi32>
    aie.runtime_sequence @seq(%arg0: i32, %arg1: i32, %arg2: memref<i32>) {
      %10 = arith.maxsi %arg0, %arg1 : i32
      memref.store %10, %arg2[] : memref<i32>
    }
    aie.runtime_sequence() {
    }
    aie.runtime_sequence @"two words"(%arg0: memref<16xi8>) {
    }
  }
  aie.device(npu2) {
  }
}
