// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// AVE vector-register ops under a predicate mask, as bishengir prints
// them: a masked load, arithmetic, compare and select, a masked store.
// GENERIC: "ave.hir.pge"() {pattern = #ave.pge_pattern<ALL>} : () -> vector<64xi1>
// GENERIC: "ave.hir.vload"(%arg0, %{{[0-9]+}}) {pattern = #ave.load_dist<NORM>} : (memref<128xf32, "#hivm.address_space<ub>">, index) -> vector<64xf32>
// GENERIC: "ave.hir.vcmp"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) {cmp = #ave.cmp_type<LT>} : (vector<64xf32>, vector<64xf32>, vector<64xi1>) -> vector<64xi1>
module {
  func.func @masked(%arg0: memref<128xf32, #hivm.address_space<ub>>, %arg1: f32, %arg2: index) -> index {
    %c0 = arith.constant 0 : index
    %0 = ave.hir.pge <ALL> : vector<64xi1>
    %1 = ave.hir.vload <NORM> %arg0[%c0] : memref<128xf32, #hivm.address_space<ub>> into vector<64xf32>
    %2 = ave.hir.vadd %1, %1, %0 : vector<64xf32>, vector<64xi1>
    %3 = ave.hir.vmuls %2, %arg1, %0 : vector<64xf32>, f32, vector<64xi1>
    %4 = ave.hir.vexp %3, %0 : vector<64xf32>, vector<64xi1>
    %5 = ave.hir.vcmp <LT> %4, %1, %0 : vector<64xf32>, vector<64xi1> -> vector<64xi1>
    %6 = ave.hir.vsel %5, %4, %1 : vector<64xi1>, vector<64xf32>
    %7 = ave.hir.broadcast %arg1, %0 : f32, vector<64xi1> -> vector<64xf32>
    %8 = ave.hir.reduction <add>, %6, %0 : vector<64xf32>, vector<64xi1> -> vector<64xf32>
    %9 = ave.hir.preg.and <b32> %0, %5, %0 : vector<64xi1>
    %10:2 = ave.hir.plt %arg2 : vector<64xi1>, index
    %11:2 = ave.hir.vintlv %7, %8 : vector<64xf32>, vector<64xf32>
    ave.hir.masked_store <NORM_B32> %arg0[%c0], %9, %11#0 : memref<128xf32, #hivm.address_space<ub>>, vector<64xi1>, vector<64xf32>
    return %10#1 : index
  }
}
