// Refusals on vector code written by hand (no super-vectorizer), and the
// options that stop the pass.
// RUN: npuc-opt %s -split-input-file --aie-vectorize --verify-diagnostics | FileCheck %s
// RUN: not npuc-opt %s -split-input-file --aie-vectorize="shift=64" 2>&1 | FileCheck %s --check-prefix=SHIFT
// SHIFT: error: aie-vectorize: shift must be in 0..63, got 64
// SHIFT-NOT: func.func

// The loop steps by 4 while its reads take 8 lanes: mlir-aie's alignment
// check refuses it; with that check off, the schemes' own check does.
// RUN: npuc-opt %s -split-input-file --aie-vectorize=unaligned-loads-check=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: [[# @LINE + 10]]:10: remark: aie-vectorize: the vectorized loop steps by 4, not by the 8 lanes of its reads; the function is left as the super-vectorizer produced it
// NOCHECK-NOT: alignment check
// CHECK-LABEL: func.func @step
// CHECK:         vector.transfer_read
// expected-warning@+1 {{Cannot apply aie-vectorize to func.func because alignment check has failed.}}
func.func @step(%A: memref<64xi32>, %B: memref<8xi32>, %C: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  affine.for %i = 0 to 56 step 4 {
    // expected-warning@+1 {{aie-vectorize: Loop step of inner index of vector.transfer_read is not divisible by number of vector lanes.}}
    %a = vector.transfer_read %A[%i], %pad : memref<64xi32>, vector<8xi32>
    %b = vector.transfer_read %B[%c0], %pad : memref<8xi32>, vector<8xi32>
    %p = arith.muli %a, %b : vector<8xi32>
    vector.transfer_write %p, %C[%i] : vector<8xi32>, memref<64xi32>
  }
  return
}

// -----
// A read of a tensor (or a masked one) is no AIE load.
// CHECK-LABEL: func.func @tensor
// CHECK:         vector.transfer_read
func.func @tensor(%T: tensor<64xi32>, %B: memref<8xi32>, %C: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  affine.for %i = 0 to 64 step 8 {
    // expected-remark@+1 {{aie-vectorize: only unmasked 1-D reads of memrefs become AIE loads; the function is left as the super-vectorizer produced it}}
    %a = vector.transfer_read %T[%i], %pad : tensor<64xi32>, vector<8xi32>
    %b = vector.transfer_read %B[%c0], %pad : memref<8xi32>, vector<8xi32>
    %p = arith.muli %a, %b : vector<8xi32>
    vector.transfer_write %p, %C[%i] : vector<8xi32>, memref<64xi32>
  }
  return
}
