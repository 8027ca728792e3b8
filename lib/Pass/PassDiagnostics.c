/* Diagnostics of a running pass (include/npuc/Pass.h): one channel, the
 * pass's name in front. The name is per thread, as MLIR runs a nested
 * pipeline's passes on several functions at once. */
#include "PassInternal.h"
#include "npuc/IR.h"

#include <stdio.h>

static _Thread_local const char *current_pass;

const char *npuc_pass_current(void) { return current_pass; }

const char *npuc_pass_set_current(const char *name) {
  const char *previous = current_pass;
  current_pass = name;
  return previous;
}

void npuc_pass_diag_v(MlirLocation loc, npuc_severity sev, const char *fmt,
                      va_list ap) {
  char msg[2048];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (current_pass)
    npuc_emit_diagnostic(loc, sev, "%s: %s", current_pass, msg);
  else
    npuc_emit_diagnostic(loc, sev, "%s", msg);
}

#define DEFINE_PASS_DIAG(fn, sev, where_type, where_loc)                       \
  void fn(where_type where, const char *fmt, ...) {                            \
    va_list ap;                                                                \
    va_start(ap, fmt);                                                         \
    npuc_pass_diag_v(where_loc, sev, fmt, ap);                                 \
    va_end(ap);                                                                \
  }

DEFINE_PASS_DIAG(npuc_pass_error, NPUC_SEV_ERROR, MlirOperation,
                 mlirOperationGetLocation(where))
DEFINE_PASS_DIAG(npuc_pass_warning, NPUC_SEV_WARNING, MlirOperation,
                 mlirOperationGetLocation(where))
DEFINE_PASS_DIAG(npuc_pass_remark, NPUC_SEV_REMARK, MlirOperation,
                 mlirOperationGetLocation(where))
DEFINE_PASS_DIAG(npuc_pass_note, NPUC_SEV_NOTE, MlirOperation,
                 mlirOperationGetLocation(where))
DEFINE_PASS_DIAG(npuc_pass_error_at, NPUC_SEV_ERROR, MlirLocation, where)
DEFINE_PASS_DIAG(npuc_pass_warning_at, NPUC_SEV_WARNING, MlirLocation, where)
DEFINE_PASS_DIAG(npuc_pass_remark_at, NPUC_SEV_REMARK, MlirLocation, where)
