// The scalar 3x3 conv2d (i16) that test/lit/Target/aie1-vectorize-conv2d.test
// vectorizes with aie-vectorize and compares with itself on the emulator.
func.func @conv2d(%A: memref<10x32xi16>, %B: memref<12xi16>, %C: memref<8x30xi16>) {
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
