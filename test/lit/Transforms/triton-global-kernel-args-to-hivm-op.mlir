// triton-global-kernel-args-to-hivm-op: the six trailing i32 arguments of a
// Triton kernel (program counts x y z, program ids x y z) become the
// logical count a*b*c, its mark, get_block_idx and the ids decoded from it;
// the id arguments go away.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   -triton-global-kernel-args-to-hivm-op | FileCheck %s
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   -triton-global-kernel-args-to-hivm-op=order=x-fastest | FileCheck %s --check-prefix=XOPT

// Register-based targets (Ascend950) number blocks x fastest.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @a5(%p: memref<?xf32>, %nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    "use"(%px, %py, %pz) : (i32, i32, i32) -> ()
    return
  }
}
// CHECK-LABEL: func.func @a5(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %[[NX:.*]]: i32, %[[NY:.*]]: i32, %[[NZ:.*]]: i32) attributes
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[NX]], %[[NY]] : i32
// CHECK-NEXT: %[[N:.*]] = arith.muli %[[T]], %[[NZ]] : i32
// CHECK-NEXT: annotation.mark %[[N]] {logical_block_num} : i32
// CHECK-NEXT: %[[B:.*]] = hivm.hir.get_block_idx -> i64
// CHECK-NEXT: %[[I:.*]] = arith.trunci %[[B]] : i64 to i32
// CHECK-NEXT: %[[SX:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QX:.*]] = arith.divsi %[[I]], %[[SX]] : i32
// CHECK-NEXT: %[[PX:.*]] = arith.remsi %[[QX]], %[[NX]] : i32
// CHECK-NEXT: %[[SY:.*]] = arith.muli %[[SX]], %[[NX]] : i32
// CHECK-NEXT: %[[QY:.*]] = arith.divsi %[[I]], %[[SY]] : i32
// CHECK-NEXT: %[[PY:.*]] = arith.remsi %[[QY]], %[[NY]] : i32
// CHECK-NEXT: %[[SZ:.*]] = arith.muli %[[SY]], %[[NY]] : i32
// CHECK-NEXT: %[[QZ:.*]] = arith.divsi %[[I]], %[[SZ]] : i32
// CHECK-NEXT: %[[PZ:.*]] = arith.remsi %[[QZ]], %[[NZ]] : i32
// CHECK-NEXT: "use"(%[[PX]], %[[PY]], %[[PZ]])

// -----

// Everything else, and modules without a target, number blocks z fastest
// (the legacy decode); order=x-fastest overrides it.
module {
  func.func @legacy(%nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) attributes {hacc.entry} {
    "use"(%px, %py, %pz) : (i32, i32, i32) -> ()
    return
  }
}
// CHECK-LABEL: func.func @legacy(
// CHECK-SAME: %[[NX:.*]]: i32, %[[NY:.*]]: i32, %[[NZ:.*]]: i32) attributes
// CHECK:      %[[I:.*]] = arith.trunci
// CHECK-NEXT: %[[SZ:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QZ:.*]] = arith.divsi %[[I]], %[[SZ]] : i32
// CHECK-NEXT: %[[PZ:.*]] = arith.remsi %[[QZ]], %[[NZ]] : i32
// CHECK-NEXT: %[[SY:.*]] = arith.muli %[[SZ]], %[[NZ]] : i32
// CHECK-NEXT: %[[QY:.*]] = arith.divsi %[[I]], %[[SY]] : i32
// CHECK-NEXT: %[[PY:.*]] = arith.remsi %[[QY]], %[[NY]] : i32
// CHECK-NEXT: %[[SX:.*]] = arith.muli %[[SY]], %[[NY]] : i32
// CHECK-NEXT: %[[QX:.*]] = arith.divsi %[[I]], %[[SX]] : i32
// CHECK-NEXT: %[[PX:.*]] = arith.remsi %[[QX]], %[[NX]] : i32
// CHECK-NEXT: "use"(%[[PX]], %[[PY]], %[[PZ]])
// XOPT-LABEL: func.func @legacy(
// XOPT-SAME: %[[NX:.*]]: i32, %[[NY:.*]]: i32, %[[NZ:.*]]: i32) attributes
// XOPT:      arith.constant 1 : i32
// XOPT-NEXT: arith.divsi
// XOPT-NEXT: arith.remsi %{{.*}}, %[[NX]] : i32

// -----

// Per-argument attributes shrink with the argument list; other functions
// and already converted kernels are left alone.
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @attrs(%p: memref<?xf32> {tt.divisibility = 16 : i32}, %nx: i32, %ny: i32, %nz: i32, %px: i32 {tt.id}, %py: i32, %pz: i32) attributes {hacc.entry, func_dyn_memref_args = dense<[true, false, false, false, false, false, false]> : vector<7xi1>} {
    return
  }
  func.func @not_entry(%nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) {
    return
  }
  func.func @converted(%nx: i32, %ny: i32, %nz: i32) attributes {hacc.entry} {
    %n = arith.muli %nx, %ny : i32
    annotation.mark %n {logical_block_num} : i32
    return
  }
}
// CHECK-LABEL: func.func @attrs(
// CHECK-SAME: %{{.*}}: memref<?xf32> {tt.divisibility = 16 : i32}, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) attributes
// CHECK-SAME: func_dyn_memref_args = dense<[true, false, false, false]> : vector<4xi1>
// CHECK-NOT: tt.id
// CHECK-LABEL: func.func @not_entry(
// CHECK-SAME: %arg5: i32)
// CHECK-NEXT: return
// CHECK-LABEL: func.func @converted(
// CHECK-SAME: %arg2: i32)
// CHECK-NEXT: arith.muli
// CHECK-NEXT: annotation.mark
// CHECK-NEXT: return

// -----

module {
  // expected-error@+1 {{arguments program id or program num are missing: a Triton kernel ends with three program counts and three program ids}}
  func.func @five_args(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32) attributes {hacc.entry} {
    return
  }
}

// -----

module {
  // expected-error@+1 {{incompatible types of arguments program id or program num: the last six arguments must be i32}}
  func.func @i64_id(%nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i64) attributes {hacc.entry} {
    return
  }
}
