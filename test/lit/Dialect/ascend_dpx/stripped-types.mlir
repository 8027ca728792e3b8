// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// RUN: sed -e 's/: <1>,/: !llvm.ptr<1>,/' -e 's/: <3>,/: !llvm.ptr<3>,/' -e 's/: ,/: !llvm.ptr,/' %s > %t.full.mlir
// RUN: npuc-opt %t.full.mlir -o %t.full && FileCheck %s --check-prefix=FULL < %t.full
// ascend_dpx.store's pointer type as ODS prints an LLVM pointer type it
// knows the class of: without `!llvm.ptr` (`<1>`; nothing for address
// space 0). A module that wrote it so is printed so; one that wrote the
// whole type keeps it whole.
// GENERIC: "ascend_dpx.store"(%arg0, %arg3, %arg4) : (!llvm.ptr<1>, vector<1xi32>, i1) -> ()
// GENERIC: "ascend_dpx.store"(%arg1, %arg2) {cacheHint = #ascend_dpx.dpx_store_cache<L2_CACHE_HINT_WTS_RED>} : (!llvm.ptr<3>, i32) -> ()
// GENERIC: "ascend_dpx.store"(%arg5, %arg2) : (!llvm.ptr, i32) -> ()
// FULL: ascend_dpx.store %arg0, %arg3, %arg4 : !llvm.ptr<1>, vector<1xi32>
// FULL: ascend_dpx.store %arg1, %arg2 cacheModifier = <L2_CACHE_HINT_WTS_RED> : !llvm.ptr<3>, i32
// FULL: ascend_dpx.store %arg5, %arg2 : !llvm.ptr, i32
module {
  llvm.func @simt(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<3>, %arg2: i32, %arg3: vector<1xi32>, %arg4: i1, %arg5: !llvm.ptr) {
    ascend_dpx.store %arg0, %arg3, %arg4 : <1>, vector<1xi32>
    ascend_dpx.store %arg1, %arg2 cacheModifier = <L2_CACHE_HINT_WTS_RED> : <3>, i32
    ascend_dpx.store %arg5, %arg2 : , i32
    llvm.return
  }
}
