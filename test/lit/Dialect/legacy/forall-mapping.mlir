// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=MLIR22 < %t.generic
// scf.forall mapped to HIVM blocks and sub-blocks: MLIR 22's scf.forall
// takes only device-mapping attributes as `mapping`, so MLIR holds ours as
// the discardable npuc.forall_mapping; printing gives `mapping` back.
// MLIR22: }) {npuc.forall_mapping = [#hivm.sub_block<x>]}
// MLIR22: }) {npuc.forall_mapping = [#hivm.block]}
// MLIR22: "scf.forall"(%0) <{mapping = [#gpu.block<x>]
module {
  func.func @blocks(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = scf.forall (%arg1) in (8) shared_outs(%arg2 = %arg0) -> (tensor<8xf32>) {
      %2 = scf.forall (%arg3) in (2) shared_outs(%arg4 = %arg2) -> (tensor<8xf32>) {
        scf.forall.in_parallel {
        }
      } {mapping = [#hivm.sub_block<x>]}
      scf.forall.in_parallel {
      }
    } {mapping = [#hivm.block]}
    %1 = scf.forall (%arg1) in (4) shared_outs(%arg2 = %0) -> (tensor<8xf32>) {
      scf.forall.in_parallel {
      }
    } {mapping = [#gpu.block<x>]}
    return %1 : tensor<8xf32>
  }
}
