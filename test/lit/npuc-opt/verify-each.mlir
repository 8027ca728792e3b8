// --verify-each (mlir-opt's option): the IR is verified after every pass,
// by the pass manager or, when the pipeline holds only npuc passes, by the
// passes themselves (once; see docs/passes/hivm-bind-sub-block.md).
// --verify-each=false leaves only the input's verification and our op
// tables' at the end. Either way the output is the same.
// RUN: npuc-opt %s --hivm-bind-sub-block | FileCheck %s
// RUN: npuc-opt %s --hivm-bind-sub-block --verify-each | FileCheck %s
// RUN: npuc-opt %s --hivm-bind-sub-block --verify-each=false | FileCheck %s
// RUN: npuc-opt %s --hivm-bind-sub-block --cse --verify-each=true | FileCheck %s
// RUN: npuc-opt %s --hivm-bind-sub-block --cse --verify-each=false | FileCheck %s
// RUN: not npuc-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @halves(
// CHECK:         scf.for
// CHECK:           affine.apply
// CHECK:         hivm.hir.vexp ins(%{{.*}} : tensor<32xf16>)
// CHECK:         hivm.hir.store ins(%{{.*}} : tensor<32xf16>) outs(%{{.*}} : memref<32xf16, strided<[1], offset: ?>>) {tiled_op}
// CHECK:       } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
// BAD: error: option '--verify-each' takes no value other than true or false (got 'maybe')
func.func @halves(%x: tensor<64xf16>, %out: memref<64xf16>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %e = tensor.empty() : tensor<64xf16>
  %y = hivm.hir.vexp ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  hivm.hir.store ins(%y : tensor<64xf16>) outs(%out : memref<64xf16>)
  return
}
