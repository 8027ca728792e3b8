// A 3x3 conv2d on i8 accumulating onto C[i][j] (as the anchor's
// conv2d_uij_i8), its filter laid out as the AIE1 8-bit scheme reads it:
// tap (r, c) at B[16r + 2c]. conv2d_i8_init_msc subtracts the second
// filter row (subtracting macs chained on the pair).
// test/lit/Target/aie1-vectorize-i8-init.test.
func.func @conv2d_i8_init(%A: memref<6x64xi8>, %B: memref<48xi8>, %C: memref<4x32xi8>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      %ci = affine.load %C[%i, %j] : memref<4x32xi8>
      %a0 = affine.load %A[%i + 0, %j + 0] : memref<6x64xi8>
      %b0 = affine.load %B[0] : memref<48xi8>
      %q0 = arith.muli %a0, %b0 : i8
      %p0 = arith.addi %ci, %q0 : i8
      %a1 = affine.load %A[%i + 0, %j + 1] : memref<6x64xi8>
      %b1 = affine.load %B[2] : memref<48xi8>
      %p1 = arith.muli %a1, %b1 : i8
      %s1 = arith.addi %p0, %p1 : i8
      %a2 = affine.load %A[%i + 0, %j + 2] : memref<6x64xi8>
      %b2 = affine.load %B[4] : memref<48xi8>
      %p2 = arith.muli %a2, %b2 : i8
      %s2 = arith.addi %s1, %p2 : i8
      %a3 = affine.load %A[%i + 1, %j + 0] : memref<6x64xi8>
      %b3 = affine.load %B[16] : memref<48xi8>
      %p3 = arith.muli %a3, %b3 : i8
      %s3 = arith.addi %s2, %p3 : i8
      %a4 = affine.load %A[%i + 1, %j + 1] : memref<6x64xi8>
      %b4 = affine.load %B[18] : memref<48xi8>
      %p4 = arith.muli %a4, %b4 : i8
      %s4 = arith.addi %s3, %p4 : i8
      %a5 = affine.load %A[%i + 1, %j + 2] : memref<6x64xi8>
      %b5 = affine.load %B[20] : memref<48xi8>
      %p5 = arith.muli %a5, %b5 : i8
      %s5 = arith.addi %s4, %p5 : i8
      %a6 = affine.load %A[%i + 2, %j + 0] : memref<6x64xi8>
      %b6 = affine.load %B[32] : memref<48xi8>
      %p6 = arith.muli %a6, %b6 : i8
      %s6 = arith.addi %s5, %p6 : i8
      %a7 = affine.load %A[%i + 2, %j + 1] : memref<6x64xi8>
      %b7 = affine.load %B[34] : memref<48xi8>
      %p7 = arith.muli %a7, %b7 : i8
      %s7 = arith.addi %s6, %p7 : i8
      %a8 = affine.load %A[%i + 2, %j + 2] : memref<6x64xi8>
      %b8 = affine.load %B[36] : memref<48xi8>
      %p8 = arith.muli %a8, %b8 : i8
      %s8 = arith.addi %s7, %p8 : i8
      affine.store %s8, %C[%i, %j] : memref<4x32xi8>
    }
  }
  return
}

func.func @conv2d_i8_init_msc(%A: memref<6x64xi8>, %B: memref<48xi8>, %C: memref<4x32xi8>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      %ci = affine.load %C[%i, %j] : memref<4x32xi8>
      %a0 = affine.load %A[%i + 0, %j + 0] : memref<6x64xi8>
      %b0 = affine.load %B[0] : memref<48xi8>
      %q0 = arith.muli %a0, %b0 : i8
      %p0 = arith.addi %ci, %q0 : i8
      %a1 = affine.load %A[%i + 0, %j + 1] : memref<6x64xi8>
      %b1 = affine.load %B[2] : memref<48xi8>
      %p1 = arith.muli %a1, %b1 : i8
      %s1 = arith.addi %p0, %p1 : i8
      %a2 = affine.load %A[%i + 0, %j + 2] : memref<6x64xi8>
      %b2 = affine.load %B[4] : memref<48xi8>
      %p2 = arith.muli %a2, %b2 : i8
      %s2 = arith.addi %s1, %p2 : i8
      %a3 = affine.load %A[%i + 1, %j + 0] : memref<6x64xi8>
      %b3 = affine.load %B[16] : memref<48xi8>
      %p3 = arith.muli %a3, %b3 : i8
      %s3 = arith.subi %s2, %p3 : i8
      %a4 = affine.load %A[%i + 1, %j + 1] : memref<6x64xi8>
      %b4 = affine.load %B[18] : memref<48xi8>
      %p4 = arith.muli %a4, %b4 : i8
      %s4 = arith.subi %s3, %p4 : i8
      %a5 = affine.load %A[%i + 1, %j + 2] : memref<6x64xi8>
      %b5 = affine.load %B[20] : memref<48xi8>
      %p5 = arith.muli %a5, %b5 : i8
      %s5 = arith.subi %s4, %p5 : i8
      %a6 = affine.load %A[%i + 2, %j + 0] : memref<6x64xi8>
      %b6 = affine.load %B[32] : memref<48xi8>
      %p6 = arith.muli %a6, %b6 : i8
      %s6 = arith.addi %s5, %p6 : i8
      %a7 = affine.load %A[%i + 2, %j + 1] : memref<6x64xi8>
      %b7 = affine.load %B[34] : memref<48xi8>
      %p7 = arith.muli %a7, %b7 : i8
      %s7 = arith.addi %s6, %p7 : i8
      %a8 = affine.load %A[%i + 2, %j + 2] : memref<6x64xi8>
      %b8 = affine.load %B[36] : memref<48xi8>
      %p8 = arith.muli %a8, %b8 : i8
      %s8 = arith.addi %s7, %p8 : i8
      affine.store %s8, %C[%i, %j] : memref<4x32xi8>
    }
  }
  return
}
