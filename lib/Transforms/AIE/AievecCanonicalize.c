/* aievec-canonicalize: the folds mlir-aie's aievec ops have (fold-ops.mlir),
 * as C rewrite patterns run by MLIR's greedy driver.
 *
 *   srs(ups(x, s), c)  -> x   when c is an arith.constant equal to s, srs
 *                             is signed (no `sign = 0`) and x has the srs
 *                             result's type: (x << s) >> s is x exactly,
 *                             the accumulator being wider than x;
 *   ups(srs(a, c), s)  -> a   when c and s are both 0 and a has the ups
 *                             result's type (as mlir-aie: this assumes the
 *                             accumulator values fit the narrow vector, so
 *                             the option exact=true leaves it out);
 *   cast(cast(x, r1), r2)
 *                      -> cast(x, r1) when r1 == r2 (isResAcc), else x,
 *                             each when the types agree;
 * and erases aievec.ups / srs / cast left without uses (they are pure).
 * The greedy driver also folds the registered ops it visits (a dead
 * arith.constant shift goes), as -canonicalize would.
 *
 * Our aievec ops are unregistered for MLIR, so `-canonicalize` cannot see
 * them: these folds run under their own flag (docs/passes/aievec-
 * canonicalize.md). Requires: verified aievec ops. Leaves: the same
 * program, with the folded chains gone. */
#include "npuc/BuildOps.h"
#include "npuc/Pass.h"
#include "npuc/Rewrite.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Rewrite.h>
#include <string.h>

#define CANON_OPTIONS(X, T)                                                    \
  X(T, bool, exact, "exact", NPUC_OPT_BOOL, "false", NULL,                     \
    "leave out ups(srs(a)) -> a, which holds only when the accumulator "       \
    "values fit the narrow vector type")
NPUC_PASS_OPTIONS(canon_options, CANON_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_aievec_canonicalize, "aievec-canonicalize",
                 "Fold aievec srs(ups), ups(srs) and cast(cast) chains, as "
                 "mlir-aie's aievec folders do",
                 "builtin.module", canonicalize,
                 NPUC_PASS_OPTIONS_OF(canon_options));

typedef struct {
  bool exact;
} canon_ctx;

typedef bool (*fold_fn)(const canon_ctx *cc, MlirOperation op, MlirValue *out);

static bool fold_srs_of_ups(const canon_ctx *cc, MlirOperation op,
                            MlirValue *out);
static bool fold_ups_of_srs(const canon_ctx *cc, MlirOperation op,
                            MlirValue *out);
static bool fold_cast_of_cast(const canon_ctx *cc, MlirOperation op,
                              MlirValue *out);
static MlirLogicalResult fold_pattern(MlirRewritePattern pattern,
                                      MlirOperation op,
                                      MlirPatternRewriter rewriter, void *user);
static MlirLogicalResult erase_dead(MlirRewritePattern pattern,
                                    MlirOperation op,
                                    MlirPatternRewriter rewriter, void *user);

typedef struct {
  const char *root;
  fold_fn fold; /* NULL: the dead-op pattern */
} canon_pattern;

static const canon_pattern patterns[] = {
    {"aievec.srs", fold_srs_of_ups},
    {"aievec.ups", fold_ups_of_srs},
    {"aievec.cast", fold_cast_of_cast},
    {"aievec.srs", NULL},
    {"aievec.ups", NULL},
    {"aievec.cast", NULL},
};

typedef struct {
  const canon_pattern *pat;
  const canon_ctx *cc;
} pattern_user;

static bool canonicalize(MlirOperation module, const npuc_pass_options *opts,
                         const npuc_pass_context *ctx) {
  (void)ctx;
  canon_ctx cc = {NPUC_PASS_OPTS(canon_options, opts)->exact};
  MlirContext mctx = mlirOperationGetContext(module);
  enum { N = sizeof patterns / sizeof patterns[0] };
  pattern_user users[N];
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(mctx);
  for (size_t i = 0; i < N; ++i) {
    users[i] = (pattern_user){&patterns[i], &cc};
    MlirRewritePatternCallbacks cb = {
        NULL, NULL, patterns[i].fold ? fold_pattern : erase_dead};
    /* Folds first (benefit 2), then the dead-op cleanup (1). */
    MlirRewritePattern p = mlirOpRewritePatternCreate(
        mlirStringRefCreateFromCString(patterns[i].root),
        patterns[i].fold ? 2 : 1, mctx, cb, &users[i], 0, NULL);
    mlirRewritePatternSetAdd(set, p);
  }
  /* Each fold removes ops, so the driver converges; the bound is a guard. */
  npuc_apply_patterns_greedily(module, set,
                               &(npuc_greedy_options){.max_iterations = 8});
  return true;
}

/* ---- the folds --------------------------------------------------------- */

static MlirOperation defining_op(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                 : (MlirOperation){NULL};
}

static bool same_type(MlirValue a, MlirValue b) {
  return mlirTypeEqual(mlirValueGetType(a), mlirValueGetType(b));
}

/* An integer attribute of the op, or `dflt` when absent (or not an
 * integer). */
static int64_t int_attr(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a = npuc_table_op_attr(op, name, strlen(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
             ? mlirIntegerAttrGetValueInt(a)
             : dflt;
}

static bool bool_attr(MlirOperation op, const char *name) {
  MlirAttribute a = npuc_table_op_attr(op, name, strlen(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsABool(a) &&
         mlirBoolAttrGetValue(a);
}

static bool fold_srs_of_ups(const canon_ctx *cc, MlirOperation op,
                            MlirValue *out) {
  (void)cc;
  MlirOperation ups = defining_op(mlirOperationGetOperand(op, 0));
  int64_t shift;
  if (!npuc_op_is(ups, "aievec.ups") ||
      !npuc_constant_int(mlirOperationGetOperand(op, 1), &shift) ||
      shift != int_attr(ups, "shift", 0) || int_attr(op, "sign", 1) != 1)
    return false;
  *out = mlirOperationGetOperand(ups, 0);
  return same_type(*out, mlirOperationGetResult(op, 0));
}

static bool fold_ups_of_srs(const canon_ctx *cc, MlirOperation op,
                            MlirValue *out) {
  MlirOperation srs = defining_op(mlirOperationGetOperand(op, 0));
  int64_t shift;
  if (cc->exact || !npuc_op_is(srs, "aievec.srs") ||
      !npuc_constant_int(mlirOperationGetOperand(srs, 1), &shift) ||
      shift != 0 || int_attr(op, "shift", 0) != 0)
    return false;
  *out = mlirOperationGetOperand(srs, 0);
  return same_type(*out, mlirOperationGetResult(op, 0));
}

static bool fold_cast_of_cast(const canon_ctx *cc, MlirOperation op,
                              MlirValue *out) {
  (void)cc;
  MlirOperation inner = defining_op(mlirOperationGetOperand(op, 0));
  if (!npuc_op_is(inner, "aievec.cast"))
    return false;
  bool same = bool_attr(inner, "isResAcc") == bool_attr(op, "isResAcc");
  *out = same ? mlirOperationGetResult(inner, 0)
              : mlirOperationGetOperand(inner, 0);
  return same_type(*out, mlirOperationGetResult(op, 0));
}

/* ---- the patterns ---------------------------------------------------------
 */

static MlirLogicalResult fold_pattern(MlirRewritePattern pattern,
                                      MlirOperation op,
                                      MlirPatternRewriter rewriter,
                                      void *user) {
  (void)pattern;
  const pattern_user *pu = user;
  MlirValue to;
  if (mlirOperationGetNumOperands(op) < 1 ||
      mlirOperationGetNumResults(op) != 1 || !pu->pat->fold(pu->cc, op, &to))
    return mlirLogicalResultFailure();
  MlirRewriterBase rw = mlirPatternRewriterAsBase(rewriter);
  mlirRewriterBaseReplaceAllUsesWith(rw, mlirOperationGetResult(op, 0), to);
  mlirRewriterBaseEraseOp(rw, op);
  return mlirLogicalResultSuccess();
}

/* The aievec ops are pure (mlir-aie marks them so), but MLIR does not know
 * unregistered ops: a folded chain's dead head is erased here. */
static MlirLogicalResult erase_dead(MlirRewritePattern pattern,
                                    MlirOperation op,
                                    MlirPatternRewriter rewriter, void *user) {
  (void)pattern;
  (void)user;
  if (!npuc_op_results_unused(op))
    return mlirLogicalResultFailure();
  mlirRewriterBaseEraseOp(mlirPatternRewriterAsBase(rewriter), op);
  return mlirLogicalResultSuccess();
}
