// An op or type without a C++ form is a located error, and nothing is
// written to -o or to standard output, though the first and last chunks
// translate.
// RUN: rm -f %t.cpp
// RUN: not npuc-translate --aievec-to-cpp --split-input-file %s -o %t.cpp 2>&1 | FileCheck %s
// RUN: not test -e %t.cpp
// RUN: not npuc-translate --aievec-to-cpp --split-input-file %s 2>%t.err > %t.out
// RUN: FileCheck %s --input-file=%t.err
// RUN: not test -s %t.out
// With --aie2, bf16 has a form; the other errors stay.
// RUN: not npuc-translate --aievec-to-cpp --aie2 --split-input-file %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=AIE2
// RUN: not test -e %t.cpp
// AIE2-NOT: bf16
// AIE2: errors.mlir:{{[0-9]+}}:1: error: cannot emit type vector<7xi32> in C++ for the AIE compiler
// AIE2-NOT: bf16
// RUN: not npuc-translate %s 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: no translation given
// RUN: not npuc-translate --aievec-to-cpp --bogus %s 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: error: unknown option '--bogus'
// RUN: npuc-translate --help | FileCheck %s --check-prefix=HELP
// HELP: TRANSLATIONS
// HELP: --aievec-to-cpp

func.func @fine(%a: i32) -> i32 {
  return %a : i32
}

// -----
// CHECK: errors.mlir:[[@LINE+3]]:8: error: 'memref.load' op has no C++ form in --aievec-to-cpp
func.func @load(%m: memref<8xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<8xi32>
  return %v : i32
}

// -----
// CHECK: errors.mlir:[[@LINE+1]]:1: error: cannot emit type i7 in C++
func.func private @odd(%x: i7)

// -----
// CHECK: errors.mlir:[[@LINE+2]]:8: error: aievec.cast has a C++ form for AIE2 only (--aie2)
func.func @cast(%v: vector<16xi32>) -> vector<16xi32> {
  %0 = aievec.cast %v {isResAcc = true} : vector<16xi32>, vector<16xi32>
  return %0 : vector<16xi32>
}

// -----
// CHECK: errors.mlir:[[@LINE+3]]:8: error: upd offset 12 is not a whole number of elements
func.func @upd(%m: memref<64xi16>) {
  %c0 = arith.constant 0 : index
  %0 = aievec.upd %m[%c0] {index = 0 : i8, offset = 12 : i32} : memref<64xi16>, vector<16xi16>
  return
}

// -----
// CHECK: errors.mlir:[[@LINE+1]]:1: error: cannot emit type vector<16xbf16> in C++ for the AIE compiler (bf16 is AIE-ML's: pass --aie2)
func.func @bf16(%a: vector<16xbf16>) -> vector<16xbf16> {
  return %a : vector<16xbf16>
}

// -----
// No AIE register holds 7 x i32; the anchor writes v7int32, which does not build.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: cannot emit type vector<7xi32> in C++ for the AIE compiler
func.func @odd_lanes(%a: vector<7xi32>) -> vector<7xi32> {
  return %a : vector<7xi32>
}

// -----
// CHECK: errors.mlir:[[@LINE+1]]:1: error: cannot emit type f16 in C++ for the AIE compiler
func.func @half(%a: f16) -> f16 {
  return %a : f16
}

// -----
func.func @fine_too(%a: i32) -> i32 {
  return %a : i32
}
