// The 16-bit multiply that fused no second column (the odd tap of a filter
// row). mac16 multiplies two columns, so the unfused tap's second column
// must hit a filter element the layout proves zero: zero-offset's position,
// under index terms that are multiples of zero-offset, inside the read's
// row. Otherwise the tap is one lane-wise column: select32 moves X so that
// lane L holds element start + L (a splat Z repeats its element), ext keeps
// the low half, and the mac takes no attributes. Execution:
// test/lit/Target/aie1-vectorize-uj-i16-odd-tap.test.
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="shift=0 zero-offset=4 unaligned-loads-check=false" | FileCheck %s --check-prefix=ZO
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="shift=0 unaligned-loads-check=false" | FileCheck %s --check-prefix=NOZ

// The anchor's conv2d_uj order with a 3x3 filter: rows 3 apart, so z[3] of
// row r is element 3r + 3 (the next row's tap, or past the end). Taps 0 and
// 1 fuse as before; tap 2 is one column.
// ZO-LABEL: func.func @uj_3x3
// ZO:         %[[A0:.*]] = aievec.upd %arg0[%[[R:.*]], %arg4] {index = 0 : i8, offset = 0 : i32} : memref<6x18xi16>, vector<32xi16>
// ZO-NEXT:    %[[A:.*]] = aievec.upd %arg0[%[[R]], %arg4], %[[A0]] {index = 1 : i8, offset = 256 : i32} : memref<6x18xi16>, vector<32xi16>
// ZO-NEXT:    %[[B:.*]] = aievec.upd %arg1[%arg5, %c0] {index = 0 : i8, offset = 0 : i32} : memref<3x3xi16>, vector<16xi16>
// ZO-NEXT:    %[[U:.*]] = aievec.ups
// ZO-NEXT:    %[[M0:.*]] = aievec_aie1.mac %[[A]], %[[B]], %[[U]] {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "0", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
// ZO-NEXT:    %[[XS:.*]] = aievec_aie1.select %[[A]] {select = "0", xoffsets = "0x06040200", xoffsets_hi = "0x0e0c0a08", xsquare = "0x3210", xstart = "2", yoffsets = "0x06040200", yoffsets_hi = "0x0e0c0a08", ysquare = "0x3210", ystart = "2"} : vector<32xi16>, vector<32xi16>
// ZO-NEXT:    %[[X:.*]] = aievec_aie1.ext %[[XS]] {index = 0 : i8} : vector<32xi16>, vector<16xi16>
// ZO-NEXT:    %[[BB:.*]] = aievec.concat %[[B]], %[[B]] : vector<16xi16>, vector<32xi16>
// ZO-NEXT:    %[[ZS:.*]] = aievec_aie1.select %[[BB]] {select = "0", xoffsets = "0", xoffsets_hi = "0", xsquare = "0", xstart = "2", yoffsets = "0", yoffsets_hi = "0", ysquare = "0", ystart = "2"} : vector<32xi16>, vector<32xi16>
// ZO-NEXT:    %[[Z:.*]] = aievec_aie1.ext %[[ZS]] {index = 0 : i8} : vector<32xi16>, vector<16xi16>
// ZO-NEXT:    %[[M1:.*]] = aievec_aie1.mac %[[X]], %[[Z]], %[[M0]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
// ZO-NEXT:    %[[S:.*]] = aievec.srs %[[M1]], %c0_i32 : vector<16xi48>, i32, vector<16xi16>
// ZO-NEXT:    scf.yield %[[S]]
// ZO-NEXT:  }
// ZO-NEXT:  vector.transfer_write %{{.*}}, %arg2[%arg3, %arg4]
func.func @uj_3x3(%in: memref<6x18xi16>, %w: memref<3x3xi16>, %out: memref<4x16xi16>) {
  affine.for %y = 0 to 4 {
    affine.for %x = 0 to 16 {
      affine.for %r = 0 to 3 {
        %acc = affine.load %out[%y, %x] : memref<4x16xi16>
        %i0 = affine.load %in[%y + %r, %x] : memref<6x18xi16>
        %w0 = affine.load %w[%r, 0] : memref<3x3xi16>
        %m0 = arith.muli %i0, %w0 : i16
        %t0 = arith.addi %acc, %m0 : i16
        %i1 = affine.load %in[%y + %r, %x + 1] : memref<6x18xi16>
        %w1 = affine.load %w[%r, 1] : memref<3x3xi16>
        %m1 = arith.muli %i1, %w1 : i16
        %t1 = arith.addi %t0, %m1 : i16
        %i2 = affine.load %in[%y + %r, %x + 2] : memref<6x18xi16>
        %w2 = affine.load %w[%r, 2] : memref<3x3xi16>
        %m2 = arith.muli %i2, %w2 : i16
        %t2 = arith.addi %t1, %m2 : i16
        affine.store %t2, %out[%y, %x] : memref<4x16xi16>
      }
    }
  }
  return
}

// -----
// A 3x4 filter: rows 4 apart, so z[3] of row r is B[r, 3], a zero of the
// layout inside the row. The third tap still pairs with it (zstep 1), as
// conv2d_uij_i16 (memref<12xi16>) does. Without zero-offset no element is
// known zero: one column.
// ZO-LABEL: func.func @uj_3x4
// ZO:         %[[B:.*]] = aievec.upd %arg1[%arg5, %c0] {index = 0 : i8, offset = 0 : i32} : memref<3x4xi16>, vector<16xi16>
// ZO-NEXT:    %[[U:.*]] = aievec.ups
// ZO-NEXT:    %[[M0:.*]] = aievec_aie1.mac %[[A:.*]], %[[B]], %[[U]] {{{.*}}xstart = "0", {{.*}}zstart = "0", zstep = "1"}
// ZO-NEXT:    %[[M1:.*]] = aievec_aie1.mac %[[A]], %[[B]], %[[M0]] {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "2", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
// ZO-NEXT:    aievec.srs %[[M1]]
// NOZ-LABEL: func.func @uj_3x4
// NOZ:         %[[M0:.*]] = aievec_aie1.mac {{.*}}zstart = "0", zstep = "1"}
// NOZ:         aievec_aie1.select {{.*}}xstart = "2"
// NOZ:         aievec_aie1.mac %{{.*}}, %{{.*}}, %[[M0]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
func.func @uj_3x4(%in: memref<6x18xi16>, %w: memref<3x4xi16>, %out: memref<4x16xi16>) {
  affine.for %y = 0 to 4 {
    affine.for %x = 0 to 16 {
      affine.for %r = 0 to 3 {
        %acc = affine.load %out[%y, %x] : memref<4x16xi16>
        %i0 = affine.load %in[%y + %r, %x] : memref<6x18xi16>
        %w0 = affine.load %w[%r, 0] : memref<3x4xi16>
        %m0 = arith.muli %i0, %w0 : i16
        %t0 = arith.addi %acc, %m0 : i16
        %i1 = affine.load %in[%y + %r, %x + 1] : memref<6x18xi16>
        %w1 = affine.load %w[%r, 1] : memref<3x4xi16>
        %m1 = arith.muli %i1, %w1 : i16
        %t1 = arith.addi %t0, %m1 : i16
        %i2 = affine.load %in[%y + %r, %x + 2] : memref<6x18xi16>
        %w2 = affine.load %w[%r, 2] : memref<3x4xi16>
        %m2 = arith.muli %i2, %w2 : i16
        %t2 = arith.addi %t1, %m2 : i16
        affine.store %t2, %out[%y, %x] : memref<4x16xi16>
      }
    }
  }
  return
}

// -----
// Constant taps B[8..10] of a memref<11xi16>: the zero position B[11] is
// past the end, so one column. The filter's select is loop-invariant and
// leaves the loop with its upd.
// ZO-LABEL: func.func @past_end
// ZO:         %[[B:.*]] = aievec.upd %arg1[%c8] {index = 0 : i8, offset = -128 : i32} : memref<11xi16>, vector<16xi16>
// ZO-NEXT:    %[[BB:.*]] = aievec.concat %[[B]], %[[B]]
// ZO-NEXT:    %[[ZS:.*]] = aievec_aie1.select %[[BB]] {{{.*}}xsquare = "0", xstart = "10"
// ZO-NEXT:    %[[Z:.*]] = aievec_aie1.ext %[[ZS]] {index = 0 : i8}
// ZO:         scf.for
// ZO:         %[[M0:.*]] = aievec_aie1.mac %[[A:.*]], %[[B]], %{{.*}} {{{.*}}zstart = "8", zstep = "1"}
// ZO-NEXT:    %[[XS:.*]] = aievec_aie1.select %[[A]] {{{.*}}xstart = "2"
// ZO-NEXT:    %[[X:.*]] = aievec_aie1.ext %[[XS]]
// ZO-NEXT:    aievec_aie1.mac %[[X]], %[[Z]], %[[M0]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
func.func @past_end(%A: memref<1040xi16>, %B: memref<11xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %c = affine.load %C[%i] : memref<1024xi16>
    %a0 = affine.load %A[%i] : memref<1040xi16>
    %b0 = affine.load %B[8] : memref<11xi16>
    %p0 = arith.muli %a0, %b0 : i16
    %s0 = arith.addi %c, %p0 : i16
    %a1 = affine.load %A[%i + 1] : memref<1040xi16>
    %b1 = affine.load %B[9] : memref<11xi16>
    %p1 = arith.muli %a1, %b1 : i16
    %s1 = arith.addi %s0, %p1 : i16
    %a2 = affine.load %A[%i + 2] : memref<1040xi16>
    %b2 = affine.load %B[10] : memref<11xi16>
    %p2 = arith.muli %a2, %b2 : i16
    %s2 = arith.addi %s1, %p2 : i16
    affine.store %s2, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// A streaming Z (B[i]) has no zero every lane could use. X starts at the
// odd element 1: select32 starts are even, so lanes 4q..4q+2 take
// candidates 1..3 of the quad at 4q (square 0x0321) and lane 4q+3 the y
// side from 4 (select bits 0x88888888). The aligned Z is used as it is.
// ZO-LABEL: func.func @odd_start
// ZO:         %[[A:.*]] = aievec.upd %arg0[%{{.*}}], %{{.*}} {index = 1 : i8, offset = 240 : i32} : memref<1040xi16>, vector<32xi16>
// ZO-NEXT:    %[[B:.*]] = aievec.upd %arg1[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<1040xi16>, vector<16xi16>
// ZO-NEXT:    %[[XS:.*]] = aievec_aie1.select %[[A]] {select = "0x88888888", xoffsets = "0x06040200", xoffsets_hi = "0x0e0c0a08", xsquare = "0x0321", xstart = "0", yoffsets = "0x06040200", yoffsets_hi = "0x0e0c0a08", ysquare = "0", ystart = "4"} : vector<32xi16>, vector<32xi16>
// ZO-NEXT:    %[[X:.*]] = aievec_aie1.ext %[[XS]] {index = 0 : i8} : vector<32xi16>, vector<16xi16>
// ZO-NEXT:    %[[M:.*]] = aievec_aie1.mul %[[X]], %[[B]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
// ZO-NEXT:    aievec.srs %[[M]]
func.func @odd_start(%A: memref<1040xi16>, %B: memref<1040xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %a = affine.load %A[%i + 1] : memref<1040xi16>
    %b = affine.load %B[%i] : memref<1040xi16>
    %p = arith.muli %a, %b : i16
    affine.store %p, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// A splat at the odd element 5 of a memref<7xi16> (zero position 7 is past
// the end): every lane takes candidate 1 of the pair at 4 (square 0x1111).
// With a memref<8xi16> B[7] is inside: the multiply pairs with it (zstep 2).
// ZO-LABEL: func.func @odd_splat
// ZO:         %[[B:.*]] = aievec.upd %arg1[%c5] {index = 0 : i8, offset = -80 : i32} : memref<7xi16>, vector<16xi16>
// ZO-NEXT:    %[[BB:.*]] = aievec.concat %[[B]], %[[B]]
// ZO-NEXT:    %[[ZS:.*]] = aievec_aie1.select %[[BB]] {select = "0", xoffsets = "0", xoffsets_hi = "0", xsquare = "0x1111", xstart = "4", yoffsets = "0", yoffsets_hi = "0", ysquare = "0x1111", ystart = "4"}
// ZO-NEXT:    %[[Z:.*]] = aievec_aie1.ext %[[ZS]]
// ZO:         %[[XS:.*]] = aievec_aie1.select %{{.*}} {select = "0x88888888", {{.*}}xsquare = "0x0321", xstart = "2", {{.*}}ystart = "6"}
// ZO-NEXT:    %[[X:.*]] = aievec_aie1.ext %[[XS]]
// ZO-NEXT:    aievec_aie1.mul %[[X]], %[[Z]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
// ZO-LABEL: func.func @odd_splat_inside
// ZO:         aievec_aie1.mul %{{.*}}, %{{.*}} {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x3221", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "5", zstep = "2"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
func.func @odd_splat(%A: memref<1040xi16>, %B: memref<7xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %a = affine.load %A[%i + 3] : memref<1040xi16>
    %b = affine.load %B[5] : memref<7xi16>
    %p = arith.muli %a, %b : i16
    affine.store %p, %C[%i] : memref<1024xi16>
  }
  return
}
func.func @odd_splat_inside(%A: memref<1040xi16>, %B: memref<8xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %a = affine.load %A[%i + 3] : memref<1040xi16>
    %b = affine.load %B[5] : memref<8xi16>
    %p = arith.muli %a, %b : i16
    affine.store %p, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// A tap alone, B[6] of a memref<7xi16>: one column, so X needs no element
// past its 16 lanes: one 256-bit load, used as it is.
// ZO-LABEL: func.func @alone
// ZO:         %[[B:.*]] = aievec.upd %arg1[%c6] {index = 0 : i8, offset = -96 : i32} : memref<7xi16>, vector<16xi16>
// ZO:         %[[Z:.*]] = aievec_aie1.ext
// ZO:         scf.for
// ZO:         %[[A:.*]] = aievec.upd %arg0[%arg3] {index = 0 : i8, offset = 0 : i32} : memref<1040xi16>, vector<16xi16>
// ZO-NEXT:    %[[U:.*]] = aievec.ups
// ZO-NEXT:    aievec_aie1.mac %[[A]], %[[Z]], %[[U]] : vector<16xi16>, vector<16xi16>, vector<16xi48>
func.func @alone(%A: memref<1040xi16>, %B: memref<7xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %c = affine.load %C[%i] : memref<1024xi16>
    %a = affine.load %A[%i] : memref<1040xi16>
    %b = affine.load %B[6] : memref<7xi16>
    %p = arith.muli %a, %b : i16
    %s = arith.addi %c, %p : i16
    affine.store %s, %C[%i] : memref<1024xi16>
  }
  return
}

// -----
// sub(acc, mul): the one-column mac keeps fmsub.
// ZO-LABEL: func.func @msc
// ZO:         aievec_aie1.mac {{.*}}fmsub = true, {{.*}}zstart = "8", zstep = "1"}
// ZO:         aievec_aie1.mac %{{.*}}, %{{.*}}, %{{.*}} {fmsub = true} : vector<16xi16>, vector<16xi16>, vector<16xi48>
func.func @msc(%A: memref<1040xi16>, %B: memref<11xi16>, %C: memref<1024xi16>) {
  affine.for %i = 0 to 1024 {
    %c = affine.load %C[%i] : memref<1024xi16>
    %a0 = affine.load %A[%i] : memref<1040xi16>
    %b0 = affine.load %B[8] : memref<11xi16>
    %p0 = arith.muli %a0, %b0 : i16
    %s0 = arith.subi %c, %p0 : i16
    %a1 = affine.load %A[%i + 1] : memref<1040xi16>
    %b1 = affine.load %B[9] : memref<11xi16>
    %p1 = arith.muli %a1, %b1 : i16
    %s1 = arith.subi %s0, %p1 : i16
    %a2 = affine.load %A[%i + 2] : memref<1040xi16>
    %b2 = affine.load %B[10] : memref<11xi16>
    %p2 = arith.muli %a2, %b2 : i16
    %s2 = arith.subi %s1, %p2 : i16
    affine.store %s2, %C[%i] : memref<1024xi16>
  }
  return
}
