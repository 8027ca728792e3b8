/* npuc-strip-annotations: erases `annotation.mark` ops, the hints earlier
 * passes leave for later ones, once nothing downstream needs them. Marks
 * whose attributes are all listed in `keep` survive, so a pipeline can drop
 * the hints it is done with and keep the rest. A mark without attributes
 * carries nothing worth keeping and is always erased. */
#include "npuc/BuildOps.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"

#include <stddef.h>
#include <mlir-c/Diagnostics.h>
#include <stdlib.h>
#include <string.h>

#define STRIP_OPTIONS(X, T)                                                    \
  X(T, const char *, keep, "keep", NPUC_OPT_STRING, "", NULL,                  \
    "comma-separated attribute names: marks carrying only these stay")
NPUC_PASS_OPTIONS(strip_options, STRIP_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_strip_annotations, "npuc-strip-annotations",
    "Erase annotation.mark ops, except those whose attributes are all kept",
    "builtin.module", strip_annotations, NPUC_PASS_OPTIONS_OF(strip_options));

static unsigned doomed_mark(MlirOperation op, void *keep);
static bool all_attributes_kept(MlirOperation op, const char *keep);
static bool in_comma_list(const char *list, MlirStringRef name);

static bool strip_annotations(MlirOperation root, const npuc_pass_options *opts,
                              const npuc_pass_context *ctx) {
  (void)ctx;
  npuc_op_list doomed = {0};
  /* Erasing while walking would invalidate the walk: collect first. */
  npuc_op_list_collect(root, MlirWalkPostOrder, doomed_mark,
                       (void *)NPUC_PASS_OPTS(strip_options, opts)->keep,
                       &doomed);
  for (size_t i = 0; i < doomed.count; i++)
    mlirOperationDestroy(doomed.ops[i]);
  npuc_op_list_free(&doomed);
  return true;
}

/* `keep` is the option's "a,b,c". */
static unsigned doomed_mark(MlirOperation op, void *keep) {
  if (!npuc_op_is(op, "annotation.mark") || all_attributes_kept(op, keep) ||
      /* a mark with used results cannot simply vanish */
      !npuc_op_results_unused(op))
    return NPUC_OP_PASS;
  return NPUC_OP_KEEP;
}

static bool all_attributes_kept(MlirOperation op, const char *keep) {
  intptr_t n = mlirOperationGetNumAttributes(op);
  if (n == 0)
    return false;
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute attr = mlirOperationGetAttribute(op, i);
    if (!in_comma_list(keep, mlirIdentifierStr(attr.name)))
      return false;
  }
  return true;
}

static bool in_comma_list(const char *list, MlirStringRef name) {
  const char *p = list;
  while (*p) {
    while (*p == ' ' || *p == ',')
      p++;
    size_t len = strcspn(p, ", ");
    if (len && len == name.length && memcmp(p, name.data, len) == 0)
      return true;
    p += len;
  }
  return false;
}
