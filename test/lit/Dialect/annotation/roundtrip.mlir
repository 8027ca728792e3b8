// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// annotation.mark with and without attributes; its type always follows.
module {
  func.func @annotation(%arg0: i32, %arg1: memref<16x16xf32, #hivm.address_space<ub>>, %arg2: tensor<1x16xf16>) {
    annotation.mark %arg0 {logical_block_num} : i32
    annotation.mark %arg1 {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>, hivm.tiling_dim = 0 : index} : memref<16x16xf32, #hivm.address_space<ub>>
    annotation.mark %arg2 {tiling_dim_mapping = {"1" = 1 : index}} : tensor<1x16xf16>
    annotation.mark %arg2 : tensor<1x16xf16>
    annotation.mark %arg1 {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>} : memref<16x16xf32, #hivm.address_space<ub>>
    return
  }
}
