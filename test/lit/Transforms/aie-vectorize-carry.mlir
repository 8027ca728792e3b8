// The output vector of a reduction loop is carried through it: read once
// before the loop, an iter_arg inside, written once after it. What is
// carried is the stored vector, not the accumulator: ups(srs(acc)) is not
// the identity (srs saturates or wraps to the element width), so the ups
// stays in the loop on the carried value.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize | FileCheck %s

// CHECK-LABEL: func.func @gemm
// CHECK:         scf.for %[[I:arg[0-9]+]] =
// CHECK:           scf.for %[[J:arg[0-9]+]] =
// CHECK:             %[[C0:.*]] = aievec.upd %arg2[%[[I]], %[[J]]] {index = 0 : i8, offset = 0 : i32} : memref<16x16xi32>, vector<8xi32>
// CHECK-NEXT:        %[[OUT:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[C0]]) -> (vector<8xi32>) {
// CHECK-NOT:           %arg2
// CHECK:               aievec.ups %[[ACC]] {shift = 0 : i8}
// CHECK-NOT:           %arg2
// CHECK:               %[[S:.*]] = aievec.srs
// CHECK-NEXT:          scf.yield %[[S]] : vector<8xi32>
// CHECK-NEXT:        }
// CHECK-NEXT:        vector.transfer_write %[[OUT]], %arg2[%[[I]], %[[J]]]
func.func @gemm(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %b = affine.load %B[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}

// Refused: the loop reads C elsewhere too (row k), so the value in memory
// may change under a carried copy; the read of C[i][j] stays in the loop.
// CHECK-LABEL: func.func @other_access
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[K:arg[0-9]+]] =
// CHECK-NOT:           iter_args
// CHECK:               aievec.upd %arg2[%{{.*}}, %{{.*}}] {index = 0 : i8, offset = 0 : i32} : memref<16x16xi32>, vector<8xi32>
// CHECK:               vector.transfer_write {{.*}}, %arg2
// CHECK-NEXT:        }
func.func @other_access(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %b = affine.load %C[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}

// Refused: the place read and written moves with the loop (row k).
// CHECK-LABEL: func.func @variant_index
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[K:arg[0-9]+]] =
// CHECK-NOT:           iter_args
// CHECK:               aievec.upd %arg2[%[[K]], %{{.*}}]
// CHECK:               vector.transfer_write {{.*}}, %arg2[%[[K]], %{{.*}}]
// CHECK-NEXT:        }
func.func @variant_index(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %b = affine.load %B[%i, %j] : memref<16x16xi32>
        %c = affine.load %C[%k, %j] : memref<16x16xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%k, %j] : memref<16x16xi32>
      }
    }
  }
  return
}
