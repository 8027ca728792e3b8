// tx8-group-pattern's errors: a pattern file's problems are reported at
// their place in the file (file:line:col), every one, and fail the pass;
// a bad tx8be.opt_group is reported at the module.
// RUN: split-file %s %t
// RUN: not npuc-opt %t/in.mlir --tx8-group-pattern="patterns=%t/bad.yaml" 2>&1 | FileCheck %t/bad.yaml
// RUN: not npuc-opt %t/in.mlir --tx8-group-pattern="patterns=%t/notyaml.yaml" 2>&1 | FileCheck %t/notyaml.yaml
// RUN: not npuc-opt %t/in.mlir --tx8-group-pattern="patterns=%t/nolist.yaml" 2>&1 | FileCheck %t/nolist.yaml
// RUN: not npuc-opt %t/in.mlir --tx8-group-pattern="patterns=%t/missing.yaml" 2>&1 | FileCheck %t/in.mlir --check-prefix=MISSING
// RUN: npuc-opt %t/opt.mlir --split-input-file --verify-diagnostics --tx8-group-pattern -o %t/out.mlir

//--- bad.yaml
# CHECK: bad.yaml:[[@LINE+10]]:11: error: tx8-group-pattern: unknown op 'tx8be.frob'
# CHECK: bad.yaml:[[@LINE+10]]:11: error: tx8-group-pattern: '*' repeats no op: write it after an op name
# CHECK: bad.yaml:[[@LINE+10]]:11: error: tx8-group-pattern: 'OR' with no op before it
# CHECK: bad.yaml:[[@LINE+10]]:11: error: tx8-group-pattern: 'OR' with no op after it
# CHECK: bad.yaml:[[@LINE+10]]:11: error: tx8-group-pattern: empty pattern
# CHECK: bad.yaml:[[@LINE+10]]:33: error: tx8-group-pattern: 'priority' must be an integer in [0, 1000000]
# CHECK: bad.yaml:[[@LINE+10]]:29: error: tx8-group-pattern: unknown key 'prio'
# CHECK: bad.yaml:[[@LINE+10]]:5: error: tx8-group-pattern: a pattern must be a mapping with 'ops' and 'priority'
# CHECK: bad.yaml:[[@LINE+10]]:5: error: tx8-group-pattern: a pattern needs 'ops'
patterns:
  - {ops: "exp frob", priority: 1}
  - {ops: "* exp", priority: 1}
  - {ops: "OR exp", priority: 1}
  - {ops: "exp OR", priority: 1}
  - {ops: "", priority: 1}
  - {ops: "exp relu", priority: -3}
  - {ops: "exp relu", prio: 3}
  - exp relu
  - {priority: 3}
  - {ops: [exp, "exp+"], priority: 1}
# CHECK: bad.yaml:[[@LINE-1]]:11: error: tx8-group-pattern: 'exp+' is not an op name

//--- notyaml.yaml
# CHECK: notyaml.yaml:[[@LINE+3]]:5: error: tx8-group-pattern: invalid YAML
patterns:
  - {ops: "exp relu", priority: 1
  - {ops: "log abs"}

//--- nolist.yaml
# CHECK: nolist.yaml:[[@LINE+1]]:1: error: tx8-group-pattern: a pattern file is a mapping with a 'patterns' list
pattern:
  - {ops: "exp relu"}

//--- in.mlir
// MISSING: error: tx8-group-pattern: cannot open input file '{{.*}}missing.yaml': No such file or directory
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

//--- opt.mlir
// expected-error@+1 {{tx8be.opt_group must be an integer in [0, 4]: 0 none, 1 default, 2 CNN, 3 transformer, 4 elementwise chains}}
module attributes {tx8be.opt_group = 5 : i32} {
  func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

// expected-error@+1 {{tx8be.opt_group must be an integer}}
module attributes {tx8be.opt_group = "cnn"} {
  func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
