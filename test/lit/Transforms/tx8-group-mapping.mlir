// tx8-group-mapping: every group, in functions and subgraphs, runs on the
// module's tile mesh (tx8be.tile_dx x tx8be.tile_dy, default the target's
// 4x4); a dev_region already there is replaced.
// RUN: npuc-opt %s --split-input-file --tx8-group-mapping | FileCheck %s
// RUN: printf 'chip:\n  tiles:\n    x: 8\n' > %t.yaml
// RUN: npuc-opt %s --split-input-file --tx8-group-mapping=target-config=%t.yaml | FileCheck %s --check-prefix=WIDE

// CHECK-LABEL: tx8be.subgraph "sg"
// CHECK: tx8be.group(%arg0) {{.*}}attributes {dev_region = #tx8be.region_attr<tile_dx = 2, tile_dy = 4>}
// CHECK-LABEL: func.func @main
// CHECK: tx8be.group(%arg0) {{.*}}attributes {dev_region = #tx8be.region_attr<tile_dx = 2, tile_dy = 4>, group_id = 0 : si32}
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 4 : i32} {
  tx8be.subgraph "sg" {
  ^bb0(%arg0: tensor<4xf32>):
    %0 = tx8be.group(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.abs %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    tx8be.subgraph_return %0 : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) attributes {dev_region = #tx8be.region_attr<tile_dx = 1, tile_dy = 1>, group_id = 0 : si32} {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    %1 = tx8be.call[@sg] (%0) : (tensor<4xf32>) -> (tensor<4xf32>)
    return %1 : tensor<4xf32>
  }
}

// -----

// Without tile_dx/tile_dy: the target's mesh (4x4, or 8x4 with the wider
// target description).
// CHECK-LABEL: func.func @main
// CHECK: dev_region = #tx8be.region_attr<tile_dx = 4, tile_dy = 4>
// WIDE-LABEL: func.func @main
// WIDE: dev_region = #tx8be.region_attr<tile_dx = 8, tile_dy = 4>
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.group(%x) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.relu %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}
