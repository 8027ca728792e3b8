// Upstream passes of MLIR 22 that crash on ops MLIR does not know (every op
// of npuc's dialects) are refused with an error at the op, before they run;
// mlir-opt segfaults on each of these inputs in generic form. The same
// passes run as before on IR without such ops (the last chunks).
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --inline -o %t.inline
// RUN: FileCheck %s --check-prefix=INLINE < %t.inline
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --normalize-memrefs -o %t.nm
// RUN: npuc-opt %s --split-input-file --verify-diagnostics --remove-dead-values -o %t.rdv
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(canonicalize),inline)' -o %t.nested
// With --pass-pipeline, --inline and the flag form alike: exit 1, the
// error at the op, no output file.
// RUN: rm -f %t.out && not npuc-opt %s --split-input-file --inline -o %t.out 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOC
// RUN: not test -e %t.out
// LOC: upstream-guards.mlir:[[# @LINE + 8]]:3: error: upstream pass 'inline' cannot run on 'scope.scope': MLIR cannot compute symbol uses
// INLINE-LABEL: func.func @caller
// INLINE-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// INLINE-NEXT: arith.addi %arg0, %arg0 : i32
// INLINE-NEXT: return

func.func @scope_only() {
  // expected-error@+1 {{cannot run on 'scope.scope': MLIR cannot compute symbol uses through an op it does not know that has one region}}
  scope.scope : () -> () {
    scope.return
  }
  return
}

// -----

func.func private @callee() {
  return
}
func.func @call_and_scope() {
  func.call @callee() : () -> ()
  // expected-error@+1 {{cannot run on 'scope.scope'}}
  %0 = scope.scope : () -> i32 {
    %c = arith.constant 1 : i32
    scope.return %c : i32
  }
  return
}

// -----

// Ops of our dialects without a region do not stop these passes (MLIR's
// inliner does not move them, as it knows nothing of them).
func.func private @callee(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}
func.func @caller(%x: i32) -> i32 {
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %y = func.call @callee(%x) : (i32) -> i32
  return %y : i32
}
