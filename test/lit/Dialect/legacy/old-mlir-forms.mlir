// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=MLIR22
// IR printed by the older MLIR AscendNPU-IR is built on: the DLTI spec of
// the hacc dialect, to_tensor without `to tensor<..>`, and memory spaces of
// an unregistered dialect. It parses, and prints back in the form it came in;
// MLIR itself holds the MLIR 22 forms:
// MLIR22: ^bb0(%arg0: memref<16xf32, "#hivm.address_space<ub>">):
// MLIR22: "bufferization.to_tensor"(%arg0) <{restrict, writable}> : (memref<16xf32, "#hivm.address_space<ub>">) -> tensor<16xf32>
// MLIR22: dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"AI_CORE_COUNT" = 24 : i32, "VECTOR_CORE_COUNT" = 48 : i32>>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @kernel(%arg0: memref<16xf32, #hivm.address_space<ub>>) -> tensor<16xf32> {
    %0 = bufferization.to_tensor %arg0 restrict writable : memref<16xf32, #hivm.address_space<ub>>
    return %0 : tensor<16xf32>
  }
}
