bufferization.to_tensor %a : memref
