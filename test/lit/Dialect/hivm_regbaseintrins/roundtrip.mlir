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
  llvm.func @all(%arg0: i32, %arg1: f16, %arg2: bf16, %arg3: f32) {
    %0 = hivm_regbaseintrins.thread_id_y
    %1 = hivm_regbaseintrins.thread_id_z
    %2 = hivm_regbaseintrins.block_idx_x
    %3 = hivm_regbaseintrins.block_idx_y
    %4 = hivm_regbaseintrins.block_idx_z
    %5 = hivm_regbaseintrins.block_dim_x
    %6 = hivm_regbaseintrins.block_dim_y
    %7 = hivm_regbaseintrins.block_dim_z
    %8 = hivm_regbaseintrins.block_idx
    %9 = hivm_regbaseintrins.block_num
    %10 = hivm_regbaseintrins.clock32
    %11 = hivm_regbaseintrins.core_id
    hivm_regbaseintrins.thread_fence_block
    hivm_regbaseintrins.yield
    %12 = hivm_regbaseintrins.rinth %arg1
    %13 = hivm_regbaseintrins.floorh %arg1
    %14 = hivm_regbaseintrins.ceilh %arg1
    %15 = hivm_regbaseintrins.rintf %arg3
    %16 = hivm_regbaseintrins.floorf %arg3
    %17 = hivm_regbaseintrins.ceilf %arg3
    %18 = hivm_regbaseintrins.logf %arg3
    %19 = hivm_regbaseintrins.rinty %arg2
    %20 = hivm_regbaseintrins.floory %arg2
    %21 = hivm_regbaseintrins.ceily %arg2
    %22 = hivm_regbaseintrins.intr.hivm.redux.add.u32 %arg0
    %23 = hivm_regbaseintrins.intr.hivm.redux.max.u32 %arg0
    %24 = hivm_regbaseintrins.intr.hivm.redux.max.s32 %arg0
    %25 = hivm_regbaseintrins.intr.hivm.redux.min.u32 %arg0
    %26 = hivm_regbaseintrins.intr.hivm.redux.min.s32 %arg0
    %27 = hivm_regbaseintrins.intr.hivm.redux.add.f32 %arg3
    %28 = hivm_regbaseintrins.intr.hivm.redux.max.f32 %arg3
    %29 = hivm_regbaseintrins.intr.hivm.redux.min.f32 %arg3
    %30 = hivm_regbaseintrins.intr.hivm.redux.add.f16 %arg1
    %31 = hivm_regbaseintrins.intr.hivm.redux.max.f16 %arg1
    %32 = hivm_regbaseintrins.intr.hivm.redux.min.f16 %arg1
    llvm.return
  }
}
