// Options of hivm-bind-sub-block. enable-tile=false gives the 1:1
// fallback directly (the seed's fallback example); strict-mode=true keeps
// the split where every rewrite is exact; a bad value is an error.
// RUN: npuc-opt %s --verify-diagnostics --hivm-bind-sub-block="enable-tile=false emit-remarks=true" | FileCheck %s --check-prefix=OFF
// RUN: npuc-opt %s --hivm-bind-sub-block='strict-mode=true enable-tile=true' | FileCheck %s --check-prefix=STRICT
// RUN: npuc-opt %s --pass-pipeline='builtin.module(func.func(hivm-bind-sub-block{enable-tile=False}))' 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not npuc-opt %s --hivm-bind-sub-block=enable-tile=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// OFF-LABEL: func.func @seed(
// OFF:         %[[E:.*]] = hivm.hir.vexp ins(%{{.*}} : tensor<64xf16>)
// OFF:         %[[A:.*]] = hivm.hir.vabs ins(%[[E]] : tensor<64xf16>)
// OFF:         %[[ID:.*]] = hivm.hir.get_sub_block_idx -> i64
// OFF:         %[[IDX:.*]] = arith.index_cast %[[ID]] : i64 to index
// OFF:         %[[Z:.*]] = arith.cmpi eq, %[[IDX]], %{{.*}} : index
// OFF:         scf.if %[[Z]] {
// OFF-NEXT:      hivm.hir.store ins(%[[A]] : tensor<64xf16>) outs(%{{.*}} : memref<64xf16>)
// OFF-NEXT:    } {limit_sub_block_id0}
// OFF-NOT:     tiled_op

// STRICT-LABEL: func.func @seed(
// STRICT:         hivm.hir.vexp ins(%{{.*}} : tensor<32xf16>)
// STRICT:         hivm.hir.store {{.*}} {tiled_op}

// BAD: error: pass 'hivm-bind-sub-block': option 'enable-tile' expects true or false, got 'maybe'

// expected-remark@+1 {{cannot split the work over two vector sub-blocks, falling back to 1:1 (stores on sub-block 0 only): sub-block tiling is disabled (enable-tile=false)}}
func.func @seed(%src: tensor<64xf16>, %init: tensor<64xf16>, %output: memref<64xf16>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %t0 = hivm.hir.vexp ins(%src : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
  %t1 = hivm.hir.vabs ins(%t0 : tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
  hivm.hir.store ins(%t1 : tensor<64xf16>) outs(%output : memref<64xf16>)
  return
}
