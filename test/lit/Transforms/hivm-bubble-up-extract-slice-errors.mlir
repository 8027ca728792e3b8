// A marked slice that cannot reach a stop point (block argument,
// tensor.empty, load) fails the pass, which prints nothing. As bishengir,
// the pass says nothing by default (under --verify-diagnostics nothing is
// expected of it: test/conformance/anchor_pass_files.py); npuc-opt then names the failed pass in one error at the function,
// so the run does not end in silence. With emit-remarks=true the pass's
// error is at the slice, naming the op it stopped at and why.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --hivm-bubble-up-extract-slice=emit-remarks=true
// RUN: not npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice \
// RUN:   2>%t.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=QUIET --input-file %t.err
// OUT-NOT: func.func
// QUIET-NOT: cannot bubble up
// QUIET: hivm-bubble-up-extract-slice-errors.mlir:[[# @LINE + 4]]:1: error: pass 'hivm-bubble-up-extract-slice' failed without giving a reason (where it has the option, emit-remarks=true says why)
// QUIET-NOT: cannot bubble up

// Upstream ops other than arith.select have no pattern.
func.func @unsupported(%a: tensor<8xf32>) -> tensor<4xf32> {
  %0 = math.sqrt %a : tensor<8xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'math.sqrt'}}
  %1 = tensor.extract_slice %0[0] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----
// fixpipe writes a cube result out: the slice would pick rows of another
// core's output.
func.func @fixpipe(%a: tensor<128x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %0 = hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%a : tensor<128x128xf32>) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'hivm.hir.fixpipe'}}
  %1 = tensor.extract_slice %0[0, 0] [64, 128] [1, 1] {to_be_bubbled_slice} : tensor<128x128xf32> to tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}

// -----
func.func @reduced_dim(%a: tensor<8x16xf32>, %o: index) -> tensor<8x1xf32> {
  %e = tensor.empty() : tensor<8x1xf32>
  %0 = hivm.hir.vreduce <sum> ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x1xf32>) reduce_dims = [1] -> tensor<8x1xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'hivm.hir.vreduce': the slice cuts a reduced dimension}}
  %1 = tensor.extract_slice %0[0, %o] [8, 1] [1, 1] {to_be_bubbled_slice} : tensor<8x1xf32> to tensor<8x1xf32>
  return %1 : tensor<8x1xf32>
}

// -----
func.func @interleaved_dim(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = hivm.hir.vinterleave ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x8xf32>) interleave_channel_nums = 2 -> tensor<8x8xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'hivm.hir.vinterleave': the slice cuts the interleaved (last) dimension}}
  %1 = tensor.extract_slice %0[0, 0] [8, 4] [1, 1] {to_be_bubbled_slice} : tensor<8x8xf32> to tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----
func.func @transposing_elementwise(%a: tensor<8x4xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = hivm.hir.vabs ins(%a : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) transpose = [1, 0] -> tensor<4x8xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'hivm.hir.vabs': elementwise op with a transpose}}
  %1 = tensor.extract_slice %0[0, 0] [2, 8] [1, 1] {to_be_bubbled_slice} : tensor<4x8xf32> to tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----
// The loop body stores the carried value whole: the loop cannot carry a
// slice of it.
func.func @stored_in_loop(%a: tensor<8xf32>, %m: memref<8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<8xf32>) {
    hivm.hir.store ins(%acc : tensor<8xf32>) outs(%m : memref<8xf32>)
    %0 = hivm.hir.vexp ins(%acc : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %0 : tensor<8xf32>
  }
  // expected-error @+1 {{cannot bubble up the slice through 'scf.for': the loop-carried value is used whole in the body}}
  %1 = tensor.extract_slice %r[0] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----
// The body transposes the carried value: its rows come from columns of the
// previous iteration, so the loop cannot carry only some rows.
func.func @transposed_in_loop(%a: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<8x8xf32>) {
    %0 = hivm.hir.vtranspose ins(%acc : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0] -> tensor<8x8xf32>
    scf.yield %0 : tensor<8x8xf32>
  }
  // expected-error @+1 {{cannot bubble up the slice of a loop-carried value: the loop body slices the carried value differently}}
  %1 = tensor.extract_slice %r[0, 0] [4, 8] [1, 1] {to_be_bubbled_slice} : tensor<8x8xf32> to tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----
// Several stuck slices: the first is reported with a count of the others.
func.func @several(%a: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = math.exp %a : tensor<8xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'math.exp' (and 1 more marked slices)}}
  %1 = tensor.extract_slice %0[0] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  %2 = tensor.extract_slice %0[4] [4] [1] {to_be_bubbled_slice} : tensor<8xf32> to tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----
// A buffer that something other than loads uses cannot shrink.
func.func @buffer_read_elsewhere(%src: memref<64xf32>, %out: memref<64xf32>) -> tensor<32xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  hivm.hir.load ins(%src : memref<64xf32>) outs(%alloc : memref<64xf32>)
  hivm.hir.store ins(%alloc : memref<64xf32>) outs(%out : memref<64xf32>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<64xf32>
  // expected-error @+1 {{cannot bubble up the slice through 'bufferization.to_tensor': the buffer has users other than loads and marks}}
  %s = tensor.extract_slice %t[0] [32] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----
// A tiled loop whose tiles also read tiles of another tensor: its new tiles
// would need the other tensor's tiles at new places, and the loop body
// needs its carried value whole.
func.func @tiles_with_other_tiles(%a: tensor<512xf32>, %b: tensor<512xf32>, %o: index) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %a) -> (tensor<512xf32>) {
    %t = affine.apply affine_map<()[s0] -> (s0 * 64)>()[%i]
    %tile = tensor.extract_slice %acc[%t] [64] [1] : tensor<512xf32> to tensor<64xf32>
    %btile = tensor.extract_slice %b[%t] [64] [1] : tensor<512xf32> to tensor<64xf32>
    %m = hivm.hir.vadd ins(%tile, %btile : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %ins = tensor.insert_slice %m into %acc[%t] [64] [1] : tensor<64xf32> into tensor<512xf32>
    scf.yield %ins : tensor<512xf32>
  }
  // expected-error @+1 {{cannot bubble up the slice of a loop-carried value: the loop body slices the carried value differently}}
  %s = tensor.extract_slice %r[%o] [256] [1] {to_be_bubbled_slice} : tensor<512xf32> to tensor<256xf32>
  return %s : tensor<256xf32>
}

// -----
// A scf.while whose condition reads the carried value: the loop needs it
// whole.
func.func @while_condition_reads(%a: tensor<64xf32>, %o: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %lim = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.while (%acc = %a) : (tensor<64xf32>) -> tensor<64xf32> {
    %x0 = tensor.extract %acc[%c0] : tensor<64xf32>
    %go = arith.cmpf olt, %x0, %lim : f32
    scf.condition(%go) %acc : tensor<64xf32>
  } do {
  ^bb0(%x: tensor<64xf32>):
    %0 = hivm.hir.vexp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %0 : tensor<64xf32>
  }
  // expected-error @+1 {{cannot bubble up the slice through 'scf.while': the loop-carried value is used whole in the loop}}
  %s = tensor.extract_slice %r[%o] [16] [1] {to_be_bubbled_slice} : tensor<64xf32> to tensor<16xf32>
  return %s : tensor<16xf32>
}
