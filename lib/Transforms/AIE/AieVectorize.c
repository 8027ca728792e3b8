/* aie-vectorize: lowers the output of affine-super-vectorize to the AIE1
 * vector ops of mlir-aie (aievec.upd/ups/srs/concat, aievec_aie1.mul/mac/
 * add/sub) with lane-addressing attributes, loading each AIE vector once
 * for all the reads that can share it (npuc/IntervalReuse.h).
 *
 * Per function: sext/trunc look-through and enclosing loops (collect), the
 * unaligned-load check, operand reassociation, add/sub(acc, mul) -> fma,
 * column fusion for 16-bit and 8-bit data, the reuse analysis, upd
 * generation, then one aievec op per node with its scheme's attributes and
 * ups/srs at the accumulator boundaries. The module is canonicalized before
 * and cleaned up after (canonicalize, cse, LICM, lower-affine), as mlir-aie
 * does. A function the schemes cannot handle gets a diagnostic and stays as
 * the super-vectorizer left it. docs/passes/aie-vectorize.md. */
#include "AieVectorizeInternal.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/StaticBounds.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define VECTORIZE_OPTIONS(X, T)                                                \
  X(T, int64_t, shift, "shift", NPUC_OPT_INT, "0", NULL,                       \
    "shift of the ups/srs conversions to and from accumulators (0..63)")       \
  X(T, int64_t, zero_offset, "zero-offset", NPUC_OPT_INT, "0", NULL,           \
    "position (from 1) of the recurring zero in the filter; lets a 16-bit "    \
    "multiply use a second column that hits a zero")                           \
  X(T, int64_t, dup_factor, "dup-factor", NPUC_OPT_INT, "2", NULL,             \
    "how often each filter value is duplicated (8-bit scheme)")                \
  X(T, bool, unaligned_loads_check, "unaligned-loads-check", NPUC_OPT_BOOL,    \
    "true", NULL,                                                              \
    "refuse functions whose row sizes are not multiples of the lanes")         \
  X(T, bool, aieml, "aieml", NPUC_OPT_BOOL, "false", NULL,                     \
    "target AIE-ML instead of AIE1")
NPUC_PASS_OPTIONS(vectorize_options, VECTORIZE_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_aie_vectorize, "aie-vectorize",
                 "Lower super-vectorized affine loops to AIE1 aievec ops with "
                 "vector reuse",
                 "builtin.module", aie_vectorize,
                 NPUC_PASS_OPTIONS_OF(vectorize_options));

static bool vectorize_func(aie_state *s);
static void state_free(aie_state *s);

static bool aie_vectorize(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  (void)ctx;
  int64_t shift = NPUC_PASS_OPTS(vectorize_options, opts)->shift;
  if (shift < 0 || shift > 63) {
    npuc_pass_error(module, "shift must be in 0..63, got %lld",
                    (long long)shift);
    return false;
  }
  /* An access provably outside a static memref: an error (issue 15); no
   * AIE load or store may make it. */
  if (!npuc_check_static_bounds(module))
    return false;
  /* Functions are collected first: the rewrite must not upset the walk. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!npuc_op_is(f, "func.func") ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))))
      continue;
    aie_state proto = {0};
    proto.ctx = mlirOperationGetContext(f);
    proto.func = f;
    proto.shift = shift;
    proto.zero_offset = NPUC_PASS_OPTS(vectorize_options, opts)->zero_offset;
    proto.dup_factor = NPUC_PASS_OPTS(vectorize_options, opts)->dup_factor;
    proto.unaligned_check =
        NPUC_PASS_OPTS(vectorize_options, opts)->unaligned_loads_check;
    proto.aieml = NPUC_PASS_OPTS(vectorize_options, opts)->aieml;
    if (!vectorize_func(&proto))
      return false;
  }
  return true;
}

static bool analyse(aie_state *s, bool *accepted);

/* False only on a hard failure (out of memory, a clean-up pipeline that
 * fails); a function the schemes cannot handle is left alone with a
 * diagnostic and counts as done. The checks run on the function as given,
 * so a refused function stays exactly as the super-vectorizer left it;
 * an accepted one has its transfers forwarded (a read of what the block
 * just wrote takes the written vector), is canonicalized (index arithmetic
 * simplified, equal index computations merged) and analysed again before the
 * rewrite. */
static bool vectorize_func(aie_state *proto) {
  aie_state s = *proto;
  bool accepted;
  bool ok = analyse(&s, &accepted);
  state_free(&s);
  if (!ok || !accepted)
    return ok;
  aie_forward_stores(proto->func);
  if (!npuc_run_upstream(proto->func, "canonicalize,cse"))
    return false;
  aie_forward_stores(proto->func); /* views canonicalize may have folded */
  s = *proto;
  ok = analyse(&s, &accepted);
  if (ok && accepted) {
    ok = aie_compute_reuse(&s);
    if (ok && aie_check_operands(&s))
      ok = aie_generate_upds(&s) && aie_generate_ops(&s) &&
           aie_post_canonicalize(s.func, s.aieml);
  }
  state_free(&s);
  return ok;
}

/* Collects, checks and decides the fusions; nothing is rewritten. */
static bool analyse(aie_state *s, bool *accepted) {
  *accepted = false;
  if (!aie_collect(s))
    return false;
  if (s->num_nodes == 0 && s->num_reads == 0)
    return true;
  if (s->unaligned_check && !aie_check_alignment(s))
    return true;
  aie_reassociate(s);
  aie_fuse_fma(s);
  if (s->aieml)
    aie_narrow(s);
  if (!aie_check_supported(s))
    return true;
  aie_fuse_columns(s);
  *accepted = true;
  return true;
}

static void state_free(aie_state *s) {
  free(s->reads);
  free(s->nodes);
  npuc_ptr_map_free(&s->read_of);
  npuc_ptr_map_free(&s->node_of);
  npuc_ptr_map_free(&s->filter_base);
  npuc_reuse_destroy(s->reuse);
}

/* ---- Helpers ---------------------------------------------------------- */

bool aie_op_in_dialect(MlirOperation op, const char *prefix) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return s.length > n && memcmp(s.data, prefix, n) == 0 && s.data[n] == '.';
}

MlirValue aie_strip_casts(MlirValue v) {
  for (int depth = 0; depth < 8 && mlirValueIsAOpResult(v); depth++) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!npuc_op_is(def, "arith.extsi") && !npuc_op_is(def, "arith.trunci"))
      break;
    v = mlirOperationGetOperand(def, 0);
  }
  return v;
}

size_t aie_read_of_value(const aie_state *s, MlirValue v) {
  v = aie_strip_casts(v);
  if (!mlirValueIsAOpResult(v))
    return SIZE_MAX;
  return aie_index_of(&s->read_of, mlirOpResultGetOwner(v).ptr);
}

size_t aie_node_of_value(const aie_state *s, MlirValue v) {
  v = aie_strip_casts(v);
  if (!mlirValueIsAOpResult(v))
    return SIZE_MAX;
  return aie_index_of(&s->node_of, mlirOpResultGetOwner(v).ptr);
}

size_t aie_live_node_of_value(const aie_state *s, MlirValue v) {
  size_t n = aie_node_of_value(s, v);
  while (n != SIZE_MAX && s->nodes[n].dead && s->nodes[n].rep != SIZE_MAX)
    n = s->nodes[n].rep;
  return n;
}

bool aie_simple_candidate(const aie_state *s, const aie_node *n) {
  if (n->is_float || n->elem_bits != 16 || n->fused ||
      (n->kind != AIE_MUL && n->kind != AIE_FMA))
    return false;
  size_t rx = aie_read_of_value(s, n->x), rz = aie_read_of_value(s, n->z);
  return !(rx != SIZE_MAX && s->reads[rx].splat) &&
         !(rz != SIZE_MAX && s->reads[rz].splat);
}

MlirNamedAttribute aie_named(MlirContext ctx, const char *name,
                             MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

MlirAttribute aie_str_attr(MlirContext ctx, const char *str) {
  return mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(str));
}
