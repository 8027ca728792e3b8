// --split-input-file processes each chunk on its own and joins the outputs
// with the marker; a failing chunk does not stop the others but fails the
// run, and diagnostics keep the lines of the file. (The checks spell the
// marker as {{-----}} so that they do not split this file themselves.)
// RUN: npuc-opt --split-input-file %s --pass-pipeline='builtin.module(cse)' \
// RUN:   | FileCheck %s
// RUN: npuc-opt -split-input-file %s | FileCheck %s
// RUN: npuc-opt %s | FileCheck %s --check-prefix=WHOLE
// RUN: not npuc-opt --split-input-file %S/Inputs/split-with-error.mlir 2>&1 \
// RUN:   | FileCheck %S/Inputs/split-with-error.mlir
// RUN: not npuc-opt --split-input-file %S/Inputs/split-with-error.mlir \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=PARTIAL
// RUN: npuc-opt --split-input-file='// =====' %S/Inputs/split-custom.mlir \
// RUN:   | FileCheck %s --check-prefix=CUSTOM

// The first chunk, these comments, is an empty module.
// CHECK: module {
// CHECK-NEXT: }
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @first
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second
// CHECK: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third
// CHECK-NOT: {{-----}}

// Unsplit, the three modules are one input: as in mlir-opt, several
// top-level ops are wrapped in a module.
// WHOLE: module {
// WHOLE-NEXT: module {
// WHOLE-NEXT: func.func @first
// WHOLE: module {
// WHOLE-NEXT: func.func @second
// WHOLE: module {
// WHOLE-NEXT: func.func @third

// PARTIAL: func.func @good_before
// PARTIAL-NEXT: return
// PARTIAL: // {{-----}}
// PARTIAL-NEXT: // {{-----}}
// PARTIAL-NEXT: module {
// PARTIAL-NEXT: func.func @good_after

// CUSTOM: func.func @one
// CUSTOM-NEXT: return
// CUSTOM-NEXT: }
// CUSTOM-NEXT: }
// CUSTOM-NEXT: // {{-----}}
// CUSTOM-NEXT: module {
// CUSTOM-NEXT: func.func @two

// -----

module {
  func.func @first() {
    return
  }
}

// -----

module {
  func.func @second() {
    return
  }
}
// -----
module {
  func.func @third() {
    return
  }
}
