// mlir-aie's alignment check on the loops of the vectorized index: a read
// whose innermost index comes from a loop whose step, or the constant
// offset of whose lower or upper bound map, is not a whole number of
// vectors is refused with mlir-aie's warnings, and the function stays as
// the super-vectorizer left it. (mlir-aie's gemm64_tile448_unroll8_
// unaligned_loads: a tile loop from d0 to d0 + 4 read 8 lanes where 4 were
// meant, and 3,840 of 4,096 results came out wrong on the emulator.)
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" \
// RUN:   --aie-vectorize --verify-diagnostics -o %t.on
// RUN: FileCheck %s < %t.on
// -unaligned-loads-check=false turns the check off, as in mlir-aie: the
// tile is vectorized (and computes what mlir-aie's output computes).
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" \
// RUN:   --aie-vectorize=unaligned-loads-check=false -o %t.off 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF-DIAG --allow-empty
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// OFF-DIAG-NOT: alignment check
// OFF-LABEL: func.func @upper_offset
// OFF: aievec
// OFF-LABEL: func.func @lower_offset
// OFF: aievec

#id = affine_map<(d0) -> (d0)>
#plus4 = affine_map<(d0) -> (d0 + 4)>
// CHECK-LABEL: func.func @upper_offset
// CHECK:         vector.transfer_read
// CHECK-NOT:     aievec
// CHECK:         return
// expected-warning@+1 {{Cannot apply aie-vectorize to func.func because alignment check has failed.}}
func.func @upper_offset(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  affine.for %i0 = 0 to 16 step 4 {
    affine.for %j0 = 0 to 16 step 4 {
      affine.for %k = 0 to 16 {
        affine.for %i = #id(%i0) to #plus4(%i0) {
          affine.for %j = #id(%j0) to #plus4(%j0) {
            %a = affine.load %A[%i, %k] : memref<16x16xf32>
            // expected-warning@+1 {{Loop upper bound's affine map offset of inner index of vector.transfer_read is not divisible by number of vector lanes.}}
            %b = affine.load %B[%k, %j] : memref<16x16xf32>
            %p = arith.mulf %a, %b : f32
            // expected-warning@+1 {{Loop upper bound's affine map offset of inner index of vector.transfer_read is not divisible by number of vector lanes.}}
            %c = affine.load %C[%i, %j] : memref<16x16xf32>
            %s = arith.addf %c, %p : f32
            affine.store %s, %C[%i, %j] : memref<16x16xf32>
          }
        }
      }
    }
  }
  return
}

// -----
#plus4 = affine_map<(d0) -> (d0 + 4)>
#plus12 = affine_map<(d0) -> (d0 + 12)>
// CHECK-LABEL: func.func @lower_offset
// CHECK-NOT:     aievec
// CHECK:         return
// expected-warning@+1 {{alignment check has failed}}
func.func @lower_offset(%A: memref<32xi32>, %B: memref<32xi32>, %C: memref<32xi32>) {
  affine.for %t = 0 to 16 step 16 {
    affine.for %i = #plus4(%t) to #plus12(%t) {
      // expected-warning@+1 {{Loop lower bound's affine map offset of inner index of vector.transfer_read is not divisible by number of vector lanes.}}
      %a = affine.load %A[%i] : memref<32xi32>
      // expected-warning@+1 {{Loop lower bound's affine map offset}}
      %b = affine.load %B[%i] : memref<32xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %C[%i] : memref<32xi32>
    }
  }
  return
}

// -----
// Whole vectors (a tile of 8, a loop from d0 + 8): vectorized. A constant
// bound is no offset (a loop to 60 on 8 lanes passes, as in mlir-aie).
#id = affine_map<(d0) -> (d0)>
#plus8 = affine_map<(d0) -> (d0 + 8)>
#plus16 = affine_map<(d0) -> (d0 + 16)>
// CHECK-LABEL: func.func @aligned
// CHECK:         aievec_aie1.mac
// CHECK-LABEL: func.func @aligned_offsets
// CHECK:         aievec_aie1.mul
func.func @aligned(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  affine.for %i0 = 0 to 16 step 8 {
    affine.for %j0 = 0 to 16 step 8 {
      affine.for %k = 0 to 16 {
        affine.for %i = #id(%i0) to #plus8(%i0) {
          affine.for %j = #id(%j0) to #plus8(%j0) {
            %a = affine.load %A[%i, %k] : memref<16x16xf32>
            %b = affine.load %B[%k, %j] : memref<16x16xf32>
            %p = arith.mulf %a, %b : f32
            %c = affine.load %C[%i, %j] : memref<16x16xf32>
            %s = arith.addf %c, %p : f32
            affine.store %s, %C[%i, %j] : memref<16x16xf32>
          }
        }
      }
    }
  }
  return
}
func.func @aligned_offsets(%A: memref<64xi32>, %B: memref<64xi32>, %C: memref<64xi32>) {
  affine.for %t = 0 to 32 step 32 {
    affine.for %i = #plus8(%t) to #plus16(%t) {
      %a = affine.load %A[%i] : memref<64xi32>
      %b = affine.load %B[%i] : memref<64xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %C[%i] : memref<64xi32>
    }
  }
  affine.for %i = 0 to 60 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// An index constant far beyond the memref: no AIE load makes that access,
// and the reuse analysis would overflow turning it into a bit offset.
// CHECK-LABEL: func.func @huge_offset
// CHECK-NOT:     aievec
func.func @huge_offset(%A: memref<64xi32>, %B: memref<64xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    // expected-remark@+1 {{an index holds a constant beyond the memref's extent}}
    %a = affine.load %A[%i + 9223372036854775807] : memref<64xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}

// -----
// The same through a row: a coefficient the reuse analysis would multiply
// by the row's size.
// CHECK-LABEL: func.func @huge_row
// CHECK-NOT:     aievec
func.func @huge_row(%A: memref<64x64xi32>, %B: memref<64x64xi32>, %C: memref<64x64xi32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      // expected-remark@+1 {{an index holds a constant beyond the memref's extent}}
      %a = affine.load %A[%i * 4611686018427387904, %j] : memref<64x64xi32>
      %b = affine.load %B[%i, %j] : memref<64x64xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %C[%i, %j] : memref<64x64xi32>
    }
  }
  return
}
