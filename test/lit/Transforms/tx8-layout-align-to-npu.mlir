// tx8-layout-align-to-npu: a channel_norm wherever an operand's memory
// layout conflicts with what its user's alignMode accepts, converting
// toward the user; dev_info.mem_layout on every op. Graph outputs keep
// their layout (the store to DDR, which is compact, converts).
// RUN: npuc-opt %s --tx8-layout-align-to-npu | FileCheck %s

// An aligned-only op (batchnorm): its input to NCx (layout NHWC has the
// batch first), its [C] operands to Cx, one channel_norm for an operand
// taken four times; the result is NCx, returned as it is.
// CHECK-LABEL: func.func @aligned_op
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x4x40xf16>, %[[S:.*]]: tensor<40xf32>)
// CHECK-NEXT: %[[XN:.*]] = tx8be.channel_norm %[[X]] to <NCx> {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>, layout_str = "NTensor"}
// CHECK-NEXT: %[[SN:.*]] = tx8be.channel_norm %[[S]] to <Cx> {{{.*}}mem_layout = Cx{{.*}}layout_str = "Tensor"}
// CHECK-NEXT: %[[BN:.*]] = tx8be.batchnorm_inference %[[XN]], %[[SN]], %[[SN]], %[[SN]], %[[SN]] {{{.*}}mem_layout = NCx{{.*}}layout_str = "NHWC"}
// CHECK-NEXT: return %[[BN]]
func.func @aligned_op(%x: tensor<2x4x4x40xf16>, %s: tensor<40xf32>) -> tensor<2x4x4x40xf16> {
  %0 = tx8be.batchnorm_inference %x, %s, %s, %s, %s {layout_str = "NHWC"} : tensor<2x4x4x40xf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32> -> tensor<2x4x4x40xf16>
  return %0 : tensor<2x4x4x40xf16>
}

// A compact-only op (reshape) after an aligned one: back to compact for it.
// A plain matrix is one batch (Tensor), so the gemm works in Cx.
// CHECK-LABEL: func.func @compact_op
// CHECK: %[[A:.*]] = tx8be.channel_norm %arg0 to <Cx>
// CHECK: %[[B:.*]] = tx8be.channel_norm %arg1 to <Cx>
// CHECK: %[[G:.*]] = tx8be.gemm %[[A]], %[[B]], %{{.*}} {{{.*}}mem_layout = Cx{{.*}}}
// CHECK-NEXT: %[[GT:.*]] = tx8be.channel_norm %[[G]] to <Tensor> {{{.*}}layout_str = "Tensor"}
// CHECK-NEXT: %[[R:.*]] = tx8be.reshape %[[GT]] {{{.*}}mem_layout = Tensor{{.*}}}
// CHECK-NEXT: return %[[R]]
func.func @compact_op(%a: tensor<8x32xf16>, %b: tensor<32x16xf16>) -> tensor<128xf16> {
  %none = tx8be.none : none
  %0 = tx8be.gemm %a, %b, %none {layout_str = "Tensor-Tensor-Tensor"} : tensor<8x32xf16>, tensor<32x16xf16>, none -> tensor<8x16xf16>
  %1 = tx8be.reshape %0 {layout_str = "Tensor"} : tensor<8x16xf16> -> tensor<128xf16>
  return %1 : tensor<128xf16>
}

// Ops that run on either layout keep their lead operand's (the first of
// the result's shape) and the others follow: a compact lead pulls an
// aligned operand back, an aligned lead takes a compact operand and a
// broadcast [C] operand (in Cx) along.
// CHECK-LABEL: func.func @follow_lead
// CHECK: %[[BN:.*]] = tx8be.batchnorm_inference
// CHECK-NEXT: %[[BNT:.*]] = tx8be.channel_norm %[[BN]] to <NTensor>
// CHECK-NEXT: %[[ADD:.*]] = tx8be.add %arg0, %[[BNT]] {{{.*}}mem_layout = Tensor{{.*}}}
// CHECK-NEXT: %[[XN:.*]] = tx8be.channel_norm %arg0 to <NCx>
// CHECK-NEXT: %[[SUB:.*]] = tx8be.sub %[[BN]], %[[XN]] {{{.*}}mem_layout = NCx{{.*}}}
// CHECK-NEXT: %[[VC:.*]] = tx8be.channel_norm %arg2 to <Cx>
// CHECK-NEXT: %[[MUL:.*]] = tx8be.mul %[[VC]], %[[SUB]] {{{.*}}mem_layout = NCx{{.*}}}
// CHECK-NEXT: %[[RELU:.*]] = tx8be.relu %[[ADD]] {{{.*}}mem_layout = Tensor{{.*}}}
// CHECK-NEXT: return %[[RELU]], %[[MUL]]
func.func @follow_lead(%x: tensor<2x8x16xf16>, %s: tensor<16xf32>, %v: tensor<16xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>) {
  %bn = tx8be.batchnorm_inference %x, %s, %s, %s, %s {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x16xf16>
  %0 = tx8be.add %x, %bn {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %1 = tx8be.sub %bn, %x {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %2 = tx8be.mul %v, %1 {layout_str = "NTensor"} : tensor<16xf16>, tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %3 = tx8be.relu %0 {layout_str = "NTensor"} : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  return %3, %2 : tensor<2x8x16xf16>, tensor<2x8x16xf16>
}

// No conflict, no channel_norm: Cx and NCx of one batch are the same
// bytes; a channel_norm already there is used; a constant already placed
// in Cx (dev_info) serves an aligned user as it is; other dev_info fields
// stay.
// CHECK-LABEL: func.func @no_conflict
// CHECK-NEXT: %[[C:.*]] = tx8be.constant {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx
// CHECK-NEXT: %[[N:.*]] = tx8be.channel_norm %arg0 to <Cx> {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx
// CHECK-NEXT: %[[S:.*]] = tx8be.channel_norm %arg1 to <Cx>
// CHECK-NEXT: %[[W:.*]] = tx8be.channel_norm %arg2 to <Cx>
// CHECK-NEXT: %[[BN:.*]] = tx8be.batchnorm_inference %[[N]], %[[S]], %[[S]], %[[S]], %[[S]]
// CHECK-NEXT: %[[G:.*]] = tx8be.gemm %[[BN]], %[[W]], %[[C]]
// CHECK-NEXT: %[[R:.*]] = tx8be.relu %[[G]] {dev_info = #tx8be.dev_attr<imm_size = 64, mem_layout = NCx, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8], source_type = 0, imm_addr = 0, mem_addr = [0, 512]>
// CHECK-NEXT: return %[[R]]
func.func @no_conflict(%x: tensor<1x8x32xf16>, %s: tensor<32xf32>, %w: tensor<32x8xf16>) -> tensor<1x8x8xf16> {
  %c = tx8be.constant {layout_str = "Tensor", value = dense<1.0> : tensor<8xf16>, dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<8xf16>
  %xn = tx8be.channel_norm %x to <Cx> : tensor<1x8x32xf16> -> tensor<1x8x32xf16>
  %s1 = tx8be.channel_norm %s to <Cx> : tensor<32xf32> -> tensor<32xf32>
  %w1 = tx8be.channel_norm %w to <Cx> : tensor<32x8xf16> -> tensor<32x8xf16>
  %0 = tx8be.batchnorm_inference %xn, %s1, %s1, %s1, %s1 {layout_str = "Tensor"} : tensor<1x8x32xf16>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<1x8x32xf16>
  %1 = tx8be.gemm %0, %w1, %c {layout_str = "NTensor-Tensor-NTensor"} : tensor<1x8x32xf16>, tensor<32x8xf16>, tensor<8xf16> -> tensor<1x8x8xf16>
  %2 = tx8be.relu %1 {layout_str = "NTensor", dev_info = #tx8be.dev_attr<imm_size = 64, mem_layout = Tensor, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, 8], source_type = 0, imm_addr = 0, mem_addr = [0, 512]>} : tensor<1x8x8xf16> -> tensor<1x8x8xf16>
  return %2 : tensor<1x8x8xf16>
}

// Cx and NCx of two batches differ; a channel_norm converts one compact
// and one aligned layout, so NCx reaches Cx through NTensor.
// CHECK-LABEL: func.func @between_aligned
// CHECK: %[[B1:.*]] = tx8be.batchnorm_inference {{.*}}mem_layout = NCx
// CHECK-NEXT: %[[T:.*]] = tx8be.channel_norm %[[B1]] to <NTensor>
// CHECK-NEXT: %[[C:.*]] = tx8be.channel_norm %[[T]] to <Cx>
// CHECK: tx8be.batchnorm_inference %[[C]], {{.*}}mem_layout = Cx
func.func @between_aligned(%x: tensor<2x8x16xf16>, %s: tensor<16xf32>) -> tensor<2x8x16xf16> {
  %0 = tx8be.batchnorm_inference %x, %s, %s, %s, %s {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x16xf16>
  %1 = tx8be.batchnorm_inference %0, %s, %s, %s, %s {layout_str = "Tensor"} : tensor<2x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x16xf16>
  return %1 : tensor<2x8x16xf16>
}

// A value from an op without dev_info (a group, before grouping exists
// this would be hand-written) counts as compact, like a graph input.
// CHECK-LABEL: func.func @from_group
// CHECK: %[[G:.*]] = tx8be.group
// CHECK: tx8be.channel_norm %[[G]] to <NCx>
func.func @from_group(%x: tensor<2x8x16xf16>, %s: tensor<16xf32>) -> tensor<2x8x16xf16> {
  %g = tx8be.group(%x) : (tensor<2x8x16xf16>) -> (tensor<2x8x16xf16>) {
  ^bb0(%a: tensor<2x8x16xf16>):
    tx8be.return %a : tensor<2x8x16xf16>
  }
  %0 = tx8be.batchnorm_inference %g, %s, %s, %s, %s {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x16xf16>
  return %0 : tensor<2x8x16xf16>
}

// A load or store converts as it copies: its dev_info's layout stays (run
// on grouped input, a load into NCx needs no channel_norm after it).
// CHECK-LABEL: func.func @dma
// CHECK: %[[L:.*]] = tx8be.load_var %arg0 {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx
// CHECK-NOT: tx8be.channel_norm %[[L]]
// CHECK: tx8be.batchnorm_inference %[[L]],
// CHECK: tx8be.store_var %{{.*}} {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Tensor
func.func @dma(%x: tensor<2x8x16xf16>, %s: tensor<16xf32>) -> tensor<2x8x16xf16> {
  %l = tx8be.load_var %x {layout_str = "NTensor", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %0 = tx8be.batchnorm_inference %l, %s, %s, %s, %s {layout_str = "NTensor"} : tensor<2x8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x8x16xf16>
  %1 = tx8be.store_var %0 {layout_str = "NTensor", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  return %1 : tensor<2x8x16xf16>
}
