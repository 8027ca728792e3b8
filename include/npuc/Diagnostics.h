/* Diagnostics: one sink for everything npuc reports, whether it comes from
 * our syntax engine (before MLIR sees the text), from MLIR's parser and
 * verifier, or from our passes. The tools print it as `file:line:col: error:`
 * or collect it for --verify-diagnostics. */
#ifndef NPUC_DIAGNOSTICS_H
#define NPUC_DIAGNOSTICS_H

#include <stdarg.h>
#include <stdbool.h>

typedef enum {
  NPUC_SEV_ERROR,
  NPUC_SEV_WARNING,
  NPUC_SEV_NOTE,
  NPUC_SEV_REMARK,
} npuc_severity;

typedef void (*npuc_diag_fn)(void *user, npuc_severity sev, const char *file,
                             int line, int col, const char *message);

typedef struct {
  npuc_diag_fn fn;
  void *user;
} npuc_diag_sink;

/* Formats and forwards one diagnostic; a NULL sink prints to stderr. */
void npuc_diag_emit(const npuc_diag_sink *sink, npuc_severity sev,
                    const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void npuc_diag_vemit(const npuc_diag_sink *sink, npuc_severity sev,
                     const char *file, int line, int col, const char *fmt,
                     va_list ap);

/* The default printer: `file:line:col: error: message` on stderr. */
void npuc_diag_print_stderr(void *user, npuc_severity sev, const char *file,
                            int line, int col, const char *message);

const char *npuc_severity_name(npuc_severity sev);

/* Errors emitted so far in this process, to whatever sink: lets a caller
 * tell whether a failure has been reported. */
unsigned long npuc_diag_errors_emitted(void);

#endif
