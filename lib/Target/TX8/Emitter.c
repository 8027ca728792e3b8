/* --target=tx8: main.c, host.c and a Makefile over libnpuc_tx8_rt. */
#include "npuc/Target.h"

#include <mlir-c/Diagnostics.h>
#include <stdio.h>

static bool tx8_pipeline(MlirOperation module, const npuc_compile_options *o,
                          char *buf, size_t size) {
  (void)module;
  (void)o;
  snprintf(buf, size, "%s", "");
  return true;
}

static bool tx8_emit(const npuc_op_registry *reg, MlirOperation module,
                     const npuc_compile_options *o, npuc_emitted_files *out) {
  (void)reg, (void)o, (void)out;
  mlirEmitError(mlirOperationGetLocation(module),
                "target 'tx8' has no code generator yet");
  return false;
}

const npuc_target_def npuc_target_tx8 = {
    "tx8", "TX8 graph as main.c per tile and a host program over the TX8 C model",
    tx8_pipeline, tx8_emit};
