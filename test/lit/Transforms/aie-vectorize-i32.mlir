// The 32-bit scheme: reassociation puts the streaming operand in X and the
// product last in the add; add(acc, mul) becomes a mac whose accumulator
// comes up through ups (i80); the result goes down through srs before a
// plain add, which uses the start/offset form for its splat operand.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize="shift=5" | FileCheck %s

// CHECK-LABEL: func.func @reassoc
// CHECK:         %[[B:.*]] = aievec.upd %arg1[%c5] {index = 0 : i8, offset = -160 : i32} : memref<8xi32>, vector<8xi32>
// CHECK:         %[[C:.*]] = aievec.upd %arg2[%[[I:.*]]] {index = 0 : i8, offset = 0 : i32} : memref<256xi32>, vector<8xi32>
// CHECK-NEXT:    %[[A:.*]] = aievec.upd %arg0[%[[I]]] {index = 0 : i8, offset = 0 : i32} : memref<256xi32>, vector<8xi32>
// CHECK-NEXT:    %[[U:.*]] = aievec.ups %[[C]] {shift = 5 : i8} : vector<8xi32>, vector<8xi80>
// CHECK-NEXT:    %[[X:.*]] = aievec.concat %[[A]], %[[A]] : vector<8xi32>, vector<16xi32>
// CHECK-NEXT:    %[[M:.*]] = aievec_aie1.mac %[[X]], %[[B]], %[[U]] {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "5"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
// CHECK-NEXT:    %[[S:.*]] = aievec.srs %[[M]], %c5_i32 : vector<8xi80>, i32, vector<8xi32>
// CHECK-NEXT:    %[[T:.*]] = aievec_aie1.add %[[S]], %[[B]] {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "5"} : vector<8xi32>, vector<8xi32>, vector<8xi32>
// CHECK-NEXT:    vector.transfer_write %[[T]], %arg2[%[[I]]]
func.func @reassoc(%A: memref<256xi32>, %B: memref<8xi32>, %C: memref<256xi32>) {
  affine.for %i = 0 to 256 {
    %c = affine.load %C[%i] : memref<256xi32>
    %a = affine.load %A[%i] : memref<256xi32>
    %b = affine.load %B[5] : memref<8xi32>
    %p = arith.muli %b, %a : i32
    %s = arith.addi %p, %c : i32
    %t = arith.addi %s, %b : i32
    affine.store %t, %C[%i] : memref<256xi32>
  }
  return
}
