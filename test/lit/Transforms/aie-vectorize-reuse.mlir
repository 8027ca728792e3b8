// The interval reuse analysis and upd generation of aie-vectorize: which
// reads share one AIE vector, the extents (aligned to 256 bits for
// multiply operands), the halves each read needs, and the offset of each
// upd from the read that made it.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize | FileCheck %s

// Reads at +0, +1 and +8 of one row: extents [0,256], [0,512], [256,512]
// merge into one 512-bit vector. +0 loads the low half; +1 needs the high
// half too (offset 256 - 32 bits from its own first element); +8 finds
// both halves loaded and only sets xstart.
// CHECK-LABEL: func.func @halves
// CHECK:      %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<8xi32>, vector<8xi32>
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c8 {
// CHECK-NEXT:   %[[LO:.*]] = aievec.upd %arg0[%[[I]]] {index = 0 : i8, offset = 0 : i32} : memref<1024xi32>, vector<16xi32>
// CHECK-NEXT:   %[[M0:.*]] = aievec_aie1.mul %[[LO]], %[[B]] {{{.*}}xstart = "0"{{.*}}zstart = "0"}
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT:   %[[BOTH:.*]] = aievec.upd %arg0[%[[I1]]], %[[LO]] {index = 1 : i8, offset = 224 : i32} : memref<1024xi32>, vector<16xi32>
// CHECK-NEXT:   %[[M1:.*]] = aievec_aie1.mac %[[BOTH]], %[[B]], %[[M0]] {{{.*}}xstart = "1"{{.*}}zstart = "1"}
// CHECK-NEXT:   %[[M2:.*]] = aievec_aie1.mac %[[BOTH]], %[[B]], %[[M1]] {{{.*}}xstart = "8"{{.*}}zstart = "2"}
// CHECK-NOT:  aievec.upd
// CHECK:      return
func.func @halves(%A: memref<1024xi32>, %B: memref<8xi32>, %C: memref<1016xi32>) {
  affine.for %i = 0 to 1016 {
    %a0 = affine.load %A[%i] : memref<1024xi32>
    %b0 = affine.load %B[0] : memref<8xi32>
    %p0 = arith.muli %a0, %b0 : i32
    %a1 = affine.load %A[%i + 1] : memref<1024xi32>
    %b1 = affine.load %B[1] : memref<8xi32>
    %p1 = arith.muli %a1, %b1 : i32
    %s1 = arith.addi %p0, %p1 : i32
    %a8 = affine.load %A[%i + 8] : memref<1024xi32>
    %b2 = affine.load %B[2] : memref<8xi32>
    %p2 = arith.muli %a8, %b2 : i32
    %s2 = arith.addi %s1, %p2 : i32
    affine.store %s2, %C[%i] : memref<1016xi32>
  }
  return
}

// -----
// Two rows of one array have the same base (row stride 64 is a constant
// offset) but disjoint extents: two vectors. Another array: another group.
// Each 256-bit vector used as X is doubled by a concat.
// CHECK-LABEL: func.func @groups
// CHECK:      %[[R1:.*]] = arith.addi %arg4, %{{.*}} : index
// CHECK:      scf.for %[[J:.*]] =
// CHECK-NEXT:   %[[A0:.*]] = aievec.upd %arg0[%arg4, %[[J]]] {index = 0 : i8, offset = 0 : i32} : memref<64x64xi32>, vector<8xi32>
// CHECK-NEXT:   %[[X0:.*]] = aievec.concat %[[A0]], %[[A0]] : vector<8xi32>, vector<16xi32>
// CHECK-NEXT:   aievec_aie1.mul %[[X0]]
// CHECK-NEXT:   %[[A1:.*]] = aievec.upd %arg0[%[[R1]], %[[J]]] {index = 0 : i8, offset = 0 : i32} : memref<64x64xi32>, vector<8xi32>
// CHECK-NEXT:   aievec.concat %[[A1]], %[[A1]]
// CHECK-NEXT:   aievec_aie1.mac
// CHECK-NEXT:   %[[D0:.*]] = aievec.upd %arg1[%arg4, %[[J]]] {index = 0 : i8, offset = 0 : i32} : memref<64x64xi32>, vector<8xi32>
// CHECK-NEXT:   aievec.concat %[[D0]], %[[D0]]
// CHECK-NEXT:   aievec_aie1.mac
func.func @groups(%A: memref<64x64xi32>, %D: memref<64x64xi32>, %B: memref<8xi32>, %C: memref<62x64xi32>) {
  affine.for %i = 0 to 62 {
    affine.for %j = 0 to 64 {
      %a0 = affine.load %A[%i, %j] : memref<64x64xi32>
      %b0 = affine.load %B[0] : memref<8xi32>
      %p0 = arith.muli %a0, %b0 : i32
      %a1 = affine.load %A[%i + 1, %j] : memref<64x64xi32>
      %b1 = affine.load %B[1] : memref<8xi32>
      %p1 = arith.muli %a1, %b1 : i32
      %s1 = arith.addi %p0, %p1 : i32
      %d0 = affine.load %D[%i, %j] : memref<64x64xi32>
      %b2 = affine.load %B[2] : memref<8xi32>
      %p2 = arith.muli %d0, %b2 : i32
      %s2 = arith.addi %s1, %p2 : i32
      affine.store %s2, %C[%i, %j] : memref<62x64xi32>
    }
  }
  return
}

// -----
// The same access in two loops: one load per loop. The second loop's
// filter vector is loaded by the read of B[1], 32 bits before it.
// CHECK-LABEL: func.func @loops
// CHECK:      aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32}
// CHECK:      scf.for
// CHECK-NEXT:   aievec.upd %arg0
// CHECK:      aievec.upd %arg1[%c1] {index = 0 : i8, offset = -32 : i32}
// CHECK:      scf.for
// CHECK-NEXT:   aievec.upd %arg0
func.func @loops(%A: memref<64xi32>, %B: memref<8xi32>, %C: memref<64xi32>, %E: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[0] : memref<8xi32>
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[1] : memref<8xi32>
    %p = arith.muli %a, %b : i32
    affine.store %p, %E[%i] : memref<64xi32>
  }
  return
}

// -----
// LHS coalescing: A[i] and A[i+8] are adjacent 256-bit vectors used only
// as X; they become one 512-bit vector (two halves) instead of two
// concats.
// CHECK-LABEL: func.func @coalesce
// CHECK:      %[[LO:.*]] = aievec.upd %arg0[%[[I:.*]]] {index = 0 : i8, offset = 0 : i32} : memref<1024xi32>, vector<16xi32>
// CHECK-NEXT: aievec_aie1.mul %[[LO]], %{{.*}} {{{.*}}xstart = "0"
// CHECK:      %[[HI:.*]] = aievec.upd %arg0[%{{.*}}], %[[LO]] {index = 1 : i8, offset = 0 : i32} : memref<1024xi32>, vector<16xi32>
// CHECK-NEXT: aievec_aie1.mac %[[HI]], %{{.*}} {{{.*}}xstart = "8"
// CHECK-NOT:  aievec.concat
func.func @coalesce(%A: memref<1024xi32>, %B: memref<8xi32>, %C: memref<1016xi32>) {
  affine.for %i = 0 to 1016 {
    %a0 = affine.load %A[%i] : memref<1024xi32>
    %b0 = affine.load %B[0] : memref<8xi32>
    %p0 = arith.muli %a0, %b0 : i32
    %a8 = affine.load %A[%i + 8] : memref<1024xi32>
    %b1 = affine.load %B[1] : memref<8xi32>
    %p1 = arith.muli %a8, %b1 : i32
    %s = arith.addi %p0, %p1 : i32
    affine.store %s, %C[%i] : memref<1016xi32>
  }
  return
}
