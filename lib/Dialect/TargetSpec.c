/* Reads integer entries of the DLTI target system spec. */
#include "npuc/TargetSpec.h"
#include "npuc/Lexer.h"
#include "npuc/MlirSupport.h"

#include <stdlib.h>
#include <string.h>

static MlirAttribute find_spec(MlirOperation op) {
  MlirStringRef name =
      mlirStringRefCreateFromCString("dlti.target_system_spec");
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, name);
    if (!mlirAttributeIsNull(a))
      return a;
  }
  MlirAttribute none = {NULL};
  return none;
}

static bool string_is(npuc_token t, const char *s) {
  size_t n = strlen(s);
  return t.kind == NPUC_TOK_STRING && t.len == n + 2 &&
         memcmp(t.start + 1, s, n) == 0;
}

/* Walks `"DEV" = #dlti.target_device_spec<"KEY" = V : i32, ...>` entries. */
static bool scan(const char *s, size_t n, const char *device, const char *key,
                 int64_t *value) {
  npuc_lexer lx;
  npuc_lexer_init(&lx, s, n, 1);
  int depth = 0, device_depth = -1;
  bool in_device = device == NULL;
  for (npuc_token t = npuc_lex(&lx); t.kind != NPUC_TOK_EOF;
       t = npuc_lex(&lx)) {
    if (npuc_tok_punct(t, '<')) {
      ++depth;
    } else if (npuc_tok_punct(t, '>')) {
      if (--depth < device_depth && device)
        in_device = false;
    } else if (t.kind == NPUC_TOK_STRING && depth == 1 && device) {
      in_device = string_is(t, device);
      device_depth = 2;
    } else if (in_device && depth >= 2 && string_is(t, key) &&
               npuc_tok_punct(npuc_peek(&lx), '=')) {
      npuc_lex(&lx);
      npuc_token v = npuc_lex(&lx);
      bool neg = npuc_tok_punct(v, '-');
      if (neg)
        v = npuc_lex(&lx);
      if (v.kind != NPUC_TOK_INTEGER)
        return false;
      *value = strtoll(v.start, NULL, 0) * (neg ? -1 : 1);
      return true;
    }
  }
  return false;
}

bool npuc_target_spec_int(MlirOperation op, const char *device, const char *key,
                          int64_t *value) {
  MlirAttribute spec = find_spec(op);
  if (mlirAttributeIsNull(spec))
    return false;
  npuc_sb t = {0};
  mlirAttributePrint(spec, npuc_sb_append_mlir, &t);
  bool found = t.data && scan(t.data, t.len, device, key, value);
  free(t.data);
  return found;
}
