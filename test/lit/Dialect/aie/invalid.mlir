// RUN: npuc-opt %s --split-input-file --verify-diagnostics
// Errors the table-driven verifier and the syntax reader raise for aie ops:
// negative coordinates, channels and lock ids, words outside an enum (device,
// lock action, port bundle), the parents mlir-aie requires, a buffer that is
// not a memref, a core without its region.

module {
  aie.device(npu1_1col) {
    // expected-error @+1 {{attribute 'col' of 'aie.tile' must hold non-negative integers}}
    %0 = aie.tile(-1, 2)
  }
}

// -----

module {
  // expected-error @+1 {{'npu9' is not a valid device of 'aie.device'}}
  aie.device(npu9) {
  }
}

// -----

func.func @f() {
  // expected-error @+1 {{'aie.tile' op expects parent op 'aie.device'}}
  %0 = aie.tile(0, 2)
  return
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    %1 = aie.lock(%0, 1)
    %2 = aie.core(%0) {
      // expected-error @+1 {{'Grab' is not a valid action of 'aie.use_lock'}}
      aie.use_lock(%1, Grab, 1)
      aie.end
    }
  }
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    %1 = aie.tile(0, 0)
    // expected-error @+1 {{'Dma' is not a valid source_bundle of 'aie.flow'}}
    aie.flow(%1, Dma : 0, %0, DMA : 1)
  }
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    %1 = aie.tile(0, 0)
    // expected-error @+1 {{attribute 'source_channel' of 'aie.flow' must hold non-negative integers}}
    aie.flow(%1, DMA : -1, %0, DMA : 1)
  }
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    %1 = aie.core(%0) {
      // expected-error @+1 {{'aie.connect' op expects parent op 'aie.switchbox'}}
      aie.connect<South : 0, Core : 1>
      aie.end
    }
  }
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    // expected-error @+1 {{result of 'aie.buffer' must be a memref}}
    %1 = aie.buffer(%0) : vector<16xi32>
  }
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    // expected-error @+2 {{expected '{' to start the region of 'aie.core', found '}'}}
    %1 = aie.core(%0)
  }
}

// -----

func.func @g() {
  // expected-error @+1 {{'aie.device' op expects parent op 'builtin.module'}}
  aie.device(npu1) {
  }
  return
}

// -----

module {
  aie.device(npu1_1col) {
    %0 = aie.tile(0, 2)
    // expected-error @+1 {{attribute 'lockID' of 'aie.lock' must hold non-negative integers}}
    %1 = aie.lock(%0, -2)
  }
}

// -----

module {
  // expected-error @+1 {{'aie.runtime_sequence' op expects parent op 'aie.device'}}
  aie.runtime_sequence @seq(%arg0: i32) {
  }
}

// -----

module {
  aie.device(npu2) {
    // expected-error @+1 {{expected a block argument '%name' of 'aie.runtime_sequence', found 'i32'}}
    aie.runtime_sequence @seq(i32) {
    }
  }
}

// -----

module {
  aie.device(npu2) {
    // expected-error @+1 {{expected a type for 'a block argument' of 'aie.runtime_sequence', found ')'}}
    aie.runtime_sequence @seq(%arg0 : ) {
    }
  }
}

// -----

module {
  aie.device(npu2) {
    // expected-error @+1 {{expected ',' or ')' after a block argument of 'aie.runtime_sequence', found '{'}}
    aie.runtime_sequence @seq(%arg0 : i32 {
    }
  }
}

// -----

module {
  aie.device(npu2) {
    // expected-error @+1 {{expected '(' in custom syntax of 'aie.runtime_sequence', found '"seq"'}}
    aie.runtime_sequence "seq"(%arg0 : i32) {
    }
  }
}

// -----

module {
  aie.device(npu2) {
    // expected-error @+1 {{expected a block argument '%name' of 'aie.runtime_sequence', found ')'}}
    aie.runtime_sequence @seq(%arg0 : i32, ) {
    }
  }
}
