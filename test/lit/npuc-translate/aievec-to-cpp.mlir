// Every form --aievec-to-cpp writes, on small inputs of ours.
// RUN: npuc-translate --aievec-to-cpp --split-input-file %s | FileCheck %s
// RUN: npuc-translate --aievec-to-cpp --split-input-file %s -o %t.cpp
// RUN: FileCheck %s < %t.cpp

// Wide upd by halves through a restrict pointer, ups, lane-addressed
// mac16 in place, srs, transfer_write; loop bounds and chess pragmas.
// CHECK-LABEL: void wide(int16_t * restrict v1, int16_t * restrict v2, int16_t * restrict v3) {
// CHECK-NEXT:   size_t v4 = 0;
// CHECK-NEXT:   int32_t v5 = 0;
// CHECK-NEXT:   v16int16 v6 = *(v16int16 *)(v2 + v4);
// CHECK-NEXT:   size_t v7 = 64;
// CHECK-NEXT:   size_t v8 = 16;
// CHECK-NEXT:   for (size_t v9 = v4; v9 < v7; v9 += v8)
// CHECK-NEXT:   chess_prepare_for_pipelining
// CHECK-NEXT:   chess_loop_range(4, 4)
// CHECK-NEXT:   {
// CHECK-NEXT:     v32int16 v10;
// CHECK-NEXT:     int16_t * restrict r_v10_v1 = v1;
// CHECK-NEXT:     v10 = upd_w(v10, 0, *(v16int16 *)(r_v10_v1 + v9));
// CHECK-NEXT:     v10 = upd_w(v10, 1, *(v16int16 *)(r_v10_v1 + v9 + 16));
// CHECK-NEXT:     v16int16 v11 = *(v16int16 *)(v3 + v9);
// CHECK-NEXT:     v16acc48 v12 = ups(v11, 0);
// CHECK-NEXT:     v12 = mac16(v12, v10, 0, 0x03020100, 0x07060504, 0x2110, v6, 0, 0, 0, 1);
// CHECK-NEXT:     v16int16 v13 = srs(v12, v5);
// CHECK-NEXT:     *(v16int16 *)(v3 + v9) = v13;
// CHECK-NEXT:   }
// CHECK-NEXT:   return;
// CHECK-NEXT: }
func.func @wide(%a: memref<80xi16>, %f: memref<16xi16>, %c: memref<64xi16>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %unused = arith.constant 7 : index
  %0 = aievec.upd %f[%c0] {index = 0 : i8, offset = 0 : i32} : memref<16xi16>, vector<16xi16>
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c64 step %c16 {
    %1 = aievec.upd %a[%i] {index = 0 : i8, offset = 0 : i32} : memref<80xi16>, vector<32xi16>
    %2 = aievec.upd %a[%i], %1 {index = 1 : i8, offset = 256 : i32} : memref<80xi16>, vector<32xi16>
    %3 = aievec.upd %c[%i] {index = 0 : i8, offset = 0 : i32} : memref<64xi16>, vector<16xi16>
    %4 = aievec.ups %3 {shift = 0 : i8} : vector<16xi16>, vector<16xi48>
    %5 = aievec_aie1.mac %2, %0, %4 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "0", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
    %6 = aievec.srs %5, %c0_i32 : vector<16xi48>, i32, vector<16xi16>
    vector.transfer_write %6, %c[%i] : vector<16xi16>, memref<64xi16>
  }
  return
}

// -----
// Dynamic sizes (memref.dim named m1, the rest after), lmul8 / lups on
// 80-bit accumulators, select16, ext_w, concat, arith on index, loop-carried
// values, scf.if, a call, return of a value.
// CHECK-LABEL: v8int32 dyn(int32_t * restrict v3, size_t m1, size_t m2, int32_t * restrict v4, size_t v5) {
// CHECK-NEXT:   size_t v6 = 0;
// CHECK-NEXT:   v8int32 v7 = *(v8int32 *)(v4 + v6);
// CHECK-NEXT:   v16int32 v8;
// CHECK-NEXT:   int32_t * restrict r_v8_v3 = v3;
// CHECK-NEXT:   v8 = upd_w(v8, 0, *(v8int32 *)(r_v8_v3 + m2*v6+v6));
// CHECK-NEXT:   v8acc80 v9 = lmul8(v8, 0, 0x76543210, v7, 0, 0x00000000);
// CHECK-NEXT:   v8int32 v10 = srs(v9, v5);
// CHECK-NEXT:   v16int32 v11 = concat(v10, v7);
// CHECK-NEXT:   v16int32 v12 = select16(0xff00, v11, 0, 0x76543210, 0xfedcba98, 8, 0x76543210, 0xfedcba98);
// CHECK-NEXT:   v8int32 v13 = ext_w(v12, 1);
// CHECK-NEXT:   size_t v14 = 1;
// CHECK-NEXT:   v8int32 v15;
// CHECK-NEXT:   v8int32 v16 = v13;
// CHECK-NEXT:   for (size_t v17 = v6; v17 < m1; v17 += v14)
// CHECK-NEXT:   chess_prepare_for_pipelining
// CHECK-NEXT:   {
// CHECK-NEXT:     bool v18 = v17 < v5;
// CHECK-NEXT:     v8int32 v19;
// CHECK-NEXT:     if (v18) {
// CHECK-NEXT:       v8int32 v20 = v16 + v7;
// CHECK-NEXT:       v19 = v20;
// CHECK-NEXT:     } else {
// CHECK-NEXT:       v19 = v16;
// CHECK-NEXT:     }
// CHECK-NEXT:     v16 = v19;
// CHECK-NEXT:   }
// CHECK-NEXT:   v15 = v16;
// CHECK-NEXT:   v8int32 v21 = helper(v15);
// CHECK-NEXT:   return v21;
// CHECK-NEXT: }
func.func private @helper(%v: vector<8xi32>) -> vector<8xi32>
func.func @dyn(%a: memref<?x?xi32>, %b: memref<8xi32>, %s: index) -> vector<8xi32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x?xi32>
  %z = aievec.upd %b[%c0] {index = 0 : i8, offset = 0 : i32} : memref<8xi32>, vector<8xi32>
  %x = aievec.upd %a[%c0, %c0] {index = 0 : i8, offset = 0 : i32} : memref<?x?xi32>, vector<16xi32>
  %m = aievec_aie1.mul %x, %z {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "0"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
  %sh = arith.index_cast %s : index to i32
  %r = aievec.srs %m, %sh : vector<8xi80>, i32, vector<8xi32>
  %cat = aievec.concat %r, %z : vector<8xi32>, vector<16xi32>
  %sel = aievec_aie1.select %cat {select = "0xff00", xoffsets = "0x76543210", xoffsets_hi = "0xfedcba98", xstart = "0", yoffsets = "0x76543210", yoffsets_hi = "0xfedcba98", ystart = "8"} : vector<16xi32>, vector<16xi32>
  %hi = aievec_aie1.ext %sel {index = 1 : i8} : vector<16xi32>, vector<8xi32>
  %c1 = arith.constant 1 : index
  %loop = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %hi) -> (vector<8xi32>) {
    %lt = arith.cmpi slt, %i, %s : index
    %v = scf.if %lt -> (vector<8xi32>) {
      %sum = aievec_aie1.add %acc, %z : vector<8xi32>, vector<8xi32>, vector<8xi32>
      scf.yield %sum : vector<8xi32>
    } else {
      scf.yield %acc : vector<8xi32>
    }
    scf.yield %v : vector<8xi32>
  }
  %out = func.call @helper(%loop) : (vector<8xi32>) -> vector<8xi32>
  return %out : vector<8xi32>
}

// -----
// Floats on AIE1: ups and srs are moves (one use: the name carries over),
// fpmac in place, fpadd lane-wise, a float constant.
// CHECK-LABEL: void fl(float * restrict v1, float * restrict v2) {
// CHECK-NEXT:   size_t v3 = 0;
// CHECK-NEXT:   v8float v4 = *(v8float *)(v2 + v3);
// CHECK-NEXT:   v16float v5;
// CHECK-NEXT:   float * restrict r_v5_v1 = v1;
// CHECK-NEXT:   v5 = upd_w(v5, 0, *(v8float *)(r_v5_v1 + v3));
// CHECK-NEXT:   v4 = fpmac(v4, v5, 0, 0x76543210, v4, 0, 0x00000000);
// CHECK-NEXT:   v8float v6 = fpadd(v4, v4);
// CHECK-NEXT:   float v7 = (float)1.50000000e+00;
// CHECK-NEXT:   float v8 = v7 + v7;
// CHECK-NEXT:   *(v8float *)(v2 + v3) = v6;
func.func @fl(%a: memref<16xf32>, %c: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = aievec.upd %c[%c0] {index = 0 : i8, offset = 0 : i32} : memref<8xf32>, vector<8xf32>
  %u = aievec.ups %v {shift = 0 : i8} : vector<8xf32>, vector<8xf32>
  %x = aievec.upd %a[%c0] {index = 0 : i8, offset = 0 : i32} : memref<16xf32>, vector<16xf32>
  %m = aievec_aie1.mac %x, %u, %u {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "0"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
  %c0_i32 = arith.constant 0 : i32
  %s = aievec.srs %m, %c0_i32 : vector<8xf32>, i32, vector<8xf32>
  %d = aievec_aie1.add %s, %s : vector<8xf32>, vector<8xf32>, vector<8xf32>
  %k = arith.constant 1.5 : f32
  %kk = arith.addf %k, %k : f32
  vector.transfer_write %d, %c[%c0] : vector<8xf32>, memref<8xf32>
  return
}
