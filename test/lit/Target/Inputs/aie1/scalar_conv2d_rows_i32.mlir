// conv2d with the filter-row loop between the row and column loops:
// C[i][j] is read, updated and stored once per filter row.
// test/lit/Target/aie1-vectorize-conv2d.test.
func.func @conv2d(%A: memref<18x18xi32>, %B: memref<3x3xi32>, %C: memref<16x16xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %r = 0 to 3 {
      affine.for %j = 0 to 16 {
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %a0 = affine.load %A[%i + %r, %j] : memref<18x18xi32>
        %b0 = affine.load %B[%r, 0] : memref<3x3xi32>
        %p0 = arith.muli %a0, %b0 : i32
        %s0 = arith.addi %c, %p0 : i32
        %a1 = affine.load %A[%i + %r, %j + 1] : memref<18x18xi32>
        %b1 = affine.load %B[%r, 1] : memref<3x3xi32>
        %p1 = arith.muli %a1, %b1 : i32
        %s1 = arith.addi %s0, %p1 : i32
        %a2 = affine.load %A[%i + %r, %j + 2] : memref<18x18xi32>
        %b2 = affine.load %B[%r, 2] : memref<3x3xi32>
        %p2 = arith.muli %a2, %b2 : i32
        %s2 = arith.addi %s1, %p2 : i32
        affine.store %s2, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}
