// A hand-vectorized 3x3 conv2d (f32) in aie-vectorize's output form, and its
// scalar loop nest: test/lit/Target/aie1-conv2d.test.
func.func @conv2d_ref(%A: memref<18x16xf32>, %B: memref<9xf32>, %C: memref<16x14xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 14 {
      %acc = affine.load %C[%i, %j] : memref<16x14xf32>
      %a0 = affine.load %A[%i + 0, %j + 0] : memref<18x16xf32>
      %b0 = affine.load %B[0] : memref<9xf32>
      %p0 = arith.mulf %a0, %b0 : f32
      %s0 = arith.addf %acc, %p0 : f32
      %a1 = affine.load %A[%i + 0, %j + 1] : memref<18x16xf32>
      %b1 = affine.load %B[1] : memref<9xf32>
      %p1 = arith.mulf %a1, %b1 : f32
      %s1 = arith.addf %s0, %p1 : f32
      %a2 = affine.load %A[%i + 0, %j + 2] : memref<18x16xf32>
      %b2 = affine.load %B[2] : memref<9xf32>
      %p2 = arith.mulf %a2, %b2 : f32
      %s2 = arith.addf %s1, %p2 : f32
      %a3 = affine.load %A[%i + 1, %j + 0] : memref<18x16xf32>
      %b3 = affine.load %B[3] : memref<9xf32>
      %p3 = arith.mulf %a3, %b3 : f32
      %s3 = arith.addf %s2, %p3 : f32
      %a4 = affine.load %A[%i + 1, %j + 1] : memref<18x16xf32>
      %b4 = affine.load %B[4] : memref<9xf32>
      %p4 = arith.mulf %a4, %b4 : f32
      %s4 = arith.addf %s3, %p4 : f32
      %a5 = affine.load %A[%i + 1, %j + 2] : memref<18x16xf32>
      %b5 = affine.load %B[5] : memref<9xf32>
      %p5 = arith.mulf %a5, %b5 : f32
      %s5 = arith.addf %s4, %p5 : f32
      %a6 = affine.load %A[%i + 2, %j + 0] : memref<18x16xf32>
      %b6 = affine.load %B[6] : memref<9xf32>
      %p6 = arith.mulf %a6, %b6 : f32
      %s6 = arith.addf %s5, %p6 : f32
      %a7 = affine.load %A[%i + 2, %j + 1] : memref<18x16xf32>
      %b7 = affine.load %B[7] : memref<9xf32>
      %p7 = arith.mulf %a7, %b7 : f32
      %s7 = arith.addf %s6, %p7 : f32
      %a8 = affine.load %A[%i + 2, %j + 2] : memref<18x16xf32>
      %b8 = affine.load %B[8] : memref<9xf32>
      %p8 = arith.mulf %a8, %b8 : f32
      %s8 = arith.addf %s7, %p8 : f32
      affine.store %s8, %C[%i, %j] : memref<16x14xf32>
    }
  }
  return
}
func.func @conv2d(%A: memref<18x16xf32>, %B: memref<9xf32>, %C: memref<16x14xf32>) attributes {npuc.aie1_reference = @conv2d_ref} {
  %c0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 14 : index
  %z0 = aievec.upd %B[%c0] {index = 0 : i8, offset = 0 : i32} : memref<9xf32>, vector<8xf32>
  %z1 = aievec.upd %B[%c8] {index = 0 : i8, offset = 0 : i32} : memref<9xf32>, vector<8xf32>
  scf.for %i = %c0 to %rows step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    scf.for %j = %c0 to %cols step %c8 {
      %c = aievec.upd %C[%i, %j] {index = 0 : i8, offset = 0 : i32} : memref<16x14xf32>, vector<8xf32>
      %j1 = arith.addi %j, %c1 : index
      %xl0 = aievec.upd %A[%i, %j] {index = 0 : i8, offset = 0 : i32} : memref<18x16xf32>, vector<16xf32>
      %x0 = aievec.upd %A[%i, %j1], %xl0 {index = 1 : i8, offset = 224 : i32} : memref<18x16xf32>, vector<16xf32>
      %m0 = aievec_aie1.mac %x0, %z0, %c {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "0"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m1 = aievec_aie1.mac %x0, %z0, %m0 {xoffsets = "0x76543210", xstart = "1", zoffsets = "0x00000000", zstart = "1"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m2 = aievec_aie1.mac %x0, %z0, %m1 {xoffsets = "0x76543210", xstart = "2", zoffsets = "0x00000000", zstart = "2"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %xl1 = aievec.upd %A[%i1, %j] {index = 0 : i8, offset = 0 : i32} : memref<18x16xf32>, vector<16xf32>
      %x1 = aievec.upd %A[%i1, %j1], %xl1 {index = 1 : i8, offset = 224 : i32} : memref<18x16xf32>, vector<16xf32>
      %m3 = aievec_aie1.mac %x1, %z0, %m2 {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "3"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m4 = aievec_aie1.mac %x1, %z0, %m3 {xoffsets = "0x76543210", xstart = "1", zoffsets = "0x00000000", zstart = "4"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m5 = aievec_aie1.mac %x1, %z0, %m4 {xoffsets = "0x76543210", xstart = "2", zoffsets = "0x00000000", zstart = "5"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %xl2 = aievec.upd %A[%i2, %j] {index = 0 : i8, offset = 0 : i32} : memref<18x16xf32>, vector<16xf32>
      %x2 = aievec.upd %A[%i2, %j1], %xl2 {index = 1 : i8, offset = 224 : i32} : memref<18x16xf32>, vector<16xf32>
      %m6 = aievec_aie1.mac %x2, %z0, %m5 {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "6"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m7 = aievec_aie1.mac %x2, %z0, %m6 {xoffsets = "0x76543210", xstart = "1", zoffsets = "0x00000000", zstart = "7"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      %m8 = aievec_aie1.mac %x2, %z1, %m7 {xoffsets = "0x76543210", xstart = "2", zoffsets = "0x00000000", zstart = "0"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
      vector.transfer_write %m8, %C[%i, %j] : vector<8xf32>, memref<16x14xf32>
    }
  }
  return
}

