// --aie2: AIE-ML's accumulator types and intrinsics.
// RUN: npuc-translate --aievec-to-cpp --aie2 %s | FileCheck %s

// CHECK-LABEL: v16acc64 elem(v16int32 v1, v16int32 v2, v16acc64 v3) {
// CHECK-NEXT:   v3 = mac_elem_16_2(v2, broadcast_zero_s32(), v1, undef_v16int32(), v3);
// CHECK-NEXT:   v16acc64 v4 = mul_elem_16_2(v1 ,undef_v16int32() ,v2 , broadcast_zero_s32());
// CHECK-NEXT:   v16int32 v5 = broadcast_elem(v1, 3);
// CHECK-NEXT:   v16acc64 v6 = ups_to_v16acc64(v5, 0);
// CHECK-NEXT:   int32_t v7 = 0;
// CHECK-NEXT:   v16int32 v8 = srs_to_v16int32(v6, v7);
// CHECK-NEXT:   return v3;
func.func @elem(%a: vector<16xi32>, %b: vector<16xi32>, %acc: vector<16xi64>) -> vector<16xi64> {
  %0 = aievec.mac_elem %a, %b, %acc : vector<16xi32>, vector<16xi32>, vector<16xi64>
  %1 = aievec.mul_elem %a, %b : vector<16xi32>, vector<16xi32>, vector<16xi64>
  %2 = aievec.broadcast %a {idx = 3 : i8} : vector<16xi32>, vector<16xi32>
  %3 = aievec.ups %2 {shift = 0 : i8} : vector<16xi32>, vector<16xi64>
  %c0 = arith.constant 0 : i32
  %4 = aievec.srs %3, %c0 : vector<16xi64>, i32, vector<16xi32>
  return %0 : vector<16xi64>
}

// i8 operands are widened to v64int8 for mac_elem_32_2 as for mul_elem_32_2
// (two columns: the second half's lanes must be zero, which undef_ is in
// lib/Runtime/aie1/aie_intrinsics.h).
// CHECK-LABEL: v32int32 elem8(v32int8 v1, v32int8 v2, v32int32 v3) {
// CHECK-NEXT:   v64int8 v4 = concat(v1, undef_v32int8());
// CHECK-NEXT:   v64int8 v5 = concat(v2, undef_v32int8());
// CHECK-NEXT:   v3 = msc_elem_32_2(v5, v4, v3);
// CHECK-NEXT:   return v3;
func.func @elem8(%a: vector<32xi8>, %b: vector<32xi8>, %acc: vector<32xi32>) -> vector<32xi32> {
  %0 = aievec.mac_elem %a, %b, %acc {fmsub = true} : vector<32xi8>, vector<32xi8>, vector<32xi32>
  return %0 : vector<32xi32>
}

// Constants: zero and splat vectors, a 1024-bit zero.
// CHECK-LABEL: v16int32 splat() {
// CHECK-NEXT:   v16int32 v1 = broadcast_to_v16int32((int32_t)7);
// CHECK-NEXT:   v16int32 v2 = broadcast_zero_s32();
// CHECK-NEXT:   v32int32 v3 = concat(broadcast_zero_s32(), broadcast_zero_s32());
// CHECK-NEXT:   v16float v4 = broadcast_to_v16float((float)1.500000);
// CHECK-NEXT:   v16float v5 = broadcast_zero_float();
func.func @splat() -> vector<16xi32> {
  %a = arith.constant dense<7> : vector<16xi32>
  %b = arith.constant dense<0> : vector<16xi32>
  %c = arith.constant dense<0> : vector<32xi32>
  %d = arith.constant dense<1.5> : vector<16xf32>
  %e = arith.constant dense<0.0> : vector<16xf32>
  %f = func.call @use(%b, %c, %d, %e) : (vector<16xi32>, vector<32xi32>, vector<16xf32>, vector<16xf32>) -> vector<16xi32>
  return %a : vector<16xi32>
}
func.func private @use(vector<16xi32>, vector<32xi32>, vector<16xf32>, vector<16xf32>) -> vector<16xi32>
