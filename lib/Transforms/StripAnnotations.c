/* npuc-strip-annotations: erases `annotation.mark` ops, the hints earlier
 * passes leave for later ones, once nothing downstream needs them. Marks
 * whose attributes are all listed in `keep` survive, so a pipeline can drop
 * the hints it is done with and keep the rest. A mark without attributes
 * carries nothing worth keeping and is always erased. */
#include "npuc/Pass.h"

#include <mlir-c/Diagnostics.h>
#include <stdlib.h>
#include <string.h>

static bool strip_annotations(MlirOperation root,
                              const npuc_pass_options *opts,
                              const npuc_pass_context *ctx);

static const npuc_pass_option_def options[] = {
    {"keep", NPUC_OPT_STRING, "",
     "comma-separated attribute names: marks carrying only these stay", NULL},
};

const npuc_pass_def npuc_pass_strip_annotations = {
    "npuc-strip-annotations",
    "Erase annotation.mark ops, except those whose attributes are all kept",
    "builtin.module",
    options,
    sizeof options / sizeof options[0],
    strip_annotations,
};

typedef struct {
  const char *keep; /* "a,b,c" */
  MlirOperation *doomed;
  size_t count, cap;
  bool out_of_memory;
} strip_state;

static MlirWalkResult collect_mark(MlirOperation op, void *user);
static bool is_annotation_mark(MlirOperation op);
static bool all_attributes_kept(MlirOperation op, const char *keep);
static bool in_comma_list(const char *list, MlirStringRef name);
static bool results_unused(MlirOperation op);

static bool strip_annotations(MlirOperation root,
                              const npuc_pass_options *opts,
                              const npuc_pass_context *ctx) {
  (void)ctx;
  strip_state st = {npuc_pass_opt_str(opts, "keep"), NULL, 0, 0, false};
  /* Erasing while walking would invalidate the walk: collect first. */
  mlirOperationWalk(root, collect_mark, &st, MlirWalkPostOrder);
  if (st.out_of_memory) {
    free(st.doomed);
    mlirEmitError(mlirOperationGetLocation(root),
                  "npuc-strip-annotations: out of memory");
    return false;
  }
  for (size_t i = 0; i < st.count; i++)
    mlirOperationDestroy(st.doomed[i]);
  free(st.doomed);
  return true;
}

static MlirWalkResult collect_mark(MlirOperation op, void *user) {
  strip_state *st = user;
  if (!is_annotation_mark(op) || all_attributes_kept(op, st->keep) ||
      !results_unused(op))
    return MlirWalkResultAdvance;
  if (st->count == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 16;
    MlirOperation *grown = realloc(st->doomed, cap * sizeof *grown);
    if (!grown) {
      st->out_of_memory = true;
      return MlirWalkResultInterrupt;
    }
    st->doomed = grown;
    st->cap = cap;
  }
  st->doomed[st->count++] = op;
  return MlirWalkResultAdvance;
}

static bool is_annotation_mark(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  static const char mark[] = "annotation.mark";
  return name.length == sizeof mark - 1 &&
         memcmp(name.data, mark, sizeof mark - 1) == 0;
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

/* A mark is a statement, but one with used results cannot simply vanish. */
static bool results_unused(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return false;
  return true;
}
