func.func @m(%src: memref<16xf32>) {
  %alloc = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<16xf32>) outs(%alloc : memref<16xf32, #hivm.address_space<ub>>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<16xf32, #hivm.address_space<ub>>
  hivm.hir.store ins(%alloc : memref<16xf32, #hivm.address_space<ub>>) outs(%src : memref<16xf32>)
  return
}
