// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// hivm_regbaseintrins' ops with a custom syntax (the SIMT launch, queries,
// barriers, math, warp reductions) print back exactly; its intrinsic
// wrappers (intr.hivm.vci) stay generic, as bishengir prints them.
module {
  llvm.func @k(%arg0: i64, %arg1: !llvm.ptr<1>) attributes {hivm_regbaseintrins.kernel, hivm_regbaseintrins.target = #hivm_regbaseintrins.target<"dav-c310">} {
    hivm_regbaseintrins.intrins.launch_func @s threads in (%arg0, %arg0, %arg0) args(%arg1, %arg0) : !llvm.ptr<1>, i64
    hivm_regbaseintrins.intrins.launch_func @s threads in (%arg0, %arg0, %arg0)
    llvm.return
  }
  llvm.func @s(%arg0: !llvm.ptr<1>, %arg1: i64) attributes {hivm_regbaseintrins.cconv = #hivm_regbaseintrins.simt_entry<1024>} {
    %0 = hivm_regbaseintrins.thread_id_x
    %1 = hivm_regbaseintrins.clock64
    hivm_regbaseintrins.sync_threads
    hivm_regbaseintrins.store_vfsimt_info %arg1
    %2 = hivm_regbaseintrins.umulhi %0, %0
    %3 = hivm_regbaseintrins.intr.hivm.redux.add.s32 %2
    %4 = llvm.mlir.constant(1.000000e+00 : f32) : f32
    %5 = hivm_regbaseintrins.sqrtf %4
    %6 = "hivm_regbaseintrins.intr.hivm.vci"(%arg1) : (i64) -> i64
    llvm.return
  }
}
