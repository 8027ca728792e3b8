/* --target=aie1-cmodel: the vectorized kernel as C over the AIE1 lane
 * emulator, and a host stub comparing it with the scalar loop nest. */
#include "npuc/Target.h"

#include <mlir-c/Diagnostics.h>
#include <stdio.h>

static bool aie1_pipeline(MlirOperation module, const npuc_compile_options *o,
                          char *buf, size_t size) {
  (void)module;
  (void)o;
  snprintf(buf, size, "%s", "");
  return true;
}

static bool aie1_emit(const npuc_op_registry *reg, MlirOperation module,
                      const npuc_compile_options *o, npuc_emitted_files *out) {
  (void)reg, (void)o, (void)out;
  mlirEmitError(mlirOperationGetLocation(module),
                "target 'aie1-cmodel' has no code generator yet");
  return false;
}

const npuc_target_def npuc_target_aie1_cmodel = {
    "aie1-cmodel",
    "AIE kernels vectorized to aievec, as C over the AIE1 lane emulator",
    aie1_pipeline, aie1_emit};
