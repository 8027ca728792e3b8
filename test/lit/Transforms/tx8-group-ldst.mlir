// tx8-group-ldst: each group input an op loads (its need_load bit) gets one
// tx8be.load_var at the top of the group; each result whose producer
// stores it (need_store) goes through a tx8be.store_var before the return.
// Their dev_info says the layout of the data moved: the producer's
// mem_layout (Tensor for graph inputs and ops without dev_info). A group
// left with neither works in DDR: group_tag 2.
// RUN: npuc-opt %s --split-input-file --tx8-group-ldst | FileCheck %s
// A second run finds every load and store in place and changes nothing:
// RUN: npuc-opt %s --split-input-file --tx8-group-ldst > %t.once
// RUN: npuc-opt %t.once --split-input-file --tx8-group-ldst | diff -u %t.once -

// CHECK-LABEL: func.func @main
// CHECK: %[[G0:.*]] = tx8be.group(%arg0, %[[C:.*]]) : {{.*}} attributes {group_id = 0 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x4x131xf16>, %[[B:.*]]: tensor<131xf16>):
// CHECK-NEXT: %[[LA:.*]] = tx8be.load_var %[[A]] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x4x131xf16> -> tensor<2x4x131xf16>
// CHECK-NEXT: %[[LB:.*]] = tx8be.load_var %[[B]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<131xf16> -> tensor<131xf16>
// CHECK-NEXT: %[[N:.*]] = tx8be.channel_norm %[[LA]] to <NCx>
// CHECK-NEXT: %[[M:.*]] = tx8be.mul %[[N]], %[[LB]]
// CHECK-NEXT: %[[S:.*]] = tx8be.store_var %[[M]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>} : tensor<2x4x131xf16> -> tensor<2x4x131xf16>
// CHECK-NEXT: tx8be.return %[[S]] : tensor<2x4x131xf16>
// An input read twice is loaded once; the load reads the NCx result of
// group 0 through its return.
// CHECK: tx8be.group(%[[G0]]) : {{.*}} attributes {group_id = 1 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[D:.*]]: tensor<2x4x131xf16>):
// CHECK-NEXT: %[[LD:.*]] = tx8be.load_var %[[D]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>}
// CHECK-NEXT: %[[E:.*]] = tx8be.add %[[LD]], %[[LD]]
// CHECK-NEXT: %[[SE:.*]] = tx8be.store_var %[[E]]
// CHECK-NEXT: tx8be.return %[[SE]]
// A reshape neither loads nor stores: the group works in DDR, tag 2.
// CHECK: tx8be.group({{.*}}attributes {group_id = 2 : si32, group_tag = 2 : i32} {
// CHECK-NEXT: ^bb0(%[[F:.*]]: tensor<2x4x131xf16>):
// CHECK-NEXT: %[[R:.*]] = tx8be.reshape %[[F]]
// CHECK-NEXT: tx8be.return %[[R]]
// Masks per use: the only user of the input is the reshape, which reads
// DDR, so nothing is loaded; the relu's result is stored, the reshape's is
// not returned. An input the return hands through is not stored.
// CHECK: tx8be.group({{.*}}group_id = 3 : si32, group_tag = 0 : i32} {
// CHECK-NEXT: ^bb0(%[[H:.*]]: tensor<8x131xf16>):
// CHECK-NEXT: %[[RS:.*]] = tx8be.reshape %[[H]]
// CHECK-NEXT: %[[RL:.*]] = tx8be.relu %[[RS]]
// CHECK-NEXT: %[[ST:.*]] = tx8be.store_var %[[RL]]
// CHECK-NEXT: tx8be.return %[[ST]], %[[H]]
module {
  func.func @main(%x: tensor<2x4x131xf16>) -> (tensor<8x131xf16>, tensor<2x4x131xf16>, tensor<8x131xf16>) {
    %c = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<131xf16>
    %0 = tx8be.group(%x, %c) : (tensor<2x4x131xf16>, tensor<131xf16>) -> (tensor<2x4x131xf16>) attributes {group_id = 0 : si32, group_tag = 0 : i32} {
    ^bb0(%a: tensor<2x4x131xf16>, %b: tensor<131xf16>):
      %n = tx8be.channel_norm %a to <NCx> : tensor<2x4x131xf16> -> tensor<2x4x131xf16>
      %m = tx8be.mul %n, %b {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x4x131xf16>, tensor<131xf16> -> tensor<2x4x131xf16>
      tx8be.return %m : tensor<2x4x131xf16>
    }
    %1 = tx8be.group(%0) : (tensor<2x4x131xf16>) -> (tensor<2x4x131xf16>) attributes {group_id = 1 : si32, group_tag = 0 : i32} {
    ^bb0(%d: tensor<2x4x131xf16>):
      %e = tx8be.add %d, %d : tensor<2x4x131xf16>, tensor<2x4x131xf16> -> tensor<2x4x131xf16>
      tx8be.return %e : tensor<2x4x131xf16>
    }
    %2 = tx8be.group(%1) : (tensor<2x4x131xf16>) -> (tensor<8x131xf16>) attributes {group_id = 2 : si32, group_tag = 2 : i32} {
    ^bb0(%f: tensor<2x4x131xf16>):
      %r = tx8be.reshape %f : tensor<2x4x131xf16> -> tensor<8x131xf16>
      tx8be.return %r : tensor<8x131xf16>
    }
    %3:2 = tx8be.group(%2) : (tensor<8x131xf16>) -> (tensor<8x131xf16>, tensor<8x131xf16>) attributes {group_id = 3 : si32, group_tag = 0 : i32} {
    ^bb0(%h: tensor<8x131xf16>):
      %rs = tx8be.reshape %h : tensor<8x131xf16> -> tensor<8x131xf16>
      %rl = tx8be.relu %rs : tensor<8x131xf16> -> tensor<8x131xf16>
      tx8be.return %rl, %h : tensor<8x131xf16>, tensor<8x131xf16>
    }
    return %3#0, %1, %3#1 : tensor<8x131xf16>, tensor<2x4x131xf16>, tensor<8x131xf16>
  }
}

// -----

// A group without group_tag gets 0 when it moves data; groups in
// subgraphs are handled the same way.
// CHECK-LABEL: tx8be.subgraph "sg"
// CHECK: tx8be.group(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>) attributes {group_tag = 0 : i32} {
// CHECK: tx8be.load_var
// CHECK: tx8be.abs
// CHECK: tx8be.store_var
module {
  tx8be.subgraph "sg" {
  ^bb0(%arg0: tensor<4xf32>):
    %0 = tx8be.group(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %r = tx8be.abs %a : tensor<4xf32> -> tensor<4xf32>
      tx8be.return %r : tensor<4xf32>
    }
    tx8be.subgraph_return %0 : tensor<4xf32>
  }
}
