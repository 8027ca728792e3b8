// What aie-vectorize refuses: a warning or remark at the culprit, and the
// function stays as the super-vectorizer left it (the pass succeeds).
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize --verify-diagnostics | FileCheck %s

// Rows of 30 elements put every other row's vectors off the alignment.
// CHECK-LABEL: func.func @unaligned
// CHECK:         vector.transfer_read
// CHECK-NOT:     aievec
// expected-warning@+1 {{Cannot apply aie-vectorize to func.func because alignment check has failed.}}
func.func @unaligned(%A: memref<4x30xi32>, %B: memref<8xi32>, %C: memref<4x24xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 24 {
      // expected-warning@+1 {{vector.transfer_read's shape size of index 1 is not divisible by number of vector lanes.}}
      %a = affine.load %A[%i, %j] : memref<4x30xi32>
      %b = affine.load %B[0] : memref<8xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %C[%i, %j] : memref<4x24xi32>
    }
  }
  return
}

// -----
// 8 lanes of i16 fit no AIE1 multiply.
// CHECK-LABEL: func.func @no_scheme
// CHECK:         arith.muli {{.*}} : vector<8xi16>
// CHECK-NOT:     aievec
func.func @no_scheme(%A: memref<64xi16>, %B: memref<64xi16>, %C: memref<64xi16>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi16>
    %b = affine.load %B[%i] : memref<64xi16>
    // expected-remark@+1 {{aie-vectorize: no AIE1 scheme for a multiply on 8 lanes of 16-bit integers; the function is left as the super-vectorizer produced it}}
    %p = arith.muli %a, %b : i16
    affine.store %p, %C[%i] : memref<64xi16>
  }
  return
}

// -----
// A Z operand that starts one element into its vector needs 512 bits; the
// 32-bit multiply takes a 256-bit Z.
// CHECK-LABEL: func.func @wide_z
// CHECK-NOT:     aievec
func.func @wide_z(%A: memref<72xi32>, %B: memref<72xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<72xi32>
    %b = affine.load %B[%i + 1] : memref<72xi32>
    // expected-remark@+1 {{aie-vectorize: the Z operand would need a 512-bit AIE vector, the scheme takes 256..256 bits; the function is left as the super-vectorizer produced it}}
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// AIE1 multiplies at the data's width: a product of sign-extended i16
// reads computed in i32 is refused (aieml narrows it instead).
// CHECK-LABEL: func.func @extended
// CHECK:         arith.extsi
// CHECK-NOT:     aievec
func.func @extended(%A: memref<64xi16>, %B: memref<64xi16>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi16>
    %x = arith.extsi %a : i16 to i32
    %b = affine.load %B[%i] : memref<64xi16>
    %y = arith.extsi %b : i16 to i32
    // expected-remark@+1 {{aie-vectorize: an operand is extended from another width (the AIE1 schemes multiply at the data's width; aieml narrows such multiplies); the function is left as the super-vectorizer produced it}}
    %p = arith.muli %x, %y : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}
