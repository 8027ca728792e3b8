// hivm-bubble-up-extract-slice on chains of elementwise ops: the op below
// the slice is rewritten in place, and so are the elementwise ops above it
// whose one result the op below reads, in one application of the pattern
// (a run of at most 256; a longer chain takes several). Each op of a run
// keeps reading the op above, which now computes exactly its slice.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s

// A chain of 600 ops, three runs: every op is on the 4 rows of the slice,
// the shared operand %b is sliced once and the init once (a smaller empty),
// nothing whole is left.
// RUN: awk 'BEGIN { T = "tensor<16x8xf32>"; \
// RUN:   print "func.func @longer(%a: " T ", %b: " T ", %o: index) -> tensor<4x8xf32> {"; \
// RUN:   print "  %e = tensor.empty() : " T; cur = "%a"; \
// RUN:   for (i = 0; i < 600; i++) { \
// RUN:     if (i % 2) ins = cur ", %b : " T ", " T; else ins = cur " : " T; \
// RUN:     print "  %v" i " = hivm.hir." (i % 2 ? "vadd" : "vexp") " ins(" ins ") outs(%e : " T ") -> " T; \
// RUN:     cur = "%v" i } \
// RUN:   print "  %r = tensor.extract_slice " cur "[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : " T " to tensor<4x8xf32>"; \
// RUN:   print "  return %r : tensor<4x8xf32>"; print "}" }' > %t.mlir
// RUN: npuc-opt %t.mlir --hivm-bubble-up-extract-slice | FileCheck %s --check-prefix=LONG
// LONG-LABEL: func.func @longer(
// LONG-NEXT:    tensor.extract_slice %arg1[%arg2, 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// LONG-NEXT:    tensor.empty() : tensor<4x8xf32>
// LONG-NEXT:    tensor.extract_slice %arg0[%arg2, 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// LONG-COUNT-600: hivm.hir.v{{exp|add}} ins({{.*}}) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// LONG-NEXT:    return
// LONG-NOT:     tensor<16x8xf32>
// LONG-NOT:     extract_slice

// A chain of 20 ops: every op is on the 4 rows of the slice, the shared
// operand %b is sliced once, nothing whole is left.
// CHECK-LABEL: func.func @long_chain(
// CHECK-SAME:    %[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<16x8xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[X0:.*]] = hivm.hir.vexp ins(%[[SA]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[X1:.*]] = hivm.hir.vabs ins(%[[X0]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[X2:.*]] = hivm.hir.vadd ins(%[[X1]], %[[SB]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    hivm.hir.vmul ins(%[[X2]], %[[SB]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-COUNT-16: hivm.hir.v{{exp|abs|add|mul}} ins({{.*}}) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %{{.*}} : tensor<4x8xf32>
// CHECK-NOT:     tensor<16x8xf32>
// CHECK-NOT:     extract_slice
func.func @long_chain(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>, %o: index) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = hivm.hir.vabs ins(%0 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = hivm.hir.vadd ins(%1, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = hivm.hir.vmul ins(%2, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = hivm.hir.vexp ins(%3 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %5 = hivm.hir.vabs ins(%4 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %6 = hivm.hir.vadd ins(%5, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %7 = hivm.hir.vmul ins(%6, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %8 = hivm.hir.vexp ins(%7 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %9 = hivm.hir.vabs ins(%8 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %10 = hivm.hir.vadd ins(%9, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %11 = hivm.hir.vmul ins(%10, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %12 = hivm.hir.vexp ins(%11 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %13 = hivm.hir.vabs ins(%12 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %14 = hivm.hir.vadd ins(%13, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %15 = hivm.hir.vmul ins(%14, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %16 = hivm.hir.vexp ins(%15 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %17 = hivm.hir.vabs ins(%16 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %18 = hivm.hir.vadd ins(%17, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %19 = hivm.hir.vmul ins(%18, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = tensor.extract_slice %19[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----
// An op whose result has another user ends the run: %1 stays whole for the
// return, and the slice bubbles on through a copy of it (%0 is read by the
// whole %1 too, so it is copied as well).
// CHECK-LABEL: func.func @two_users(
// CHECK-SAME:    %[[A:.*]]: tensor<16x8xf32>, %[[O:.*]]: index)
// CHECK:         %[[W0:.*]] = hivm.hir.vexp ins(%[[A]] : tensor<16x8xf32>)
// CHECK-NEXT:    %[[W1:.*]] = hivm.hir.vabs ins(%[[W0]] : tensor<16x8xf32>)
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [4, 8] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[H0:.*]] = hivm.hir.vexp ins(%[[SA]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[H1:.*]] = hivm.hir.vabs ins(%[[H0]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[H2:.*]] = hivm.hir.vexp ins(%[[H1]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[H3:.*]] = hivm.hir.vabs ins(%[[H2]] : tensor<4x8xf32>)
// CHECK-NEXT:    return %[[H3]], %[[W1]]
func.func @two_users(%a: tensor<16x8xf32>, %o: index) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = hivm.hir.vabs ins(%0 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = hivm.hir.vexp ins(%1 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = hivm.hir.vabs ins(%2 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = tensor.extract_slice %3[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
  return %s, %1 : tensor<4x8xf32>, tensor<16x8xf32>
}

// -----
// An op reading one value twice is not followed: each of its two operands
// gets its own slice, and each bubbles on alone.
// CHECK-LABEL: func.func @same_operand_twice(
// CHECK-COUNT-2: hivm.hir.vexp ins(%{{.*}} : tensor<4x8xf32>)
// CHECK:         hivm.hir.vmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    hivm.hir.vabs ins(%{{.*}} : tensor<4x8xf32>)
// CHECK-NOT:     tensor<16x8xf32>
func.func @same_operand_twice(%a: tensor<16x8xf32>, %o: index) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = hivm.hir.vmul ins(%0, %0 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = hivm.hir.vabs ins(%1 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = tensor.extract_slice %2[%o, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<16x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----
// A dim of size 1 that no op broadcasts along: the run takes both ops, the
// dim keeps offset 0 and size 1.
// CHECK-LABEL: func.func @broadcast_unit_dim(
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [4, 1] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[X:.*]] = hivm.hir.vexp ins(%[[S]] : tensor<4x1xf32>)
// CHECK-NEXT:    hivm.hir.vabs ins(%[[X]] : tensor<4x1xf32>)
func.func @broadcast_unit_dim(%a: tensor<16x1xf32>, %b: tensor<16x8xf32>, %o: index) -> tensor<4x1xf32> {
  %e1 = tensor.empty() : tensor<16x1xf32>
  %0 = hivm.hir.vexp ins(%a : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %1 = hivm.hir.vabs ins(%0 : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = tensor.extract_slice %1[%o, 0] [4, 1] [1, 1] {to_be_bubbled_slice} : tensor<16x1xf32> to tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
