/* AscendCModel: translates a HIVM kernel module into C that runs on the host
 * against libnpuc_hivm_rt (`npuc-compile --target=ascend-cmodel`).
 *
 * kernel.c holds one C function per device entry (func.func with
 * hacc.entry), a grid function computing its logical block count, and a
 * descriptor table; host.c runs the generic host program over that table;
 * the Makefile builds both against the runtime. */
#ifndef NPUC_ASCEND_CMODEL_H
#define NPUC_ASCEND_CMODEL_H

#include "npuc/OpTable.h"
#include "npuc/Target.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  const char *include_dir; /* where npuc/KernelPrelude.h is */
  const char *runtime_lib; /* path of libnpuc_hivm_rt.a */
  /* NULL: every device entry (func.func with hacc.entry). Else only the
   * func.func of this name, entry or not: the vector half of a mix kernel
   * that is not an entry can run on its own, and ops of other functions
   * (the cube half) need not be supported. */
  const char *kernel;
} npuc_cmodel_options;

/* Emits the files in memory. On an unsupported op, a dynamic shape it
 * cannot size, a module without a device entry, or a `kernel` that names no
 * func.func with a body, reports a located error
 * through MLIR's diagnostics and returns false with no files. */
bool npuc_emit_ascend_cmodel(const npuc_op_registry *reg, MlirOperation module,
                             const npuc_cmodel_options *opts,
                             npuc_emitted_files *out);

#endif
