func.func @first_line(%arg0: tensor<4xf32>, %arg1: memref<4xf32, #hivm.address_space<gm>>, %arg2: memref<4xf32, #hivm.address_space<ub>>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = hivm.hir.vexp ins(%1 : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  hivm.hir.load ins(%arg1 : memref<4xf32, #hivm.address_space<gm>>) outs(%arg2 : memref<4xf32, #hivm.address_space<ub>>)
  return %2 : tensor<4xf32>
}
// Reading defines the types and attributes our ops write for MLIR once, as
// aliases in front of the first line's text (docs/syntax-engine.md,
// "Performance"). Nothing of them shows: the printout is the input, the
// first line's positions are the user's, and a type that does not parse
// on its own (it names the input's alias) or an input using the aliases'
// names are read as before.
// RUN: npuc-opt %s | FileCheck %s
// CHECK: func.func @first_line(%arg0: tensor<4xf32>, %arg1: memref<4xf32, #hivm.address_space<gm>>, %arg2: memref<4xf32, #hivm.address_space<ub>>) -> tensor<4xf32> {
// CHECK: hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK: hivm.hir.vexp ins(%1 : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK: hivm.hir.load ins(%arg1 : memref<4xf32, #hivm.address_space<gm>>) outs(%arg2 : memref<4xf32, #hivm.address_space<ub>>)
// CHECK-NOT: __npuc_
// RUN: npuc-opt --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC
// LOC-DAG: #loc{{[0-9]*}} = loc("{{.*}}aliases.mlir":1:23)
// LOC-DAG: #loc{{[0-9]*}} = loc("{{.*}}aliases.mlir":1:1)
// LOC-DAG: #loc{{[0-9]*}} = loc("{{.*}}aliases.mlir":3:8)
// RUN: npuc-opt %S/Inputs/aliases-taken.mlir | FileCheck %s --check-prefix=TAKEN
// TAKEN: #map = affine_map<(d0) -> (d0 * 2)>
// TAKEN: func.func @taken(%arg0: tensor<4xf32>, %arg1: memref<4xf32, #map>) -> tensor<4xf32> {
// TAKEN: hivm.hir.vexp ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
// TAKEN: hivm.hir.load ins(%arg1 : memref<4xf32, #map>) outs(%arg1 : memref<4xf32, #map>)
// RUN: not npuc-opt %S/Inputs/aliases-first-line-error.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: aliases-first-line-error.mlir:1:89: error: use of value '%arg0' expects different type
// ERR: aliases-first-line-error.mlir:1:14: note: prior use here
