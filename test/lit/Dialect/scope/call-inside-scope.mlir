// A func.call inside scope.scope: MLIR's symbol lookup stops at an op it does
// not know that has one region, so MLIR reports the callee as not valid; when
// the module defines the callee, a note names that cause
// (docs/ascend-dialects.md, "Unregistered-op semantics"). A callee the module
// does not define gets MLIR's error alone.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t

func.func @caller(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = scope.scope : () -> (tensor<f32>) {
    // expected-error@+3 {{'func.call' op 'callee' does not reference a valid function}}
    // expected-note@+2 {{see current operation}}
    // expected-note@+1 {{'callee' is defined in this module, but the call is inside an op of npuc's dialects, which MLIR does not know; MLIR's symbol lookup stops at such an op when it has one region}}
    %1 = func.call @callee(%arg0) : (tensor<f32>) -> tensor<f32>
    scope.return %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

// -----

func.func @caller(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = scope.scope : () -> (tensor<f32>) {
    // expected-error@+2 {{'func.call' op 'missing' does not reference a valid function}}
    // expected-note@+1 {{see current operation}}
    %1 = func.call @missing(%arg0) : (tensor<f32>) -> tensor<f32>
    scope.return %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>

// -----

// Outside our ops the call resolves as usual.
func.func @caller(%arg0: tensor<f32>) -> tensor<f32> {
  %1 = func.call @callee(%arg0) : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}
func.func private @callee(%arg0: tensor<f32>) -> tensor<f32>
