
// CHECK-LABEL: func.func @check_while
// CHECK: scf.for
// CHECK: scf.while
// CHECK: hivm.hir.store{{.*}} {tiled_op}
// CHECK: } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
module {
  func.func @check_while(%arg0: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {func_dyn_memref_args = dense<true> : vector<11xi1>, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c4_i32 = arith.constant 4 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
  .trunci %0 : i64 to i32
    %2 = arith.divsi %1, %arg4 : i32
    %3 = arith.remsi %2, %arg3 : i32
    %4 = tensor.empty() : tensor<32x32xf32>
    %5 = hivm.hir.vbrc ins(%cst : f32) outs(%4 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %6 = arith.divsi %3, %c4_i32 : i32
    %7 = arith.index_cast %6 : i32 to index
    %reinterpret_cest = memref.reinterpret_cast %arg0 to offset: [%7], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, stxided<[1], offset: ?>>
    %8 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %9 = arith.addi %7, %c1 : index
    %reinterpret_cast_0 = memref.reinterpret_cast %arg0 to offset: [%9], sizes: [1], strides: [1] : memref
// CHECK-LABEL: func.func @check_split_indirect_store
// CHECK: scf.for
// CHECK: hivm.hir.indirect_store ins(%{{.*}} : tensor<8x64xf16>, %{{.*}} : tehivm.type_fnnsor<8x64xi64>, %{{.*}} : tensor<8x64xi1>) outs(%arg0 : memref<.part_of_mix} {
    %c0_i64 = arith.constant 0 : i64
    %true = arith.constant true
    %cst = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<16x64xf16>annotation.mark %0 {buffer_size_in_byte izes = array<i32: 2, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6x64xi1>
    %5 = hivm2xf32>, %e: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "hivm.hir.vadd"(%a, %a, %e) {operandSegmentSir.vadd"(%a, %a, %e) {operandSegmentSizes = array<i32: 2, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  annotation.mark %0 {buffer_size_in_byte izes = array<i32: 2, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  annotation.mark %0 {buffer_size_in_byte = 8 : i64} : tensor<2xf32>
  return %0 : tensor<2xf32>
}
//.hir.vbrc ins(%true : i1) outs(%4 : tensor<16x64xi1>) -> tensor<16x64xi1>
    hivm.hir.indirect_store ins(%1 : tensor<16x64xf16>, %3 : tensor<16x64xi64>, %5 <?xi32> to memref<1xi32, strided<[1], of: tensor<16x64xi1>) outs(%arg0 : memref<?xf16>)
    return
  }
}

fset: ?>>
    %10 = memref.load %reinterpret_cast_0[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %11 = arith.subi %10, %8 : i32
    %12 = arith.minsi %11, %c32_i32 : i32
    %reinterpret_cast_1 = memref.reinterpret_cast %arg1 to offset: [%c0], sizes: [32, 32], strides: [%c0, 1] : memref<?xf32> to memref<32x32xf32, strided<[?, 1], offset: ?>>
    %13:2 = 