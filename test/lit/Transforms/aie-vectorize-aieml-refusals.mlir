// aieml=true takes only the conv multiplies (i16 x 16 lanes, i8 x 32
// lanes); anything else is refused with a remark and left alone.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="aieml=true" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @float
// CHECK:         arith.mulf {{.*}} : vector<16xf32>
func.func @float(%A: memref<64xf32>, %B: memref<64xf32>, %C: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xf32>
    %b = affine.load %B[%i] : memref<64xf32>
    // expected-remark@+1 {{aie-vectorize: no AIE-ML scheme for a multiply on 16 lanes of 32-bit floats; the function is left as the super-vectorizer produced it}}
    %p = arith.mulf %a, %b : f32
    affine.store %p, %C[%i] : memref<64xf32>
  }
  return
}

// -----
// CHECK-LABEL: func.func @add
// CHECK:         arith.addi {{.*}} : vector<16xi16>
func.func @add(%A: memref<64xi16>, %B: memref<64xi16>, %C: memref<64xi16>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi16>
    %b = affine.load %B[%i] : memref<64xi16>
    // expected-remark@+1 {{aie-vectorize: no AIE-ML scheme for an add/sub on 16 lanes of 16-bit integers; the function is left as the super-vectorizer produced it}}
    %p = arith.addi %a, %b : i16
    affine.store %p, %C[%i] : memref<64xi16>
  }
  return
}
