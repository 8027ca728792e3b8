// The scalar 3x3 conv2d (f32) that test/lit/Target/aie1-vectorize-conv2d.test
// vectorizes with aie-vectorize and compares with itself on the emulator.
func.func @conv2d(%A: memref<18x16xf32>, %B: memref<9xf32>, %C: memref<16x14xf32>) {
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
