// The schemes of aie-vectorize: attributes, accumulator types, fusions.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=8" --aie-vectorize="shift=3" | FileCheck %s --check-prefix=V8
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="shift=3 zero-offset=8" | FileCheck %s --check-prefix=V16

// f32, sub(acc, mul): a mac with fmsub, the float accumulator used as it
// is (no ups, no srs). The filter B[3] is loaded with the vector of B[0..7]
// (offset -96 bits from B[3]); A[i+2] starts at element 2 of a 512-bit
// vector loaded by halves.
// V8-LABEL: func.func @f32_msc
// V8:         %[[B:.*]] = aievec.upd %arg1[%c3] {index = 0 : i8, offset = -96 : i32} : memref<4xf32>, vector<8xf32>
// V8:         %[[C:.*]] = aievec.upd %arg2[%[[I:.*]]] {index = 0 : i8, offset = 0 : i32} : memref<248xf32>, vector<8xf32>
// V8:         %[[A0:.*]] = aievec.upd %arg0[%[[I2:.*]]] {index = 0 : i8, offset = -64 : i32} : memref<256xf32>, vector<16xf32>
// V8-NEXT:    %[[A:.*]] = aievec.upd %arg0[%[[I2]]], %[[A0]] {index = 1 : i8, offset = 192 : i32} : memref<256xf32>, vector<16xf32>
// V8-NEXT:    %[[R:.*]] = aievec_aie1.mac %[[A]], %[[B]], %[[C]] {fmsub = true, xoffsets = "0x76543210", xstart = "2", zoffsets = "0x00000000", zstart = "3"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
// V8-NEXT:    vector.transfer_write %[[R]], %arg2[%[[I]]] : vector<8xf32>, memref<248xf32>
// With 16 lanes no scheme fits: the function is left alone.
// V16-LABEL: func.func @f32_msc
// V16:         arith.subf {{.*}} : vector<16xf32>
func.func @f32_msc(%A: memref<256xf32>, %B: memref<4xf32>, %C: memref<248xf32>) {
  affine.for %i = 0 to 248 {
    %c = affine.load %C[%i] : memref<248xf32>
    %a0 = affine.load %A[%i + 2] : memref<256xf32>
    %b0 = affine.load %B[3] : memref<4xf32>
    %p0 = arith.mulf %a0, %b0 : f32
    %s0 = arith.subf %c, %p0 : f32
    affine.store %s0, %C[%i] : memref<248xf32>
  }
  return
}

// -----
// i16 with 16 lanes: A[i] and A[i+1] fuse into one two-column mac (zstep =
// their filter distance, 3); A[i+3] stays alone: its odd start becomes
// xstart 2 with square 0x3221, and its second column goes to the next zero
// of the filter (zero-offset=8: index 15, so zstep 15 - 9 = 6). The i16
// accumulator is i48; ups and srs use shift=3.
// V16-LABEL: func.func @i16
// V16:         %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<16xi16>, vector<16xi16>
// V16:         %[[C:.*]] = aievec.upd %arg2
// V16-NEXT:    %[[A0:.*]] = aievec.upd %arg0[%[[I:.*]]] {index = 0 : i8, offset = 0 : i32} : memref<1040xi16>, vector<32xi16>
// V16-NEXT:    %[[A:.*]] = aievec.upd %arg0[%[[I]]], %[[A0]] {index = 1 : i8, offset = 256 : i32} : memref<1040xi16>, vector<32xi16>
// V16-NEXT:    %[[U:.*]] = aievec.ups %[[C]] {shift = 3 : i8} : vector<16xi16>, vector<16xi48>
// V16-NEXT:    %[[M0:.*]] = aievec_aie1.mac %[[A]], %[[B]], %[[U]] {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "0", zstep = "3"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
// V16-NEXT:    %[[M1:.*]] = aievec_aie1.mac %[[A]], %[[B]], %[[M0]] {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x3221", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "9", zstep = "6"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
// V16-NEXT:    %[[S:.*]] = aievec.srs %[[M1]], %c3_i32 : vector<16xi48>, i32, vector<16xi16>
// V16-NEXT:    vector.transfer_write %[[S]]
// V8-LABEL: func.func @i16
// V8:         arith.muli {{.*}} : vector<8xi16>
func.func @i16(%A: memref<1040xi16>, %B: memref<16xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %c = affine.load %C[%i] : memref<1024xi16>
    %a0 = affine.load %A[%i] : memref<1040xi16>
    %b0 = affine.load %B[0] : memref<16xi16>
    %p0 = arith.muli %a0, %b0 : i16
    %s0 = arith.addi %c, %p0 : i16
    %a1 = affine.load %A[%i + 1] : memref<1040xi16>
    %b1 = affine.load %B[3] : memref<16xi16>
    %p1 = arith.muli %a1, %b1 : i16
    %s1 = arith.addi %s0, %p1 : i16
    %a2 = affine.load %A[%i + 3] : memref<1040xi16>
    %b2 = affine.load %B[9] : memref<16xi16>
    %p2 = arith.muli %a2, %b2 : i16
    %s2 = arith.addi %s1, %p2 : i16
    affine.store %s2, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// Two whole aligned i16 vectors multiply lane by lane (no attributes);
// sub(mul, a) cannot become a msc, so the product goes through srs and a
// lane-wise sub.
// V16-LABEL: func.func @i16_simple
// V16:         %[[A:.*]] = aievec.upd %arg0
// V16-NEXT:    %[[B:.*]] = aievec.upd %arg1
// V16-NEXT:    %[[M:.*]] = aievec_aie1.mul %[[A]], %[[B]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
// V16-NEXT:    %[[S:.*]] = aievec.srs %[[M]], %c3_i32 : vector<16xi48>, i32, vector<16xi16>
// V16-NEXT:    %[[D:.*]] = aievec_aie1.sub %[[S]], %[[A]] : vector<16xi16>, vector<16xi16>, vector<16xi16>
// V16-NEXT:    vector.transfer_write %[[D]]
func.func @i16_simple(%A: memref<1024xi16>, %B: memref<1024xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %a = affine.load %A[%i] : memref<1024xi16>
    %b = affine.load %B[%i] : memref<1024xi16>
    %p = arith.muli %a, %b : i16
    %s = arith.subi %p, %a : i16
    affine.store %s, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// i8: the filter (duplicated: taps at B[0], B[2], B[4]) is X, the image Z;
// the three taps fuse into one op (xstep = 2 * 2, zstep = 2 * 1), emitted
// twice for output pixels 0..7 and 8..15, then srs to i16, concat, select,
// ext and pack back to 16 bytes. The 256-bit filter vector is doubled.
// V16-LABEL: func.func @i8
// V16:         %[[B:.*]] = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<32xi8>, vector<32xi8>
// V16-NEXT:    %[[X:.*]] = aievec.concat %[[B]], %[[B]] : vector<32xi8>, vector<64xi8>
// V16:         %[[Z:.*]] = aievec.upd %arg0
// V16-SAME:      vector<32xi8>
// V16-NEXT:    %[[P0:.*]] = aievec_aie1.mul %[[X]], %[[Z]] {xoffsets = "0x00000000", xsquare = "0x1010", xstart = "0", xstep = "4", zoffsets = "0x43322110", zsquare = "0x2110", zstart = "0", zstep = "2"} : vector<64xi8>, vector<32xi8>, vector<16xi48>
// V16-NEXT:    %[[P1:.*]] = aievec_aie1.mul %[[X]], %[[Z]] {{{.*}}zstart = "8", zstep = "2"}
// V16-NEXT:    %[[S0:.*]] = aievec.srs %[[P0]], %c3_i32 : vector<16xi48>, i32, vector<16xi16>
// V16-NEXT:    %[[S1:.*]] = aievec.srs %[[P1]], %c3_i32 : vector<16xi48>, i32, vector<16xi16>
// V16-NEXT:    %[[CAT:.*]] = aievec.concat %[[S0]], %[[S1]] : vector<16xi16>, vector<32xi16>
// V16-NEXT:    %[[SEL:.*]] = aievec_aie1.select %[[CAT]] {select = "0xcccccccc", {{.*}}ystart = "4"} : vector<32xi16>, vector<32xi16>
// V16-NEXT:    %[[LOW:.*]] = aievec_aie1.ext %[[SEL]] {index = 0 : i8} : vector<32xi16>, vector<16xi16>
// V16-NEXT:    %[[OUT:.*]] = aievec.pack %[[LOW]] : vector<16xi16>, vector<16xi8>
// V16-NEXT:    vector.transfer_write %[[OUT]]
func.func @i8(%A: memref<272xi8>, %B: memref<32xi8>, %C: memref<256xi8>) {
  affine.for %j = 0 to 256 {
    %a0 = affine.load %A[%j] : memref<272xi8>
    %b0 = affine.load %B[0] : memref<32xi8>
    %p0 = arith.muli %a0, %b0 : i8
    %a1 = affine.load %A[%j + 1] : memref<272xi8>
    %b1 = affine.load %B[2] : memref<32xi8>
    %p1 = arith.muli %a1, %b1 : i8
    %s1 = arith.addi %p0, %p1 : i8
    %a2 = affine.load %A[%j + 2] : memref<272xi8>
    %b2 = affine.load %B[4] : memref<32xi8>
    %p2 = arith.muli %a2, %b2 : i8
    %s2 = arith.addi %s1, %p2 : i8
    affine.store %s2, %C[%j] : memref<256xi8>
  }
  return
}
