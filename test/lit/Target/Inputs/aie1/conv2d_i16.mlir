// A hand-vectorized 3x3 conv2d (i16) in aie-vectorize's output form, and its
// scalar loop nest: test/lit/Target/aie1-conv2d.test.
func.func @conv2d_ref(%A: memref<10x32xi16>, %B: memref<12xi16>, %C: memref<8x30xi16>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 30 {
      %acc = affine.load %C[%i, %j] : memref<8x30xi16>
      %a0 = affine.load %A[%i + 0, %j + 0] : memref<10x32xi16>
      %b0 = affine.load %B[0] : memref<12xi16>
      %p0 = arith.muli %a0, %b0 : i16
      %s0 = arith.addi %acc, %p0 : i16
      %a1 = affine.load %A[%i + 0, %j + 1] : memref<10x32xi16>
      %b1 = affine.load %B[1] : memref<12xi16>
      %p1 = arith.muli %a1, %b1 : i16
      %s1 = arith.addi %s0, %p1 : i16
      %a2 = affine.load %A[%i + 0, %j + 2] : memref<10x32xi16>
      %b2 = affine.load %B[2] : memref<12xi16>
      %p2 = arith.muli %a2, %b2 : i16
      %s2 = arith.addi %s1, %p2 : i16
      %a3 = affine.load %A[%i + 1, %j + 0] : memref<10x32xi16>
      %b3 = affine.load %B[4] : memref<12xi16>
      %p3 = arith.muli %a3, %b3 : i16
      %s3 = arith.addi %s2, %p3 : i16
      %a4 = affine.load %A[%i + 1, %j + 1] : memref<10x32xi16>
      %b4 = affine.load %B[5] : memref<12xi16>
      %p4 = arith.muli %a4, %b4 : i16
      %s4 = arith.addi %s3, %p4 : i16
      %a5 = affine.load %A[%i + 1, %j + 2] : memref<10x32xi16>
      %b5 = affine.load %B[6] : memref<12xi16>
      %p5 = arith.muli %a5, %b5 : i16
      %s5 = arith.addi %s4, %p5 : i16
      %a6 = affine.load %A[%i + 2, %j + 0] : memref<10x32xi16>
      %b6 = affine.load %B[8] : memref<12xi16>
      %p6 = arith.muli %a6, %b6 : i16
      %s6 = arith.addi %s5, %p6 : i16
      %a7 = affine.load %A[%i + 2, %j + 1] : memref<10x32xi16>
      %b7 = affine.load %B[9] : memref<12xi16>
      %p7 = arith.muli %a7, %b7 : i16
      %s7 = arith.addi %s6, %p7 : i16
      %a8 = affine.load %A[%i + 2, %j + 2] : memref<10x32xi16>
      %b8 = affine.load %B[10] : memref<12xi16>
      %p8 = arith.muli %a8, %b8 : i16
      %s8 = arith.addi %s7, %p8 : i16
      affine.store %s8, %C[%i, %j] : memref<8x30xi16>
    }
  }
  return
}
func.func @conv2d(%A: memref<10x32xi16>, %B: memref<12xi16>, %C: memref<8x30xi16>) attributes {npuc.aie1_reference = @conv2d_ref} {
  %c0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %rows = arith.constant 8 : index
  %cols = arith.constant 30 : index
  %z = aievec.upd %B[%c0] {index = 0 : i8, offset = 0 : i32} : memref<12xi16>, vector<16xi16>
  scf.for %i = %c0 to %rows step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    scf.for %j = %c0 to %cols step %c16 {
      %c = aievec.upd %C[%i, %j] {index = 0 : i8, offset = 0 : i32} : memref<8x30xi16>, vector<16xi16>
      %acc = aievec.ups %c {shift = 0 : i8} : vector<16xi16>, vector<16xi48>
      %xl0 = aievec.upd %A[%i, %j] {index = 0 : i8, offset = 0 : i32} : memref<10x32xi16>, vector<32xi16>
      %x0 = aievec.upd %A[%i, %j], %xl0 {index = 1 : i8, offset = 256 : i32} : memref<10x32xi16>, vector<32xi16>
      %m0 = aievec_aie1.mac %x0, %z, %acc {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "0", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %m1 = aievec_aie1.mac %x0, %z, %m0 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "2", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %xl1 = aievec.upd %A[%i1, %j] {index = 0 : i8, offset = 0 : i32} : memref<10x32xi16>, vector<32xi16>
      %x1 = aievec.upd %A[%i1, %j], %xl1 {index = 1 : i8, offset = 256 : i32} : memref<10x32xi16>, vector<32xi16>
      %m2 = aievec_aie1.mac %x1, %z, %m1 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "4", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %m3 = aievec_aie1.mac %x1, %z, %m2 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "6", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %xl2 = aievec.upd %A[%i2, %j] {index = 0 : i8, offset = 0 : i32} : memref<10x32xi16>, vector<32xi16>
      %x2 = aievec.upd %A[%i2, %j], %xl2 {index = 1 : i8, offset = 256 : i32} : memref<10x32xi16>, vector<32xi16>
      %m4 = aievec_aie1.mac %x2, %z, %m3 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "8", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %m5 = aievec_aie1.mac %x2, %z, %m4 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "10", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
      %res = aievec.srs %m5, %c0_i32 : vector<16xi48>, i32, vector<16xi16>
      vector.transfer_write %res, %C[%i, %j] : vector<16xi16>, memref<8x30xi16>
    }
  }
  return
}

