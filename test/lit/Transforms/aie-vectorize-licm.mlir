// The clean-up's loop-invariant code motion: loads of data no loop writes
// climb out of every loop (the filter here); the load of C, which the
// innermost loop stores, is not hoisted alone (mlir-aie hoists it with its
// ups and keeps only the last row's update): C is carried through the
// loop instead (aie-vectorize-carry.mlir), its ups stays in the loop.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize | FileCheck %s

// CHECK-LABEL: func.func @rows
// CHECK:         %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<8xi32>, vector<8xi32>
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[C:.*]] = aievec.upd %arg2[%[[I]], %[[J]]] {index = 0 : i8, offset = 0 : i32} : memref<8x64xi32>, vector<8xi32>
// CHECK-NEXT:        %[[OUT:.*]] = scf.for %[[R:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[C]])
// CHECK:               aievec.ups %[[ACC]]
// CHECK:               scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:        vector.transfer_write %[[OUT]], %arg2[%[[I]], %[[J]]]
func.func @rows(%A: memref<16x64xi32>, %B: memref<8xi32>, %C: memref<8x64xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 64 {
      affine.for %r = 0 to 3 {
        %c = affine.load %C[%i, %j] : memref<8x64xi32>
        %a = affine.load %A[%i + %r, %j] : memref<16x64xi32>
        %b = affine.load %B[0] : memref<8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x64xi32>
      }
    }
  }
  return
}
