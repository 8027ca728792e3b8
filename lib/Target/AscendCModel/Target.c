/* --target=ascend-cmodel: the ascend pipeline, then kernel.c/host.c/Makefile
 * against libnpuc_hivm_rt. */
#include "npuc/AscendCModel.h"

#include <stdio.h>
#include <string.h>

/* auto-blockify first (its loop over logical blocks then holds the
 * sub-block split), then the 1:2 sub-block split of mix kernels' AIV
 * functions, which leaves the sub-block loop (bishengir's form), and its
 * binding. The split runs on the module, as bishengir's: after every AIV
 * function it does the cube side (the AIC fixpipes' dual destinations). The
 * binding runs without the split too: an input may hold the loop already
 * (bishengir-opt's output of the split), and the C model must not run both
 * iterations on each sub-block. */
static bool ascend_pipeline(MlirOperation module, const npuc_compile_options *o,
                            char *buf, size_t size) {
  (void)module;
  const char *blockify =
      o->auto_blockify_loop ? "auto-blockify-parallel-loop" : "";
  const char *bind =
      o->auto_bind_sub_block
          ? "hivm-bind-sub-block,func.func(hivm-map-for-to-sub-block)"
          : "func.func(hivm-map-for-to-sub-block)";
  /* An access provably outside a static memref is an error first: the C
   * model would read or write past the buffer (issue 15). */
  int n = snprintf(buf, size, "builtin.module(check-static-bounds%s%s%s%s)",
                   *blockify ? "," : "", blockify, *bind ? "," : "", bind);
  return n >= 0 && (size_t)n < size;
}

static bool ascend_emit(const npuc_op_registry *reg, MlirOperation module,
                        const npuc_compile_options *o,
                        npuc_emitted_files *out) {
  char lib[4096];
  snprintf(lib, sizeof lib, "%s/libnpuc_hivm_rt.a", o->runtime_dir);
  npuc_cmodel_options copts = {o->include_dir, lib, o->kernel};
  return npuc_emit_ascend_cmodel(reg, module, &copts, out);
}

const npuc_target_def npuc_target_ascend_cmodel = {
    "ascend-cmodel",
    "HIVM kernels as C over the Ascend C model (kernel.c, host.c, Makefile)",
    ascend_pipeline, ascend_emit};
