// The scalar 3x3 conv2d (i32) that test/lit/Target/aie1-vectorize-conv2d.test
// vectorizes with aie-vectorize and compares with itself on the emulator.
func.func @conv2d(%A: memref<18x16xi32>, %B: memref<9xi32>, %C: memref<16x14xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 14 {
      %acc = affine.load %C[%i, %j] : memref<16x14xi32>
      %a0 = affine.load %A[%i + 0, %j + 0] : memref<18x16xi32>
      %b0 = affine.load %B[0] : memref<9xi32>
      %p0 = arith.muli %a0, %b0 : i32
      %s0 = arith.addi %acc, %p0 : i32
      %a1 = affine.load %A[%i + 0, %j + 1] : memref<18x16xi32>
      %b1 = affine.load %B[1] : memref<9xi32>
      %p1 = arith.muli %a1, %b1 : i32
      %s1 = arith.addi %s0, %p1 : i32
      %a2 = affine.load %A[%i + 0, %j + 2] : memref<18x16xi32>
      %b2 = affine.load %B[2] : memref<9xi32>
      %p2 = arith.muli %a2, %b2 : i32
      %s2 = arith.addi %s1, %p2 : i32
      %a3 = affine.load %A[%i + 1, %j + 0] : memref<18x16xi32>
      %b3 = affine.load %B[3] : memref<9xi32>
      %p3 = arith.muli %a3, %b3 : i32
      %s3 = arith.addi %s2, %p3 : i32
      %a4 = affine.load %A[%i + 1, %j + 1] : memref<18x16xi32>
      %b4 = affine.load %B[4] : memref<9xi32>
      %p4 = arith.muli %a4, %b4 : i32
      %s4 = arith.addi %s3, %p4 : i32
      %a5 = affine.load %A[%i + 1, %j + 2] : memref<18x16xi32>
      %b5 = affine.load %B[5] : memref<9xi32>
      %p5 = arith.muli %a5, %b5 : i32
      %s5 = arith.addi %s4, %p5 : i32
      %a6 = affine.load %A[%i + 2, %j + 0] : memref<18x16xi32>
      %b6 = affine.load %B[6] : memref<9xi32>
      %p6 = arith.muli %a6, %b6 : i32
      %s6 = arith.addi %s5, %p6 : i32
      %a7 = affine.load %A[%i + 2, %j + 1] : memref<18x16xi32>
      %b7 = affine.load %B[7] : memref<9xi32>
      %p7 = arith.muli %a7, %b7 : i32
      %s7 = arith.addi %s6, %p7 : i32
      %a8 = affine.load %A[%i + 2, %j + 2] : memref<18x16xi32>
      %b8 = affine.load %B[8] : memref<9xi32>
      %p8 = arith.muli %a8, %b8 : i32
      %s8 = arith.addi %s7, %p8 : i32
      affine.store %s8, %C[%i, %j] : memref<16x14xi32>
    }
  }
  return
}
