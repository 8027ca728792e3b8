// aieml=true, element-wise scheme: what it refuses (a remark, the function
// left alone). Lane k reads lane k, so each streaming operand must be one
// whole aligned 512-bit vector; a read one element on spans two.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="aieml=true" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @unaligned
// CHECK:         arith.muli {{.*}} : vector<16xi32>
// CHECK-NOT:     aievec
func.func @unaligned(%A: memref<80xi32>, %B: memref<64xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i + 1] : memref<80xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    // expected-remark@+1 {{aie-vectorize: the element-wise AIE-ML scheme takes the first operand from a 512-bit AIE vector, the reads around it make it 1024 bits; the function is left as the super-vectorizer produced it}}
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// The accumulator is read one element on.
// CHECK-LABEL: func.func @unaligned_acc
// CHECK:         arith.addi {{.*}} : vector<16xi32>
// CHECK-NOT:     aievec
func.func @unaligned_acc(%A: memref<64xi32>, %B: memref<64xi32>, %D: memref<80xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    %p = arith.muli %a, %b : i32
    %d = affine.load %D[%i + 1] : memref<80xi32>
    // expected-remark@+1 {{aie-vectorize: the element-wise AIE-ML scheme takes the accumulator operand from a 512-bit AIE vector, the reads around it make it 1024 bits; the function is left as the super-vectorizer produced it}}
    %s = arith.addi %d, %p : i32
    affine.store %s, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// Floats have no element-wise AIE-ML scheme here.
// CHECK-LABEL: func.func @float_mac
// CHECK:         arith.mulf {{.*}} : vector<16xf32>
func.func @float_mac(%A: memref<64xf32>, %B: memref<64xf32>, %C: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xf32>
    %b = affine.load %B[%i] : memref<64xf32>
    %p = arith.mulf %a, %b : f32
    %c = affine.load %C[%i] : memref<64xf32>
    // expected-remark@+1 {{aie-vectorize: no AIE-ML scheme for a multiply-accumulate on 16 lanes of 32-bit floats; the function is left as the super-vectorizer produced it}}
    %s = arith.addf %c, %p : f32
    affine.store %s, %C[%i] : memref<64xf32>
  }
  return
}
