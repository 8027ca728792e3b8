// aieml=true: a multiply of sign-extended i16 reads is narrowed to i16 for
// the conv scheme (16 lanes); at 32 lanes neither the conv scheme nor the
// element-wise one (which multiplies at the data's own width) takes it.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=32" --aie-vectorize="aieml=true" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @narrowed
// CHECK:         arith.muli {{.*}} : vector<32xi32>
// CHECK-NOT:     aievec
func.func @narrowed(%A: memref<64xi16>, %B: memref<64xi16>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi16>
    %x = arith.extsi %a : i16 to i32
    %b = affine.load %B[%i] : memref<64xi16>
    %y = arith.extsi %b : i16 to i32
    // expected-remark@+1 {{aie-vectorize: no AIE-ML scheme for a multiply on 32 lanes of 16-bit integers; the function is left as the super-vectorizer produced it}}
    %p = arith.muli %x, %y : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}
