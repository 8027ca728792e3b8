// RUN: npuc-opt %s -o %t && FileCheck %s < %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// An attribute with a default in the op table (ODS DefaultValuedAttr) is
// printed neither in its clause nor in attr-dict when it holds the default,
// as bishengir's ODS-generated printers do; any other value is printed. The
// generic form keeps what was written. A DefaultValuedOptionalAttr (the
// load's init_out_buffer) has no table default: bishengir prints it when set.

// CHECK-LABEL: func.func @defaults
func.func @defaults(%a: tensor<4x8xf32>, %e: tensor<1x8xf32>, %m: memref<4x8xf16>,
                    %i: memref<4x8xi32>, %k: memref<4x8xf16>,
                    %c: memref<4x8xi1>) -> tensor<1x8xf32> {
  // CHECK: hivm.hir.vreduce <sum> ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<1x8xf32>) reduce_dims = [0] -> tensor<1x8xf32>
  // GENERIC: "hivm.hir.vreduce"{{.*}}tie_break_left = true, unsigned_src = false
  %r = hivm.hir.vreduce <sum> ins(%a : tensor<4x8xf32>) outs(%e : tensor<1x8xf32>) unsigned_src = false tie_break_left = true reduce_dims = [0] -> tensor<1x8xf32>
  // CHECK: hivm.hir.vreduce <sum> ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<1x8xf32>) unsigned_src = true tie_break_left = false reduce_dims = [0] -> tensor<1x8xf32>
  %s = hivm.hir.vreduce <sum> ins(%a : tensor<4x8xf32>) outs(%e : tensor<1x8xf32>) unsigned_src = true tie_break_left = false reduce_dims = [0] -> tensor<1x8xf32>
  // CHECK: hivm.hir.vcast ins(%{{.*}} : memref<4x8xf16>) outs(%{{.*}} : memref<4x8xi32>){{$}}
  hivm.hir.vcast ins(%m : memref<4x8xf16>) outs(%i : memref<4x8xi32>) cast = <cast_signed> round_mode = <rint>
  // CHECK: hivm.hir.vcast ins(%{{.*}} : memref<4x8xf16>) outs(%{{.*}} : memref<4x8xi32>) round_mode = <trunc>{{$}}
  hivm.hir.vcast ins(%m : memref<4x8xf16>) outs(%i : memref<4x8xi32>) cast = <cast_signed> round_mode = <trunc>
  // CHECK: hivm.hir.load ins(%{{.*}} : memref<4x8xf16>) outs(%{{.*}} : memref<4x8xf16>) init_out_buffer = false{{$}}
  hivm.hir.load ins(%m : memref<4x8xf16>) outs(%k : memref<4x8xf16>) init_out_buffer = false
  // CHECK: hivm.hir.vcmp ins(%{{.*}}, %{{.*}} : memref<4x8xi32>, memref<4x8xi32>) outs(%{{.*}} : memref<4x8xi1>){{$}}
  hivm.hir.vcmp ins(%i, %i : memref<4x8xi32>, memref<4x8xi32>) outs(%c : memref<4x8xi1>) compare_mode = <eq> is_signed : true
  // CHECK: hivm.hir.vcmp ins(%{{.*}}, %{{.*}} : memref<4x8xi32>, memref<4x8xi32>) outs(%{{.*}} : memref<4x8xi1>) compare_mode = <ne> is_signed : false{{$}}
  hivm.hir.vcmp ins(%i, %i : memref<4x8xi32>, memref<4x8xi32>) outs(%c : memref<4x8xi1>) compare_mode = <ne> is_signed : false
  // In attr-dict, too: only the other attribute stays.
  // CHECK: hivm.hir.vmax {x} ins(%{{.*}}, %{{.*}} : memref<4x8xi32>, memref<4x8xi32>) outs(%{{.*}} : memref<4x8xi32>){{$}}
  hivm.hir.vmax {is_signed = true, x} ins(%i, %i : memref<4x8xi32>, memref<4x8xi32>) outs(%i : memref<4x8xi32>)
  return %r : tensor<1x8xf32>
}
