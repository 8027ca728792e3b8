// aie-opt's global options are accepted as tool flags, as aie-opt accepts
// them: -unaligned-loads-check=false, -aieml=true, -shift=, -zero-offset=,
// -dup-factor= set the option of that name on every pass given as a flag
// that has it (any npuc pass option works the same way); the pass's own
// option text wins over them.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize -shift=5 \
// RUN:   | FileCheck %s --check-prefix=SHIFT5
// RUN: npuc-opt %s -shift=5 -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize \
// RUN:   | FileCheck %s --check-prefix=SHIFT5
// SHIFT5: %[[S:.*]] = arith.constant 5 : i32
// SHIFT5: aievec.srs %{{.*}}, %[[S]]
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize=shift=7 -shift=5 \
// RUN:   | FileCheck %s --check-prefix=OWN
// OWN: arith.constant 7 : i32
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize -aieml=true \
// RUN:   -dup-factor=2 -zero-offset=0 | FileCheck %s --check-prefix=AIEML
// AIEML: aievec.mul_elem
// The unaligned tile of aie-vectorize-alignment.mlir, with the check off.
// RUN: npuc-opt %S/../Transforms/aie-vectorize-alignment.mlir -split-input-file \
// RUN:   -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize \
// RUN:   -unaligned-loads-check=false -o %t.off 2>&1 | FileCheck %s --check-prefix=NOWARN --allow-empty
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// NOWARN-NOT: alignment check
// OFF-LABEL: func.func @upper_offset
// OFF: aievec

// Errors: a pass option no pass given as a flag has; with --pass-pipeline;
// a bad value, reported by the pass's option parser.
// RUN: not npuc-opt %s -shift=5 -o %t.1 2>&1 | FileCheck %s --check-prefix=NOPASS
// RUN: not test -e %t.1
// NOPASS: npuc-opt: error: '-shift=5' sets an option of a pass, but no pass given as a flag has 'shift'
// RUN: not npuc-opt %s --pass-pipeline='builtin.module(aie-vectorize)' -aieml 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: '-aieml' sets an option of a pass, but no pass given as a flag has 'aieml' (with --pass-pipeline, write it in the pass's braces)
// RUN: not npuc-opt %s --aie-vectorize -aieml=maybe 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: aieml
// VALUE-SAME: maybe

func.func @pw(%A: memref<64xi32>, %B: memref<64xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    %p = arith.muli %a, %b : i32
    affine.store %p, %C[%i] : memref<64xi32>
  }
  return
}
