/* The registry of the op tables built into npuc. The build turned the YAML
 * tables into C data once (npuc-tablegen, lib/Dialect/tables/TableGen.c,
 * with the one table reader), so start-up only indexes them: no YAML is
 * parsed. A table error stops the build there, so none is left to report. */
#include "npuc/OpTable.h"

#include <threads.h>

extern npuc_dialect_def *npuc_generated_dialects[];
extern const size_t npuc_generated_num_dialects;

static npuc_op_registry *builtin;

static void index_builtin(void) {
  builtin = npuc_op_registry_over(npuc_generated_dialects,
                                  npuc_generated_num_dialects);
}

/* Once, even when passes on several threads ask first. */
const npuc_op_registry *npuc_builtin_op_registry(const npuc_diag_sink *sink) {
  static once_flag indexed = ONCE_FLAG_INIT;
  (void)sink;
  call_once(&indexed, index_builtin);
  return builtin;
}
