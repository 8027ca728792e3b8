// RUN: rm -rf %t && mkdir -p %t
// RUN: env NPUC_CHECK_BOUNDS=1 npuc-run %s --spec %S/Inputs/misc_ops.yaml -o %t/out
// RUN: %cc %S/Inputs/check_misc_ops.c -o %t/check -lm
// RUN: %t/check %t/out 2 | FileCheck %s
// RUN: sed 's/value: 2}/value: 5}/' %S/Inputs/misc_ops.yaml > %t/n5.yaml
// RUN: npuc-run %s --spec %t/n5.yaml -o %t/out5
// RUN: %t/check %t/out5 5 | FileCheck %s
// CHECK: ok select(x > y, x, y): 32 elements
// CHECK: ok transpose: 32 elements
// CHECK: ok arange: 8 elements
// CHECK: ok insert_slice of a reshaped slice: 32 elements
// CHECK: ok scalars: 4 elements
// Ops the other execution tests do not reach: vcmp + vsel, vtranspose,
// varange, expand/collapse_shape, extract/insert_slice, tensor.extract and
// insert, scf.while, scf.if, affine.min and memref.dim.
#floor_half = affine_map<(d0) -> (d0 floordiv 2)>
#min = affine_map<(d0)[s0] -> (d0, s0 * 2 + 1)>
module {
  func.func @misc(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %sel: memref<4x8xf32>, %tr: memref<8x4xf32>, %ar: memref<8xi32>, %ins: memref<4x8xf32>, %sc: memref<4xi64>, %n: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %xa = memref.alloc() : memref<4x8xf32>
    hivm.hir.load ins(%x : memref<4x8xf32>) outs(%xa : memref<4x8xf32>)
    %ya = memref.alloc() : memref<4x8xf32>
    hivm.hir.load ins(%y : memref<4x8xf32>) outs(%ya : memref<4x8xf32>)
    %tx = bufferization.to_tensor %xa restrict writable : memref<4x8xf32> to tensor<4x8xf32>
    %ty = bufferization.to_tensor %ya restrict writable : memref<4x8xf32> to tensor<4x8xf32>
    %em = tensor.empty() : tensor<4x8xi1>
    %gt = hivm.hir.vcmp ins(%tx, %ty : tensor<4x8xf32>, tensor<4x8xf32>) outs(%em : tensor<4x8xi1>) compare_mode = <gt> -> tensor<4x8xi1>
    %e = tensor.empty() : tensor<4x8xf32>
    %mx = hivm.hir.vsel ins(%gt, %tx, %ty : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    hivm.hir.store ins(%mx : tensor<4x8xf32>) outs(%sel : memref<4x8xf32>)
    %et = tensor.empty() : tensor<8x4xf32>
    %t = hivm.hir.vtranspose ins(%tx : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0] -> tensor<8x4xf32>
    hivm.hir.store ins(%t : tensor<8x4xf32>) outs(%tr : memref<8x4xf32>)
    %ea = tensor.empty() : tensor<8xi32>
    %a = hivm.hir.varange offset[%c3] strides[%c2] outs(%ea : tensor<8xi32>) -> tensor<8xi32>
    hivm.hir.store ins(%a : tensor<8xi32>) outs(%ar : memref<8xi32>)
    // Row 1 of x, flattened to 8 and back to 2x4, written into rows 2..3
    // columns 4..7 of y.
    %row = tensor.extract_slice %tx[1, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %sq = tensor.expand_shape %row [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
    %flat = tensor.collapse_shape %sq [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    %sq2 = tensor.expand_shape %flat [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
    %into = tensor.insert_slice %sq2 into %ty[2, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x8xf32>
    hivm.hir.store ins(%into : tensor<4x8xf32>) outs(%ins : memref<4x8xf32>)
    // Scalars: tensor.extract/insert, scf.while counting down, scf.if,
    // affine.min over a dynamic argument, memref.dim.
    %v = tensor.extract %tx[%c2, %c3] : tensor<4x8xf32>
    %v2 = arith.addf %v, %v : f32
    %ty2 = tensor.insert %v2 into %ty[%c0, %c0] : tensor<4x8xf32>
    %back = tensor.extract %ty2[%c0, %c0] : tensor<4x8xf32>
    %bi = arith.fptosi %back : f32 to i64
    memref.store %bi, %sc[%c0] : memref<4xi64>
    %steps = scf.while (%i = %c7) : (index) -> index {
      %more = arith.cmpi sgt, %i, %c1 : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%i: index):
      %h = affine.apply #floor_half(%i)
      scf.yield %h : index
    }
    %si = arith.index_cast %steps : index to i64
    memref.store %si, %sc[%c1] : memref<4xi64>
    %big = arith.cmpi sgt, %n, %c3 : index
    %pick = scf.if %big -> (index) {
      %m = affine.min #min(%c7)[%n]
      scf.yield %m : index
    } else {
      scf.yield %c0 : index
    }
    %pi = arith.index_cast %pick : index to i64
    memref.store %pi, %sc[%c2] : memref<4xi64>
    %d = memref.dim %x, %c1 : memref<4x8xf32>
    %di = arith.index_cast %d : index to i64
    memref.store %di, %sc[%c3] : memref<4xi64>
    return
  }
}
