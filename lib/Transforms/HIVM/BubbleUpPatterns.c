/* The bubble-up pattern set: the table of patterns (one per op kind), their
 * wrapping as MLIR rewrite patterns through the C API, and the greedy
 * driver run with its stop-point check. */
#include "BubbleUpInternal.h"
#include "npuc/Alloc.h"
#include "npuc/PtrSet.h"
#include "npuc/Rewrite.h"

#include <stdlib.h>
#include <string.h>

/* The table of BubbleUpPatterns.def; entry 0 is the rank-reducing split. */
static const bub_pattern patterns[] = {
#define BUB_PATTERN(sym, name_, op_, results_, operands_, regions_, applies_,  \
                    certain_, summary_)                                        \
  {.name = name_,                                                              \
   .summary = summary_,                                                        \
   .op = op_,                                                                  \
   .results = results_,                                                        \
   .operands = operands_,                                                      \
   .regions = regions_,                                                        \
   .applies = applies_,                                                        \
   .rewrite = bub_rewrite_##sym,                                               \
   .certain = certain_},
#include "BubbleUpPatterns.def"
};
static const bub_pattern *const rank_reduce = &patterns[0];

#define NUM_PATTERNS (sizeof patterns / sizeof patterns[0])
_Static_assert(NUM_PATTERNS <= sizeof((npuc_bubble_ctx *)0)->enabled,
               "npuc_bubble_ctx.enabled has a flag per pattern");

size_t npuc_bubble_num_patterns(void) { return NUM_PATTERNS; }

const char *npuc_bubble_pattern_name(size_t i) {
  return i < NUM_PATTERNS ? patterns[i].name : NULL;
}

const char *npuc_bubble_pattern_summary(size_t i) {
  return i < NUM_PATTERNS ? patterns[i].summary : NULL;
}

npuc_bubble_ctx *npuc_bubble_ctx_create(MlirContext ctx,
                                        const npuc_op_registry *reg,
                                        const npuc_bubble_options *opts) {
  npuc_bubble_ctx *bc = npuc_xcalloc(1, sizeof *bc);
  bc->ctx = ctx;
  bc->reg = reg;
  if (opts)
    bc->opts = *opts;
  else
    bc->opts.sub_blocks = 2;
  return bc;
}

void npuc_bubble_ctx_destroy(npuc_bubble_ctx *bc) {
  if (bc)
    free(bc->ew_plans);
  free(bc);
}

/* What MLIR holds for each pattern (its userData). */
typedef struct {
  const bub_pattern *pat;
  npuc_bubble_ctx *bc;
} pattern_instance;

static void instance_destruct(void *user) { free(user); }

/* Are the slice's static strides all 1? (A dynamic one is not.) */
static bool unit_static_strides(npuc_bubble_ctx *bc, MlirOperation slice) {
  int64_t strides[BUB_MAX_RANK];
  intptr_t n = bub_cached_i64_array(
      bc,
      mlirOperationGetInherentAttributeByName(
          slice, mlirStringRefCreate("static_strides", 14)),
      strides);
  for (intptr_t i = 0; i < n && i < BUB_MAX_RANK; i++)
    if (strides[i] != 1)
      return false;
  return n >= 0;
}

static bool apply_one(const bub_pattern *pat, npuc_bubble_ctx *bc,
                      MlirOperation op, MlirRewriterBase rw,
                      const bub_slice *known, bub_slice *climbed_as,
                      bool *climbed);
static bool apply_any(npuc_bubble_ctx *bc, MlirOperation op,
                      MlirRewriterBase rw, const bub_slice *known,
                      bub_slice *climbed_as, bool *climbed);

static MlirLogicalResult match_and_rewrite(MlirRewritePattern pattern,
                                           MlirOperation op,
                                           MlirPatternRewriter rewriter,
                                           void *user) {
  (void)pattern;
  pattern_instance *pi = user;
  MlirRewriterBase rw = mlirPatternRewriterAsBase(rewriter);
  bub_slice parts[2];
  bool climbed;
  if (!apply_one(pi->pat, pi->bc, op, rw, NULL, &parts[0], &climbed))
    return mlirLogicalResultFailure();
  /* The slice climbed: it is now the marked slice of an operand of the op
   * it was rewritten through, the op the driver would visit next. Offering
   * it to the patterns here, with the parts the rewrite just gave it,
   * spares the driver's visit per op of a chain (a fold attempt, every
   * pattern's match, reading the slice back). */
  for (int k = 0; climbed; k ^= 1)
    if (!apply_any(pi->bc, op, rw, &parts[k], &parts[k ^ 1], &climbed))
      break;
  return mlirLogicalResultSuccess();
}

/* The patterns of the set in the table's order (the driver's, by
 * benefit), on a slice whose parts are `known`. */
static bool apply_any(npuc_bubble_ctx *bc, MlirOperation op,
                      MlirRewriterBase rw, const bub_slice *known,
                      bub_slice *climbed_as, bool *climbed) {
  for (size_t i = 0; i < NUM_PATTERNS; i++)
    if (bc->enabled[i] &&
        apply_one(&patterns[i], bc, op, rw, known, climbed_as, climbed))
      return true;
  return false;
}

/* One pattern on the marked slice `op`; its parts are read from it unless
 * `known`. On success, *climbed says whether the slice op lives on as the
 * marked slice of one of the producer's operands, then with parts
 * *climbed_as. */
static bool apply_one(const bub_pattern *pat, npuc_bubble_ctx *bc,
                      MlirOperation op, MlirRewriterBase rw,
                      const bub_slice *known, bub_slice *climbed_as,
                      bool *climbed) {
  /* Cheapest tests first: every pattern sees every slice the driver
   * visits. The root is tensor.extract_slice, so its source is operand 0. */
  MlirValue source = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(source))
    return false; /* a block argument: a stop point */
  MlirOperation producer = mlirOpResultGetOwner(source);
  if (!bub_pattern_applies(pat, bc, producer))
    return false;
  bub_type_info sti = bub_type(bc, mlirValueGetType(source));
  if (!sti.ranked_tensor)
    return false;
  int64_t rank = sti.rank;
  MlirType slice_type = mlirValueGetType(mlirOperationGetResult(op, 0));
  bool reducing = bub_type(bc, slice_type).rank != rank;
  /* Of rank-reduce and the producer's pattern, only one goes on: the other
   * stops here, before reading the slice, unless the slice has non-unit
   * strides, which both record as the reason to refuse it. */
  bool wrong_kind = reducing != (pat == rank_reduce);
  if (rank < 0 ||
      (wrong_kind &&
       (known ? bub_slice_unit_strides(known) : unit_static_strides(bc, op))) ||
      (!known && !npuc_bubble_is_marked(op)))
    return false;
  bub_rw r;
  memset(&r, 0, sizeof r);
  r.bc = bc;
  r.rw = rw;
  r.ctx = mlirOperationGetContext(op);
  r.loc = mlirOperationGetLocation(op);
  r.slice_op = op;
  r.source = source;
  r.producer = producer;
  r.result_index = mlirOpResultGetResultNumber(source);
  r.slice_type = slice_type;
  if (known)
    r.s = *known;
  else if (!bub_extract_slice_read(bc, op, &r.s))
    return false;
  if (r.s.rank != rank)
    return false;
  if (!bub_slice_unit_strides(&r.s)) {
    bub_refuse(&r, "the slice has non-unit strides");
    return false;
  }
  if (wrong_kind)
    return false;
  mlirRewriterBaseSetInsertionPointBefore(r.rw, op);
  if (!pat->rewrite(&r))
    return false;
  bub_wake_shared(&r);
  *climbed = r.reused;
  if (r.reused)
    *climbed_as = r.reused_as;
  return true;
}

bool npuc_bubble_populate_patterns(npuc_bubble_ctx *bc,
                                   MlirRewritePatternSet set,
                                   const char *const *only) {
  for (const char *const *o = only; o && *o; o++) {
    size_t i = 0;
    while (i < NUM_PATTERNS && strcmp(patterns[i].name, *o) != 0)
      i++;
    if (i == NUM_PATTERNS)
      return false;
  }
  for (size_t i = 0; i < NUM_PATTERNS; i++) {
    bool wanted = !only;
    for (const char *const *o = only; o && *o && !wanted; o++)
      wanted = strcmp(patterns[i].name, *o) == 0;
    if (!wanted)
      continue;
    bc->enabled[i] = true;
    pattern_instance *pi = npuc_xmalloc(sizeof *pi);
    pi->pat = &patterns[i];
    pi->bc = bc;
    MlirRewritePatternCallbacks cb = {NULL, instance_destruct,
                                      match_and_rewrite};
    /* Earlier table entries get a higher benefit, so they are tried first. */
    MlirRewritePattern p = mlirOpRewritePatternCreate(
        mlirStringRefCreateFromCString("tensor.extract_slice"),
        (unsigned)(NUM_PATTERNS - i), bc->ctx, cb, pi, 0, NULL);
    mlirRewritePatternSetAdd(set, p);
  }
  return true;
}

/* ---- the promise check -----------------------------------------------------
 */

typedef struct {
  MlirValue *v;
  size_t count, cap;
} value_stack;

static bool push_value(value_stack *st, MlirValue v) {
  if (st->count == st->cap) {
    size_t cap = st->cap ? 2 * st->cap : 64;
    MlirValue *nv = realloc(st->v, cap * sizeof *nv);
    if (!nv)
      return false;
    st->v = nv;
    st->cap = cap;
  }
  st->v[st->count++] = v;
  return true;
}

static bool op_promised(npuc_bubble_ctx *bc, MlirOperation op, MlirType t);

static bool ends_path(MlirOperation op, MlirIdentifier empty,
                      MlirIdentifier to_tensor);
static bool reached_once(MlirValue v);
static bool has_empty_dim(npuc_bubble_ctx *bc, MlirType t);

/* Depth first from `values` up through the ops their slices reach, each op
 * once: a value read by several ops is a stop point, or its producer is
 * remembered as checked. */
bool npuc_bubble_certain(MlirContext ctx, const npuc_op_registry *reg,
                         const MlirValue *values, size_t n) {
  npuc_bubble_ctx *bc = npuc_bubble_ctx_create(ctx, reg, NULL);
  MlirIdentifier empty =
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("tensor.empty"));
  MlirIdentifier to_tensor = mlirIdentifierGet(
      ctx, mlirStringRefCreateFromCString("bufferization.to_tensor"));
  value_stack st = {NULL, 0, 0};
  npuc_ptr_set seen = {0};
  bool ok = bc != NULL;
  for (size_t i = 0; ok && i < n; i++) {
    MlirType t = mlirValueGetType(values[i]);
    if (bub_is_ranked_tensor(t))
      ok = !has_empty_dim(bc, t) && push_value(&st, values[i]);
  }
  /* The last two values found to end a path (a shared init or input is
   * read by every op of a chain): not pushed again. */
  MlirValue ends[2] = {{NULL}, {NULL}};
  unsigned next_end = 0;
  while (ok && st.count > 0) {
    MlirValue v = st.v[--st.count];
    MlirOperation op = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                               : (MlirOperation){NULL};
    if (mlirOperationIsNull(op) || ends_path(op, empty, to_tensor)) {
      ends[next_end++ % 2] = v;
      continue;
    }
    if (!reached_once(v) && !npuc_ptr_set_insert(&seen, op.ptr)) {
      ends[next_end++ % 2] = v;
      ok = !seen.oom;
      continue;
    }
    MlirType t = mlirValueGetType(v);
    ok = !has_empty_dim(bc, t) && op_promised(bc, op, t);
    for (intptr_t i = 0; ok && i < mlirOperationGetNumOperands(op); i++) {
      MlirValue o = mlirOperationGetOperand(op, i);
      if (!mlirValueEqual(o, ends[0]) && !mlirValueEqual(o, ends[1]) &&
          mlirTypeEqual(mlirValueGetType(o), t))
        ok = push_value(&st, o);
    }
  }
  npuc_ptr_set_free(&seen);
  free(st.v);
  npuc_bubble_ctx_destroy(bc);
  return ok;
}

/* Slices stop at block arguments (no op), tensor.empty and to_tensor. */
static bool ends_path(MlirOperation op, MlirIdentifier empty,
                      MlirIdentifier to_tensor) {
  MlirIdentifier name = mlirOperationGetName(op);
  return mlirIdentifierEqual(name, empty) ||
         mlirIdentifierEqual(name, to_tensor);
}

/* A value with one use is pushed once (by its one user, itself visited
 * once), and the promised ops have one result: its producer needs no
 * entry in the set. */
static bool reached_once(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

/* MLIR rejects a slice of a tensor with a dim of size 0 (its static offset
 * 0 there is out of bounds): the tiled function would not verify. */
static bool has_empty_dim(npuc_bubble_ctx *bc, MlirType t) {
  bub_type_info ti = bub_type(bc, t);
  for (int d = 0; d < ti.rank; d++)
    if (ti.shape[d] == 0)
      return true;
  return false;
}

/* The pattern that will rewrite a slice of `op` is the first in the table
 * that takes it (the rank-reducing split aside: the slices are
 * full rank); it must promise to succeed. */
static bool op_promised(npuc_bubble_ctx *bc, MlirOperation op, MlirType t) {
  for (size_t i = 0; i < NUM_PATTERNS; i++) {
    const bub_pattern *pat = &patterns[i];
    if (pat == rank_reduce || !bub_pattern_applies(pat, bc, op))
      continue;
    return pat->certain && pat->certain(bc, op, t);
  }
  return false;
}

/* ---- the stop-point check -------------------------------------------------
 */

typedef struct {
  npuc_bubble_ctx *bc;
  npuc_bubble_report *rep;
  MlirOperation dead[64];
  size_t ndead;
  /* The names looked for, as identifiers: the walk sees every op. */
  MlirIdentifier placeholder, slice;
} check_state;

static void stuck(check_state *cs, MlirOperation slice, MlirOperation blocker,
                  const char *reason) {
  if (cs->rep->num_stuck++ == 0) {
    cs->rep->first_stuck = slice;
    cs->rep->blocker = blocker;
    cs->rep->reason = reason;
  }
}

static MlirWalkResult check_op(MlirOperation op, void *user) {
  check_state *cs = user;
  MlirIdentifier name = mlirOperationGetName(op);
  if (mlirIdentifierEqual(name, cs->placeholder)) {
    MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
    if (mlirOpOperandIsNull(u)) { /* dead: erased after the walk */
      if (cs->ndead < 64)
        cs->dead[cs->ndead++] = op;
      return MlirWalkResultAdvance;
    }
    /* Say why a marked slice of it did not fold, if one did not. */
    const char *why = NULL;
    for (; !mlirOpOperandIsNull(u) && !why; u = mlirOpOperandGetNextUse(u))
      why = bub_reason(cs->bc, mlirOpOperandGetOwner(u), op);
    stuck(cs, op, (MlirOperation){NULL},
          why ? why : "the loop body needs the whole loop-carried value");
    return MlirWalkResultAdvance;
  }
  if (!mlirIdentifierEqual(name, cs->slice) || !npuc_bubble_is_marked(op))
    return MlirWalkResultAdvance;
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(src))
    return MlirWalkResultAdvance; /* reached a block argument */
  MlirOperation def = mlirOpResultGetOwner(src);
  if (npuc_op_is(def, BUB_UNSLICE))
    return MlirWalkResultAdvance; /* reported with the placeholder */
  stuck(cs, op, def, bub_reason(cs->bc, op, def));
  return MlirWalkResultAdvance;
}

static MlirWalkResult collect_dead_placeholder(MlirOperation op, void *user) {
  check_state *cs = user;
  if (npuc_op_is(op, BUB_UNSLICE) &&
      mlirOpOperandIsNull(
          mlirValueGetFirstUse(mlirOperationGetResult(op, 0))) &&
      cs->ndead < 64)
    cs->dead[cs->ndead++] = op;
  return MlirWalkResultAdvance;
}

void npuc_bubble_check(npuc_bubble_ctx *bc, MlirOperation root,
                       npuc_bubble_report *report) {
  check_state cs = {
      bc,
      report,
      {{NULL}},
      0,
      mlirIdentifierGet(bc->ctx, mlirStringRefCreateFromCString(BUB_UNSLICE)),
      mlirIdentifierGet(
          bc->ctx, mlirStringRefCreateFromCString("tensor.extract_slice"))};
  report->num_stuck = 0;
  report->first_stuck = (MlirOperation){NULL};
  report->blocker = (MlirOperation){NULL};
  report->reason = NULL;
  /* One walk checks the slices and collects the placeholders whose users
   * all went away (dead ops the driver erased); more of them than fit take
   * further walks. */
  mlirOperationWalk(root, check_op, &cs, MlirWalkPreOrder);
  while (cs.ndead > 0) {
    bool full = cs.ndead == 64;
    for (size_t i = 0; i < cs.ndead; i++)
      mlirOperationDestroy(cs.dead[i]);
    cs.ndead = 0;
    if (full)
      mlirOperationWalk(root, collect_dead_placeholder, &cs, MlirWalkPreOrder);
  }
  report->num_rewrites = bc->num_rewrites;
  report->num_copies = bc->num_copies;
}

static MlirWalkResult find_mark(MlirOperation op, void *user) {
  if (!npuc_bubble_is_marked(op))
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

/* The deferred buffers, once their users are done: one more run. */
static bool run_deferred(void *user) {
  npuc_bubble_ctx *bc = user;
  if (!bc->defer || !bub_any_deferred(bc))
    return false;
  bc->defer = false;
  return true;
}

bool npuc_bubble_up_slices(MlirOperation root, const npuc_op_registry *reg,
                           const npuc_bubble_options *opts,
                           npuc_bubble_report *report) {
  npuc_bubble_report local;
  if (!report)
    report = &local;
  memset(report, 0, sizeof *report);
  /* Without marked slices there is nothing to do: leave the IR as it is
   * (the greedy driver would fold and deduplicate constants). */
  bool marked = opts && opts->marked;
  if (!marked)
    mlirOperationWalk(root, find_mark, &marked, MlirWalkPreOrder);
  if (!marked)
    return true;
  MlirContext ctx = mlirOperationGetContext(root);
  npuc_bubble_ctx *bc = npuc_bubble_ctx_create(ctx, reg, opts);
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(ctx);
  if (!npuc_bubble_populate_patterns(bc, set, NULL)) {
    mlirRewritePatternSetDestroy(set);
    npuc_bubble_ctx_destroy(bc);
    return false;
  }
  /* One sweep: every op a rewrite creates or changes, and every user of a
   * replaced value, goes back on the worklist, so bubbling finishes within
   * the sweep; a second one would only rescan the whole function to
   * confirm, and runs only for deferred buffers (npuc_bubble_ctx.defer).
   * Whether it converged is judged by the stop-point check. Folding stays
   * on, though trying to fold every visited op costs about 1k instructions
   * per op of a long chain: it also folds what the input holds (marked
   * identity slices, constant arithmetic), which the output keeps doing. */
  bc->defer = true;
  npuc_apply_patterns_greedily(root, set,
                               &(npuc_greedy_options){.max_iterations = 1,
                                                      .again = run_deferred,
                                                      .user = bc});
  npuc_bubble_check(bc, root, report);
  npuc_bubble_ctx_destroy(bc);
  return report->num_stuck == 0;
}
