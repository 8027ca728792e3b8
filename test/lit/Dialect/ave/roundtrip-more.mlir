// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// The ave ops roundtrip.mlir leaves out, each once: a fixed point.
module {
  func.func @rest(%arg0: vector<64xf32>, %arg1: vector<64xi1>, %arg2: vector<64xi32>, %arg3: vector<128xf16>, %arg4: f32, %arg5: i32, %arg6: i16, %arg7: i1, %arg8: index, %arg9: memref<128xf32>) {
    %0 = ave.hir.vabs %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %1 = ave.hir.vneg %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %2 = ave.hir.vnot %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %3 = ave.hir.vsqrt %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %4 = ave.hir.vrsqrt %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %5 = ave.hir.vln %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %6 = ave.hir.vrelu %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %7 = ave.hir.vmul %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %8 = ave.hir.vsub %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %9 = ave.hir.vdiv %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %10 = ave.hir.vdivf %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %11 = ave.hir.vmax %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %12 = ave.hir.vmin %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %13 = ave.hir.vsmax %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %14 = ave.hir.vsmin %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %15 = ave.hir.vumax %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %16 = ave.hir.vumin %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %17 = ave.hir.vdivfhp %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %18 = ave.hir.vmod %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %19 = ave.hir.vmodui %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %20 = ave.hir.vabs_diff %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %21 = ave.hir.vsadd %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %22 = ave.hir.vssub %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %23 = ave.hir.vrnd %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %24 = ave.hir.vprelu %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %25 = ave.hir.vand %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %26 = ave.hir.vor %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %27 = ave.hir.vxor %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %28 = ave.hir.vexpdif %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %29 = ave.hir.vshl %arg2, %arg2, %arg1, %arg7 : vector<64xi32>, vector<64xi1>
    %30 = ave.hir.vshr %arg2, %arg2, %arg1, %arg7 : vector<64xi32>, vector<64xi1>
    %31:2 = ave.hir.mull %arg2, %arg2, %arg1 : vector<64xi32>, vector<64xi1>
    %32 = ave.hir.vmula %arg0, %arg0, %arg0, %arg1 : vector<64xf32>, vector<64xi1>
    %33 = ave.hir.vadds %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %34 = ave.hir.vlrelus %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %35 = ave.hir.vmaxs %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %36 = ave.hir.vmins %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %37 = ave.hir.vsmaxs %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %38 = ave.hir.vsmins %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %39 = ave.hir.vumaxs %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %40 = ave.hir.vumins %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1>
    %41 = ave.hir.vshls %arg2, %arg5, %arg1, %arg7 : vector<64xi32>, i32, vector<64xi1>
    %42 = ave.hir.vshrs %arg2, %arg5, %arg1, %arg7 : vector<64xi32>, i32, vector<64xi1>
    %43 = ave.hir.vslide %arg0, %arg0, %arg6 : vector<64xf32>, i16 -> vector<64xf32>
    %44 = ave.hir.vextf %arg3, <PART_EVEN>, %arg1 : vector<128xf16>, vector<64xf32>, vector<64xi1>
    %45 = ave.hir.vextsi %arg2, %arg1 : vector<64xi32>, vector<64xi64>, vector<64xi1>
    %46 = ave.hir.vextui %arg2, %arg1 : vector<64xi32>, vector<64xi64>, vector<64xi1>
    %47 = ave.hir.vtrunci %arg2, true, %arg1 : vector<64xi32>, vector<64xi16>, vector<64xi1>
    %48 = ave.hir.vtruncf %arg0, <rint>, false, <PART_EVEN>, %arg1 : vector<64xf32>, vector<128xf16>, vector<64xi1>
    %49 = ave.hir.vfptosi %arg0, <trunc>, %arg1 : vector<64xf32>, vector<64xi1>, vector<64xi32>
    %50 = ave.hir.vfptoui %arg0, <trunc>, true, <PART_EVEN>, %arg1 : vector<64xf32>, vector<64xi1>, vector<64xi32>
    %51 = ave.hir.vsitofp %arg2, %arg1 : vector<64xi32>, vector<64xi1>, vector<64xf32>
    %52 = ave.hir.vuitofp %arg2, <PART_EVEN>, %arg1 : vector<64xi32>, vector<64xi1>, vector<64xf32>
    %53 = ave.hir.vtrc %arg0, <floor>, %arg1 : vector<64xf32>, vector<64xi1>, vector<64xf32>
    %54 = ave.hir.vpack %arg2, 1 : vector<64xi32> -> vector<128xi16>
    %55 = ave.hir.vunpack %arg2, 1 : vector<64xi32> -> vector<128xi16>
    %56 = ave.hir.vector.layout_cast %arg0 : vector<64xf32> -> vector<64xf32>
    %57 = ave.hir.vcmps <GE> %arg0, %arg4, %arg1 : vector<64xf32>, f32, vector<64xi1> -> vector<64xi1>
    %58 = ave.hir.scalar_broadcast %arg4 : f32 -> vector<64xf32>
    %59 = ave.hir.vector_broadcast %arg0, %arg1, true : vector<64xf32>, vector<64xi1> -> vector<64xf32>
    %60 = ave.hir.vci %arg5, <INCREASE> : i32, vector<64xi32>
    %61 = ave.hir.pltm %arg8, %arg8 : vector<64xi1>
    %62 = ave.hir.preg.cast %arg1 <B32_TO_B16> : vector<64xi1> -> vector<128xi1>
    %63 = ave.hir.preg.not <b32> %arg1, %arg1 : vector<64xi1>
    %64 = ave.hir.preg.or <b16> %arg1, %arg1, %arg1 : vector<64xi1>
    %65 = ave.hir.preg.xor <b16> %arg1, %arg1, %arg1 : vector<64xi1>
    ave.hir.unaligned.masked.store %arg9[%arg8], %arg1, %arg0 : memref<128xf32>, vector<64xi1>, vector<64xf32>
    ave.hir.store_with_stride %arg9[%arg8], %arg8, %arg1, %arg0 : memref<128xf32>, vector<64xi1>, vector<64xf32>
    %66 = ave.hir.vgather %arg9[%arg8] [%arg2], %arg1 : memref<128xf32>, vector<64xi32>, vector<64xi1> into vector<64xf32>
    ave.hir.vscatter %arg9[%arg8] [%arg2], %arg1, %arg0 : memref<128xf32>, vector<64xi32>, vector<64xi1>, vector<64xf32>
    %67:2 = ave.hir.vdintlv %arg0, %arg0 : vector<64xf32>, vector<64xf32>
    ave.hir.membar %arg5
    return
  }
}
