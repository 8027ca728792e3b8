// aieml=true: the AIE-ML conv scheme. A row of filter taps fuses into one
// mul_conv/fma_conv (M lanes, N columns: 16x4 for i16, 32x8 for i8); the
// filter vector is doubled (i16) or compacted (i8, dup-factor 2) once, and
// each further filter row is shifted into place (bytes). Sign-extended
// narrow reads multiply at their own width; an i32 result of an i8 conv
// is a cast of the accumulator.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="aieml=true shift=4" | FileCheck %s --check-prefix=I16
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=32" --aie-vectorize="aieml=true" | FileCheck %s --check-prefix=I8

// I16-LABEL: func.func @ml16
// I16:         %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<8xi16>, vector<16xi16>
// I16-NEXT:    %[[F0:.*]] = aievec.concat %[[B]], %[[B]] : vector<16xi16>, vector<32xi16>
// I16-NEXT:    %[[F1:.*]] = aievec.shift %[[F0]], %[[F0]], %c8_i32 {isAcc = false} : vector<32xi16>, vector<32xi16>, i32, vector<32xi16>
// I16:         %[[A0:.*]] = aievec.upd %arg0[%arg3, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<18x64xi16>, vector<32xi16>
// I16-NEXT:    %[[M:.*]] = aievec.mul_conv %[[A0]], %[[F0]] {M = 16 : i32, N = 4 : i32} : vector<32xi16>, vector<32xi16>, vector<16xi64>
// I16-NEXT:    %[[A1:.*]] = aievec.upd %arg0[%{{.*}}, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<18x64xi16>, vector<32xi16>
// I16-NEXT:    %[[F:.*]] = aievec.fma_conv %[[A1]], %[[F1]], %[[M]] {M = 16 : i32, N = 4 : i32} : vector<32xi16>, vector<32xi16>, vector<16xi64>
// I16-NEXT:    %[[S:.*]] = aievec.srs %[[F]], %c4_i32 : vector<16xi64>, i32, vector<16xi16>
// I16-NEXT:    vector.transfer_write %[[S]]
// I8-LABEL: func.func @ml16
// I8:         arith.muli {{.*}} : vector<32xi16>
func.func @ml16(%A: memref<18x64xi16>, %B: memref<8xi16>, %C: memref<16x48xi16>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 48 {
      %a0 = affine.load %A[%i, %j] : memref<18x64xi16>
      %b0 = affine.load %B[0] : memref<8xi16>
      %p0 = arith.muli %a0, %b0 : i16
      %a1 = affine.load %A[%i, %j + 1] : memref<18x64xi16>
      %b1 = affine.load %B[1] : memref<8xi16>
      %p1 = arith.muli %a1, %b1 : i16
      %s1 = arith.addi %p0, %p1 : i16
      %a2 = affine.load %A[%i + 1, %j] : memref<18x64xi16>
      %b2 = affine.load %B[4] : memref<8xi16>
      %p2 = arith.muli %a2, %b2 : i16
      %s2 = arith.addi %s1, %p2 : i16
      affine.store %s2, %C[%i, %j] : memref<16x48xi16>
    }
  }
  return
}

// -----
// I8-LABEL: func.func @ml8
// I8:         %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<64xi8>, vector<64xi8>
// I8-NEXT:    %[[F:.*]] = aievec.legacyshuffle %[[B]] {mode = 0 : i32} : vector<64xi8>, vector<64xi8>
// I8:         %[[A:.*]] = aievec.upd %arg0[%arg3, %arg4] {index = 0 : i8, offset = 0 : i32} : memref<16x96xi8>, vector<64xi8>
// I8-NEXT:    %[[M:.*]] = aievec.mul_conv %[[A]], %[[F]] {M = 32 : i32, N = 8 : i32} : vector<64xi8>, vector<64xi8>, vector<32xi32>
// I8-NEXT:    %[[R:.*]] = aievec.cast %[[M]] {isResAcc = false} : vector<32xi32>, vector<32xi32>
// I8-NEXT:    vector.transfer_write %[[R]], %arg2[%arg3, %arg4] : vector<32xi32>, memref<16x64xi32>
// I16-LABEL: func.func @ml8
// I16:         arith.muli {{.*}} : vector<16xi32>
func.func @ml8(%A: memref<16x96xi8>, %B: memref<64xi8>, %C: memref<16x64xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 64 {
      %a0 = affine.load %A[%i, %j] : memref<16x96xi8>
      %x0 = arith.extsi %a0 : i8 to i32
      %b0 = affine.load %B[0] : memref<64xi8>
      %y0 = arith.extsi %b0 : i8 to i32
      %p0 = arith.muli %x0, %y0 : i32
      %a1 = affine.load %A[%i, %j + 1] : memref<16x96xi8>
      %x1 = arith.extsi %a1 : i8 to i32
      %b1 = affine.load %B[2] : memref<64xi8>
      %y1 = arith.extsi %b1 : i8 to i32
      %p1 = arith.muli %x1, %y1 : i32
      %s1 = arith.addi %p0, %p1 : i32
      affine.store %s1, %C[%i, %j] : memref<16x64xi32>
    }
  }
  return
}
