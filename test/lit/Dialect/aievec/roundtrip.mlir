// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// Every aievec op in the custom syntax mlir-aie prints, each optional
// operand and attribute present and absent: printing gives back exactly the
// input.
module {
  func.func @aie1_i16(%arg0: memref<?x64xi16>, %arg1: memref<?x3xi16>, %arg2: memref<?x32xi16>, %arg3: memref<?x32xi8>) {
    %c0_i32 = arith.constant 0 : i32
    %c10_i32 = arith.constant 10 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %0 = aievec.upd %arg1[%c0, %c0] {index = 0 : i8, offset = 0 : i32} : memref<?x3xi16>, vector<16xi16>
    scf.for %arg4 = %c0 to %c32 step %c1 {
      %1 = aievec.upd %arg0[%arg4, %c0] {index = 0 : i8, offset = 0 : i32} : memref<?x64xi16>, vector<32xi16>
      %2 = aievec.upd %arg0[%arg4, %c0], %1 {index = 1 : i8, offset = 256 : i32} : memref<?x64xi16>, vector<32xi16>
      %3 = aievec.upd %arg2[%arg4, %c0] {index = 0 : i8, offset = 0 : i32} : memref<?x32xi16>, vector<16xi16>
      %4 = aievec.ups %3 {shift = 0 : i8} : vector<16xi16>, vector<16xi48>
      %5 = aievec.ups %3 : vector<16xi16>, vector<16xi48>
      %6 = aievec.srs %4, %c0_i32 : vector<16xi48>, i32, vector<16xi16>
      %7 = aievec.srs %5, %c10_i32 {sign = 0 : i32} : vector<16xi48>, i32, vector<16xi16>
      %8 = aievec.concat %6, %7 : vector<16xi16>, vector<32xi16>
      %9 = aievec.concat %6, %7, %6, %7 : vector<16xi16>, vector<64xi16>
      %10 = aievec.select %8 {select = "0xcccccccc", xoffsets = "0x0c080400", xoffsets_hi = "0x0", xsquare = "0x1010", xstart = "0", yoffsets = "0x0c080400", yoffsets_hi = "0x0", ysquare = "0x1010", ystart = "4"} : vector<32xi16>, vector<32xi16>
      %11 = aievec.select %8, %2 {select = "0xaaaaaaaa", xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x1100", xstart = "0", yoffsets = "0x03020100", yoffsets_hi = "0x07060504", ysquare = "0x1100", ystart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
      %12 = aievec.ext %10 {index = 0 : i8} : vector<32xi16>, vector<16xi16>
      %13 = aievec.ext %9 : vector<64xi16>, vector<32xi16>
      %14 = aievec.pack %12 : vector<16xi16>, vector<16xi8>
      vector.transfer_write %14, %arg3[%arg4, %c0] : vector<16xi8>, memref<?x32xi8>
    }
    return
  }
  func.func @aieml_i16(%arg0: memref<18x288xi16>, %arg1: memref<12xi16>, %arg2: memref<16x256xi16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8_i32 = arith.constant 8 : i32
    %c10_i32 = arith.constant 10 : i32
    %0 = aievec.upd %arg1[%c0] {index = 0 : i8, offset = 0 : i32} : memref<12xi16>, vector<16xi16>
    %1 = aievec.concat %0, %0 : vector<16xi16>, vector<32xi16>
    %2 = aievec.shift %1, %1, %c8_i32 {isAcc = false} : vector<32xi16>, vector<32xi16>, i32, vector<32xi16>
    %3 = aievec.shift %1, %1, %c8_i32 : vector<32xi16>, vector<32xi16>, i32, vector<32xi16>
    %4 = aievec.upd %arg0[%c0, %c1] {index = 0 : i8, offset = 0 : i32} : memref<18x288xi16>, vector<32xi16>
    %5 = aievec.mul_conv %4, %1 {M = 16 : i32, N = 4 : i32} : vector<32xi16>, vector<32xi16>, vector<16xi64>
    %6 = aievec.fma_conv %4, %2, %5 {M = 16 : i32, N = 4 : i32} : vector<32xi16>, vector<32xi16>, vector<16xi64>
    %7 = aievec.fma_conv %4, %3, %6 {M = 16 : i32, N = 4 : i32, fmsub = true} : vector<32xi16>, vector<32xi16>, vector<16xi64>
    %8 = aievec.srs %7, %c10_i32 : vector<16xi64>, i32, vector<16xi16>
    vector.transfer_write %8, %arg2[%c0, %c0] : vector<16xi16>, memref<16x256xi16>
    return
  }
  func.func @aieml_i32(%arg0: memref<64x64xi32>, %arg1: memref<64x64xi32>, %arg2: memref<64xi8>) {
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %0 = aievec.upd %arg0[%c0, %c0] {index = 0 : i8, offset = 0 : i32} : memref<64x64xi32>, vector<16xi32>
    %1 = aievec.upd %arg1[%c0, %c0] {index = 0 : i8, offset = 0 : i32} : memref<64x64xi32>, vector<16xi32>
    %2 = aievec.ups %0 {shift = 0 : i8} : vector<16xi32>, vector<16xi64>
    %3 = aievec.broadcast %1 {idx = 3 : i8} : vector<16xi32>, vector<16xi32>
    %4 = aievec.broadcast %1 : vector<16xi32>, vector<16xi32>
    %5 = aievec.mac_elem %0, %3, %2 : vector<16xi32>, vector<16xi32>, vector<16xi64>
    %6 = aievec.mac_elem %0, %4, %5 {fmsub = true} : vector<16xi32>, vector<16xi32>, vector<16xi64>
    %7 = aievec.srs %6, %c0_i32 : vector<16xi64>, i32, vector<16xi32>
    %8 = aievec.mul_elem %0, %3 : vector<16xi32>, vector<16xi32>, vector<16xi64>
    %9 = aievec.srs %8, %c0_i32 : vector<16xi64>, i32, vector<16xi32>
    %10 = aievec.cast %7 {isResAcc = true} : vector<16xi32>, vector<16xi32>
    %11 = aievec.cast %10 : vector<16xi32>, vector<16xi32>
    %12 = aievec.upd %arg2[%c0] {index = 0 : i8, offset = 0 : i32} : memref<64xi8>, vector<64xi8>
    %13 = aievec.legacyshuffle %12 {mode = 0 : i32} : vector<64xi8>, vector<64xi8>
    %14 = aievec.legacyshuffle %13 : vector<64xi8>, vector<64xi8>
    vector.transfer_write %11, %arg0[%c0, %c0] : vector<16xi32>, memref<64x64xi32>
    return
  }
  func.func @opaque_acc(%arg0: vector<8xf32>) -> vector<8xf32> {
    %c0_i32 = arith.constant 0 : i32
    %0 = aievec.ups %arg0 {shift = 0 : i8} : vector<8xf32>, !aievec.acc<8xf32>
    %1 = aievec.srs %0, %c0_i32 : !aievec.acc<8xf32>, i32, vector<8xf32>
    return %1 : vector<8xf32>
  }
}
