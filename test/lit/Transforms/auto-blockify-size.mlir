// auto_blockify_size = S on the function: each iteration runs S consecutive
// logical blocks, so block b owns [b*S, b*S+S), [(b+P)*S, ...).
// RUN: npuc-opt %s -auto-blockify-parallel-loop=physical-block-num=8 | FileCheck %s
// RUN: npuc-opt %s -auto-blockify-parallel-loop="physical-block-num=8 mode=ceildiv" \
// RUN:   | FileCheck %s --check-prefix=CEIL

module {
  func.func @chunks(%out: memref<1024xi32>, %n: i32) attributes {hacc.entry, auto_blockify_size = 4 : i64} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<1024xi32>
    return
  }
}

// Strided: from b*S to n, step P*S; inside, b' from i to min(i + S, n).
// CHECK-LABEL: func.func @chunks(
// CHECK-SAME: %[[OUT:.*]]: memref<1024xi32>, %[[N:.*]]: i32)
// CHECK-SAME: npuc.physical_block_num = 8 : i64
// CHECK-NEXT:  annotation.mark %[[N]] {logical_block_num} : i32
// CHECK-NEXT:  %[[BID:.*]] = hivm.hir.get_block_idx -> i64
// CHECK-NEXT:  %[[STEP:.*]] = arith.constant 32 : i32
// CHECK-NEXT:  %[[B32:.*]] = arith.trunci %[[BID]] : i64 to i32
// CHECK-NEXT:  %[[S:.*]] = arith.constant 4 : i32
// CHECK-NEXT:  %[[LB:.*]] = arith.muli %[[B32]], %[[S]] : i32
// CHECK-NEXT:  scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[STEP]] : i32 {
// CHECK-NEXT:    %[[E0:.*]] = arith.addi %[[I]], %[[S]] : i32
// CHECK-NEXT:    %[[E:.*]] = arith.minsi %[[E0]], %[[N]] : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    scf.for %[[J:.*]] = %[[I]] to %[[E]] step %[[ONE]] : i32 {
// CHECK-NEXT:      %[[IDX:.*]] = arith.extsi %[[J]] : i32 to i64
// CHECK-NEXT:      arith.index_cast %[[IDX]] : i64 to index
// CHECK-NEXT:      arith.trunci %[[IDX]] : i64 to i32
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:  } {autoblockify.subloop}
// CHECK-NEXT:  return

// Ceildiv: ceildiv(n, P*S) rounds; block o*P + b runs (o*P + b)*S + j for
// j < S, guarded by < n.
// CEIL-LABEL: func.func @chunks(
// CEIL-SAME: %[[OUT:.*]]: memref<1024xi32>, %[[N:.*]]: i32)
// CEIL:        %[[BID:.*]] = hivm.hir.get_block_idx -> i64
// CEIL-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CEIL-NEXT:   %[[P:.*]] = arith.constant 8 : i32
// CEIL-NEXT:   %[[S:.*]] = arith.constant 4 : i32
// CEIL-NEXT:   %[[PS:.*]] = arith.constant 32 : i32
// CEIL-NEXT:   %[[R:.*]] = arith.ceildivsi %[[N]], %[[PS]] : i32
// CEIL-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CEIL-NEXT:   %[[B32:.*]] = arith.trunci %[[BID]] : i64 to i32
// CEIL-NEXT:   scf.for %[[O:.*]] = %[[ZERO]] to %[[R]] step %[[ONE]] : i32 {
// CEIL-NEXT:     %[[T:.*]] = arith.muli %[[O]], %[[P]] : i32
// CEIL-NEXT:     %[[BLK:.*]] = arith.addi %[[T]], %[[B32]] : i32
// CEIL-NEXT:     %[[BASE:.*]] = arith.muli %[[BLK]], %[[S]] : i32
// CEIL-NEXT:     scf.for %[[J:.*]] = %[[ZERO]] to %[[S]] step %[[ONE]] : i32 {
// CEIL-NEXT:       %[[I:.*]] = arith.addi %[[BASE]], %[[J]] : i32
// CEIL-NEXT:       %[[IN:.*]] = arith.cmpi slt, %[[I]], %[[N]] : i32
// CEIL-NEXT:       scf.if %[[IN]] {
// CEIL-NEXT:         arith.extsi %[[I]] : i32 to i64
// CEIL:              memref.store
// CEIL-NEXT:       }
// CEIL-NEXT:     }
// CEIL-NEXT:   } {autoblockify.subloop}
