/* Op builders of the bubble-up patterns. Every op is created detached and
 * inserted through the pattern rewriter (mlirRewriterBaseInsert), so the
 * greedy driver tracks it. The slices of operands (bub_extract) reuse the
 * shared slices of to_tensor results and of tensor.empty ops. */
#include "BubbleUpInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

static const MlirOperation no_op = {NULL};

/* Attribute names are string literals: their identifiers are looked up
 * once per run (MLIR uniques identifiers through a locked hash table). */
MlirNamedAttribute bub_named(bub_rw *r, const char *name, MlirAttribute a) {
  npuc_bubble_ctx *bc = r->bc;
  for (int i = 0; i < bc->nidents; i++)
    if (bc->idents[i].name == name)
      return mlirNamedAttributeGet(bc->idents[i].id, a);
  MlirIdentifier id = mlirIdentifierGet(r->ctx, bub_str(name));
  if (bc->nidents < (int)(sizeof bc->idents / sizeof bc->idents[0])) {
    bc->idents[bc->nidents].name = name;
    bc->idents[bc->nidents++].id = id;
  }
  return mlirNamedAttributeGet(id, a);
}

MlirOperation bub_create(bub_rw *r, MlirOperationState *st) {
  MlirOperation op = mlirOperationCreate(st);
  return mlirRewriterBaseInsert(r->rw, op);
}

static MlirAttribute i32_segments(MlirContext ctx, const int32_t *v,
                                  intptr_t n) {
  return mlirDenseI32ArrayGet(ctx, n, v);
}

static void add_discardable_attrs(MlirOperationState *st, MlirOperation from,
                                  const char *skip) {
  intptr_t n = mlirOperationGetNumDiscardableAttributes(from);
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(from, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (skip && name.length == strlen(skip) &&
        memcmp(name.data, skip, name.length) == 0)
      continue;
    mlirOperationStateAddAttributes(st, 1, &a);
  }
}

/* One mixed list (offsets or sizes): its static values (BUB_DYN for a
 * dynamic one) into `statics`, its dynamic values as operands; returns
 * how many those are. */
static int32_t add_mixed(MlirOperationState *st, const bub_ofr *x, int rank,
                         int64_t *statics) {
  int32_t count = 0;
  for (int i = 0; i < rank; i++) {
    if (mlirValueIsNull(x[i].v)) {
      statics[i] = x[i].c;
    } else {
      statics[i] = BUB_DYN;
      mlirOperationStateAddOperands(st, 1, &x[i].v);
      count++;
    }
  }
  return count;
}

void bub_add_slice_parts(bub_rw *r, MlirOperationState *st, const bub_slice *s,
                         int32_t *counts) {
  int64_t arr[3][BUB_MAX_RANK];
  counts[0] = add_mixed(st, s->off, s->rank, arr[0]);
  counts[1] = add_mixed(st, s->size, s->rank, arr[1]);
  counts[2] = 0;
  for (int i = 0; i < s->rank; i++)
    arr[2][i] = s->stride[i];
  MlirNamedAttribute attrs[3] = {
      bub_named(r, "static_offsets",
                bub_i64_array_attr(r->ctx, arr[0], s->rank)),
      bub_named(r, "static_sizes", bub_i64_array_attr(r->ctx, arr[1], s->rank)),
      bub_named(r, "static_strides",
                bub_i64_array_attr(r->ctx, arr[2], s->rank)),
  };
  mlirOperationStateAddAttributes(st, 3, attrs);
}

/* The state of a slice op `name` (tensor.extract_slice, memref.subview)
 * of `src` by `s`: its operands and all attributes but the result's. */
static MlirOperationState slice_of_state(bub_rw *r, const char *name,
                                         MlirValue src, const bub_slice *s) {
  MlirOperationState st = mlirOperationStateGet(bub_str(name), r->loc);
  mlirOperationStateAddOperands(&st, 1, &src);
  int32_t counts[3];
  bub_add_slice_parts(r, &st, s, counts);
  int32_t seg[4] = {1, counts[0], counts[1], counts[2]};
  MlirNamedAttribute a =
      bub_named(r, "operandSegmentSizes", i32_segments(r->ctx, seg, 4));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return st;
}

/* The empty tensor of `type` for a slice `s` of the empty tensor `old`.
 * When several ops share `old` as their init, they share the new one too:
 * it goes right after `old`, where a later slice of `old` finds it, so a
 * chain of N ops gets one new empty tensor rather than N. An empty tensor
 * used once is replaced where the slice is. */
static MlirValue shared_empty(bub_rw *r, MlirOperation old, MlirType type,
                              const bub_slice *s, bool *shared_place) {
  MlirValue ov = mlirOperationGetResult(old, 0);
  MlirOperation after = mlirOperationGetNextInBlock(old);
  /* One made before for another user: among the ops right after `old`. */
  MlirOperation k = after;
  for (int n = 0; n < 8 && !mlirOperationIsNull(k);
       n++, k = mlirOperationGetNextInBlock(k)) {
    if (npuc_op_is(k, "annotation.mark"))
      continue;
    if (!npuc_op_is(k, "tensor.empty"))
      break;
    MlirValue kv = mlirOperationGetResult(k, 0);
    intptr_t i = 0, nk = mlirOperationGetNumOperands(k);
    bool same = mlirTypeEqual(mlirValueGetType(kv), type);
    for (int d = 0; d < s->rank && same; d++)
      if (!mlirValueIsNull(s->size[d].v))
        same = i < nk &&
               mlirValueEqual(mlirOperationGetOperand(k, i++), s->size[d].v);
    if (same && i == nk) {
      *shared_place = true;
      return kv;
    }
  }
  MlirOpOperand u = mlirValueGetFirstUse(ov);
  bool shared = !mlirOpOperandIsNull(u) &&
                !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
  for (int d = 0; shared && d < s->rank; d++)
    shared =
        mlirValueIsNull(s->size[d].v) || bub_dominates(s->size[d].v, after);
  MlirValue e = bub_empty(r, type, s);
  if (shared)
    mlirRewriterBaseMoveOpAfter(r->rw, mlirOpResultGetOwner(e), old);
  MlirOperation mark = bub_mark_buffer_size(r, e, type, mlirValueGetType(ov));
  if (shared && !mlirOperationIsNull(mark))
    mlirRewriterBaseMoveOpAfter(r->rw, mark, mlirOpResultGetOwner(e));
  *shared_place = shared;
  return e;
}

/* A marked slice made from the slice being rewritten (which carries only
 * the mark): cloning it and setting its parts is several times cheaper
 * than building an op from an attribute list, which MLIR sorts and
 * uniques; bubbling a long chain creates one per op. */
static bool reuse_slice(bub_rw *r);
static void forget_shared(bub_rw *r);

static MlirValue extract_like_slice(bub_rw *r, MlirValue src,
                                    const bub_slice *s, MlirType type) {
  MlirValue ops[1 + 2 * BUB_MAX_RANK];
  int64_t arr[3][BUB_MAX_RANK];
  intptr_t n = 0;
  int32_t seg[4] = {1, 0, 0, 0};
  ops[n++] = src;
  for (int i = 0; i < s->rank; i++) {
    arr[0][i] = mlirValueIsNull(s->off[i].v) ? s->off[i].c : BUB_DYN;
    if (!mlirValueIsNull(s->off[i].v)) {
      ops[n++] = s->off[i].v;
      seg[1]++;
    }
  }
  for (int i = 0; i < s->rank; i++) {
    arr[1][i] = mlirValueIsNull(s->size[i].v) ? s->size[i].c : BUB_DYN;
    if (!mlirValueIsNull(s->size[i].v)) {
      ops[n++] = s->size[i].v;
      seg[2]++;
    }
    arr[2][i] = s->stride[i];
  }
  /* The template's own parts: only what differs is set. */
  const bub_slice *t = r->reused ? &r->reused_as : &r->s;
  bool same[3] = {t->rank == s->rank, t->rank == s->rank, t->rank == s->rank};
  int32_t tseg[4] = {1, 0, 0, 0};
  for (int i = 0; i < t->rank; i++) {
    tseg[1] += !mlirValueIsNull(t->off[i].v);
    tseg[2] += !mlirValueIsNull(t->size[i].v);
    if (i >= s->rank)
      continue;
    same[0] &=
        (mlirValueIsNull(t->off[i].v) ? t->off[i].c : BUB_DYN) == arr[0][i];
    same[1] &=
        (mlirValueIsNull(t->size[i].v) ? t->size[i].c : BUB_DYN) == arr[1][i];
    same[2] &= t->stride[i] == arr[2][i];
  }
  bool reuse = reuse_slice(r);
  MlirOperation op =
      reuse ? r->slice_op : mlirRewriterBaseClone(r->rw, r->slice_op);
  mlirOperationSetOperands(op, n, ops);
  static const char *const names[3] = {"static_offsets", "static_sizes",
                                       "static_strides"};
  for (int k = 0; k < 3; k++)
    if (!same[k])
      mlirOperationSetInherentAttributeByName(
          op, bub_str(names[k]), bub_i64_array_attr(r->ctx, arr[k], s->rank));
  if (memcmp(seg, tseg, sizeof seg) != 0)
    mlirOperationSetInherentAttributeByName(op, bub_str("operandSegmentSizes"),
                                            i32_segments(r->ctx, seg, 4));
  MlirValue v = mlirOperationGetResult(op, 0);
  mlirValueSetType(v, type);
  if (reuse) {
    mlirRewriterBaseFinalizeOpModification(r->rw, op);
    r->reused_as = *s;
  }
  return v;
}

/* In place, the slice being rewritten moves up to become the first new
 * marked slice of an operand, rather than a copy of it being made and the
 * slice erased: when a chain bubbles, the same slice op climbs it. Its
 * uses are remembered for bub_replace. Starts the modification of the
 * slice when it returns true. */
static bool reuse_slice(bub_rw *r) {
  if (!r->in_place || r->reused)
    return false;
  MlirOperation at = mlirRewriterBaseGetOperationAfterInsertion(r->rw);
  if (mlirOperationIsNull(at))
    return false;
  MlirValue sv = mlirOperationGetResult(r->slice_op, 0);
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(sv); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u), n++) {
    if (n == (int)(sizeof r->old_uses / sizeof r->old_uses[0]))
      return false;
    r->old_uses[n].owner = mlirOpOperandGetOwner(u);
    r->old_uses[n].index = (intptr_t)mlirOpOperandGetOperandNumber(u);
  }
  r->nold_uses = n;
  r->reused = true;
  forget_shared(r); /* in case one was the slice */
  mlirRewriterBaseMoveOpBefore(r->rw, r->slice_op, at);
  mlirRewriterBaseStartOpModification(r->rw, r->slice_op);
  return true;
}

static MlirValue build_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                               bool marked, MlirOperation attrs_from,
                               MlirType type);
static void note_shared(bub_rw *r, MlirValue src, MlirOperation k);

static bool is_slice_of(MlirOperation k, MlirValue src) {
  return npuc_op_is(k, "tensor.extract_slice") &&
         mlirValueEqual(mlirOperationGetOperand(k, 0), src);
}

/* Is `k` a marked slice of `src` (carrying nothing but the mark) of type
 * `type` taking `s`? */
static bool is_equal_slice(npuc_bubble_ctx *bc, MlirOperation k, MlirValue src,
                           MlirType type, const bub_slice *s) {
  bub_slice ks;
  if (!npuc_op_is(k, "tensor.extract_slice") ||
      !mlirValueEqual(mlirOperationGetOperand(k, 0), src) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(k, 0)), type) ||
      mlirOperationGetNumDiscardableAttributes(k) != 1 ||
      !npuc_bubble_is_marked(k) || !bub_extract_slice_read(bc, k, &ks) ||
      ks.rank != s->rank)
    return false;
  for (int d = 0; d < s->rank; d++)
    if (!bub_eq(ks.off[d], s->off[d]) || !bub_eq(ks.size[d], s->size[d]) ||
        ks.stride[d] != s->stride[d])
      return false;
  return true;
}

/* Is `tt` (a to_tensor) the tensor of a static memref.alloc, or of a
 * memory-space cast of one: a buffer the to-tensor pattern can narrow? The
 * others keep their slices where their users are. */
static bool of_local_buffer(MlirOperation tt) {
  MlirValue buf = mlirOperationGetOperand(tt, 0);
  MlirOperation def =
      mlirValueIsAOpResult(buf) ? mlirOpResultGetOwner(buf) : no_op;
  if (npuc_op_is(def, "memref.memory_space_cast")) {
    buf = mlirOperationGetOperand(def, 0);
    def = mlirValueIsAOpResult(buf) ? mlirOpResultGetOwner(buf) : no_op;
  }
  return npuc_op_is(def, "memref.alloc") &&
         mlirOperationGetNumOperands(def) == 0;
}

/* Where the one marked slice of `src` that all its readers share goes
 * (bub_extract): right after the to_tensor of a local buffer, or after the
 * constants at the top of a function for its arguments. Null when `src`
 * gets a slice per reader. */
static MlirOperation shared_slice_place(MlirValue src) {
  if (mlirValueIsABlockArgument(src)) {
    MlirBlock b = mlirBlockArgumentGetOwner(src);
    if (!npuc_op_is(mlirBlockGetParentOperation(b), "func.func"))
      return no_op; /* loop-carried values have their own patterns */
    MlirOperation k = mlirBlockGetFirstOperation(b);
    while (npuc_op_is(k, "arith.constant"))
      k = mlirOperationGetNextInBlock(k);
    return k;
  }
  MlirOperation def = mlirOpResultGetOwner(src);
  if (!npuc_op_is(def, "bufferization.to_tensor") || !of_local_buffer(def))
    return no_op;
  return mlirOperationGetNextInBlock(def);
}

/* The marked slice `s` of `src` when several ops read `src` whole: a
 * function argument, or the tensor of a buffer. Every op of a chain that
 * reads it would get its own slice, all equal, each visited by the driver
 * (and, for a buffer, merged by the to-tensor pattern once all are made).
 * Instead one slice at shared_slice_place serves them all: later rewrites
 * find it there. Null when `src` is read once, has no such place, or the
 * slice's offsets or sizes are computed after that place. */
static MlirValue shared_slice(bub_rw *r, MlirValue src, MlirType type,
                              const bub_slice *s) {
  MlirOperation at = shared_slice_place(src);
  if (mlirOperationIsNull(at) ||
      r->nshared == (int)(sizeof r->shared / sizeof r->shared[0]))
    return (MlirValue){NULL};
  /* The shared slices of `src` are the run of its marked slices at the
   * place (a slice a reader made for itself may follow them: it is not
   * looked at). */
  MlirOperation k = at;
  for (int n = 0; n < 8 && is_slice_of(k, src);
       n++, k = mlirOperationGetNextInBlock(k)) {
    if (is_equal_slice(r->bc, k, src, type, s)) {
      note_shared(r, src, k);
      return mlirOperationGetResult(k, 0);
    }
  }
  MlirOpOperand u = mlirValueGetFirstUse(src);
  if (mlirOpOperandIsNull(u) || mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return (MlirValue){NULL};
  for (int d = 0; d < s->rank; d++)
    if ((!mlirValueIsNull(s->off[d].v) && !bub_dominates(s->off[d].v, at)) ||
        (!mlirValueIsNull(s->size[d].v) && !bub_dominates(s->size[d].v, at)))
      return (MlirValue){NULL};
  MlirValue v = build_extract(r, src, s, true, no_op, type);
  k = mlirOpResultGetOwner(v);
  mlirRewriterBaseMoveOpBefore(r->rw, k, at);
  note_shared(r, src, k);
  return v;
}

/* A shared slice of a to_tensor may have to wake it (bub_wake_shared). */
static void note_shared(bub_rw *r, MlirValue src, MlirOperation k) {
  if (!mlirValueIsAOpResult(src))
    return;
  for (int i = 0; i < r->nshared; i++)
    if (mlirOperationEqual(r->shared[i], k))
      return; /* an elementwise run reads it in every op */
  r->shared[r->nshared++] = k;
}

/* Is (src, type, s) the last shared slice taken in this application? The
 * parts must be the same values and constants, not just equal ones. */
/* The shared slice of `src` by `s` this application found or made, or
 * null. */
static MlirValue recall_shared(const bub_rw *r, MlirValue src,
                               const bub_slice *s) {
  for (int k = 0; k < 2; k++) {
    const bub_slice *t = &r->shared_memo[k].s;
    if (mlirValueIsNull(r->shared_memo[k].v) ||
        !mlirValueEqual(r->shared_memo[k].src, src) || t->rank != s->rank)
      continue;
    bool same = true;
    for (int d = 0; d < s->rank && same; d++)
      same = t->off[d].v.ptr == s->off[d].v.ptr && t->off[d].c == s->off[d].c &&
             t->size[d].v.ptr == s->size[d].v.ptr &&
             t->size[d].c == s->size[d].c && t->stride[d] == s->stride[d];
    if (same)
      return r->shared_memo[k].v;
  }
  return (MlirValue){NULL};
}

static MlirValue remember_shared(bub_rw *r, MlirValue src, const bub_slice *s,
                                 MlirValue v) {
  int k = r->shared_memo_next;
  r->shared_memo_next ^= 1;
  r->shared_memo[k].src = src;
  r->shared_memo[k].v = v;
  r->shared_memo[k].s = *s;
  return v;
}

static void forget_shared(bub_rw *r) {
  r->shared_memo[0].v = r->shared_memo[1].v = (MlirValue){NULL};
}

MlirValue bub_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                      const bool *drop, bool marked, MlirOperation attrs_from) {
  bool drops = false;
  for (int i = 0; drop && i < s->rank; i++)
    drops |= drop[i];
  bool plain = marked && !drops && mlirOperationIsNull(attrs_from);
  MlirValue v = plain ? recall_shared(r, src, s) : (MlirValue){NULL};
  if (!mlirValueIsNull(v))
    return v;
  if (!drops && bub_slice_is_identity(s, src))
    return src;
  MlirType type = bub_sliced_type(r, mlirValueGetType(src), s, drop);
  MlirOperation def =
      mlirValueIsAOpResult(src) ? mlirOpResultGetOwner(src) : no_op;
  /* A marked slice of an empty tensor would become an empty tensor (the
   * empty pattern): make that directly. */
  if (marked && !drops && npuc_op_is(def, "tensor.empty")) {
    bool shared;
    v = shared_empty(r, def, type, s, &shared);
    return plain && shared ? remember_shared(r, src, s, v) : v;
  }
  if (plain) {
    v = shared_slice(r, src, type, s);
    if (!mlirValueIsNull(v))
      return remember_shared(r, src, s, v);
  }
  if (plain && mlirOperationGetNumDiscardableAttributes(r->slice_op) == 1)
    return extract_like_slice(r, src, s, type);
  return build_extract(r, src, s, marked, attrs_from, type);
}

/* A new tensor.extract_slice of type `type` (bub_extract). */
static MlirValue build_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                               bool marked, MlirOperation attrs_from,
                               MlirType type) {
  MlirOperationState st = slice_of_state(r, "tensor.extract_slice", src, s);
  if (!mlirOperationIsNull(attrs_from))
    add_discardable_attrs(&st, attrs_from, NPUC_BUBBLE_MARK);
  if (marked) {
    MlirNamedAttribute m =
        bub_named(r, NPUC_BUBBLE_MARK, mlirUnitAttrGet(r->ctx));
    mlirOperationStateAddAttributes(&st, 1, &m);
  }
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

MlirOperation bub_unslice(bub_rw *r, MlirValue v, const bub_slice *s,
                          MlirType full) {
  MlirOperationState st = mlirOperationStateGet(bub_str(BUB_UNSLICE), r->loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  int32_t counts[3];
  bub_add_slice_parts(r, &st, s, counts);
  mlirOperationStateAddResults(&st, 1, &full);
  return bub_create(r, &st);
}

MlirValue bub_empty(bub_rw *r, MlirType type, const bub_slice *sizes_of) {
  MlirOperationState st =
      mlirOperationStateGet(bub_str("tensor.empty"), r->loc);
  for (int i = 0; i < sizes_of->rank; i++)
    if (!mlirValueIsNull(sizes_of->size[i].v))
      mlirOperationStateAddOperands(&st, 1, &sizes_of->size[i].v);
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

MlirValue bub_subview(bub_rw *r, MlirValue src, const bub_slice *s) {
  if (bub_slice_is_identity(s, src))
    return src;
  return bub_view(r, src, s);
}

MlirValue bub_view(bub_rw *r, MlirValue src, const bub_slice *s) {
  MlirType t = mlirValueGetType(src);
  int64_t strides[BUB_MAX_RANK], offset = 0, shape[BUB_MAX_RANK];
  if (mlirLogicalResultIsFailure(
          mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
    return (MlirValue){NULL};
  for (int i = 0; i < s->rank; i++) {
    int64_t o, c;
    if (offset != BUB_DYN) {
      if (!bub_const(s->off[i], &o) || (o != 0 && strides[i] == BUB_DYN))
        offset = BUB_DYN;
      else if (o != 0)
        offset += o * strides[i];
    }
    if (strides[i] != BUB_DYN)
      strides[i] *= s->stride[i];
    shape[i] = mlirValueIsNull(s->size[i].v) && bub_const(s->size[i], &c)
                   ? c
                   : BUB_DYN;
  }
  MlirAttribute layout =
      mlirStridedLayoutAttrGet(r->ctx, offset, s->rank, strides);
  MlirType type =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), s->rank, shape, layout,
                        mlirMemRefTypeGetMemorySpace(t));
  MlirOperationState st = slice_of_state(r, "memref.subview", src, s);
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

static bool in_list(MlirStringRef name, const char *const *list) {
  for (; list && *list; list++)
    if (name.length == strlen(*list) &&
        memcmp(name.data, *list, name.length) == 0)
      return true;
  return false;
}

MlirOperation bub_clone_op(bub_rw *r, MlirOperation op, intptr_t nopnds,
                           const MlirValue *opnds, intptr_t nres,
                           const MlirType *res, intptr_t nset,
                           const MlirNamedAttribute *set,
                           const char *const *drop) {
  MlirOperationState st = mlirOperationStateGet(
      mlirIdentifierStr(mlirOperationGetName(op)), r->loc);
  mlirOperationStateAddOperands(&st, nopnds, opnds);
  mlirOperationStateAddResults(&st, nres, res);
  intptr_t n = mlirOperationGetNumAttributes(op);
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    bool overridden = in_list(name, drop);
    for (intptr_t k = 0; k < nset && !overridden; k++)
      overridden = mlirIdentifierEqual(set[k].name, a.name);
    if (!overridden)
      mlirOperationStateAddAttributes(&st, 1, &a);
  }
  mlirOperationStateAddAttributes(&st, nset, set);
  return bub_create(r, &st);
}

static unsigned element_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAFloat(t))
    return mlirFloatTypeGetWidth(t);
  if (mlirTypeIsAIndex(t))
    return 64;
  return 0;
}

MlirOperation bub_mark_buffer_size(bub_rw *r, MlirValue v, MlirType t,
                                   MlirType was) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (!mlirShapedTypeHasStaticShape(was) || mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(was) != rank)
    return (MlirOperation){NULL};
  unsigned bits = element_bits(mlirShapedTypeGetElementType(t));
  if (bits == 0)
    return (MlirOperation){NULL};
  intptr_t ndyn = 0;
  for (intptr_t i = 0; i < rank; i++)
    ndyn += mlirShapedTypeIsDynamicDim(t, i);
  int64_t div = r->bc->opts.strict || ndyn != 1 || r->bc->opts.sub_blocks < 1
                    ? 1
                    : r->bc->opts.sub_blocks;
  int64_t elems = 1;
  for (intptr_t i = 0; i < rank; i++) {
    int64_t d = mlirShapedTypeIsDynamicDim(t, i)
                    ? (mlirShapedTypeGetDimSize(was, i) + div - 1) / div
                    : mlirShapedTypeGetDimSize(t, i);
    elems *= d;
  }
  int64_t bytes = (elems * (int64_t)bits + 7) / 8;
  MlirOperationState st =
      mlirOperationStateGet(bub_str("annotation.mark"), r->loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  MlirNamedAttribute a =
      bub_named(r, "buffer_size_in_byte",
                mlirIntegerAttrGet(mlirIntegerTypeGet(r->ctx, 64), bytes));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return bub_create(r, &st);
}
