// tx8-group-pattern legality: a match that would make a cycle through ops
// outside it (groups decided before count as one op), or not fit SPM at
// its finest split, or leave a value read outside it in a shape other
// than its last op's, is shrunk from its end until it is legal; one op
// left is no group.
// RUN: split-file %s %t
// RUN: npuc-opt %t/cycle.mlir --split-input-file --tx8-group-pattern="patterns=%t/cycle.yaml" | FileCheck %t/cycle.mlir
// RUN: npuc-opt %t/spm.mlir --tx8-group-pattern="patterns=%t/spm.yaml spm-bytes=1000" | FileCheck %t/spm.mlir --check-prefix=TWO
// RUN: npuc-opt %t/spm.mlir --tx8-group-pattern="patterns=%t/spm.yaml spm-bytes=767" | FileCheck %t/spm.mlir --check-prefix=NONE
// RUN: npuc-opt %t/spm.mlir --tx8-group-pattern="patterns=%t/spm.yaml" | FileCheck %t/spm.mlir --check-prefix=ALL
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=3584" | FileCheck %t/conv.mlir --check-prefix=FOUR
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=3583" | FileCheck %t/conv.mlir --check-prefix=THREE
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=3072" | FileCheck %t/conv.mlir --check-prefix=THREE
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=3071" | FileCheck %t/conv.mlir --check-prefix=TWOC
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=1280" | FileCheck %t/conv.mlir --check-prefix=TWOC
// RUN: npuc-opt %t/conv.mlir --tx8-group-pattern="patterns=%t/conv.yaml spm-bytes=1279" | FileCheck %t/conv.mlir --check-prefix=NONEC
// RUN: npuc-opt %t/wide.mlir --tx8-group-pattern="patterns=%t/wide.yaml spm-bytes=8192" | FileCheck %t/wide.mlir
// RUN: npuc-opt %t/shape.mlir --split-input-file --tx8-group-pattern="patterns=%t/shape.yaml" | FileCheck %t/shape.mlir
// RUN: npuc-opt %t/gemm.mlir --split-input-file --tx8-group-pattern="spm-bytes=2560" | FileCheck %t/gemm.mlir --check-prefix=GELU
// RUN: npuc-opt %t/gemm.mlir --split-input-file --tx8-group-pattern="spm-bytes=2559" | FileCheck %t/gemm.mlir --check-prefix=APART
// RUN: npuc-opt %t/convk.mlir --split-input-file --tx8-group-pattern="patterns=%t/convk.yaml spm-bytes=32768" | FileCheck %t/convk.mlir --check-prefix=KFUSED
// RUN: npuc-opt %t/convk.mlir --split-input-file --tx8-group-pattern="patterns=%t/convk.yaml spm-bytes=13824" | FileCheck %t/convk.mlir --check-prefix=KFUSED
// RUN: npuc-opt %t/convk.mlir --split-input-file --tx8-group-pattern="patterns=%t/convk.yaml spm-bytes=13823" | FileCheck %t/convk.mlir --check-prefix=KAPART
// RUN: npuc-opt %t/gemmk.mlir --tx8-group-pattern="spm-bytes=1280" | FileCheck %t/gemmk.mlir --check-prefix=KFUSED
// RUN: npuc-opt %t/gemmk.mlir --tx8-group-pattern="spm-bytes=1279" | FileCheck %t/gemmk.mlir --check-prefix=KAPART
// RUN: npuc-opt %t/bnk.mlir --tx8-group-pattern="patterns=%t/convk.yaml spm-bytes=8960" | FileCheck %t/bnk.mlir --check-prefix=KFUSED
// RUN: npuc-opt %t/bnk.mlir --tx8-group-pattern="patterns=%t/convk.yaml spm-bytes=8959" | FileCheck %t/bnk.mlir --check-prefix=KAPART

//--- cycle.yaml
patterns:
  - {ops: "exp relu add", priority: 1}
  - {ops: "exp add OR log sub", priority: 1}

//--- cycle.mlir
// exp-relu-add: exp's other reader, log, is outside and feeds the add:
// the add is dropped.
// CHECK-LABEL: func.func @through_op(
// CHECK: %[[G:.*]]:2 = tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[L:.*]] = tx8be.log %[[G]]#0
// CHECK-NEXT: tx8be.add %[[G]]#1, %[[L]]
func.func @through_op(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.log %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tx8be.add %1, %2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// exp-add is grouped first. log-sub would be a group the exp-add group
// reads (add reads log) and that reads it (sub reads exp): a cycle
// between the two groups though none between ops. log-sub stays apart.
// CHECK-LABEL: func.func @through_group(
// CHECK: tx8be.log
// CHECK-NEXT: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.exp
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.sub
// CHECK-NOT: tx8be.group
func.func @through_group(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.log %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.add %0, %1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tx8be.sub %1, %0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

//--- spm.yaml
patterns:
  - {ops: "exp relu abs", priority: 1}

//--- spm.mlir
// At the finest split each value is one row: 8 f32, 32 bytes, a 256-byte
// buffer (the plan's 2048-bit alignment). exp-relu-abs holds 4 values
// (1024 bytes), exp-relu 3 (768).
// TWO: tx8be.group
// TWO-NEXT: ^bb0
// TWO-NEXT: tx8be.exp
// TWO-NEXT: tx8be.relu
// TWO-NEXT: tx8be.return
// TWO-NEXT: }
// TWO-NEXT: tx8be.abs
// NONE-NOT: tx8be.group
// ALL: tx8be.group
// ALL-NEXT: ^bb0
// ALL-NEXT: tx8be.exp
// ALL-NEXT: tx8be.relu
// ALL-NEXT: tx8be.abs
// ALL-NEXT: tx8be.return
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tx8be.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tx8be.relu %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tx8be.abs %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

//--- conv.yaml
patterns:
  - {ops: "conv relu conv relu", priority: 1}

//--- conv.mlir
// f16 NHWC 1x8x8x4, 3x3 kernels. One output row of the second conv needs
// 3 rows of its input, 5 of the first conv's: every 4-d activation is
// counted at that halo (5*8*4*2 = 320 bytes), the bias whole (8), each
// rounded up to a 256-byte buffer. A conv's weights count whole (288,
// a 512-byte buffer) when a later op of the group reads across its
// channels, else at one output channel (72, 256): tx8-sharding may split
// them. All four ops: 5 activations * 512 + 512 + 256 + 256 = 3584.
// Three (conv relu conv): 4 * 512 + 512 + 256 + 256 = 3072. Two (conv
// relu: halo 3 rows, 192 -> 256, the weights at one channel):
// 3 * 256 + 256 + 256 = 1280.
// FOUR: tx8be.group
// FOUR-NEXT: ^bb0
// FOUR-NEXT: tx8be.conv
// FOUR-NEXT: tx8be.relu
// FOUR-NEXT: tx8be.conv
// FOUR-NEXT: tx8be.relu
// FOUR-NEXT: tx8be.return
// THREE: tx8be.group
// THREE-NEXT: ^bb0
// THREE-NEXT: tx8be.conv
// THREE-NEXT: tx8be.relu
// THREE-NEXT: tx8be.conv
// THREE-NEXT: tx8be.return
// THREE-NEXT: }
// THREE-NEXT: tx8be.relu
// TWOC: tx8be.group
// TWOC-NEXT: ^bb0
// TWOC-NEXT: tx8be.conv
// TWOC-NEXT: tx8be.relu
// TWOC-NEXT: tx8be.return
// TWOC-NEXT: }
// TWOC-NEXT: tx8be.conv
// NONEC-NOT: tx8be.group
func.func @f(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4x4xf16>, %w2: tensor<3x3x4x4xf16>, %b: tensor<4xf16>) -> tensor<1x8x8x4xf16> {
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<3x3x4x4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  %1 = tx8be.relu %0 : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
  %2 = tx8be.conv %1, %w2, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<3x3x4x4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  %3 = tx8be.relu %2 : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
  return %3 : tensor<1x8x8x4xf16>
}

//--- shape.yaml
patterns:
  - {ops: "conv clip conv clip conv", priority: 1}

//--- shape.mlir
// The code generator loops over the slices of a group's last output, and
// every output takes them. The expand's clip (16 channels) is also read
// outside, so the group cannot end at the project conv (4 channels): it
// ends at the depthwise clip, which has the expand's shape, and the
// project conv stays apart.
// CHECK-LABEL: func.func @wider(
// CHECK: %[[G:.*]]:2 = tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.clip
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.clip
// CHECK-NEXT: tx8be.return {{.*}} : tensor<1x8x8x16xf16>, tensor<1x8x8x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.conv %[[G]]#1
func.func @wider(%x: tensor<1x8x8x4xf16>, %we: tensor<1x1x16x4xf16>, %b: tensor<16xf16>, %wd: tensor<3x3x16x1xf16>, %wp: tensor<1x1x4x16xf16>, %bp: tensor<4xf16>) -> (tensor<1x8x8x4xf16>, tensor<1x8x8x16xf16>) {
  %0 = tx8be.conv %x, %we, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<1x1x16x4xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
  %1 = tx8be.clip %0 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
  %2 = tx8be.conv %1, %wd, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 16 : tensor<1x8x8x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
  %3 = tx8be.clip %2 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x16xf16> -> tensor<1x8x8x16xf16>
  %4 = tx8be.conv %3, %wp, %bp strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<1x1x4x16xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  return %4, %1 : tensor<1x8x8x4xf16>, tensor<1x8x8x16xf16>
}

// -----

// Read outside in the last op's shape: the whole match is one group
// with two results.
// CHECK-LABEL: func.func @same(
// CHECK: %[[G:.*]]:2 = tx8be.group
// CHECK-COUNT-3: tx8be.conv
// CHECK: tx8be.return {{.*}} : tensor<1x8x8x4xf16>, tensor<1x8x8x4xf16>
func.func @same(%x: tensor<1x8x8x4xf16>, %w: tensor<1x1x4x4xf16>, %b: tensor<4xf16>, %wd: tensor<3x3x4x1xf16>) -> (tensor<1x8x8x4xf16>, tensor<1x8x8x4xf16>) {
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<1x1x4x4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  %1 = tx8be.clip %0 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
  %2 = tx8be.conv %1, %wd, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 4 : tensor<1x8x8x4xf16>, tensor<3x3x4x1xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  %3 = tx8be.clip %2 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x8x8x4xf16> -> tensor<1x8x8x4xf16>
  %4 = tx8be.conv %3, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<1x8x8x4xf16>, tensor<1x1x4x4xf16>, tensor<4xf16> -> tensor<1x8x8x4xf16>
  return %4, %1 : tensor<1x8x8x4xf16>, tensor<1x8x8x4xf16>
}

//--- wide.yaml
patterns:
  - {ops: "conv relu conv", priority: 1}

//--- wide.mlir
// Each conv's weights (3x3x64x16 f16, 18 KiB) exceed the 8 KiB of SPM.
// The first conv's output is read across its channels by the second, so
// its weights count whole and the match cannot keep both convs; conv
// and relu alone fit at one output channel's weights (288 bytes), as
// tx8-sharding splits C.
// CHECK-LABEL: func.func @f(
// CHECK: tx8be.group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.conv
// CHECK-NEXT: tx8be.relu
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.conv
func.func @f(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x64x16xf16>, %w2: tensor<3x3x16x64xf16>, %b: tensor<64xf16>, %b2: tensor<16xf16>) -> tensor<1x8x8x16xf16> {
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x16xf16>, tensor<3x3x64x16xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
  %1 = tx8be.relu %0 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
  %2 = tx8be.conv %1, %w2, %b2 strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x64xf16>, tensor<3x3x16x64xf16>, tensor<16xf16> -> tensor<1x8x8x16xf16>
  return %2 : tensor<1x8x8x16xf16>
}

//--- gemm.mlir
// A gemm's weight goes in column parts at the finest split (tx8-sharding
// splits N), so it counts one column of K elements, not whole: gemm +
// gelu of a transformer FFN fuses though the weight (128 KiB) is far
// beyond SPM. At the finest split: a row of x (128 f16, 256 bytes), a
// column of w (128 f16, 256 bytes), a row of the gemm's and of gelu's
// result (512 f16, 1024 bytes each): 2560 bytes. The same with
// transpose_b (w is N x K: one row of K).
// GELU-LABEL: func.func @ffn_up(
// GELU: tx8be.group
// GELU-NEXT: ^bb0
// GELU-NEXT: tx8be.gemm
// GELU-NEXT: tx8be.gelu
// GELU-NEXT: tx8be.return
// APART-LABEL: func.func @ffn_up(
// APART-NOT: tx8be.group
// APART: tx8be.gemm
// APART-NEXT: tx8be.gelu
func.func @ffn_up(%x: tensor<64x128xf16>, %w: tensor<128x512xf16>) -> tensor<64x512xf16> {
  %n = tx8be.none : none
  %h = tx8be.gemm %x, %w, %n : tensor<64x128xf16>, tensor<128x512xf16>, none -> tensor<64x512xf16>
  %a = tx8be.gelu %h : tensor<64x512xf16> -> tensor<64x512xf16>
  return %a : tensor<64x512xf16>
}

// -----

// GELU-LABEL: func.func @ffn_up_t(
// GELU: tx8be.group
// GELU-NEXT: ^bb0
// GELU-NEXT: tx8be.gemm
// GELU-NEXT: tx8be.gelu
// GELU-NEXT: tx8be.return
// APART-LABEL: func.func @ffn_up_t(
// APART-NOT: tx8be.group
// APART: tx8be.gemm
// APART-NEXT: tx8be.gelu
func.func @ffn_up_t(%x: tensor<64x128xf16>, %w: tensor<512x128xf16>) -> tensor<64x512xf16> {
  %n = tx8be.none : none
  %h = tx8be.gemm %x, %w, %n transpose_b : tensor<64x128xf16>, tensor<512x128xf16>, none -> tensor<64x512xf16>
  %a = tx8be.gelu %h : tensor<64x512xf16> -> tensor<64x512xf16>
  return %a : tensor<64x512xf16>
}

//--- convk.yaml
patterns:
  - {ops: "conv relu conv relu", priority: 1}
  - {ops: "conv relu", priority: 1}
  - {ops: "conv batchnorm_inference relu", priority: 1}

//--- convk.mlir
// With the reduce split of a conv's K (its input channels) tx8-sharding
// can use, the conv holds one K slice of its input and weight at a time,
// plus fp32 partial sums of its result. A 3x3 conv of 1024 channels at
// 8x8: three input rows at every channel (48 KiB) fit no 32 KiB SPM, so
// the conv stood alone and its relu apart; in K slices of 16 (K / 64,
// the NE instruction's K) the conv and relu fit: the input's three rows
// of 16 channels (768), the weight's one output channel of 16 (288 ->
// 512), the bias's one (256), the conv's and relu's results (three rows,
// 3072 each) and the partial sums (6144): 13824 bytes. A group of two
// convs cannot split K (tx8-sharding splits the K of a group's only gemm
// or conv): the match stops before the second, which groups with its
// relu at all its 64 channels (10752 bytes).
// KFUSED-LABEL: func.func @convk(
// KFUSED: tx8be.group
// KFUSED-NEXT: ^bb0
// KFUSED-NEXT: tx8be.conv
// KFUSED-SAME: tensor<1x8x8x1024xf16>
// KFUSED-NEXT: tx8be.relu
// KFUSED-NEXT: tx8be.return
// KFUSED: tx8be.group
// KFUSED-NEXT: ^bb0
// KFUSED-NEXT: tx8be.conv
// KFUSED-SAME: tensor<1x8x8x64xf16>
// KFUSED-NEXT: tx8be.relu
// KFUSED-NEXT: tx8be.return
// KAPART-LABEL: func.func @convk(
// KAPART: tx8be.conv
// KAPART-SAME: tensor<1x8x8x1024xf16>
// KAPART-NEXT: tx8be.relu
// KAPART-NEXT: tx8be.group
// KAPART-NEXT: ^bb0
// KAPART-NEXT: tx8be.conv
// KAPART-SAME: tensor<1x8x8x64xf16>
// KAPART-NEXT: tx8be.relu
// KAPART-NEXT: tx8be.return
func.func @convk(%x: tensor<1x8x8x1024xf16>, %w: tensor<3x3x64x1024xf16>, %b: tensor<64xf16>, %w2: tensor<3x3x64x64xf16>) -> tensor<1x8x8x64xf16> {
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x1024xf16>, tensor<3x3x64x1024xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
  %1 = tx8be.relu %0 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
  %2 = tx8be.conv %1, %w2, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x8x8x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
  %3 = tx8be.relu %2 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
  return %3 : tensor<1x8x8x64xf16>
}

// -----

// A grouped conv does not split K (each group's input channels are its
// own output channels' K): the 1024 channels stay whole, no group.
// KFUSED-LABEL: func.func @grouped(
// KFUSED-NOT: tx8be.group
// KAPART-LABEL: func.func @grouped(
// KAPART-NOT: tx8be.group
func.func @grouped(%x: tensor<1x8x8x1024xf16>, %w: tensor<3x3x64x512xf16>, %b: tensor<64xf16>) -> tensor<1x8x8x64xf16> {
  %0 = tx8be.conv %x, %w, %b strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] group = 2 : tensor<1x8x8x1024xf16>, tensor<3x3x64x512xf16>, tensor<64xf16> -> tensor<1x8x8x64xf16>
  %1 = tx8be.relu %0 : tensor<1x8x8x64xf16> -> tensor<1x8x8x64xf16>
  return %1 : tensor<1x8x8x64xf16>
}

//--- gemmk.mlir
// A gemm's K in slices (the set's gemm-gelu pattern): x [64, 4096] times
// w [4096, 64] then gelu. At all of K a row of x and a column of w are 8
// KiB each; in K slices of 16 (4096 / 256) each is 32 bytes (-> 256), the
// gemm's and gelu's rows 128 (-> 256) and the fp32 partial sums' 256:
// 1280 bytes.
// KFUSED-LABEL: func.func @gemmk(
// KFUSED: tx8be.group
// KFUSED-NEXT: ^bb0
// KFUSED-NEXT: tx8be.gemm
// KFUSED-NEXT: tx8be.gelu
// KFUSED-NEXT: tx8be.return
// KAPART-LABEL: func.func @gemmk(
// KAPART-NOT: tx8be.group
func.func @gemmk(%x: tensor<64x4096xf16>, %w: tensor<4096x64xf16>) -> tensor<64x64xf16> {
  %n = tx8be.none : none
  %h = tx8be.gemm %x, %w, %n : tensor<64x4096xf16>, tensor<4096x64xf16>, none -> tensor<64x64xf16>
  %a = tx8be.gelu %h : tensor<64x64xf16> -> tensor<64x64xf16>
  return %a : tensor<64x64xf16>
}

//--- bnk.mlir
// In K slices the slice's few channels take the aligned layout's padding
// (25 f32 channels: 32) and a batchnorm its scratch (an fp32 copy of its
// input, the [C] unit vector), as the group plan places them: K slices of
// 25 (200 / 8), at the finest split 8960 bytes, the plan's own figure
// (tx8-sharding: "needs 8960 bytes per tile"); counted without them the
// group was made at 8192 and did not fit. The input: two rows of 6 x 32
// (1536); the weight 2 x 3 x 6 x 32 (4608); the bias, the four vectors,
// the three results, the partial sums and the unit vector 256 each; the
// scratch 256. A byte less and the relu is left out (its result's 256).
// KFUSED-LABEL: func.func @bnk(
// KFUSED: tx8be.group
// KFUSED-NEXT: ^bb0
// KFUSED-NEXT: tx8be.conv
// KFUSED-NEXT: tx8be.batchnorm_inference
// KFUSED-NEXT: tx8be.relu
// KFUSED-NEXT: tx8be.return
// KAPART-LABEL: func.func @bnk(
// KAPART: tx8be.group
// KAPART-NEXT: ^bb0
// KAPART-NEXT: tx8be.conv
// KAPART-NEXT: tx8be.batchnorm_inference
// KAPART-NEXT: tx8be.return
// KAPART-NEXT: }
// KAPART-NEXT: tx8be.relu
func.func @bnk(%x: tensor<1x6x6x200xf32>, %w: tensor<2x3x6x200xf32>, %b: tensor<6xf32>, %s: tensor<6xf32>, %o: tensor<6xf32>, %m: tensor<6xf32>, %v: tensor<6xf32>) -> tensor<1x6x4x6xf32> {
  %0 = tx8be.conv %x, %w, %b strides = [1, 2] pads = [1, 0, 2, 1] dilations = [1, 1] : tensor<1x6x6x200xf32>, tensor<2x3x6x200xf32>, tensor<6xf32> -> tensor<1x6x4x6xf32>
  %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.000000e-05 : f32} : tensor<1x6x4x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<1x6x4x6xf32>
  %2 = tx8be.relu %1 : tensor<1x6x4x6xf32> -> tensor<1x6x4x6xf32>
  return %2 : tensor<1x6x4x6xf32>
}
