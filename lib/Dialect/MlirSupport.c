/* include/npuc/MlirSupport.h */
#include "npuc/MlirSupport.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Diagnostics.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void npuc_op_error(MlirOperation op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
}

/* MLIR's C API prints through an unbuffered stream: this is called once
 * per token, a few bytes each. Short pieces that fit are copied here
 * without the call and memcpy of npuc_sb_append. */
void npuc_sb_append_mlir(MlirStringRef s, void *user) {
  npuc_sb *sb = user;
  size_t n = s.length;
  /* MLIR's printer calls this once per token, most often for one byte;
   * cap is 0 before any data. */
  if (n - 1 < 16 && sb->len + n < sb->cap) {
    char *d = sb->data + sb->len;
    d[0] = s.data[0];
    for (size_t i = 1; i < n; i++)
      d[i] = s.data[i];
    d[n] = '\0';
    sb->len += n;
    return;
  }
  npuc_sb_append(sb, s.data, n);
}

bool npuc_strref_contains(MlirStringRef s, const char *part) {
  size_t n = strlen(part);
  for (size_t i = 0; i + n <= s.length; i++)
    if (memcmp(s.data + i, part, n) == 0)
      return true;
  return false;
}

bool npuc_opaque_attr_contains(MlirAttribute a, const char *part) {
  return !mlirAttributeIsNull(a) && mlirAttributeIsAOpaque(a) &&
         npuc_strref_contains(mlirOpaqueAttrGetData(a), part);
}
