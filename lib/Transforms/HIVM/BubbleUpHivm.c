/* Bubble-up patterns for HIVM ops: each rewrites a marked slice of an HIVM
 * op's result into the op computing only that slice, from marked slices of
 * its operands. HIVM ops are unregistered in MLIR: their operand groups come
 * from the op table (npuc_operand_group), and a rebuilt op keeps the
 * original's attributes, operandSegmentSizes included. */
#include "BubbleUpInternal.h"
#include "npuc/PtrSet.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPERANDS 64

static int group_index(npuc_bubble_ctx *bc, const npuc_op_def *def,
                       const char *name);

static inline const struct bub_def_slot *def_slot(npuc_bubble_ctx *bc,
                                                  MlirOperation op);

const npuc_op_def *bub_def(npuc_bubble_ctx *bc, MlirOperation op) {
  return def_slot(bc, op)->def;
}

static const struct bub_def_slot *fill_def_slot(npuc_bubble_ctx *bc,
                                                MlirIdentifier id, size_t slot);

/* The cache slot of op's name (asked about every op a pattern looks at). */
static inline const struct bub_def_slot *def_slot(npuc_bubble_ctx *bc,
                                                  MlirOperation op) {
  MlirIdentifier id = mlirOperationGetName(op);
  size_t slot =
      ((uintptr_t)id.ptr >> 4) % (sizeof bc->defs / sizeof bc->defs[0]);
  if (bc->defs[slot].name == id.ptr)
    return &bc->defs[slot];
  return fill_def_slot(bc, id, slot);
}

/* def_slot on a miss: looks the name up in the op table. */
static const struct bub_def_slot *
fill_def_slot(npuc_bubble_ctx *bc, MlirIdentifier id, size_t slot) {
  MlirStringRef n = mlirIdentifierStr(id);
  const npuc_op_def *def = n.length < 9 || memcmp(n.data, "hivm.hir.", 9) != 0
                               ? NULL
                               : npuc_op_lookup(bc->reg, n.data, n.length);
  bc->defs[slot].name = id.ptr;
  bc->defs[slot].def = def;
  bc->defs[slot].elementwise = def &&
                               npuc_op_has_trait(def, NPUC_TRAIT_ELEMENTWISE) &&
                               def->dps_inits >= 0;
  bc->defs[slot].ew_groups = def && group_index(bc, def, "src") >= 0 &&
                             group_index(bc, def, "dst") >= 0;
  return &bc->defs[slot];
}

/* npuc_op_find_operand, remembered per run: `name` is a literal. */
static int group_index(npuc_bubble_ctx *bc, const npuc_op_def *def,
                       const char *name) {
  size_t n = sizeof bc->group_index / sizeof bc->group_index[0];
  size_t slot =
      npuc_hash_ptr((const void *)((uintptr_t)def ^ (uintptr_t)name)) % n;
  if (bc->group_index[slot].def != def || bc->group_index[slot].name != name) {
    bc->group_index[slot].def = def;
    bc->group_index[slot].name = name;
    bc->group_index[slot].index = npuc_op_find_operand(def, name);
  }
  return bc->group_index[slot].index;
}

/* The operand count of each group of `op` (of definition `def`), through
 * the run's cache; returns the number of groups, -1 when the operands do
 * not fit the definition. */
static int group_sizes(npuc_bubble_ctx *bc, const npuc_op_def *def,
                       MlirOperation op, int32_t *sizes) {
  return npuc_operand_group_sizes_cached(&bc->groups, def, op, sizes)
             ? (int)def->num_operands
             : -1;
}

/* Operand group `name` of the producer. */
static bool group(bub_rw *r, const char *name, intptr_t *first,
                  intptr_t *count) {
  if (r->last_group == name) {
    *first = r->last_first;
    *count = r->last_count;
    return true;
  }
  if (r->ngroups == 0) {
    r->producer_def = bub_def(r->bc, r->producer);
    r->ngroups = r->producer_def ? group_sizes(r->bc, r->producer_def,
                                               r->producer, r->group_sizes)
                                 : -1;
  }
  int g = r->ngroups > 0 ? group_index(r->bc, r->producer_def, name) : -1;
  if (g < 0)
    return false;
  *first = 0;
  for (int i = 0; i < g; i++)
    *first += r->group_sizes[i];
  *count = r->group_sizes[g];
  r->last_group = name;
  r->last_first = *first;
  r->last_count = *count;
  return true;
}

static intptr_t copy_operands(MlirOperation op, MlirValue *out) {
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n > MAX_OPERANDS)
    return -1;
  for (intptr_t i = 0; i < n; i++)
    out[i] = mlirOperationGetOperand(op, i);
  return n;
}

/* Result types of the producer with every tensor result sliced by S. */
static bool sliced_results(bub_rw *r, MlirType *out, intptr_t *n) {
  *n = mlirOperationGetNumResults(r->producer);
  if (*n > MAX_OPERANDS)
    return false;
  for (intptr_t i = 0; i < *n; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(r->producer, i));
    bub_type_info ti;
    if (!mlirTypeEqual(t, mlirValueGetType(r->source)) &&
        (ti = bub_type(r->bc, t), !ti.ranked_tensor || ti.rank != r->s.rank))
      return false;
    out[i] = bub_sliced_type(r, t, &r->s, NULL);
  }
  return true;
}

static bool operands_ok(bub_rw *r, const MlirValue *ops, intptr_t first,
                        intptr_t count, bool scalars);

/* Is every operand of the group a tensor of the slice's rank (or, with
 * `scalars`, a scalar)? Patterns check everything before they create
 * anything: a pattern that fails must leave the IR as it was. */
static bool group_ok(bub_rw *r, const char *name, bool scalars) {
  intptr_t first, count;
  return group(r, name, &first, &count) &&
         operands_ok(r, NULL, first, count, scalars);
}

/* The same for the producer's operands first .. first+count-1, read from
 * `ops` when the caller has them. */
static bool operands_ok(bub_rw *r, const MlirValue *ops, intptr_t first,
                        intptr_t count, bool scalars) {
  MlirType rt = mlirValueGetType(r->source);
  for (intptr_t i = first; i < first + count; i++) {
    MlirType t = mlirValueGetType(
        ops ? ops[i] : mlirOperationGetOperand(r->producer, i));
    if (mlirTypeEqual(t, rt))
      continue;
    bub_type_info ti = bub_type(r->bc, t);
    if (scalars && ti.rank < 0 && !mlirTypeIsAShaped(t))
      continue;
    if (!ti.ranked_tensor || ti.rank != r->s.rank)
      return false;
  }
  return true;
}

/* Slices every operand of a group by S (the inits of DPS ops); group_ok
 * has accepted it. */
static void slice_group(bub_rw *r, const char *name, MlirValue *ops) {
  intptr_t first, count;
  group(r, name, &first, &count);
  for (intptr_t i = first; i < first + count; i++)
    ops[i] = bub_extract(r, ops[i], &r->s, NULL, true, (MlirOperation){NULL});
}

/* What a rewrite rebuilds the producer from: its operands, sliced in place
 * by the pattern, and its result types, sliced. */
typedef struct {
  MlirValue ops[MAX_OPERANDS];
  MlirType res[MAX_OPERANDS];
  intptr_t nops, nres;
} rebuild_frame;

/* False when the producer has too many operands or results, or a result
 * the slice does not fit. */
static bool frame_read(bub_rw *r, rebuild_frame *f) {
  f->nops = copy_operands(r->producer, f->ops);
  return f->nops >= 0 && sliced_results(r, f->res, &f->nres);
}

/* The producer rebuilt from the frame; with `slice_dst`, its "dst"
 * operands (the inits) sliced first. */
static void frame_rebuild(bub_rw *r, rebuild_frame *f, bool slice_dst) {
  if (slice_dst)
    slice_group(r, "dst", f->ops);
  bub_rebuild(r, f->nops, f->ops, f->nres, f->res, 0, NULL, NULL);
}

static bool contains(const int64_t *v, intptr_t n, int64_t x) {
  for (intptr_t i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

/* Keeps the dims of `dims` whose sliced size is not a static 1. */
static intptr_t still_broadcast(bub_rw *r, const int64_t *dims, intptr_t n,
                                int64_t *out) {
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    int64_t d = dims[i], c;
    if (d < 0 || d >= r->s.rank)
      continue;
    if (mlirValueIsNull(r->s.size[d].v) && bub_const(r->s.size[d], &c) &&
        c == 1)
      continue;
    out[k++] = d;
  }
  return k;
}

/* ---- elementwise: every v* op with tensor semantics -------------------- */

bool bub_applies_elementwise(npuc_bubble_ctx *bc, MlirOperation p) {
  return def_slot(bc, p)->elementwise && mlirOperationGetNumResults(p) > 0;
}

static bool identity_perm(MlirAttribute a) {
  int64_t v[BUB_MAX_RANK];
  intptr_t n = bub_i64_array(a, v, BUB_MAX_RANK);
  for (intptr_t i = 0; i < n && i < BUB_MAX_RANK; i++)
    if (v[i] != i)
      return false;
  return n >= 0;
}

/* What the in-place rewrite of one elementwise op needs, all checked
 * before anything is created. */
typedef struct {
  MlirOperation op;
  MlirValue result; /* the sliced one */
  intptr_t nops, nres;
  intptr_t first, count, dfirst, dcount; /* the `src` and `dst` groups */
  MlirValue ops[MAX_OPERANDS];
  MlirType res[MAX_OPERANDS];
  int64_t bdims[BUB_MAX_RANK];
  intptr_t nb;
  /* The operand the op above it in the run computes: it is left as it is,
   * since that op shrinks to exactly its slice (-1: none). */
  intptr_t follow;
} ew_plan;

/* Ops rewritten by one application at most; a longer chain takes several
 * (the slice climbs from one run to the next). Each application also
 * costs the driver a visit and the run a new top slice: a 5000-op chain
 * took 313 applications at 16 per run, 20 at 256 (4% of
 * hivm-bind-sub-block). The plans live in the pattern state, made at the
 * first run (300 KB). */
#define EW_RUN 256

static ew_plan *ew_plans(npuc_bubble_ctx *bc);
static const char *ew_check(bub_rw *r, ew_plan *p);
static int ew_extend_run(bub_rw *r, ew_plan *run);
static void ew_focus(bub_rw *r, const ew_plan *p);
static void focus_on(bub_rw *r, MlirValue result);
static void ew_slice_operands(bub_rw *r, ew_plan *p, MlirNamedAttribute *set,
                              intptr_t *nset, const char **drop);

/* The slice's producer is rewritten in place or rebuilt (bub_rebuild). In
 * place, the elementwise ops above it whose one result only it reads, and
 * so on up a chain, shrink in the same application: each keeps reading the
 * op above, which now computes exactly the slice it needs, so no slice is
 * made and moved per op of the chain, only at the top of the run. */
bool bub_rewrite_elementwise(bub_rw *r) {
  ew_plan one, *run = ew_plans(r->bc);
  if (!run)
    run = &one; /* out of memory: runs of one op */
  const char *why = ew_check(r, &run[0]);
  if (why)
    return bub_refuse(r, why);
  bub_prepare_in_place(r);
  int n = r->in_place && run != &one ? ew_extend_run(r, run) : 1;
  MlirNamedAttribute set[1];
  intptr_t nset;
  const char *drop[] = {NULL, NULL};
  /* Top down: the topmost op slices its operands first, so the slice
   * being rewritten climbs there (bub_extract reuses it). */
  for (int i = n - 1; i > 0; i--) {
    ew_focus(r, &run[i]);
    ew_slice_operands(r, &run[i], set, &nset, drop);
    bub_shrink_in_place(r, run[i].op, run[i].nops, run[i].ops, run[i].nres,
                        run[i].res, nset, set, drop);
    r->bc->num_rewrites++;
  }
  if (n > 1)
    ew_focus(r, &run[0]);
  ew_slice_operands(r, &run[0], set, &nset, drop);
  bub_rebuild(r, run[0].nops, run[0].ops, run[0].nres, run[0].res, nset, set,
              drop);
  return true;
}

/* Room for EW_RUN plans, or NULL when out of memory. */
static ew_plan *ew_plans(npuc_bubble_ctx *bc) {
  if (!bc->ew_plans)
    bc->ew_plans = malloc(EW_RUN * sizeof(ew_plan));
  return bc->ew_plans;
}

/* Fills `p` for r->producer; the reason it cannot be rewritten, or NULL. */
static const char *ew_check(bub_rw *r, ew_plan *p) {
  p->op = r->producer;
  p->result = r->source;
  p->follow = -1;
  p->nops = copy_operands(r->producer, p->ops);
  bool bare = npuc_table_op_bare(bub_def(r->bc, r->producer), r->producer);
  MlirAttribute tr = bare ? (MlirAttribute){NULL}
                          : npuc_table_op_attr_lit(r->producer, "transpose");
  if (!mlirAttributeIsNull(tr) && !identity_perm(tr))
    return "elementwise op with a transpose";
  if (p->nops < 0 || !sliced_results(r, p->res, &p->nres) ||
      !group(r, "src", &p->first, &p->count))
    return "results are not tensors of the slice's rank";
  p->nb = bare ? -1
               : bub_i64_array(npuc_table_op_attr_lit(r->producer, "broadcast"),
                               p->bdims, BUB_MAX_RANK);
  if (p->nb > BUB_MAX_RANK)
    return "bad broadcast attribute";
  if (!group(r, "dst", &p->dfirst, &p->dcount) ||
      !operands_ok(r, p->ops, p->first, p->count, true) ||
      !operands_ok(r, p->ops, p->dfirst, p->dcount, false))
    return "an operand is not a scalar or a tensor of the result's rank";
  return NULL;
}

/* Makes the op of p (of `result`) r's producer: the sliced result, its
 * operand groups (read again) and the insertion point in front of it. */
static void ew_focus(bub_rw *r, const ew_plan *p) { focus_on(r, p->result); }

static void focus_on(bub_rw *r, MlirValue result) {
  r->producer = mlirOpResultGetOwner(result);
  r->source = result;
  r->result_index = mlirOpResultGetResultNumber(result);
  r->ngroups = 0;
  r->last_group = NULL;
  mlirRewriterBaseSetInsertionPointBefore(r->rw, r->producer);
}

/* The `src` operand of p's op that an elementwise op above can compute in
 * place with the same slice: of p's result type (so a broadcast dim of
 * size 1 cannot take another part), that op's one result, read once, with
 * the slice's sizes and offsets available before it. -1 if none. */
static bool slice_dominates(bub_rw *r, MlirOperation q);

static intptr_t ew_follow(bub_rw *r, const ew_plan *p, MlirType rt) {
  bub_type_info ti = bub_type(r->bc, rt);
  for (int d = 0; d < r->s.rank; d++)
    if (ti.shape[d] == 1 && contains(p->bdims, p->nb, d))
      return -1;
  for (intptr_t i = p->first; i < p->first + p->count; i++) {
    MlirValue v = p->ops[i];
    if (!mlirValueIsAOpResult(v) || !mlirTypeEqual(mlirValueGetType(v), rt))
      continue;
    MlirOperation q = mlirOpResultGetOwner(v);
    MlirOpOperand u = mlirValueGetFirstUse(v);
    if (!bub_applies_elementwise(r->bc, q) ||
        mlirOperationGetNumResults(q) != 1 ||
        mlirOperationGetNumRegions(q) != 0 ||
        !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      continue;
    if (slice_dominates(r, q))
      return i;
  }
  return -1;
}

static bool defined_outside(MlirValue v, MlirBlock b);

/* Are the slice's dynamic offsets and sizes available before `q`? The ops
 * of a run sit in one block, and the parts are mostly computed outside it
 * (sub-block offsets are, in front of the sub-block loop): then they
 * dominate the whole block, which is remembered for the next op. */
static bool slice_dominates(bub_rw *r, MlirOperation q) {
  MlirBlock b = mlirOperationGetBlock(q);
  if (mlirBlockEqual(b, r->parts_dominate))
    return true;
  bool outside = true;
  for (int d = 0; d < r->s.rank; d++) {
    MlirValue parts[2] = {r->s.off[d].v, r->s.size[d].v};
    for (int k = 0; k < 2; k++) {
      if (mlirValueIsNull(parts[k]))
        continue;
      if (!bub_dominates(parts[k], q))
        return false;
      outside = outside && defined_outside(parts[k], b);
    }
  }
  if (outside)
    r->parts_dominate = b;
  return true;
}

/* Is `v` defined in another block than `b` (so, dominating an op of `b`,
 * it dominates them all)? */
static bool defined_outside(MlirValue v, MlirBlock b) {
  MlirBlock at = mlirValueIsABlockArgument(v)
                     ? mlirBlockArgumentGetOwner(v)
                     : mlirOperationGetBlock(mlirOpResultGetOwner(v));
  return !mlirBlockEqual(at, b);
}

/* Extends run[0] (r's producer, in place) upwards; returns its length.
 * Leaves r focused on run[0]. */
static int ew_extend_run(bub_rw *r, ew_plan *run) {
  MlirType rt = mlirValueGetType(r->source);
  int n = 1;
  while (n < EW_RUN) {
    intptr_t f = ew_follow(r, &run[n - 1], rt);
    if (f < 0)
      break;
    focus_on(r, run[n - 1].ops[f]);
    if (ew_check(r, &run[n]))
      break;
    run[n - 1].follow = f;
    n++;
  }
  ew_focus(r, &run[0]);
  return n;
}

/* Slices p's operands by S (but the one it follows), and says what
 * becomes of its `broadcast` attribute. */
static void ew_slice_operands(bub_rw *r, ew_plan *p, MlirNamedAttribute *set,
                              intptr_t *nset, const char **drop) {
  MlirType rt = mlirValueGetType(r->source);
  int64_t out[BUB_MAX_RANK], in[BUB_MAX_RANK];
  memcpy(out, bub_type(r->bc, rt).shape, sizeof out[0] * (size_t)r->s.rank);
  for (intptr_t i = p->first; i < p->first + p->count; i++) {
    if (i == p->follow)
      continue;
    MlirType t = mlirValueGetType(p->ops[i]);
    if (mlirTypeEqual(t, rt)) {
      memcpy(in, out, sizeof out);
    } else {
      bub_type_info ti = bub_type(r->bc, t);
      if (ti.rank < 0 && !mlirTypeIsAShaped(t))
        continue; /* scalar operands pass through */
      memcpy(in, ti.shape, sizeof in[0] * (size_t)r->s.rank);
    }
    const bub_slice *use = &r->s;
    bub_slice os;
    for (int d = 0; d < r->s.rank; d++) {
      if (in[d] == 1 && (out[d] != 1 || contains(p->bdims, p->nb, d))) {
        if (use != &os)
          os = r->s;
        use = &os;
        os.off[d] = bub_c(0); /* a broadcast dim stays whole */
        os.size[d] = bub_c(1);
      }
    }
    p->ops[i] =
        bub_extract(r, p->ops[i], use, NULL, true, (MlirOperation){NULL});
  }
  for (intptr_t i = p->dfirst; i < p->dfirst + p->dcount; i++)
    p->ops[i] =
        bub_extract(r, p->ops[i], &r->s, NULL, true, (MlirOperation){NULL});
  *nset = 0;
  drop[0] = NULL;
  if (p->nb > 0) {
    int64_t kept[BUB_MAX_RANK];
    intptr_t nk = still_broadcast(r, p->bdims, p->nb, kept);
    if (nk > 0)
      set[(*nset)++] =
          bub_named(r, "broadcast", bub_i64_array_attr(r->ctx, kept, nk));
    else
      drop[0] = "broadcast";
  }
}

/* The promise (bub_pattern.certain). With one result of type t, no
 * transpose or broadcast attribute and every operand a scalar or of type t,
 * ew_check accepts any full-rank slice of the result: its results are t,
 * its `src` and `dst` groups hold scalars and tensors of t. And
 * ew_slice_operands cuts every tensor alike, as no dim is a broadcast one. */
bool bub_certain_elementwise(npuc_bubble_ctx *bc, MlirOperation p, MlirType t) {
  const struct bub_def_slot *ds = def_slot(bc, p);
  /* The operands fit the groups (ew_check reads them): the op verifies. */
  if (!ds->ew_groups || !bub_type(bc, t).ranked_tensor ||
      mlirOperationGetNumResults(p) != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(p, 0)), t))
    return false;
  if (!npuc_table_op_bare(ds->def, p) &&
      (!mlirAttributeIsNull(npuc_table_op_attr_lit(p, "transpose")) ||
       !mlirAttributeIsNull(npuc_table_op_attr_lit(p, "broadcast"))))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(p); i++) {
    MlirType ot = mlirValueGetType(mlirOperationGetOperand(p, i));
    if (!mlirTypeEqual(ot, t) &&
        (bub_type(bc, ot).rank >= 0 || mlirTypeIsAShaped(ot)))
      return false;
  }
  return true;
}

/* ---- broadcast: hivm.hir.vbrc ------------------------------------------- */

bool bub_rewrite_broadcast(bub_rw *r) {
  rebuild_frame f;
  intptr_t first, count;
  if (!frame_read(r, &f) || !group(r, "src", &first, &count) || count != 1)
    return bub_refuse(r, "unexpected vbrc operands");
  MlirType rt = mlirValueGetType(r->source);
  MlirType st = mlirValueGetType(f.ops[first]);
  bool tensor_src = mlirTypeIsAShaped(st);
  if (tensor_src && (!bub_is_ranked_tensor(st) || bub_rank(st) != r->s.rank))
    return bub_refuse(r, "vbrc input is not a tensor of the result's rank");
  int64_t bdims[BUB_MAX_RANK];
  MlirAttribute battr = bub_attr(r->producer, "broadcast_dims");
  intptr_t nb = bub_i64_array(battr, bdims, BUB_MAX_RANK);
  if (nb > BUB_MAX_RANK)
    return bub_refuse(r, "bad broadcast_dims attribute");
  if (nb < 0 && tensor_src) { /* implicit: the unit dims that grow */
    nb = 0;
    for (int d = 0; d < r->s.rank; d++)
      if (bub_dim_size(st, d) == 1 && bub_dim_size(rt, d) != 1)
        bdims[nb++] = d;
    battr = mlirAttributeGetNull();
  }
  if (!group_ok(r, "dst", false))
    return bub_refuse(r, "a vbrc init is not a tensor of the result's rank");
  bub_prepare_in_place(r);
  MlirValue src_slice = f.ops[first];
  if (tensor_src) {
    bub_slice os = r->s;
    for (intptr_t i = 0; i < nb; i++) {
      os.off[bdims[i]] = bub_c(0);
      os.size[bdims[i]] = bub_c(1);
    }
    src_slice =
        bub_extract(r, f.ops[first], &os, NULL, true, (MlirOperation){NULL});
  }
  int64_t kept[BUB_MAX_RANK];
  intptr_t nk = still_broadcast(r, bdims, nb, kept);
  /* Nothing left to broadcast: the slice of the input is the answer. */
  if (tensor_src && nk == 0 &&
      mlirTypeEqual(mlirValueGetType(src_slice), f.res[r->result_index])) {
    bub_replace(r, src_slice);
    return true;
  }
  f.ops[first] = src_slice;
  slice_group(r, "dst", f.ops);
  MlirNamedAttribute set[1];
  intptr_t nset = 0;
  if (!mlirAttributeIsNull(battr))
    set[nset++] =
        bub_named(r, "broadcast_dims", bub_i64_array_attr(r->ctx, kept, nk));
  bub_rebuild(r, f.nops, f.ops, f.nres, f.res, nset, set, NULL);
  return true;
}

/* ---- reduce: hivm.hir.vreduce (and other reduction-trait ops) ------------ */

bool bub_applies_reduce(npuc_bubble_ctx *bc, MlirOperation p) {
  const npuc_op_def *def = bub_def(bc, p);
  return def && npuc_op_has_trait(def, NPUC_TRAIT_REDUCTION) &&
         bub_has_attr(p, "reduce_dims") && mlirOperationGetNumResults(p) > 0;
}

bool bub_rewrite_reduce(bub_rw *r) {
  rebuild_frame f;
  intptr_t first, count;
  int64_t rdims[BUB_MAX_RANK];
  intptr_t nr =
      bub_i64_array(bub_attr(r->producer, "reduce_dims"), rdims, BUB_MAX_RANK);
  if (nr < 0 || nr > BUB_MAX_RANK || !frame_read(r, &f) ||
      !group(r, "src", &first, &count))
    return bub_refuse(r, "unexpected reduce operands");
  for (intptr_t i = 0; i < nr; i++) {
    int64_t d = rdims[i];
    if (d < 0 || d >= r->s.rank || !bub_is(r->s.off[d], 0) ||
        !bub_is(r->s.size[d], 1))
      return bub_refuse(r, "the slice cuts a reduced dimension");
  }
  if (!group_ok(r, "src", true) || !group_ok(r, "dst", false))
    return bub_refuse(r, "a reduce operand is not a tensor of the result's "
                         "rank");
  bub_prepare_in_place(r);
  for (intptr_t i = first; i < first + count; i++) {
    if (!mlirTypeIsAShaped(mlirValueGetType(f.ops[i])))
      continue;
    bub_slice os = r->s;
    for (intptr_t k = 0; k < nr; k++) { /* reduced dims stay whole */
      os.off[rdims[k]] = bub_c(0);
      os.size[rdims[k]] = bub_dim(r, f.ops[i], rdims[k]);
    }
    f.ops[i] = bub_extract(r, f.ops[i], &os, NULL, true, (MlirOperation){NULL});
  }
  frame_rebuild(r, &f, true);
  return true;
}

/* ---- transpose: hivm.hir.vtranspose ------------------------------------ */

bool bub_rewrite_transpose(bub_rw *r) {
  rebuild_frame f;
  intptr_t first, count;
  int64_t perm[BUB_MAX_RANK];
  intptr_t np =
      bub_i64_array(bub_attr(r->producer, "permutation"), perm, BUB_MAX_RANK);
  if (np != r->s.rank || !frame_read(r, &f) ||
      !group(r, "src", &first, &count) || count != 1)
    return bub_refuse(r, "unexpected vtranspose operands");
  MlirType t = mlirValueGetType(f.ops[first]);
  if (!bub_is_ranked_tensor(t) || bub_rank(t) != r->s.rank)
    return bub_refuse(r, "vtranspose input is not a tensor");
  bub_slice os = r->s;
  bool seen[BUB_MAX_RANK] = {false};
  for (int i = 0; i < r->s.rank; i++) { /* result dim i is input dim perm[i] */
    if (perm[i] < 0 || perm[i] >= r->s.rank || seen[perm[i]])
      return bub_refuse(r, "bad permutation");
    seen[perm[i]] = true;
    os.off[perm[i]] = r->s.off[i];
    os.size[perm[i]] = r->s.size[i];
  }
  if (!group_ok(r, "dst", false))
    return bub_refuse(r, "a vtranspose init is not a tensor");
  bub_prepare_in_place(r);
  f.ops[first] =
      bub_extract(r, f.ops[first], &os, NULL, true, (MlirOperation){NULL});
  frame_rebuild(r, &f, true);
  return true;
}

/* ---- interleave: hivm.hir.vinterleave ------------------------------------ */

bool bub_rewrite_interleave(bub_rw *r) {
  rebuild_frame f;
  intptr_t first, count;
  int last = r->s.rank - 1;
  if (last < 0 || !frame_read(r, &f) || !group(r, "src", &first, &count))
    return bub_refuse(r, "unexpected vinterleave operands");
  if (!bub_slice_full_dim(&r->s, r->source, last))
    return bub_refuse(r, "the slice cuts the interleaved (last) dimension");
  if (!group_ok(r, "src", false) || !group_ok(r, "dst", false))
    return bub_refuse(r, "a vinterleave operand is not a tensor");
  bub_prepare_in_place(r);
  for (intptr_t i = first; i < first + count; i++) {
    bub_slice os = r->s;
    os.off[last] = bub_c(0);
    os.size[last] = bub_dim(r, f.ops[i], last);
    f.ops[i] = bub_extract(r, f.ops[i], &os, NULL, true, (MlirOperation){NULL});
  }
  frame_rebuild(r, &f, true);
  return true;
}

/* ---- arange: hivm.hir.varange ----------------------------------------------
 */

bool bub_rewrite_arange(bub_rw *r) {
  MlirType res[MAX_OPERANDS];
  intptr_t nres, ofirst, ocount, sfirst, scount, dfirst, dcount;
  if (!sliced_results(r, res, &nres) || !group(r, "offset", &ofirst, &ocount) ||
      !group(r, "strides", &sfirst, &scount) ||
      !group(r, "dst", &dfirst, &dcount) || scount != r->s.rank || dcount != 1)
    return bub_refuse(r, "varange needs one stride per dimension");
  if (!group_ok(r, "dst", false))
    return bub_refuse(r, "a varange init is not a tensor");
  bub_prepare_in_place(r);
  /* dst[i] = offset + sum(i_k * stride_k): the slice starts at its offsets. */
  bub_ofr off =
      ocount ? bub_v(mlirOperationGetOperand(r->producer, ofirst)) : bub_c(0);
  for (int k = 0; k < r->s.rank; k++)
    off = bub_add(
        r, off,
        bub_mul(r, r->s.off[k],
                bub_v(mlirOperationGetOperand(r->producer, sfirst + k))));
  MlirValue ops[MAX_OPERANDS];
  intptr_t n = 0;
  if (ocount || !bub_is(off, 0))
    ops[n++] = bub_value(r, off);
  for (intptr_t k = 0; k < scount; k++)
    ops[n++] = mlirOperationGetOperand(r->producer, sfirst + k);
  ops[n++] = bub_extract(r, mlirOperationGetOperand(r->producer, dfirst), &r->s,
                         NULL, true, (MlirOperation){NULL});
  int32_t seg[3] = {ocount || !bub_is(off, 0) ? 1 : 0, (int32_t)scount, 1};
  MlirNamedAttribute set =
      bub_named(r, "operandSegmentSizes", mlirDenseI32ArrayGet(r->ctx, 3, seg));
  bub_rebuild(r, n, ops, nres, res, 1, &set, NULL);
  return true;
}

/* ---- bitcast: hivm.hir.bitcast
 * ----------------------------------------------- */

bool bub_rewrite_bitcast(bub_rw *r) {
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  MlirType st = mlirValueGetType(src), rt = mlirValueGetType(r->source);
  if (!bub_is_ranked_tensor(st) || bub_rank(st) != r->s.rank)
    return bub_refuse(r, "bitcast of a non-tensor or across ranks");
  for (int d = 0; d < r->s.rank; d++)
    if (bub_dim_size(st, d) != bub_dim_size(rt, d))
      return bub_refuse(r, "bitcast changes the shape");
  bub_prepare_in_place(r);
  MlirValue ns = bub_extract(r, src, &r->s, NULL, true, (MlirOperation){NULL});
  MlirType res = bub_slice_tensor_type(rt, &r->s, NULL);
  bub_rebuild(r, 1, &ns, 1, &res, 0, NULL, NULL);
  return true;
}

/* ---- load: hivm.hir.load with a tensor result (a stop point) ------------- */

static bool zero_or_absent(bub_rw *r, const char *name) {
  intptr_t first, count;
  if (!group(r, name, &first, &count))
    return false;
  return count == 0 ||
         bub_is(bub_v(mlirOperationGetOperand(r->producer, first)), 0);
}

bool bub_rewrite_load(bub_rw *r) {
  rebuild_frame f;
  intptr_t first, count;
  if (!frame_read(r, &f) || !group(r, "src", &first, &count) || count != 1)
    return bub_refuse(r, "unexpected load operands");
  if (!zero_or_absent(r, "left_padding_num") ||
      !zero_or_absent(r, "right_padding_num"))
    return bub_refuse(r, "load with padding");
  MlirAttribute tr =
      bub_attr(r->producer, "may_implicit_transpose_with_last_axis");
  if (!mlirAttributeIsNull(tr) && mlirAttributeIsABool(tr) &&
      mlirBoolAttrGetValue(tr))
    return bub_refuse(r, "load that may transpose");
  MlirValue src = f.ops[first];
  MlirType st = mlirValueGetType(src), rt = mlirValueGetType(r->source);
  if (!mlirShapedTypeHasRank(st) || bub_rank(st) != r->s.rank)
    return bub_refuse(r, "load source of another rank");
  for (int d = 0; d < r->s.rank; d++)
    if (bub_dim_size(st, d) != BUB_DYN && bub_dim_size(rt, d) != BUB_DYN &&
        bub_dim_size(st, d) != bub_dim_size(rt, d))
      return bub_refuse(r, "load source and result shapes differ");
  int64_t strides[BUB_MAX_RANK], offset;
  if (mlirTypeIsAMemRef(st) &&
      mlirLogicalResultIsFailure(
          mlirMemRefTypeGetStridesAndOffset(st, strides, &offset)))
    return bub_refuse(r, "load source layout has no strides");
  if (!group_ok(r, "dst", false))
    return bub_refuse(r, "a load init is not a tensor of the result's rank");
  bub_prepare_in_place(r);
  if (mlirTypeIsAMemRef(st))
    f.ops[first] = bub_subview(r, src, &r->s);
  else
    f.ops[first] =
        bub_extract(r, src, &r->s, NULL, true, (MlirOperation){NULL});
  frame_rebuild(r, &f, true);
  return true;
}

/* ---- pointwise loads: indirect_load, gather_load from a flat base -------- */

bool bub_applies_pointwise_load(npuc_bubble_ctx *bc, MlirOperation p) {
  (void)bc;
  if (mlirOperationGetNumResults(p) != 1)
    return false;
  if (npuc_op_is(p, "hivm.hir.indirect_load"))
    return true;
  /* Gathering from a flat base, each element depends only on its index. */
  return npuc_op_is(p, "hivm.hir.gather_load") &&
         mlirOperationGetNumOperands(p) > 0 &&
         bub_rank(mlirValueGetType(mlirOperationGetOperand(p, 0))) == 1;
}

bool bub_rewrite_pointwise_load(bub_rw *r) {
  rebuild_frame f;
  if (!frame_read(r, &f))
    return bub_refuse(r, "unexpected load operands");
  MlirType rt = mlirValueGetType(r->source);
  for (intptr_t i = 0; i < f.nops; i++) {
    MlirType t = mlirValueGetType(f.ops[i]);
    if (!mlirTypeIsAShaped(t) || mlirTypeIsAMemRef(t))
      continue; /* scalars and the memory base pass through */
    if (!bub_is_ranked_tensor(t) || bub_rank(t) != r->s.rank)
      return bub_refuse(r, "a tensor operand of another rank");
    for (int d = 0; d < r->s.rank; d++)
      if (bub_dim_size(t, d) != bub_dim_size(rt, d))
        return bub_refuse(r, "a tensor operand of another shape");
  }
  bub_prepare_in_place(r);
  for (intptr_t i = 0; i < f.nops; i++) {
    MlirType t = mlirValueGetType(f.ops[i]);
    if (mlirTypeIsAShaped(t) && !mlirTypeIsAMemRef(t))
      f.ops[i] =
          bub_extract(r, f.ops[i], &r->s, NULL, true, (MlirOperation){NULL});
  }
  frame_rebuild(r, &f, false);
  return true;
}

/* ---- stride_load ------------------------------------------------------------
 */

/* Integer arithmetic in the type of the stride_load operands, folding
 * constants. */
typedef struct {
  MlirValue v;
  int64_t c;
} ival;

static bool ival_const(ival x, int64_t *c) {
  if (mlirValueIsNull(x.v)) {
    *c = x.c;
    return true;
  }
  return bub_const(bub_v(x.v), c);
}

static MlirValue ival_value(bub_rw *r, ival x, MlirType t) {
  return mlirValueIsNull(x.v) ? bub_constant(r, t, x.c) : x.v;
}

static ival ival_op(bub_rw *r, const char *name, ival a, ival b, MlirType t) {
  int64_t x, y;
  if (ival_const(a, &x) && ival_const(b, &y)) {
    int64_t z = 0;
    if (!strcmp(name, "arith.addi"))
      z = x + y;
    else if (!strcmp(name, "arith.subi"))
      z = x - y;
    else if (!strcmp(name, "arith.muli"))
      z = x * y;
    else if (!strcmp(name, "arith.minsi"))
      z = x < y ? x : y;
    else
      z = x > y ? x : y;
    return (ival){{NULL}, z};
  }
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), r->loc);
  MlirValue ops[2] = {ival_value(r, a, t), ival_value(r, b, t)};
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &t);
  return (ival){mlirOperationGetResult(bub_create(r, &st), 0), 0};
}

/* An index ofr in integer type t. */
static ival ival_from_index(bub_rw *r, bub_ofr x, MlirType t) {
  int64_t c;
  if (bub_const(x, &c))
    return (ival){{NULL}, c};
  if (mlirTypeIsAIndex(t))
    return (ival){x.v, 0};
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("arith.index_cast"), r->loc);
  mlirOperationStateAddOperands(&st, 1, &x.v);
  mlirOperationStateAddResults(&st, 1, &t);
  return (ival){mlirOperationGetResult(bub_create(r, &st), 0), 0};
}

bool bub_rewrite_stride_load(bub_rw *r) {
  rebuild_frame f;
  intptr_t of, oc, sf, sc, nf, nc;
  if (!frame_read(r, &f) || !group(r, "offset", &of, &oc) ||
      !group(r, "strides", &sf, &sc) || !group(r, "numels", &nf, &nc) ||
      oc != 1 || sc != r->s.rank || nc != r->s.rank)
    return bub_refuse(r, "stride_load needs a stride and a count per dim");
  /* result[i] = i < numels ? src[offset + sum(i_k * stride_k)] : other */
  MlirType ot = mlirValueGetType(f.ops[of]);
  for (int k = 0; k < r->s.rank; k++)
    if (!mlirTypeEqual(mlirValueGetType(f.ops[sf + k]), ot) ||
        !mlirTypeIsAInteger(mlirValueGetType(f.ops[nf + k])))
      return bub_refuse(r, "stride_load strides and offset differ in type");
  if (!mlirTypeIsAInteger(ot) || !group_ok(r, "dst", false))
    return bub_refuse(r, "unexpected stride_load operands");
  bub_prepare_in_place(r);
  ival off = {f.ops[of], 0};
  for (int k = 0; k < r->s.rank; k++) {
    ival term = ival_op(r, "arith.muli", ival_from_index(r, r->s.off[k], ot),
                        (ival){f.ops[sf + k], 0}, ot);
    off = ival_op(r, "arith.addi", off, term, ot);
  }
  for (int k = 0; k < r->s.rank; k++) {
    MlirType nt = mlirValueGetType(f.ops[nf + k]);
    ival left = ival_op(r, "arith.subi", (ival){f.ops[nf + k], 0},
                        ival_from_index(r, r->s.off[k], nt), nt);
    left = ival_op(r, "arith.maxsi", left, (ival){{NULL}, 0}, nt);
    left = ival_op(r, "arith.minsi", left, ival_from_index(r, r->s.size[k], nt),
                   nt);
    f.ops[nf + k] = ival_value(r, left, nt);
  }
  f.ops[of] = ival_value(r, off, ot);
  frame_rebuild(r, &f, true);
  return true;
}
