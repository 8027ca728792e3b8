// The 16-bit lane-addressed add/sub (RA_16, 32 lanes) with a splat
// operand. The streaming operand gets offsets 0x06040200 / 0x0e0c0a08 and
// square 0x3210, so lane s reads element s; mlir-aie's 0x03020100 /
// 0x07060504 would make lane 4q+k read element 2q+k (its test_add_i16, a
// known anchor miscompile). The splat reads element zstart/xstart in every
// lane. Execution: test/lit/Target/aie1-vectorize-add-i16.test.
// RUN: npuc-opt %s -affine-super-vectorize="virtual-vector-size=32" --aie-vectorize | FileCheck %s

// CHECK-LABEL: func.func @add_splat
// CHECK:         %[[B0:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<1xi16>, vector<32xi16>
// CHECK-NEXT:    %[[B:.*]] = aievec.upd %arg1[%c0], %[[B0]] {index = 1 : i8, offset = 256 : i32} : memref<1xi16>, vector<32xi16>
// CHECK:         %[[A:.*]] = aievec.upd %arg0[%{{.*}}], %{{.*}} {index = 1 : i8, offset = 256 : i32} : memref<256xi16>, vector<32xi16>
// CHECK-NEXT:    aievec_aie1.add %[[A]], %[[B]] {xoffsets = "0x06040200", xoffsets_hi = "0x0e0c0a08", xsquare = "0x3210", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zsquare = "0", zstart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
func.func @add_splat(%A: memref<256xi16>, %B: memref<1xi16>, %C: memref<256xi16>) {
  affine.for %i = 0 to 256 {
    %a = affine.load %A[%i] : memref<256xi16>
    %b = affine.load %B[0] : memref<1xi16>
    %c = arith.addi %a, %b : i16
    affine.store %c, %C[%i] : memref<256xi16>
  }
  return
}

// The splat first (sub does not commute): it takes the x side with its
// start, the streaming operand the z side.
// CHECK-LABEL: func.func @sub_from_splat
// CHECK:         %[[B0:.*]] = aievec.upd %arg1[%c2] {index = 0 : i8, offset = -32 : i32} : memref<4xi16>, vector<32xi16>
// CHECK-NEXT:    %[[B:.*]] = aievec.upd %arg1[%c2], %[[B0]] {index = 1 : i8, offset = 224 : i32} : memref<4xi16>, vector<32xi16>
// CHECK:         %[[A:.*]] = aievec.upd %arg0[%{{.*}}], %{{.*}} {index = 1 : i8, offset = 256 : i32} : memref<128xi16>, vector<32xi16>
// CHECK-NEXT:    aievec_aie1.sub %[[B]], %[[A]] {xoffsets = "0", xoffsets_hi = "0", xsquare = "0", xstart = "2", zoffsets = "0x06040200", zoffsets_hi = "0x0e0c0a08", zsquare = "0x3210", zstart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
func.func @sub_from_splat(%A: memref<128xi16>, %B: memref<4xi16>, %C: memref<128xi16>) {
  affine.for %i = 0 to 128 {
    %a = affine.load %A[%i] : memref<128xi16>
    %b = affine.load %B[2] : memref<4xi16>
    %c = arith.subi %b, %a : i16
    affine.store %c, %C[%i] : memref<128xi16>
  }
  return
}
