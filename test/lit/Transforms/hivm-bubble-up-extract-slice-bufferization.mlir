// hivm-bubble-up-extract-slice through bufferization.to_tensor of a buffer
// that loads fill: a buffer of the slice's shape replaces it, and the loads
// read only the slice of their source.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s

// The buffer's marks move to the new buffer.
// CHECK-LABEL: func.func @alloc_load(
// CHECK-SAME:    %[[SRC:.*]]: memref<64x32xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<32x32xf32>
// CHECK-NEXT:    annotation.mark %[[BUF]] {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>} : memref<32x32xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[SRC]][%[[O]], 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : memref<32x32xf32, strided<[32, 1], offset: ?>>) outs(%[[BUF]] : memref<32x32xf32>)
// CHECK-NEXT:    %[[T:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<32x32xf32>
// CHECK-NEXT:    return %[[T]]
func.func @alloc_load(%src: memref<64x32xf32>, %o: index) -> tensor<32x32xf32> {
  %alloc = memref.alloc() : memref<64x32xf32>
  annotation.mark %alloc {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<0>} : memref<64x32xf32>
  hivm.hir.load ins(%src : memref<64x32xf32>) outs(%alloc : memref<64x32xf32>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<64x32xf32>
  %s = tensor.extract_slice %t[%o, 0] [32, 32] [1, 1] {to_be_bubbled_slice} : tensor<64x32xf32> to tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}

// -----
// Through a memory-space cast and a whole view of the buffer.
// CHECK-LABEL: func.func @cast_and_view(
// CHECK-SAME:    %[[SRC:.*]]: memref<64x32xf32>)
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<64x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:    %[[CAST:.*]] = memref.memory_space_cast %[[BUF]] : memref<64x16xf32, #hivm.address_space<ub>> to memref<64x16xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[SRC]][0, 16] [64, 16] [1, 1] : memref<64x32xf32> to memref<64x16xf32, strided<[32, 1], offset: 16>>
// CHECK-NEXT:    %[[W:.*]] = memref.subview %[[CAST]][0, 0] [64, 16] [1, 1] : memref<64x16xf32> to memref<64x16xf32, strided<[16, 1]>>
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : {{.*}}) outs(%[[W]] : memref<64x16xf32, strided<[16, 1]>>)
// CHECK-NEXT:    bufferization.to_tensor %[[CAST]] restrict writable : memref<64x16xf32>
func.func @cast_and_view(%src: memref<64x32xf32>) -> tensor<64x16xf32> {
  %alloc = memref.alloc() : memref<64x32xf32, #hivm.address_space<ub>>
  %cast = memref.memory_space_cast %alloc : memref<64x32xf32, #hivm.address_space<ub>> to memref<64x32xf32>
  %view = memref.subview %cast[0, 0] [64, 32] [1, 1] : memref<64x32xf32> to memref<64x32xf32, strided<[32, 1]>>
  hivm.hir.load ins(%src : memref<64x32xf32>) outs(%view : memref<64x32xf32, strided<[32, 1]>>)
  %t = bufferization.to_tensor %cast restrict writable : memref<64x32xf32>
  %s = tensor.extract_slice %t[0, 16] [64, 16] [1, 1] {to_be_bubbled_slice} : tensor<64x32xf32> to tensor<64x16xf32>
  return %s : tensor<64x16xf32>
}

// -----
// A load that wrote exactly the slice now writes the whole new buffer.
// CHECK-LABEL: func.func @exact_region(
// CHECK-SAME:    %[[SRC:.*]]: memref<64x32xf32>, %[[O:.*]]: index)
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<32x32xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[SRC]][%[[O]], 0] [32, 32] [1, 1]
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : {{.*}}) outs(%[[BUF]] : memref<32x32xf32>)
// CHECK-NEXT:    bufferization.to_tensor %[[BUF]] restrict writable : memref<32x32xf32>
func.func @exact_region(%src: memref<64x32xf32>, %o: index) -> tensor<32x32xf32> {
  %alloc = memref.alloc() : memref<64x32xf32>
  %s0 = memref.subview %src[%o, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
  %d0 = memref.subview %alloc[%o, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.load ins(%s0 : memref<32x32xf32, strided<[32, 1], offset: ?>>) outs(%d0 : memref<32x32xf32, strided<[32, 1], offset: ?>>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<64x32xf32>
  %s = tensor.extract_slice %t[%o, 0] [32, 32] [1, 1] {to_be_bubbled_slice} : tensor<64x32xf32> to tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}

// -----
// A dynamic slice: the new buffer is dynamic and gets a size hint.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[SRC:.*]]: memref<115x80xf16>, %[[N:.*]]: index)
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc(%[[N]]) : memref<?x80xf16>
// CHECK-NEXT:    annotation.mark %[[BUF]] {buffer_size_in_byte = 9280 : i64} : memref<?x80xf16>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[SRC]][0, 0] [%[[N]], 80] [1, 1] : memref<115x80xf16> to memref<?x80xf16, strided<[80, 1]>>
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : memref<?x80xf16, strided<[80, 1]>>) outs(%[[BUF]] : memref<?x80xf16>)
func.func @dynamic(%src: memref<115x80xf16>, %n: index) -> tensor<?x80xf16> {
  %alloc = memref.alloc() : memref<115x80xf16>
  hivm.hir.load ins(%src : memref<115x80xf16>) outs(%alloc : memref<115x80xf16>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<115x80xf16>
  %s = tensor.extract_slice %t[0, 0] [%n, 80] [1, 1] {to_be_bubbled_slice} : tensor<115x80xf16> to tensor<?x80xf16>
  return %s : tensor<?x80xf16>
}

// -----
// A buffer filled row by row in a loop from 0: the loop runs over the rows
// of the slice, [o, min(64, o + 32)), writing row i - o of the new buffer.
// CHECK: #[[END:.*]] = affine_map<()[s0] -> (s0 + 32)>
// CHECK-LABEL: func.func @rows_in_loop(
// CHECK-SAME:    %[[SRC:.*]]: memref<64x32xf32>, %[[O:.*]]: index)
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<32x32xf32>
// CHECK-NEXT:    %[[E:.*]] = affine.apply #[[END]]()[%[[O]]]
// CHECK-NEXT:    %[[UB:.*]] = arith.minsi %[[E]], %[[C64]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[O]] to %[[UB]] step %{{.*}} {
// CHECK-NEXT:      %[[ROW:.*]] = memref.subview %[[SRC]][%[[I]], 0] [1, 32] [1, 1]
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[I]], %[[O]] : index
// CHECK-NEXT:      %[[DST:.*]] = memref.subview %[[BUF]][%[[R]], 0] [1, 32] [1, 1] : memref<32x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
// CHECK-NEXT:      hivm.hir.load ins(%[[ROW]] : {{.*}}) outs(%[[DST]] : memref<1x32xf32, strided<[32, 1], offset: ?>>)
// CHECK-NEXT:    } {ExtractedLoadOrStore}
// CHECK-NEXT:    bufferization.to_tensor %[[BUF]] restrict writable : memref<32x32xf32>
func.func @rows_in_loop(%src: memref<64x32xf32>, %o: index) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<64x32xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %row = memref.subview %src[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %dst = memref.subview %buf[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    hivm.hir.load ins(%row : memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%dst : memref<1x32xf32, strided<[32, 1], offset: ?>>)
  } {ExtractedLoadOrStore}
  %t = bufferization.to_tensor %buf restrict writable : memref<64x32xf32>
  %s = tensor.extract_slice %t[%o, 0] [32, 32] [1, 1] {to_be_bubbled_slice} : tensor<64x32xf32> to tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
