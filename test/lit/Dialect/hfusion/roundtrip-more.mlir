// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// The hfusion ops roundtrip.mlir leaves out, each once: a fixed point.
module {
  func.func @rest(%arg0: tensor<16xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<16xi32>, %arg3: memref<64xf32>, %arg4: tensor<16xi1>, %arg5: tensor<16xi64>, %arg6: i32, %arg7: i1, %arg8: tensor<4x4x3x3xf16>, %arg9: tensor<1x4x8x8xf16>, %arg10: tensor<1x4x6x6xf16>, %arg11: tensor<1x4x8xf16>, %arg12: tensor<4x4x3xf16>, %arg13: tensor<1x4x6xf16>, %arg14: tensor<1x4x4x8x8xf16>, %arg15: tensor<4x4x3x3x3xf16>, %arg16: tensor<1x4x2x6x6xf16>, %arg17: tensor<16x32xf8E4M3FN>, %arg18: tensor<32x16xf8E4M3FN>, %arg19: tensor<16x1xi8>, %arg20: tensor<1x16xi8>, %arg21: tensor<16x16xf32>) {
    %0 = hfusion.elemwise_ternary {fun = #hfusion.ternary_fn<select>} ins(%arg4, %arg0, %arg0 : tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %1 = hfusion.load ins(%arg0 : tensor<16xf32>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %2 = hfusion.store {atomic_kind = #hfusion.atomic_kind<add>} ins(%1 : tensor<16xf32>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %3 = hfusion.bitcast ins(%arg0 : tensor<16xf32>) outs(%arg2 : tensor<16xi32>) -> tensor<16xi32>
    %4 = hfusion.group_matmul ins(%arg1, %arg1, %arg2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<16xi32>) outs(%arg1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %5:2 = hfusion.gather_mask ins(%arg0, %arg4 : tensor<16xf32>, tensor<16xi1>) outs(%arg0, %arg2 : tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
    %6 = hfusion.gather ins(%arg1, %arg2 : tensor<4x4xf32>, tensor<16xi32>) outs(%arg0 : tensor<16xf32>) axis = 0 -> tensor<16xf32>
    %7 = hfusion.conv1d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%arg11, %arg12 : tensor<1x4x8xf16>, tensor<4x4x3xf16>) outs(%arg13 : tensor<1x4x6xf16>) -> tensor<1x4x6xf16>
    %8 = hfusion.conv2d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%arg9, %arg8 : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16>) outs(%arg10 : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
    %9 = hfusion.conv3d {dilation = [1, 1, 1], groups = 1 : i32, padding = [0, 0, 0], stride = [2, 1, 1]} ins(%arg14, %arg15 : tensor<1x4x4x8x8xf16>, tensor<4x4x3x3x3xf16>) outs(%arg16 : tensor<1x4x2x6x6xf16>) -> tensor<1x4x2x6x6xf16>
    %10 = hfusion.isinf %arg0 : tensor<16xf32> -> tensor<16xi1>
    %11 = hfusion.isfinite %arg0 : tensor<16xf32> -> tensor<16xi1>
    %12 = hfusion.erfinv %arg0 : tensor<16xf32> -> tensor<16xf32>
    %13 = hfusion.cyl_bessel_i0 %arg0 : tensor<16xf32> -> tensor<16xf32>
    %14 = hfusion.nextafter %arg0, %arg0 : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
    %15 = hfusion.hypot %arg0, %arg0, %arg0 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
    %16 = hfusion.cumprod %arg0 : tensor<16xf32> cum_dims = [0] reverse = true -> tensor<16xf32>
    %17 = hfusion.cummax %arg0 : tensor<16xf32> cum_dims = [0] reverse = false -> tensor<16xf32>
    %18 = hfusion.cummin %arg0 {propagate_nan = false} : tensor<16xf32> cum_dims = [0] reverse = false -> tensor<16xf32>
    %19:2 = hfusion.mulextui %arg2, %arg2 : tensor<16xi32>
    %20 = hfusion.histogram %arg2, 8, %arg4 : tensor<16xi32>, tensor<16xi1> -> tensor<8xi32>
    %21 = hfusion.matmul_mx ins(%arg17, %arg18, %arg19, %arg20 : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>, tensor<16x1xi8>, tensor<1x16xi8>) outs(%arg21 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %22 = hfusion.atomic_cas ins(%arg0, %arg0 : tensor<16xf32>, tensor<16xf32>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %23 = hfusion.atomic_xchg ins(%arg0 : tensor<16xf32>) outs(%arg0 : tensor<16xf32>) mask(%arg4 : tensor<16xi1>) -> tensor<16xf32>
    %24 = hfusion.embedding_gather ins(%arg3 : memref<64xf32>, %arg2 : tensor<16xi32>, %arg6 : i32, [%arg6, %arg6 : i32, i32], [%arg6 : i32]) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %25 = hfusion.gather_load ins(%arg3 : memref<64xf32>, %arg5 : tensor<16xi64>, %arg6 : i32, %arg4 : tensor<16xi1>, %arg0 : tensor<16xf32>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %26 = hfusion.scatter_store ins(%arg5 : tensor<16xi64>, %arg0 : tensor<16xf32>, %arg6 : i32) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    %27 = hfusion.stride_load ins(%arg3 : memref<64xf32>) outs(%arg0 : tensor<16xf32>) offset(%arg6 : i32) other(%arg6 : i32) strides([%arg6 : i32]) numels([%arg6 : i32]) -> tensor<16xf32>
    hfusion.stride_store ins(%arg0 : tensor<16xf32>) outs(%arg3 : memref<64xf32>) offset(%arg6 : i32) strides([%arg6 : i32]) numels([%arg6 : i32])
    %28 = hfusion.gatherT ins(%arg3 : memref<64xf32>, %arg2 : tensor<16xi32>, %arg6 : i32, %arg6 : i32, [%arg6 : i32], [%arg6 : i32], [%arg6 : i32]) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
    hfusion.index_put ins(%arg3 : memref<64xf32>, %arg2 : tensor<16xi32>, %arg0 : tensor<16xf32>, %arg6 : i32, %arg6 : i32, [%arg6 : i32], [%arg6 : i32], [%arg6 : i32])
    hfusion.scatterT ins(%arg3 : memref<64xf32>, %arg0 : tensor<16xf32>, %arg2 : tensor<16xi32>, %arg6 : i32, %arg6 : i32, [%arg6 : i32], [%arg6 : i32], [%arg6 : i32])
    hfusion.assert "index in range" %arg7 : i1
    %29 = hfusion.symbolic_dim @S0 : index
    hfusion.print " t: " {hex = true} %arg0 : tensor<16xf32>
    return
  }
  func.func @sign(%arg0: tensor<16xf32>) -> tensor<16xi1> {
    %0 = hfusion.signbit %arg0 : tensor<16xf32> -> tensor<16xi1>
    return %0 : tensor<16xi1>
  }
}
