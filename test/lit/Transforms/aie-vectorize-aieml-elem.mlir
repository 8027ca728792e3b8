// aieml=true, element-wise scheme: i32 x 16 lanes and i16 x 32 lanes
// multiply lane by lane (mac_elem / mul_elem into vector<16xi64> /
// vector<32xi32>); a splat operand is broadcast (idx = its element) from
// the one 512-bit vector that holds it, instead of a load per element.
// The unrolled reduction of a gemm reads and writes C once per step; the
// steps are forwarded into one mac_elem chain (fmsub for a subtraction)
// with one srs and one store.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="aieml=true" | FileCheck %s --check-prefix=I32
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=32" --aie-vectorize="aieml=true shift=3" | FileCheck %s --check-prefix=I16

// I32-LABEL: func.func @gemm
// I32:         %[[C:.*]] = aievec.upd %arg2[%arg3, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<32x32xi32>, vector<16xi32>
// I32-NEXT:    %[[OUT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c4 iter_args(%[[CC:.*]] = %[[C]]) -> (vector<16xi32>) {
// I32-NEXT:      %[[A:.*]] = aievec.upd %arg0[%arg3, %[[K]]] {index = 0 : i8, offset = 0 : i32} : memref<32x32xi32>, vector<16xi32>
// I32-NEXT:      %[[B0:.*]] = aievec.upd %arg1[%[[K]], %arg4] {index = 0 : i8, offset = 0 : i32} : memref<32x32xi32>, vector<16xi32>
// I32-NEXT:      %[[ACC:.*]] = aievec.ups %[[CC]] {shift = 0 : i8} : vector<16xi32>, vector<16xi64>
// I32-NEXT:      %[[S0:.*]] = aievec.broadcast %[[A]] {idx = 0 : i8} : vector<16xi32>, vector<16xi32>
// I32-NEXT:      %[[M0:.*]] = aievec.mac_elem %[[B0]], %[[S0]], %[[ACC]] : vector<16xi32>, vector<16xi32>, vector<16xi64>
// I32:           %[[B1:.*]] = aievec.upd %arg1[%{{.*}}, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<32x32xi32>, vector<16xi32>
// I32-NEXT:      %[[S1:.*]] = aievec.broadcast %[[A]] {idx = 1 : i8} : vector<16xi32>, vector<16xi32>
// I32-NEXT:      %[[M1:.*]] = aievec.mac_elem %[[B1]], %[[S1]], %[[M0]] : vector<16xi32>, vector<16xi32>, vector<16xi64>
// I32:           %[[B3:.*]] = aievec.upd %arg1[%{{.*}}, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<32x32xi32>, vector<16xi32>
// I32-NEXT:      %[[S3:.*]] = aievec.broadcast %[[A]] {idx = 3 : i8} : vector<16xi32>, vector<16xi32>
// I32-NEXT:      %[[M3:.*]] = aievec.mac_elem %[[B3]], %[[S3]], %[[M1]] {fmsub = true} : vector<16xi32>, vector<16xi32>, vector<16xi64>
// I32-NEXT:      %[[R:.*]] = aievec.srs %[[M3]], %c0_i32 : vector<16xi64>, i32, vector<16xi32>
// I32-NEXT:      scf.yield %[[R]] : vector<16xi32>
// I32-NEXT:    }
// I32-NEXT:    vector.transfer_write %[[OUT]], %arg2[%arg3, %arg4] : vector<16xi32>, memref<32x32xi32>
// I32-NOT:     transfer_write
// I32-NOT:     aievec.upd %arg0
// I16-LABEL: func.func @gemm
func.func @gemm(%A: memref<32x32xi32>, %B: memref<32x32xi32>, %C: memref<32x32xi32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 32 step 4 {
        %a0 = affine.load %A[%i, %k] : memref<32x32xi32>
        %b0 = affine.load %B[%k, %j] : memref<32x32xi32>
        %p0 = arith.muli %a0, %b0 : i32
        %c0 = affine.load %C[%i, %j] : memref<32x32xi32>
        %s0 = arith.addi %c0, %p0 : i32
        affine.store %s0, %C[%i, %j] : memref<32x32xi32>
        %a1 = affine.load %A[%i, %k + 1] : memref<32x32xi32>
        %b1 = affine.load %B[%k + 1, %j] : memref<32x32xi32>
        %p1 = arith.muli %a1, %b1 : i32
        %c1 = affine.load %C[%i, %j] : memref<32x32xi32>
        %s1 = arith.addi %c1, %p1 : i32
        affine.store %s1, %C[%i, %j] : memref<32x32xi32>
        %a3 = affine.load %A[%i, %k + 3] : memref<32x32xi32>
        %b3 = affine.load %B[%k + 3, %j] : memref<32x32xi32>
        %p3 = arith.muli %a3, %b3 : i32
        %c3 = affine.load %C[%i, %j] : memref<32x32xi32>
        %s3 = arith.subi %c3, %p3 : i32
        affine.store %s3, %C[%i, %j] : memref<32x32xi32>
      }
    }
  }
  return
}

// -----
// A single splat element still comes from a 512-bit vector (offset: the
// vector starts 3 elements before it); the broadcast is loop-invariant.
// I32-LABEL: func.func @scale
// I32:         %[[S:.*]] = aievec.upd %arg1[%c3] {index = 0 : i8, offset = -96 : i32} : memref<8xi32>, vector<16xi32>
// I32-NEXT:    %[[BC:.*]] = aievec.broadcast %[[S]] {idx = 3 : i8} : vector<16xi32>, vector<16xi32>
// I32:         scf.for
// I32-NEXT:      %[[X:.*]] = aievec.upd %arg0[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<64xi32>, vector<16xi32>
// I32-NEXT:      %[[M:.*]] = aievec.mul_elem %[[X]], %[[BC]] : vector<16xi32>, vector<16xi32>, vector<16xi64>
// I32-NEXT:      %[[R:.*]] = aievec.srs %[[M]], %c0_i32 : vector<16xi64>, i32, vector<16xi32>
// I32-NEXT:      vector.transfer_write %[[R]], %arg2[%arg3] : vector<16xi32>, memref<64xi32>
// I16-LABEL: func.func @scale
func.func @scale(%A: memref<64xi32>, %S: memref<8xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %s = affine.load %S[3] : memref<8xi32>
    %p = arith.muli %s, %a : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// i16 x 32 lanes: accumulator vector<32xi32>; ups / srs carry the shift.
// I16-LABEL: func.func @mac16
// I16:           %[[A:.*]] = aievec.upd %arg0[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<128xi16>, vector<32xi16>
// I16-NEXT:      %[[B:.*]] = aievec.upd %arg1[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<128xi16>, vector<32xi16>
// I16-NEXT:      %[[C:.*]] = aievec.upd %arg2[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<128xi16>, vector<32xi16>
// I16-NEXT:      %[[ACC:.*]] = aievec.ups %[[C]] {shift = 3 : i8} : vector<32xi16>, vector<32xi32>
// I16-NEXT:      %[[M:.*]] = aievec.mac_elem %[[A]], %[[B]], %[[ACC]] : vector<32xi16>, vector<32xi16>, vector<32xi32>
// I16-NEXT:      %[[R:.*]] = aievec.srs %[[M]], %c3_i32 : vector<32xi32>, i32, vector<32xi16>
// I16-NEXT:      vector.transfer_write %[[R]], %arg2[%arg3] : vector<32xi16>, memref<128xi16>
// I32-LABEL: func.func @mac16
// I32:         aievec.fma_conv
func.func @mac16(%A: memref<128xi16>, %B: memref<128xi16>, %C: memref<128xi16>) {
  affine.for %i = 0 to 128 {
    %a = affine.load %A[%i] : memref<128xi16>
    %b = affine.load %B[%i] : memref<128xi16>
    %p = arith.muli %a, %b : i16
    %c = affine.load %C[%i] : memref<128xi16>
    %s = arith.addi %c, %p : i16
    affine.store %s, %C[%i] : memref<128xi16>
  }
  return
}
