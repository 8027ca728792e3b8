// The input names a type !__npuc_0, as an alias of npuc's would be named;
// its op's memref names the input's own #map: neither can be an alias.
!__npuc_0 = tensor<4xf32>
#map = affine_map<(d0) -> (d0 * 2)>
func.func @taken(%arg0: !__npuc_0, %arg1: memref<4xf32, #map>) -> tensor<4xf32> {
  %0 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
  hivm.hir.load ins(%arg1 : memref<4xf32, #map>) outs(%arg1 : memref<4xf32, #map>)
  return %0 : tensor<4xf32>
}
