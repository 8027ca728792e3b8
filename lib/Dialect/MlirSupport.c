/* include/npuc/MlirSupport.h */
#include "npuc/MlirSupport.h"

#include <mlir-c/Diagnostics.h>
#include <stdarg.h>
#include <stdio.h>

void npuc_op_error(MlirOperation op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
}

void npuc_sb_append_mlir(MlirStringRef s, void *sb) {
  npuc_sb_append(sb, s.data, s.length);
}
