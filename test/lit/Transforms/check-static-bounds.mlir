// check-static-bounds: an access that provably leaves its static memref is
// an error at the access, in the words of MLIR's -test-memref-bound-check;
// one it cannot prove (a condition, a function argument, a div/mod, a
// dynamic shape or bound) passes.
// RUN: npuc-opt %s -split-input-file --check-static-bounds --verify-diagnostics -o %t
// aie-vectorize checks its input the same way (issue 15: mlir-aie would
// load past the buffer).
// RUN: not npuc-opt %s -split-input-file --aie-vectorize -o %t.aie 2>&1 | FileCheck %s --check-prefix=AIE
// AIE: check-static-bounds.mlir:[[@LINE+5]]:10: error: aie-vectorize: 'affine.load' op memref out of upper bound access along dimension #1: the index reaches 35, the extent is 16

func.func @affine_upper(%A: memref<16xi32>, %B: memref<16xi32>) {
  affine.for %i = 0 to 16 {
    // expected-error@+1 {{'affine.load' op memref out of upper bound access along dimension #1: the index reaches 35, the extent is 16}}
    %v = affine.load %A[%i + 20] : memref<16xi32>
    affine.store %v, %B[%i] : memref<16xi32>
  }
  return
}

// -----
func.func @affine_store_lower(%B: memref<4x16xi32>, %v: i32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      // expected-error@+1 {{'affine.store' op memref out of lower bound access along dimension #2: the index reaches -1, the extent is 16}}
      affine.store %v, %B[%i, %j - 1] : memref<4x16xi32>
    }
  }
  return
}

// -----
// The loop's last value counts, not its upper bound: 0, 8 here.
func.func @step(%A: memref<16xi32>, %B: memref<16xi32>) {
  affine.for %i = 0 to 16 step 8 {
    %ok = affine.load %A[%i + 7] : memref<16xi32>
    // expected-error@+1 {{index reaches 16, the extent is 16}}
    %v = affine.load %A[%i + 8] : memref<16xi32>
    affine.store %v, %B[%i] : memref<16xi32>
  }
  return
}

// -----
// memref.load through scf.for, arith and affine.apply.
#twice = affine_map<(d0) -> (d0 * 2 + 1)>
func.func @memref_scf(%A: memref<8x30xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c7 = arith.constant 7 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> (f32) {
    %k = affine.apply #twice(%i)
    %row = arith.subi %c7, %c0 : index
    // expected-error@+1 {{'memref.load' op memref out of upper bound access along dimension #2: the index reaches 31, the extent is 30}}
    %x = memref.load %A[%row, %k] : memref<8x30xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----
// A constant index, no loop.
func.func @constant(%A: memref<4xf32>, %v: f32) {
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{'memref.store' op memref out of upper bound access along dimension #1: the index reaches 4, the extent is 4}}
  memref.store %v, %A[%c4] : memref<4xf32>
  return
}

// -----
// A vector transfer whose first element is already past the end.
func.func @transfer(%A: memref<64xi32>) -> vector<8xi32> {
  %c64 = arith.constant 64 : index
  %p = arith.constant 0 : i32
  // expected-error@+1 {{'vector.transfer_read' op memref out of upper bound access along dimension #1: the index reaches 64, the extent is 64}}
  %v = vector.transfer_read %A[%c64], %p : memref<64xi32>, vector<8xi32>
  return %v : vector<8xi32>
}

// -----
// Nothing provable: all of these pass.
func.func @unproven(%A: memref<16xi32>, %D: memref<?xi32>, %n: index, %v: i32) {
  affine.for %i = 0 to 32 {
    // Under a condition that keeps it in range.
    affine.if affine_set<(d0) : (15 - d0 >= 0)>(%i) {
      affine.store %v, %A[%i] : memref<16xi32>
    }
    // A mod keeps it in range; not a linear form.
    affine.store %v, %A[%i mod 16] : memref<16xi32>
    // A dynamic extent.
    affine.store %v, %D[%i + 100] : memref<?xi32>
    // An index from an argument.
    affine.store %v, %A[%n] : memref<16xi32>
    // The same IV twice cancels out: 0..31 - 0..31 is 0.
    affine.store %v, %A[%i * 2 - %i - %i] : memref<16xi32>
  }
  // A loop with a dynamic bound, and one that never runs.
  affine.for %j = 0 to %n {
    affine.store %v, %A[%j + 20] : memref<16xi32>
  }
  affine.for %k = 5 to 5 {
    affine.store %v, %A[%k + 20] : memref<16xi32>
  }
  // In range at both ends.
  affine.for %m = 0 to 16 {
    affine.store %v, %A[15 - %m] : memref<16xi32>
  }
  // The index overflows int64 before it leaves the memref: not provable in
  // index arithmetic, which wraps.
  affine.for %h = 0 to 16 {
    affine.store %v, %A[%h + 9223372036854775807] : memref<16xi32>
  }
  return
}
