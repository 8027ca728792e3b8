// Upstream passes run through the flag form (-x and --x) and through
// --pass-pipeline, mixed freely with npuc passes; passes that run on
// func.func are nested under it implicitly, as mlir-opt does.
// RUN: npuc-opt %s --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: npuc-opt %s -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: npuc-opt %s -cse | FileCheck %s --check-prefix=CSE
// RUN: npuc-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' \
// RUN:   | FileCheck %s --check-prefix=CANON
// RUN: npuc-opt %s --pass-pipeline='builtin.module(cse, npuc-strip-annotations, canonicalize{max-iterations=3})' \
// RUN:   | FileCheck %s --check-prefix=CANON
// RUN: npuc-opt %s '--pass-pipeline=cse,canonicalize' | FileCheck %s --check-prefix=CANON
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=16" \
// RUN:   | FileCheck %s --check-prefix=VEC
// RUN: npuc-opt %s '--affine-super-vectorize={virtual-vector-size=16}' --cse \
// RUN:   | FileCheck %s --check-prefix=VEC
// RUN: npuc-opt %s --pass-pipeline='builtin.module(affine-super-vectorize{virtual-vector-size=16},npuc-strip-annotations)' \
// RUN:   | FileCheck %s --check-prefix=VEC
// RUN: npuc-opt %s --pass-pipeline='builtin.module(func.func(affine-super-vectorize{virtual-vector-size=16}))' \
// RUN:   | FileCheck %s --check-prefix=VEC
// RUN: npuc-opt %s | FileCheck %s --check-prefix=NONE
// Passes of different anchors keep their order: here a function pass (run
// on each function), a module pass, an npuc pass, a pass for any op.
// RUN: npuc-opt %s --mlir-print-ir-after-all -o %t.out \
// RUN:   --pass-pipeline='builtin.module(affine-super-vectorize{virtual-vector-size=16},gpu-kernel-outlining,npuc-strip-annotations,cse)' \
// RUN:   2>&1 | FileCheck %s --check-prefix=ORDER

module {
  func.func @fold(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %a = arith.addi %x, %c0 : i32
    %b = arith.muli %a, %a : i32
    %c = arith.muli %a, %a : i32
    %d = arith.addi %b, %c : i32
    return %d : i32
  }

  func.func @vec(%A: memref<64xf32>) {
    affine.for %i = 0 to 64 {
      %v = affine.load %A[%i] : memref<64xf32>
      affine.store %v, %A[%i] : memref<64xf32>
    }
    return
  }
}

// Canonicalization folds x + 0; with cse in front the products merge too,
// which canonicalize alone does not do (checked by NONE below).
// CANON-LABEL: func.func @fold
// CANON-NOT: arith.constant
// CANON: arith.muli %arg0, %arg0 : i32
// CANON-NOT: arith.constant
// CANON: return

// CSE-LABEL: func.func @fold
// CSE: arith.constant 0
// CSE: %[[A:.*]] = arith.addi %arg0,
// CSE-NEXT: %[[M:.*]] = arith.muli %[[A]], %[[A]] : i32
// CSE-NEXT: arith.addi %[[M]], %[[M]] : i32

// VEC-LABEL: func.func @vec
// VEC: affine.for %{{.*}} = 0 to 64 step 16
// VEC: vector.transfer_read
// VEC: vector.transfer_write

// ORDER: IR Dump After AffineVectorize (affine-super-vectorize)
// ORDER: IR Dump After AffineVectorize (affine-super-vectorize)
// ORDER-NOT: IR Dump After
// ORDER: IR Dump After GpuKernelOutliningPass (gpu-kernel-outlining)
// ORDER-NOT: IR Dump After
// ORDER: IR Dump After npuc-strip-annotations (npuc-strip-annotations)
// ORDER-NOT: IR Dump After
// ORDER: IR Dump After CSE (cse)

// NONE: %{{.*}} = arith.muli
// NONE-NEXT: %{{.*}} = arith.muli
// NONE: affine.for %{{.*}} = 0 to 64 {
