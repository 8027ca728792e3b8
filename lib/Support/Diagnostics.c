#include "npuc/Diagnostics.h"
#include "npuc/Progress.h"

#include <stdio.h>
#include <stdlib.h>

const char *npuc_severity_name(npuc_severity sev) {
  switch (sev) {
  case NPUC_SEV_ERROR: return "error";
  case NPUC_SEV_WARNING: return "warning";
  case NPUC_SEV_NOTE: return "note";
  case NPUC_SEV_REMARK: return "remark";
  }
  return "error";
}

void npuc_diag_print_stderr(void *user, npuc_severity sev, const char *file,
                            int line, int col, const char *message) {
  (void)user;
  npuc_progress_clear(); /* a diagnostic starts on a clean line */
  if (file && line > 0)
    fprintf(stderr, "%s:%d:%d: %s: %s\n", file, line, col,
            npuc_severity_name(sev), message);
  else if (file)
    fprintf(stderr, "%s: %s: %s\n", file, npuc_severity_name(sev), message);
  else
    fprintf(stderr, "%s: %s\n", npuc_severity_name(sev), message);
}

static unsigned long errors_emitted;

unsigned long npuc_diag_errors_emitted(void) { return errors_emitted; }

void npuc_diag_vemit(const npuc_diag_sink *sink, npuc_severity sev,
                     const char *file, int line, int col, const char *fmt,
                     va_list ap) {
  if (sev == NPUC_SEV_ERROR)
    ++errors_emitted;
  char stack[512];
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(stack, sizeof stack, fmt, ap);
  char *msg = stack;
  if (n >= (int)sizeof stack) {
    msg = malloc((size_t)n + 1);
    if (msg)
      vsnprintf(msg, (size_t)n + 1, fmt, copy);
    else
      msg = stack; /* truncated is better than nothing */
  }
  va_end(copy);
  if (sink && sink->fn)
    sink->fn(sink->user, sev, file, line, col, msg);
  else
    npuc_diag_print_stderr(NULL, sev, file, line, col, msg);
  if (msg != stack)
    free(msg);
}

void npuc_diag_emit(const npuc_diag_sink *sink, npuc_severity sev,
                    const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_diag_vemit(sink, sev, file, line, col, fmt, ap);
  va_end(ap);
}
