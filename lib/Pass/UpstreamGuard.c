/* Upstream passes that crash on ops MLIR does not know. npuc's dialects are
 * unregistered in MLIR (the C API cannot define dialects), and a few
 * upstream passes of MLIR 22 dereference what such an op cannot give them:
 *   - inline, normalize-memrefs, remove-dead-values ask for the symbol uses
 *     of the IR, which MLIR cannot compute through an unknown op with one
 *     region (it could be a symbol table), and use the empty answer;
 *   - math-extend-to-supported-types, xegpu-vector-linearize and
 *     one-shot-bufferize with a dialect-filter ask every op for its
 *     dialect, which is not loaded.
 * (Found by running each of the passes npuc_upstream_pass_names lists on a
 * module holding a call, scope.scope and hivm ops on tensors and memrefs;
 * mlir-opt crashes the same way on the generic form.)
 * Such a pass gets a guard in front of it, at the same place in the
 * pipeline: a pass that looks at the IR as it is when the upstream pass
 * would start and fails with a located error at the first op it would
 * crash on. IR without such ops runs the upstream pass as before. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "PassInternal.h"
#include "npuc/IR.h"

#include <stdalign.h>
#include <string.h>

typedef enum {
  ANY_UNKNOWN_OP,        /* every op MLIR does not know */
  UNKNOWN_OP_ONE_REGION, /* one it may take for a symbol table */
} hazard_kind;

typedef struct {
  const char *pass;
  const char *option; /* NULL: always; else only when it is given a value */
  hazard_kind kind;
  const char *why;
} upstream_hazard;

static const upstream_hazard hazards[] = {
    {"inline", NULL, UNKNOWN_OP_ONE_REGION,
     "MLIR cannot compute symbol uses through an op it does not know that "
     "has one region, and the inliner crashes on that"},
    {"normalize-memrefs", NULL, UNKNOWN_OP_ONE_REGION,
     "MLIR cannot compute symbol uses through an op it does not know that "
     "has one region, and the pass crashes on that"},
    {"remove-dead-values", NULL, UNKNOWN_OP_ONE_REGION,
     "MLIR cannot compute symbol uses through an op it does not know that "
     "has one region, and the pass crashes on that"},
    {"math-extend-to-supported-types", NULL, ANY_UNKNOWN_OP,
     "the pass asks every op for its dialect, and npuc's dialects are not "
     "loaded in MLIR"},
    {"xegpu-vector-linearize", NULL, ANY_UNKNOWN_OP,
     "the pass asks every op for its dialect, and npuc's dialects are not "
     "loaded in MLIR"},
    {"one-shot-bufferize", "dialect-filter", ANY_UNKNOWN_OP,
     "a dialect-filter asks every op for its dialect, and npuc's dialects "
     "are not loaded in MLIR (without the filter, ops that cannot be "
     "bufferized are reported by the pass itself)"},
};

#define NUM_HAZARDS (sizeof hazards / sizeof hazards[0])

/* The guard pass class: one TypeID for every instance. */
static alignas(8) char guard_type_id[8];

static bool option_given(const char *options, const char *name);
static MlirExternalPassCallbacks guard_callbacks(void);

const void *npuc_upstream_hazard(const char *pass, const char *options) {
  for (size_t i = 0; i < NUM_HAZARDS; i++) {
    const upstream_hazard *h = &hazards[i];
    if (strcmp(h->pass, pass) == 0 &&
        (!h->option || option_given(options, h->option)))
      return h;
  }
  return NULL;
}

MlirPass npuc_upstream_guard_create(const void *hazard) {
  return mlirCreateExternalPass(
      mlirTypeIDCreate(guard_type_id),
      mlirStringRefCreateFromCString("npuc-upstream-guard"),
      mlirStringRefCreateFromCString("npuc-upstream-guard"),
      mlirStringRefCreateFromCString(
          "refuses IR an upstream pass would crash on"),
      mlirStringRefCreateFromCString(""), 0, NULL, guard_callbacks(),
      (void *)hazard);
}

/* "name=value" as a word of the option text ("a=1 dialect-filter=hivm"),
 * with a value that is not empty. */
static bool option_given(const char *options, const char *name) {
  size_t n = strlen(name);
  for (const char *p = options ? strstr(options, name) : NULL; p;
       p = strstr(p + 1, name)) {
    bool starts_word = p == options || strchr(" ,{", p[-1]) != NULL;
    const char *value = p + n;
    if (starts_word && *value == '=' && value[1] && !strchr(" ,}", value[1]))
      return true;
  }
  return false;
}

/* ---- The guard pass ---------------------------------------------------- */

typedef struct {
  const upstream_hazard *hazard;
  MlirContext context;
  MlirOperation found;
} guard_walk;

static MlirWalkResult find_hazard(MlirOperation op, void *user) {
  guard_walk *w = user;
  MlirIdentifier name = mlirOperationGetName(op);
  if (mlirContextIsRegisteredOperation(w->context, mlirIdentifierStr(name)))
    return MlirWalkResultAdvance;
  if (w->hazard->kind == UNKNOWN_OP_ONE_REGION &&
      mlirOperationGetNumRegions(op) != 1)
    return MlirWalkResultAdvance;
  w->found = op;
  return MlirWalkResultInterrupt;
}

static void guard_run(MlirOperation op, MlirExternalPass pass, void *user) {
  guard_walk w = {user, mlirOperationGetContext(op), {NULL}};
  mlirOperationWalk(op, find_hazard, &w, MlirWalkPreOrder);
  if (mlirOperationIsNull(w.found))
    return;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(w.found));
  const char *outer = npuc_pass_set_current(NULL);
  npuc_pass_error(w.found,
                  "upstream pass '%s' cannot run on '%.*s': %s; npuc refuses "
                  "it before it runs",
                  w.hazard->pass, (int)name.length, name.data, w.hazard->why);
  npuc_pass_set_current(outer);
  mlirExternalPassSignalFailure(pass);
}

static void guard_construct(void *user) { (void)user; }
static void guard_destruct(void *user) { (void)user; }
static MlirLogicalResult guard_initialize(MlirContext ctx, void *user) {
  (void)ctx;
  (void)user;
  return mlirLogicalResultSuccess();
}
/* The instance holds a pointer into the static table: nothing to copy. */
static void *guard_clone(void *user) { return user; }

static MlirExternalPassCallbacks guard_callbacks(void) {
  MlirExternalPassCallbacks cb = {guard_construct, guard_destruct,
                                  guard_initialize, guard_clone, guard_run};
  return cb;
}
