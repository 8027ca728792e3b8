// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// AscendDPX SIMT code: types written as ODS's functional-type prints them,
// cache hints as optional clauses.
// GENERIC: "ascend_dpx.thread_id_x"() : () -> i32
// GENERIC: "ascend_dpx.load"(%arg0) {cacheHint = #ascend_dpx.dpx_load_cache<L2_CACHE_HINT_NORMAL_FV>, operandSegmentSizes = array<i32: 1, 0, 0>} : (!llvm.ptr<1>) -> i32
// GENERIC: "ascend_dpx.atomic_add"(%arg0, %{{[0-9]+}}) {cache = #ascend_dpx.dpx_store_cache<L2_CACHE_HINT_NORMAL_FV>} : (!llvm.ptr<1>, i32) -> i32
module {
  func.func @simt(%arg0: !llvm.ptr<1>, %arg1: f32, %arg2: i32) -> f32 {
    %0 = ascend_dpx.thread_id_x
    %1 = ascend_dpx.load %arg0 cacheModifier = <L2_CACHE_HINT_NORMAL_FV> : (!llvm.ptr<1>) -> i32
    %2 = ascend_dpx.umulhi %0, %1 : (i32, i32) -> i32
    %3 = ascend_dpx.atomic_add %arg0, %2 cacheModifier = <L2_CACHE_HINT_NORMAL_FV> : (!llvm.ptr<1>, i32) -> i32
    %4 = ascend_dpx.shfl.bfly %arg1, %arg2, %arg2, %3 : (f32, i32, i32, i32) -> f32
    %5 = ascend_dpx.reduce.add %4 : (f32) -> f32
    %6 = ascend_dpx.cast %2 kind <si_to_fp> : i32 to f32
    %7 = ascend_dpx.fma %5, %6, %arg1 : (f32, f32, f32) -> f32
    %8 = ascend_dpx.call_scalar @helper(%7, %2) {use_shmem_offset = 16 : i32} : (f32, i32) -> f32
    ascend_dpx.store %arg0, %3 : !llvm.ptr<1>, i32
    ascend_dpx.sync_threads
    return %8 : f32
  }
  func.func private @helper(f32, i32) -> f32
}
