// Before the reuse analysis, aie-vectorize forwards vector transfers within
// a block: a read of exactly what the block last wrote takes the written
// vector, and a write overwritten before its memref is read is dropped.
// Reads that stay (no forwarding across a call) never share a load with
// reads before a write.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize | FileCheck %s

// An unrolled reduction: one load and one store of C per k step, the
// products chained through the accumulator.
// CHECK-LABEL: func.func @gemm2
// (The remaining read and write of C are then carried through the k loop.)
// CHECK:         %[[C:.*]] = aievec.upd %arg2[%arg3, %arg4]
// CHECK-NEXT:    %[[OUT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c2 iter_args(%[[CC:.*]] = %[[C]])
// CHECK-NOT:       %arg2
// CHECK:           %[[ACC:.*]] = aievec.ups %[[CC]]
// CHECK:           %[[M0:.*]] = aievec_aie1.mac %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK:           %[[M1:.*]] = aievec_aie1.mac %{{.*}}, %{{.*}}, %[[M0]]
// CHECK-NEXT:      %[[R:.*]] = aievec.srs %[[M1]]
// CHECK-NEXT:      scf.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[OUT]], %arg2[%arg3, %arg4]
// CHECK-NOT:     aievec.upd %arg2
// CHECK-NOT:     transfer_write
func.func @gemm2(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 step 2 {
        %a0 = affine.load %A[%i, %k] : memref<16x16xi32>
        %b0 = affine.load %B[%k, %j] : memref<16x16xi32>
        %p0 = arith.muli %a0, %b0 : i32
        %c0 = affine.load %C[%i, %j] : memref<16x16xi32>
        %s0 = arith.addi %c0, %p0 : i32
        affine.store %s0, %C[%i, %j] : memref<16x16xi32>
        %a1 = affine.load %A[%i, %k + 1] : memref<16x16xi32>
        %b1 = affine.load %B[%k + 1, %j] : memref<16x16xi32>
        %p1 = arith.muli %a1, %b1 : i32
        %c1 = affine.load %C[%i, %j] : memref<16x16xi32>
        %s1 = arith.addi %c1, %p1 : i32
        affine.store %s1, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}

// -----
// The call may change C: the read after it is a load of its own.
// CHECK-LABEL: func.func @across_call
// CHECK:         %[[A:.*]] = aievec.upd %arg0[%arg2]
// CHECK-NEXT:    %[[C0:.*]] = aievec.upd %arg1[%arg2]
// CHECK-NEXT:    %[[S:.*]] = aievec_aie1.add %[[C0]], %[[A]]
// CHECK-NEXT:    vector.transfer_write %[[S]], %arg1[%arg2]
// CHECK-NEXT:    func.call @ext(%arg1)
// CHECK-NEXT:    %[[C1:.*]] = aievec.upd %arg1[%arg2]
// CHECK-NEXT:    %[[T:.*]] = aievec_aie1.add %[[C1]], %[[A]]
// CHECK-NEXT:    vector.transfer_write %[[T]], %arg1[%arg2]
func.func private @ext(memref<64xi32>)
func.func @across_call(%A: memref<64xi32>, %C: memref<64xi32>) {
  %pad = arith.constant 0 : i32
  affine.for %i = 0 to 64 step 8 {
    %a = vector.transfer_read %A[%i], %pad : memref<64xi32>, vector<8xi32>
    %c = vector.transfer_read %C[%i], %pad : memref<64xi32>, vector<8xi32>
    %s = arith.addi %c, %a : vector<8xi32>
    vector.transfer_write %s, %C[%i] : vector<8xi32>, memref<64xi32>
    func.call @ext(%C) : (memref<64xi32>) -> ()
    %e = vector.transfer_read %C[%i], %pad : memref<64xi32>, vector<8xi32>
    %t = arith.addi %e, %a : vector<8xi32>
    vector.transfer_write %t, %C[%i] : vector<8xi32>, memref<64xi32>
  }
  return
}

// -----
// A read of C elsewhere between two writes of C[i] keeps the first write
// (it may read what it wrote). The read at C[i] after the second write
// takes the second's value, which leaves nothing to read that write: the
// third one replaces it.
// CHECK-LABEL: func.func @kept_write
// CHECK:         %[[A:.*]] = aievec.upd %arg0[%arg2]
// CHECK-NEXT:    vector.transfer_write %[[A]], %arg1[%arg2]
// CHECK:         %[[N:.*]] = aievec.upd %arg1[%{{.*}}]
// CHECK-NEXT:    %[[S:.*]] = aievec_aie1.add %[[N]], %[[A]]
// CHECK-NEXT:    %[[T:.*]] = aievec_aie1.add %[[S]], %[[A]]
// CHECK-NEXT:    vector.transfer_write %[[T]], %arg1[%arg2]
// CHECK-NEXT:  }
func.func @kept_write(%A: memref<64xi32>, %C: memref<72xi32>) {
  %pad = arith.constant 0 : i32
  %c8 = arith.constant 8 : index
  affine.for %i = 0 to 64 step 8 {
    %a = vector.transfer_read %A[%i], %pad : memref<64xi32>, vector<8xi32>
    vector.transfer_write %a, %C[%i] : vector<8xi32>, memref<72xi32>
    %i8 = arith.addi %i, %c8 : index
    %n = vector.transfer_read %C[%i8], %pad : memref<72xi32>, vector<8xi32>
    %s = arith.addi %n, %a : vector<8xi32>
    vector.transfer_write %s, %C[%i] : vector<8xi32>, memref<72xi32>
    %e = vector.transfer_read %C[%i], %pad : memref<72xi32>, vector<8xi32>
    %t = arith.addi %e, %a : vector<8xi32>
    vector.transfer_write %t, %C[%i] : vector<8xi32>, memref<72xi32>
  }
  return
}
