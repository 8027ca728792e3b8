// The 8-bit scheme with an initial value. Each op of the pair keeps pixel
// 2p+h in lanes 4p+2r+h (+8 in the second op; aie1-lane-semantics.md 7.3),
// so ups(C[j..j+15]) cannot be the accumulators' start (mlir-aie's
// conv2d_uij_i8 does that: pixel 2p+h starts from C[j+4p+h]). The pair
// starts with mul, and C, widened to i16 by srs(ups(C, 0), 0), is added
// lane-wise to the 16 pixels after srs + select + ext, before the pack.
// Under floor rounding and no saturation, C + srs(S, s) = srs(ups(C, s) + S, s).
// RUN: npuc-opt %s -split-input-file -affine-super-vectorize="virtual-vector-size=16" --aie-vectorize="shift=10" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @init
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : i32
// CHECK:         scf.for
// CHECK-NEXT:      %[[CV:.*]] = aievec.upd %arg2
// CHECK-SAME:        vector<16xi8>
// CHECK-NEXT:      %[[Z:.*]] = aievec.upd %arg0
// CHECK-NEXT:      %[[P0:.*]] = aievec_aie1.mul %{{.*}}, %[[Z]] {{{.*}}zstart = "0", zstep = "2"} : vector<64xi8>, vector<32xi8>, vector<16xi48>
// CHECK-NEXT:      %[[P1:.*]] = aievec_aie1.mul %{{.*}}, %[[Z]] {{{.*}}zstart = "8", zstep = "2"} : vector<64xi8>, vector<32xi8>, vector<16xi48>
// CHECK-NEXT:      %[[S0:.*]] = aievec.srs %[[P0]], %[[C10]] : vector<16xi48>, i32, vector<16xi16>
// CHECK-NEXT:      %[[S1:.*]] = aievec.srs %[[P1]], %[[C10]] : vector<16xi48>, i32, vector<16xi16>
// CHECK-NEXT:      %[[CAT:.*]] = aievec.concat %[[S0]], %[[S1]] : vector<16xi16>, vector<32xi16>
// CHECK-NEXT:      %[[SEL:.*]] = aievec_aie1.select %[[CAT]] {select = "0xcccccccc"
// CHECK-NEXT:      %[[LOW:.*]] = aievec_aie1.ext %[[SEL]] {index = 0 : i8} : vector<32xi16>, vector<16xi16>
// CHECK-NEXT:      %[[UP:.*]] = aievec.ups %[[CV]] {shift = 0 : i8} : vector<16xi8>, vector<16xi48>
// CHECK-NEXT:      %[[WIDE:.*]] = aievec.srs %[[UP]], %[[C0]] : vector<16xi48>, i32, vector<16xi16>
// CHECK-NEXT:      %[[SUM:.*]] = aievec_aie1.add %[[LOW]], %[[WIDE]] : vector<16xi16>, vector<16xi16>, vector<16xi16>
// CHECK-NEXT:      %[[OUT:.*]] = aievec.pack %[[SUM]] : vector<16xi16>, vector<16xi8>
// CHECK-NEXT:      vector.transfer_write %[[OUT]], %arg2
func.func @init(%A: memref<272xi8>, %B: memref<32xi8>, %C: memref<256xi8>) {
  affine.for %j = 0 to 256 {
    %c = affine.load %C[%j] : memref<256xi8>
    %a0 = affine.load %A[%j] : memref<272xi8>
    %b0 = affine.load %B[0] : memref<32xi8>
    %p0 = arith.muli %a0, %b0 : i8
    %s0 = arith.addi %c, %p0 : i8
    %a1 = affine.load %A[%j + 1] : memref<272xi8>
    %b1 = affine.load %B[2] : memref<32xi8>
    %p1 = arith.muli %a1, %b1 : i8
    %s1 = arith.addi %s0, %p1 : i8
    %a2 = affine.load %A[%j + 2] : memref<272xi8>
    %b2 = affine.load %B[4] : memref<32xi8>
    %p2 = arith.muli %a2, %b2 : i8
    %s2 = arith.addi %s1, %p2 : i8
    affine.store %s2, %C[%j] : memref<256xi8>
  }
  return
}

// -----
// A subtracting mac chained on the pair keeps the pair's accumulators;
// only the chain's first op is a mul, and C is still added at the end.
// CHECK-LABEL: func.func @init_then_msc
// CHECK:           %[[P0:.*]] = aievec_aie1.mul
// CHECK-NEXT:      %[[P1:.*]] = aievec_aie1.mul
// CHECK:           aievec_aie1.mac %{{.*}}, %{{.*}}, %[[P0]] {fmsub = true
// CHECK-NEXT:      aievec_aie1.mac %{{.*}}, %{{.*}}, %[[P1]] {fmsub = true
// CHECK:           aievec_aie1.ext
// CHECK-NEXT:      aievec.ups %{{.*}} {shift = 0 : i8}
// CHECK-NEXT:      aievec.srs
// CHECK-NEXT:      aievec_aie1.add
// CHECK-NEXT:      aievec.pack
func.func @init_then_msc(%A: memref<272xi8>, %B: memref<32xi8>, %C: memref<256xi8>) {
  affine.for %j = 0 to 256 {
    %c = affine.load %C[%j] : memref<256xi8>
    %a0 = affine.load %A[%j] : memref<272xi8>
    %b0 = affine.load %B[0] : memref<32xi8>
    %p0 = arith.muli %a0, %b0 : i8
    %s0 = arith.addi %c, %p0 : i8
    %a1 = affine.load %A[%j + 1] : memref<272xi8>
    %b1 = affine.load %B[2] : memref<32xi8>
    %p1 = arith.muli %a1, %b1 : i8
    %s1 = arith.subi %s0, %p1 : i8
    affine.store %s1, %C[%j] : memref<256xi8>
  }
  return
}

// -----
// The pair's first op must be a mul, and AIE1 has no negating one: a chain
// that starts by subtracting from an initial value is refused.
// CHECK-LABEL: func.func @msc_from_init
// CHECK:         vector.transfer_read
// CHECK-NOT:     aievec
func.func @msc_from_init(%A: memref<272xi8>, %B: memref<32xi8>, %C: memref<256xi8>) {
  affine.for %j = 0 to 256 {
    %c = affine.load %C[%j] : memref<256xi8>
    %a0 = affine.load %A[%j] : memref<272xi8>
    %b0 = affine.load %B[0] : memref<32xi8>
    %p0 = arith.muli %a0, %b0 : i8
    // expected-remark@+1 {{aie-vectorize: an 8-bit multiply-subtract from an initial value (the 8-bit chain starts with mul and adds its initial value after the srs; there is no negating mul); the function is left as the super-vectorizer produced it}}
    %s0 = arith.subi %c, %p0 : i8
    affine.store %s0, %C[%j] : memref<256xi8>
  }
  return
}
