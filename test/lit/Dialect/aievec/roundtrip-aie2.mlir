// RUN: npuc-opt %s --split-input-file | FileCheck %s
// RUN: npuc-opt %s --split-input-file -o %t.mlir
// RUN: npuc-opt %t.mlir --split-input-file | FileCheck %s
// RUN: npuc-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// The AIE2 / AIE2P ops of mlir-aie HEAD read and print as aie-opt prints
// them, and again from npuc-opt's own output.

// CHECK-LABEL: func.func @elementwise(
// CHECK: %0 = aievec.add_elem %arg0, %arg1 : vector<16xi32>
// CHECK-NEXT: %1 = aievec.sub_elem %0, %arg1 : vector<16xi32>
// CHECK-NEXT: %2 = aievec.max %1, %arg0 : vector<16xi32>
// CHECK-NEXT: %3 = aievec.min %2, %arg0 : vector<16xi32>
// CHECK-NEXT: %4 = aievec.neg %3 : vector<16xi32>
// CHECK-NEXT: %5 = aievec.band %4, %arg0 : vector<16xi32>, vector<16xi32>, vector<16xi32>
// CHECK-NEXT: %6 = aievec.bor %5, %arg0 : vector<16xi32>, vector<16xi32>, vector<16xi32>
// CHECK-NEXT: %7 = aievec.bxor %6, %arg0 : vector<16xi32>, vector<16xi32>, vector<16xi32>
// CHECK-NEXT: %8 = aievec.bneg %7 : vector<16xi32>
func.func @elementwise(%a : vector<16xi32>, %b : vector<16xi32>) -> vector<16xi32> {
  %0 = aievec.add_elem %a, %b : vector<16xi32>
  %1 = aievec.sub_elem %0, %b : vector<16xi32>
  %2 = aievec.max %1, %a : vector<16xi32>
  %3 = aievec.min %2, %a : vector<16xi32>
  %4 = aievec.neg %3 : vector<16xi32>
  %5 = aievec.band %4, %a : vector<16xi32>, vector<16xi32>, vector<16xi32>
  %6 = aievec.bor %5, %a : vector<16xi32>, vector<16xi32>, vector<16xi32>
  %7 = aievec.bxor %6, %a : vector<16xi32>, vector<16xi32>, vector<16xi32>
  %8 = aievec.bneg %7 : vector<16xi32>
  return %8 : vector<16xi32>
}

// -----

// CHECK-LABEL: func.func @float_math(
// CHECK: aievec.exp %arg0 : vector<16xbf16>
// CHECK: aievec.tanh %arg0 : vector<16xbf16>
// CHECK: aievec.inv %arg1 : vector<16xf32>
// CHECK: aievec.inv %arg2 : f32
func.func @float_math(%x : vector<16xbf16>, %y : vector<16xf32>, %s : f32) -> (vector<16xbf16>, vector<16xbf16>, vector<16xf32>, f32) {
  %0 = aievec.exp %x : vector<16xbf16>
  %1 = aievec.tanh %x : vector<16xbf16>
  %2 = aievec.inv %y : vector<16xf32>
  %3 = aievec.inv %s : f32
  return %0, %1, %2, %3 : vector<16xbf16>, vector<16xbf16>, vector<16xf32>, f32
}

// -----

// CHECK-LABEL: func.func @scalars(
// CHECK: %[[B:.*]] = aievec.broadcast_scalar %arg0 : bf16, vector<32xbf16>
// CHECK: aievec.ext_elem %[[B]], %c0_i32 : vector<32xbf16>, i32, bf16
// CHECK: aievec.unpack %arg1 : vector<32xi8>, vector<32xi16>
func.func @scalars(%s : bf16, %v : vector<32xi8>) -> (bf16, vector<32xi16>) {
  %c0 = arith.constant 0 : i32
  %0 = aievec.broadcast_scalar %s : bf16, vector<32xbf16>
  %1 = aievec.ext_elem %0, %c0 : vector<32xbf16>, i32, bf16
  %2 = aievec.unpack %v : vector<32xi8>, vector<32xi16>
  return %1, %2 : bf16, vector<32xi16>
}

// -----

// The predicate of cmp sits in the attribute dictionary, as aie-opt prints
// it.
// CHECK-LABEL: func.func @cmp_sel(
// CHECK: %0 = aievec.cmp %arg0, %arg1 {pred = "slt"} : vector<16xi32>, vector<16xi32>, ui32
// CHECK-NEXT: %1 = aievec.sel %arg1, %arg0, %0 : vector<16xi32>, vector<16xi32>, ui32, vector<16xi32>
// GENERIC-LABEL: sym_name = "cmp_sel"
// GENERIC: "aievec.cmp"(%arg0, %arg1) {pred = "slt"}
func.func @cmp_sel(%a : vector<16xi32>, %b : vector<16xi32>) -> vector<16xi32> {
  %0 = aievec.cmp %a, %b {pred = "slt"} : vector<16xi32>, vector<16xi32>, ui32
  %1 = aievec.sel %b, %a, %0 : vector<16xi32>, vector<16xi32>, ui32, vector<16xi32>
  return %1 : vector<16xi32>
}

// -----

// CHECK-LABEL: func.func @matmuls(
// CHECK: aievec.matmul %arg0, %arg1, %arg2 : vector<4x8xsi8>, vector<8x8xui8> into vector<4x8xi32>
// CHECK: aievec.matmul_aie2p %arg3, %arg4, %arg5 : vector<8x8xbf16>, vector<8x4xbf16> into vector<8x4xf32>
func.func @matmuls(%a : vector<4x8xsi8>, %b : vector<8x8xui8>, %c : vector<4x8xi32>,
                   %d : vector<8x8xbf16>, %e : vector<8x4xbf16>, %f : vector<8x4xf32>) -> (vector<4x8xi32>, vector<8x4xf32>) {
  %0 = aievec.matmul %a, %b, %c : vector<4x8xsi8>, vector<8x8xui8>
                                  into vector<4x8xi32>
  %1 = aievec.matmul_aie2p %d, %e, %f : vector<8x8xbf16>, vector<8x4xbf16> into vector<8x4xf32>
  return %0, %1 : vector<4x8xi32>, vector<8x4xf32>
}

// -----

// The mode is a bare word between brackets, after a space; the second
// operand is optional, and `%v, [mode]` (a comma with no operand) reads as
// the one-operand form, as in mlir-aie.
// CHECK-LABEL: func.func @shuffles(
// CHECK: %0 = aievec.shuffle %arg0 [t32_4x4] : vector<16xi32>
// CHECK-NEXT: %1 = aievec.shuffle %0 [t32_4x4] : vector<16xi32>
// CHECK-NEXT: %2 = aievec.shuffle %1, %arg0 [t32_8x4_hi] : vector<16xi32>
// GENERIC-LABEL: sym_name = "shuffles"
// GENERIC: "aievec.shuffle"(%arg0) {mode = "t32_4x4"}
// GENERIC: "aievec.shuffle"(%1, %arg0) {mode = "t32_8x4_hi"}
func.func @shuffles(%v : vector<16xi32>) -> vector<16xi32> {
  %0 = aievec.shuffle %v [t32_4x4] : vector<16xi32>
  %1 = aievec.shuffle %0, [t32_4x4] : vector<16xi32>
  %2 = aievec.shuffle %1, %v [t32_8x4_hi] : vector<16xi32>
  return %2 : vector<16xi32>
}
