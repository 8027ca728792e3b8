/* The registry of npuc passes and their wrapping as MLIR external passes.
 * To add a pass: define `const npuc_pass_def npuc_pass_<name>` in
 * lib/Transforms/ and list it in lib/Transforms/Passes.def (the order is
 * --help's); the tools register that list (npuc_register_passes). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "PassInternal.h"
#include "npuc/Alloc.h"
#include "npuc/IR.h"
#include "npuc/ToolSupport.h"
#include "npuc/Verify.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/* The passes registered so far (npuc_register_passes, in
 * lib/Transforms/Passes.c, registers every npuc pass; unit tests add test
 * passes), in --help order. */
#define MAX_PASSES 64
static const npuc_pass_def *registered[MAX_PASSES];
static size_t num_registered;

/* MLIR identifies a pass class by a TypeID made from a unique address,
 * which must be 8-byte aligned. */
static alignas(8) char pass_type_ids[MAX_PASSES][8];

/* What MLIR holds for one pass instance (its userData). */
typedef struct {
  const npuc_pass_def *def;
  npuc_pass_options *opts;
  npuc_pass_context ctx;
} pass_instance;

static MlirExternalPassCallbacks callbacks(void);
static pass_instance *instance_new(const npuc_pass_def *def,
                                   npuc_pass_options *opts,
                                   const npuc_pass_context *ctx);

size_t npuc_num_passes(void) { return num_registered; }

const npuc_pass_def *npuc_pass_at(size_t i) {
  return i < num_registered ? registered[i] : NULL;
}

const npuc_pass_def *npuc_pass_lookup(const char *name) {
  for (size_t i = 0; i < num_registered; i++)
    if (strcmp(registered[i]->name, name) == 0)
      return registered[i];
  return NULL;
}

bool npuc_pass_register(const npuc_pass_def *def) {
  /* Options are read through the pass's struct only. */
  bool typed = def->num_options == 0 || def->options_size > 0;
  if (!typed || num_registered == MAX_PASSES || npuc_pass_lookup(def->name))
    return false;
  registered[num_registered++] = def;
  return true;
}

MlirPass npuc_pass_create(const npuc_pass_def *def, npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  size_t index = 0;
  while (index < npuc_num_passes() && npuc_pass_at(index) != def)
    index++;
  pass_instance *inst = instance_new(def, opts, ctx);
  if (index == npuc_num_passes())
    abort(); /* a pass missing from the registry */
  /* "any" is spelled as an empty op name in the C API. */
  const char *op_name = strcmp(def->anchor, "any") == 0 ? "" : def->anchor;
  return mlirCreateExternalPass(mlirTypeIDCreate(pass_type_ids[index]),
                                mlirStringRefCreateFromCString(def->name),
                                mlirStringRefCreateFromCString(def->name),
                                mlirStringRefCreateFromCString(def->summary),
                                mlirStringRefCreateFromCString(op_name), 0,
                                NULL, callbacks(), inst);
}

/* ---- External pass callbacks ---------------------------------------- */

static void pass_construct(void *user) { (void)user; }

static void pass_destruct(void *user) {
  pass_instance *inst = user;
  npuc_pass_options_free(inst->opts);
  free(inst);
}

static MlirLogicalResult pass_initialize(MlirContext ctx, void *user) {
  (void)ctx;
  (void)user;
  return mlirLogicalResultSuccess();
}

/* MLIR clones a pass per thread when it runs nested pipelines in parallel;
 * each clone owns a copy of the options. */
static void *pass_clone(void *user) {
  pass_instance *inst = user;
  npuc_pass_options *opts = npuc_pass_options_clone(inst->opts);
  pass_instance *copy = opts ? instance_new(inst->def, opts, &inst->ctx) : NULL;
  if (!copy)
    abort();
  return copy;
}

/* The op the running pass said it left verified (npuc_pass_verified); per
 * thread, as the pass manager runs passes on functions in parallel. */
static _Thread_local void *verified_op;

void npuc_pass_verified(MlirOperation op) { verified_op = op.ptr; }

void npuc_pass_manager_verify_each(MlirPassManager pm, npuc_verify_each *v) {
  v->by_passes = !v->upstream_passes;
  mlirPassManagerEnableVerifier(pm, !v->by_passes);
}

bool npuc_verify_after_passes(const npuc_op_registry *reg, MlirOperation root) {
  if (npuc_verify_table_ops(reg, root))
    return true;
  npuc_emit_diagnostic(mlirOperationGetLocation(root), NPUC_SEV_ERROR,
                       "internal error: the passes left ops that do not "
                       "verify against their op tables (above)");
  return false;
}

static npuc_pass_start_fn start_hook;
static void *start_user;

void npuc_pass_set_start_hook(npuc_pass_start_fn fn, void *user) {
  start_hook = fn, start_user = user;
}

/* The last pass that failed, and the op it ran on (npuc_pass_manager_run). */
static const char *failed_pass;
static MlirOperation failed_on;

static void pass_run(MlirOperation op, MlirExternalPass pass, void *user) {
  pass_instance *inst = user;
  verified_op = NULL;
  if (start_hook)
    start_hook(inst->def->name, start_user);
  const char *outer = npuc_pass_set_current(inst->def->name);
  bool ok = inst->def->run(op, inst->opts, &inst->ctx);
  npuc_pass_set_current(outer);
  const npuc_verify_each *v = inst->ctx.verify_each;
  if (ok && v && v->by_passes && verified_op != op.ptr)
    ok = mlirOperationVerify(op);
  if (!ok) {
    failed_pass = inst->def->name, failed_on = op;
    mlirExternalPassSignalFailure(pass);
  }
}

bool npuc_pass_manager_run(MlirPassManager pm, MlirOperation op, bool quiet) {
  unsigned long errors = npuc_diag_errors_emitted();
  failed_pass = NULL;
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  if (!ok && !quiet && failed_pass && npuc_diag_errors_emitted() == errors)
    npuc_emit_diagnostic(mlirOperationGetLocation(failed_on), NPUC_SEV_ERROR,
                         "pass '%s' failed without giving a reason (where "
                         "it has the option, emit-remarks=true says why)",
                         failed_pass);
  failed_pass = NULL;
  return ok;
}

static MlirExternalPassCallbacks callbacks(void) {
  MlirExternalPassCallbacks cb = {pass_construct, pass_destruct,
                                  pass_initialize, pass_clone, pass_run};
  return cb;
}

static pass_instance *instance_new(const npuc_pass_def *def,
                                   npuc_pass_options *opts,
                                   const npuc_pass_context *ctx) {
  pass_instance *inst = npuc_xmalloc(sizeof *inst);
  *inst = (pass_instance){
      .def = def, .opts = opts, .ctx = ctx ? *ctx : (npuc_pass_context){0}};
  return inst;
}

/* ---- Suggestions ---------------------------------------------------- */

typedef struct {
  const char *name;
  size_t distance;
} candidate;

static void consider(candidate *best, size_t *n, size_t max, const char *name,
                     size_t distance);

size_t npuc_pass_suggest(const char *name, const char **out, size_t max) {
  size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
  candidate best[8];
  size_t n = 0;
  if (max > 8)
    max = 8;
  for (size_t i = 0; i < npuc_num_passes(); i++) {
    size_t d = npuc_edit_distance(name, npuc_pass_at(i)->name);
    if (d <= limit)
      consider(best, &n, max, npuc_pass_at(i)->name, d);
  }
  for (const char *const *u = npuc_upstream_pass_names; *u; u++) {
    size_t d = npuc_edit_distance(name, *u);
    /* Offer only names this MLIR actually has. */
    if (d <= limit && npuc_upstream_check(*u, NULL))
      consider(best, &n, max, *u, d);
  }
  for (size_t i = 0; i < n; i++)
    out[i] = best[i].name;
  return n;
}

/* Keeps `best` sorted by distance, at most `max` long. */
static void consider(candidate *best, size_t *n, size_t max, const char *name,
                     size_t distance) {
  size_t at = *n;
  while (at > 0 && best[at - 1].distance > distance)
    at--;
  if (at >= max)
    return;
  size_t last = *n < max ? *n : max - 1;
  for (size_t i = last; i > at; i--)
    best[i] = best[i - 1];
  best[at] = (candidate){name, distance};
  if (*n < max)
    (*n)++;
}
