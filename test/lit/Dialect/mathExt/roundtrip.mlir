// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// mathExt scalar ops, with and without fast-math flags.
// GENERIC: "mathExt.divfhp"(%arg0, %arg1) : (f32, f32) -> f32
// GENERIC: "mathExt.ldexp"(%{{.*}}, %arg1) {fastmath = #arith.fastmath<fast>} : (f32, f32) -> f32
module {
  func.func @scalar(%arg0: f32, %arg1: f32) -> f32 {
    %0 = mathExt.divfhp %arg0, %arg1 : f32
    %1 = mathExt.ldexp %0, %arg1 {fastmath = #arith.fastmath<fast>} : f32
    %2 = mathExt.ilogb %1 : f32
    %3 = mathExt.lgamma %2 : f32
    return %3 : f32
  }
}
