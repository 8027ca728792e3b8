// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// Input already in MLIR 22's forms stays in them.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"AI_CORE_COUNT" = 24 : i32>>} {
  func.func @kernel(%arg0: memref<16xf32, strided<[1], offset: ?>>) -> tensor<16xf32> {
    %0 = bufferization.to_tensor %arg0 restrict writable : memref<16xf32, strided<[1], offset: ?>> to tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
