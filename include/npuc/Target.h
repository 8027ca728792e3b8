/* Targets of npuc-compile: each is a pipeline run on the parsed module and an
 * emitter that writes the target's files in memory. The driver owns the
 * command line and the output directory; a target owns what it generates.
 * To add a target: define `const npuc_target_def npuc_target_<name>` next to
 * its emitter and list it in lib/Target/TargetRegistry.c. */
#ifndef NPUC_TARGET_H
#define NPUC_TARGET_H

#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

/* What the driver's command line says, for every target. */
typedef struct {
  bool auto_blockify_loop;   /* --enable-auto-blockify-loop */
  bool auto_bind_sub_block;  /* --enable-auto-bind-sub-block (default true) */
  const char *target_config; /* --target-config=FILE, or NULL */
  const char *include_dir;   /* where the npuc/ headers are */
  const char *runtime_dir;   /* where the libnpuc_*_rt.a archives are */
  const char *kernel;        /* --kernel=NAME (ascend-cmodel), or NULL */
  /* tx8 (zero: the defaults): --tx8-opt-barrier=false (a barrier after
   * every group), --tx8-opt-ddr=false (DDR tensors packed in declaration
   * order), --tx8-spm-svg (spm_group<N>.svg per group). */
  bool tx8_opt_barrier_off, tx8_opt_ddr_off, tx8_spm_svg;
  bool tx8_search_report; /* --tx8-search-report: tx8-sharding's */
} npuc_compile_options;

typedef struct {
  char *name; /* "kernel.c" */
  char *text;
} npuc_emitted_file;

typedef struct {
  npuc_emitted_file *files;
  size_t count;
} npuc_emitted_files;

typedef struct {
  const char *name;    /* --target=<name> */
  const char *summary; /* one line, for --help */
  /* Writes the textual pass pipeline to run on the parsed `module` before
   * emission into `buf` ("" for none). Returns false, with a located error,
   * when the options or the module make no sense for this target. */
  bool (*pipeline)(MlirOperation module, const npuc_compile_options *o,
                   char *buf, size_t size);
  /* Emits the files in memory. Errors are located MLIR diagnostics; on
   * failure `out` holds no files. */
  bool (*emit)(const npuc_op_registry *reg, MlirOperation module,
               const npuc_compile_options *o, npuc_emitted_files *out);
} npuc_target_def;

size_t npuc_num_targets(void);
const npuc_target_def *npuc_target_at(size_t i);
const npuc_target_def *npuc_target_lookup(const char *name);

/* Appends a file to `files`, taking ownership of `text` (malloc'd). */
bool npuc_emitted_files_add(npuc_emitted_files *files, const char *name,
                            char *text);
void npuc_emitted_files_free(npuc_emitted_files *files);

#endif
