// RUN: npuc-opt %s -o %t && FileCheck %s < %t
// RUN: npuc-opt %t -o %t.2 && diff -u %t %t.2
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.g && FileCheck %s --check-prefix=GENERIC < %t.g
// RUN: npuc-opt %t.g -o %t.3 && diff -u %t %t.3
// custom and custom_macro read an attribute dictionary after each input's
// type (format `type($inputs, $arg_attrs)`, docs/syntax-engine.md): kept as
// arg_attrs, one dictionary per input, printed back after the types. An
// arg_attrs that does not have one dictionary per input stays in attr-dict.

// CHECK-LABEL: func.func @inline
// CHECK: hivm.hir.custom {symbol = "k"} "user.k" ins(%arg0, %arg1 : tensor<16xf32> {inplace_outs = 0 : i32}, tensor<16xf16>) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
// CHECK: hivm.hir.custom_macro "m" ins(%arg0 : tensor<16xf32> {inplace_outs = 0 : i32, note = "a, {b}"}) outs(%arg0 : tensor<16xf32>) -> tensor<16xf32>
// GENERIC: "hivm.hir.custom"(%{{.*}}) {arg_attrs = [{inplace_outs = 0 : i32}, {}], name = "user.k"
// GENERIC: "hivm.hir.custom_macro"(%{{.*}}) {arg_attrs = [{inplace_outs = 0 : i32, note = "a, {b}"}], name = "m"
func.func @inline(%a: tensor<16xf32>, %b: tensor<16xf16>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = hivm.hir.custom {symbol = "k"} "user.k" ins(%a, %b : tensor<16xf32> {inplace_outs = 0 : i32}, tensor<16xf16>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  %1 = hivm.hir.custom_macro "m" ins(%a : tensor<16xf32> {inplace_outs = 0 : i32, note = "a, {b}"}) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @not_one_per_input
// CHECK: hivm.hir.custom {arg_attrs = [{}, {}]} "h" ins(%arg0 : tensor<16xf32>) outs
func.func @not_one_per_input(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "hivm.hir.custom"(%a, %a) {name = "h", arg_attrs = [{}, {}], operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// The scratch buffers hivm-alloc-extra-buffer gives custom and custom_macro
// print as bishengir spells them: `tmps(..)`, after outs.
// CHECK-LABEL: func.func @tmps
// CHECK: hivm.hir.custom {extra_buffers_sizes = [256], extra_buffers_types = [f32]} "k" ins(%arg0 : memref<4xf32>) outs(%arg0 : memref<4xf32>) tmps(%arg1 : memref<256xf32>)
// CHECK: hivm.hir.custom_macro "m" ins(%arg0 : memref<4xf32>) outs(%arg0 : memref<4xf32>) tmps(%arg1, %arg1 : memref<256xf32>, memref<256xf32>)
// GENERIC: "hivm.hir.custom"(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1, 1>
// GENERIC: "hivm.hir.custom_macro"(%{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1, 2, 0>
func.func @tmps(%a: memref<4xf32>, %t: memref<256xf32>) {
  hivm.hir.custom {extra_buffers_types = [f32], extra_buffers_sizes = [256]} "k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) tmps(%t : memref<256xf32>)
  hivm.hir.custom_macro "m" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) tmps(%t, %t : memref<256xf32>, memref<256xf32>)
  return
}
