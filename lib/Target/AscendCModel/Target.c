/* --target=ascend-cmodel: the ascend pipeline, then kernel.c/host.c/Makefile
 * against libnpuc_hivm_rt. */
#include "npuc/AscendCModel.h"

#include <stdio.h>
#include <string.h>

static bool ascend_pipeline(MlirOperation module, const npuc_compile_options *o,
                          char *buf, size_t size) {
  (void)module;
  int n = snprintf(buf, size, "%s",
                   o->auto_blockify_loop
                       ? "builtin.module(auto-blockify-parallel-loop)"
                       : "");
  return n >= 0 && (size_t)n < size;
}

static bool ascend_emit(const npuc_op_registry *reg, MlirOperation module,
                        const npuc_compile_options *o,
                        npuc_emitted_files *out) {
  char lib[4096];
  snprintf(lib, sizeof lib, "%s/libnpuc_hivm_rt.a", o->runtime_dir);
  npuc_cmodel_options copts = {o->include_dir, lib};
  return npuc_emit_ascend_cmodel(reg, module, &copts, out);
}

const npuc_target_def npuc_target_ascend_cmodel = {
    "ascend-cmodel",
    "HIVM kernels as C over the Ascend C model (kernel.c, host.c, Makefile)",
    ascend_pipeline, ascend_emit};
