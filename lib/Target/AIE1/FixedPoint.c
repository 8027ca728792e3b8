/* The fixed-point reference: with aie-vectorize's `shift` option != 0 the
 * vectorized kernel computes a fixed-point result, not the wrapping integer
 * one, so the scalar reference is rewritten to that meaning
 * (docs/aie1-cmodel.md, "The fixed-point reference"):
 *
 *  - every integer multiply is exact in the accumulator (i48 for i8/i16
 *    data, i80 for i32; an i64 stands for i80, see acc_type);
 *  - add(acc, mul) / sub(acc, mul) accumulate exactly. `acc` is the
 *    accumulator of an earlier multiply, or else data brought up with ups:
 *    sign-extended and shifted left by `shift`;
 *  - a multiply's result that anything else uses (a store, a plain add,
 *    another multiply's operand) is srs(acc, shift): shifted right with the
 *    floor rounding and narrowed without saturation, the modes the kernels
 *    run under (aie1-lane-semantics.md §3.1, §3.2).
 *
 * Which add is an accumulation and which value is an accumulator follows
 * aie-vectorize's own rules on the same ops (AieVectorizeAnalysis.c:
 * aie_reassociate, aie_fuse_fma; AieVectorizeSchemes.c: aie_acc_operand,
 * needs_plain_result): an add takes a multiply whose only use it is, in the
 * same block, preferring its right operand; a sub only its right one. Plain
 * adds and subs stay integer ops on the narrow data, as the AIE add/sub do.
 *
 * The rewrite uses arith ops only, so the reference is still emitted by the
 * shared scalar emitter, which wraps every integer at its width. */
#include "Aie1Internal.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

typedef struct {
  MlirOperation op;   /* arith.muli, addi or subi on i8, i16 or i32 */
  MlirValue wide;     /* the exact accumulator value (multiplies, fmas) */
  bool fused;         /* a multiply taken into an fma */
  intptr_t wide_uses; /* uses of the result that take `wide` instead */
} fx_node;

typedef struct {
  int64_t shift;
  fx_node *nodes; /* in program order */
  size_t num_nodes, cap;
  npuc_ptr_map by_op;       /* op pointer -> its index in nodes */
  MlirValue shift_value[2]; /* `shift` as i48 and as i64, made once */
  MlirBlock entry;
} fx_state;

static bool rewrite_function(MlirOperation func, int64_t shift);
static void warn_scalar_multiply(MlirOperation kernel, int64_t shift);

bool aie1_fixed_point_references(const aie1_kernel *ks, size_t n,
                                 int64_t shift) {
  if (shift <= 0)
    return true;
  for (size_t i = 0; i < n; ++i) {
    warn_scalar_multiply(ks[i].vec, shift);
    /* A reference shared by kernels is rewritten once (a handful of
     * kernels per module: the quadratic scan stays small). */
    bool seen = false;
    for (size_t j = 0; j < i; ++j)
      seen |= mlirOperationEqual(ks[j].ref, ks[i].ref);
    if (!seen && !rewrite_function(ks[i].ref, shift))
      return false;
  }
  return true;
}

static bool collect(fx_state *s, MlirOperation func);
static void index_by_op(fx_state *s);
static void build_node(fx_state *s, size_t i);
static void narrow_results(fx_state *s);
static void erase_replaced(fx_state *s);

static bool rewrite_function(MlirOperation func, int64_t shift) {
  fx_state s = {.shift = shift};
  s.entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  bool ok = collect(&s, func);
  if (ok) {
    index_by_op(&s);
    for (size_t i = 0; i < s.num_nodes; ++i)
      build_node(&s, i);
    narrow_results(&s);
    erase_replaced(&s);
  }
  free(s.nodes);
  npuc_ptr_map_free(&s.by_op);
  return ok;
}

static unsigned data_bits(MlirOperation op);

static MlirWalkResult find_scalar_multiply(MlirOperation op, void *user) {
  if (npuc_op_is(op, "arith.muli") && data_bits(op)) {
    *(MlirOperation *)user = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* The rewrite treats every multiply of the reference as vectorized. One
 * that stayed scalar in the kernel wraps there: say so where it is, since
 * the host will report the difference it makes. */
static void warn_scalar_multiply(MlirOperation kernel, int64_t shift) {
  MlirOperation mul = {NULL};
  mlirOperationWalk(kernel, find_scalar_multiply, &mul, MlirWalkPreOrder);
  if (!mlirOperationIsNull(mul))
    npuc_emit_diagnostic(
        mlirOperationGetLocation(mul), NPUC_SEV_WARNING,
        "this multiply is scalar in the vectorized kernel, where it wraps; "
        "the fixed-point reference (shift %lld) takes it as vectorized",
        (long long)shift);
}

/* ---- the ops ------------------------------------------------------------ */

static unsigned data_bits(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return 0;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsAInteger(t))
    return 0;
  unsigned w = mlirIntegerTypeGetWidth(t);
  return w == 8 || w == 16 || w == 32 ? w : 0;
}

/* The accumulator of w-bit data: 48 bits for i8/i16. For i32 the
 * hardware's is 80 bits; an i64 stands for it, which changes no bit that
 * srs keeps as long as shift + 32 <= 64 (checked in collect). */
static MlirType acc_type(MlirContext ctx, unsigned data_bits) {
  return mlirIntegerTypeGet(ctx, data_bits == 32 ? 64 : 48);
}

static int64_t max_shift(unsigned data_bits) {
  return data_bits == 32 ? 32 : 47;
}

typedef struct {
  fx_state *s;
  MlirOperation bad;
} collector;

static MlirWalkResult collect_op(MlirOperation op, void *user) {
  collector *c = user;
  fx_state *s = c->s;
  unsigned bits = data_bits(op);
  if (!bits || !(npuc_op_is(op, "arith.muli") || npuc_op_is(op, "arith.addi") ||
                 npuc_op_is(op, "arith.subi")))
    return MlirWalkResultAdvance;
  if (s->shift > max_shift(bits)) {
    c->bad = op;
    return MlirWalkResultInterrupt;
  }
  if (s->num_nodes == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->nodes = npuc_xreallocarray(s->nodes, s->cap, sizeof *s->nodes);
  }
  s->nodes[s->num_nodes++] = (fx_node){op, {NULL}, false, 0};
  return MlirWalkResultAdvance;
}

/* Collected first: the rewrite must not upset the walk. */
static bool collect(fx_state *s, MlirOperation func) {
  collector c = {s, {NULL}};
  mlirOperationWalk(func, collect_op, &c, MlirWalkPreOrder);
  if (!mlirOperationIsNull(c.bad)) {
    unsigned bits = data_bits(c.bad);
    npuc_op_error(c.bad,
                  "shift %lld: the fixed-point reference of i%u data models "
                  "shifts up to %lld (%s)",
                  (long long)s->shift, bits, (long long)max_shift(bits),
                  bits == 32 ? "an i64 stands for the 80-bit accumulator"
                             : "the accumulator has 48 bits");
    return false;
  }
  return true;
}

static void index_by_op(fx_state *s) {
  for (size_t i = 0; i < s->num_nodes; ++i)
    if (!npuc_ptr_map_put(&s->by_op, s->nodes[i].op.ptr, i))
      npuc_die("out of memory");
}

/* The node that defines `v`, or NULL. */
static fx_node *node_of(fx_state *s, MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return NULL;
  uintptr_t node;
  if (!npuc_ptr_map_get(&s->by_op, mlirOpResultGetOwner(v).ptr, &node))
    return NULL;
  return &s->nodes[node];
}

static bool has_single_use(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

/* aie-vectorize's is_fusable_mul: a multiply whose only use is `at`, in
 * the same block. (Its type is the add's: arith keeps operand types.) */
static fx_node *fusable_mul(fx_state *s, MlirValue v, MlirOperation at) {
  fx_node *m = node_of(s, v);
  if (!m || m->fused || !npuc_op_is(m->op, "arith.muli") ||
      !has_single_use(v) ||
      !mlirBlockEqual(mlirOperationGetBlock(m->op), mlirOperationGetBlock(at)))
    return NULL;
  return m;
}

/* ---- building ------------------------------------------------------------ */

static MlirValue shift_value(fx_state *s, MlirType acc) {
  int slot = mlirIntegerTypeGetWidth(acc) == 64;
  if (!s->shift_value[slot].ptr) {
    npuc_builder b = npuc_builder_before(mlirBlockGetFirstOperation(s->entry));
    s->shift_value[slot] = npuc_build_int_constant(&b, acc, s->shift);
  }
  return s->shift_value[slot];
}

/* ups: data sign-extended into the accumulator and shifted left. */
static MlirValue ups(fx_state *s, npuc_builder *b, MlirValue v, MlirType acc) {
  fx_node *d = node_of(s, v);
  if (d && d->wide.ptr) { /* an accumulator already: taken as it is */
    d->wide_uses++;
    return d->wide;
  }
  return npuc_build_binary(b, "arith.shli", npuc_build_int_cast(b, v, acc),
                           shift_value(s, acc));
}

static void build_node(fx_state *s, size_t i) {
  fx_node *n = &s->nodes[i];
  MlirValue a = mlirOperationGetOperand(n->op, 0);
  MlirValue c = mlirOperationGetOperand(n->op, 1);
  MlirType acc = acc_type(mlirOperationGetContext(n->op), data_bits(n->op));
  npuc_builder b = npuc_builder_before(n->op);
  if (npuc_op_is(n->op, "arith.muli")) {
    MlirValue x = npuc_build_int_cast(&b, a, acc);
    n->wide =
        npuc_build_binary(&b, "arith.muli", x, npuc_build_int_cast(&b, c, acc));
    return;
  }
  bool sub = npuc_op_is(n->op, "arith.subi");
  fx_node *prod = fusable_mul(s, c, n->op);
  MlirValue init = a;
  if (!prod && !sub && (prod = fusable_mul(s, a, n->op)))
    init = c;
  if (!prod)
    return; /* a plain add or sub of the data */
  prod->fused = true;
  prod->wide_uses++;
  n->wide = npuc_build_binary(&b, sub ? "arith.subi" : "arith.addi",
                              ups(s, &b, init, acc), prod->wide);
}

static intptr_t count_uses(MlirValue v) {
  intptr_t k = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    ++k;
  return k;
}

/* srs where the plain value is used: right after the accumulator (before
 * the original op, where the wide ops went). */
static void narrow_results(fx_state *s) {
  for (size_t i = 0; i < s->num_nodes; ++i) {
    fx_node *n = &s->nodes[i];
    MlirValue r = mlirOperationGetResult(n->op, 0);
    if (!n->wide.ptr || count_uses(r) <= n->wide_uses)
      continue;
    npuc_builder b = npuc_builder_before(n->op);
    MlirType acc = mlirValueGetType(n->wide);
    MlirValue shifted =
        npuc_build_binary(&b, "arith.shrsi", n->wide, shift_value(s, acc));
    mlirValueReplaceAllUsesOfWith(
        r, npuc_build_int_cast(&b, shifted, mlirValueGetType(r)));
  }
}

/* The original multiplies and accumulations, users first. */
static void erase_replaced(fx_state *s) {
  for (size_t i = s->num_nodes; i-- > 0;)
    if (s->nodes[i].wide.ptr)
      mlirOperationDestroy(s->nodes[i].op);
}
