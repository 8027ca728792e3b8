// A hand-vectorized C = A + B (i32, 8 lanes) with the chains
// aievec-canonicalize folds: srs(ups(a)) on A's vector, and
// ups(srs(acc)) between two accumulator uses of the sum. Compared with the
// scalar loop before and after the folds (aievec-canonicalize-exec.test).
func.func @scalar(%A: memref<64xi32>, %B: memref<64xi32>, %C: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<64xi32>
    %b = affine.load %B[%i] : memref<64xi32>
    %s = arith.addi %a, %b : i32
    affine.store %s, %C[%i] : memref<64xi32>
  }
  return
}

func.func @vec(%A: memref<64xi32>, %B: memref<64xi32>, %C: memref<64xi32>) attributes {npuc.aie1_reference = @scalar} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  scf.for %i = %c0 to %c64 step %c8 {
    %a = aievec.upd %A[%i] {index = 0 : i8, offset = 0 : i32} : memref<64xi32>, vector<8xi32>
    %b = aievec.upd %B[%i] {index = 0 : i8, offset = 0 : i32} : memref<64xi32>, vector<8xi32>
    %au = aievec.ups %a {shift = 3 : i8} : vector<8xi32>, vector<8xi80>
    %a2 = aievec.srs %au, %c3_i32 : vector<8xi80>, i32, vector<8xi32>
    %s = aievec_aie1.add %a2, %b : vector<8xi32>, vector<8xi32>, vector<8xi32>
    %acc = aievec.ups %s {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
    %n = aievec.srs %acc, %c0_i32 : vector<8xi80>, i32, vector<8xi32>
    %acc2 = aievec.ups %n {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
    %r = aievec.srs %acc2, %c0_i32 : vector<8xi80>, i32, vector<8xi32>
    vector.transfer_write %r, %C[%i] : vector<8xi32>, memref<64xi32>
  }
  return
}
