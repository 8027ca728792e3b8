/* Internals of the bubble-up patterns (include/npuc/BubbleUp.h): slice
 * descriptors, index arithmetic and op builders that go through the pattern
 * rewriter, so the greedy driver sees every change. */
#ifndef NPUC_BUBBLEUP_INTERNAL_H
#define NPUC_BUBBLEUP_INTERNAL_H

#include "npuc/BubbleUp.h"
#include "npuc/BuildOps.h" /* npuc_op_is */
#include "npuc/Verify.h"

#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define BUB_MAX_RANK 16
/* The name of the loop placeholder (see the scf.for pattern). */
#define BUB_UNSLICE "npuc.bubble_unslice"

/* An index that is a constant (`v` null) or an SSA value: MLIR's
 * OpFoldResult. */
typedef struct {
  MlirValue v;
  int64_t c;
} bub_ofr;

/* Offsets, sizes and strides of a slice over a source of rank `rank`. */
typedef struct {
  int rank;
  bub_ofr off[BUB_MAX_RANK];
  bub_ofr size[BUB_MAX_RANK];
  int64_t stride[BUB_MAX_RANK]; /* static; BUB_DYN when dynamic */
} bub_slice;

struct npuc_bubble_ctx {
  MlirContext ctx;
  const npuc_op_registry *reg;
  npuc_bubble_options opts;
  size_t num_rewrites;
  size_t num_copies; /* npuc_bubble_report.num_copies */
  /* While `defer` is set, a to_tensor whose tensor had users other than
   * equal marked slices is not looked at again in this sweep: every new
   * slice of it would otherwise rescan all its uses (quadratic on a long
   * chain). The rewrite that leaves a shared slice the tensor's only user
   * undefers it (bub_wake_shared); npuc_bubble_up_slices sweeps once more,
   * without deferring, when any is left. Keyed by address, never
   * dereferenced; a collision or a reused address only costs a look, a
   * deferral or that extra sweep. */
  bool defer;
  const void *deferred[64];
  /* Deferred to_tensors still in the table; `defer_lost` when one took the
   * slot of another (that one is then only found by the next sweep). */
  int ndeferred;
  bool defer_lost;
  /* Why a pattern last refused a slice: keyed by the slice and its
   * producer, so a recycled address does not inherit a stale reason. */
  struct {
    void *slice, *producer;
    const char *why;
  } reasons[256];
  /* Op table entries by op name (the name's uniqued identifier; NULL
   * entries for ops that have none): patterns look up their producer's
   * entry several times per rewrite. What the elementwise pattern asks of
   * the entry (BubbleUpHivm.c) is read with it: the trait and tensor
   * semantics (`elementwise`), and `src` and `dst` groups (`ew_groups`). */
  struct bub_def_slot {
    const void *name;
    const npuc_op_def *def;
    bool elementwise, ew_groups;
  } defs[64];
  /* The last type bub_sliced_type made: a chain slices one type alike in
   * every rewrite. */
  MlirType memo_src, memo_res;
  bub_slice memo_sizes; /* only rank and sizes are compared */
  /* Decoded i64 arrays by attribute (attributes live as long as the
   * context, so an entry never goes stale): the parts of every slice read
   * on the hot path. */
  struct {
    const void *attr;
    intptr_t n;
    int64_t v[BUB_MAX_RANK];
  } arrays[64];
  /* Rank and shape by type (types live as long as the context): shaped
   * type queries go through an interface lookup each. */
  struct {
    const void *type;
    int rank; /* -1: not a ranked shaped type */
    bool ranked_tensor;
    int64_t shape[BUB_MAX_RANK];
  } types[64];
  /* Operand groups of HIVM ops: the index of a group by op definition and
   * the address of the literal naming it; the group sizes by what they
   * depend on (npuc_operand_group_sizes_cached). */
  struct {
    const void *def;
    const char *name;
    int index;
  } group_index[128];
  npuc_group_sizes_cache groups;
  /* Identifiers of attribute names, by the address of the literal. */
  struct {
    const char *name;
    MlirIdentifier id;
  } idents[32];
  int nidents;
  /* The patterns of the set (npuc_bubble_populate_patterns), by their
   * index in the table: a slice that climbed is offered to them again
   * within the same rewrite. */
  bool enabled[32];
  /* The elementwise pattern's plans of a run (BubbleUpHivm.c), made at its
   * first run; freed with the state. */
  void *ew_plans;
};

/* One application: the marked slice, its producer and the builder state.
 * Patterns insert new ops through `rw` at its insertion point (before the
 * slice unless a pattern moves it). */
typedef struct {
  npuc_bubble_ctx *bc;
  MlirRewriterBase rw;
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation slice_op;
  MlirOperation producer; /* the op defining the slice's source */
  MlirValue source;
  intptr_t result_index; /* which result of `producer` is sliced */
  bub_slice s;           /* the slice, over the source's shape */
  MlirType slice_type;   /* the slice's result type */
  /* The slice is the producer's only user: bub_rebuild shrinks the
   * producer in place, new ops go in front of it. */
  bool in_place;
  /* The slice itself became the first new marked slice of an operand
   * (bub_extract, in place only); its former uses, which bub_replace
   * redirects, are these. */
  bool reused;
  bub_slice reused_as; /* its parts since then */
  int nold_uses;
  struct {
    MlirOperation owner;
    intptr_t index;
  } old_uses[4];
  /* The producer's operand count per group of its op table entry, read
   * at the first lookup (ngroups 0: not yet, -1: unreadable; BubbleUpHivm.c).
   */
  int32_t group_sizes[64];
  const npuc_op_def *producer_def; /* read with the group sizes */
  /* Shared slices of to_tensor results this rewrite used (bub_extract):
   * when the rewrite leaves one the only user of its tensor, the to-tensor
   * pattern can run on it now (npuc_bubble_ctx.defer). */
  MlirOperation shared[4];
  int nshared;
  /* The last two shared slices (or slices of a shared tensor.empty) found
   * or made by bub_extract: the ops of an elementwise run all read the
   * same ones (an operand and the init, say); within one application
   * nothing erases them, and they sit right after what they slice, so
   * they are not looked for again. */
  struct {
    MlirValue src, v;
    bub_slice s;
  } shared_memo[2];
  int shared_memo_next;
  /* A block all of whose ops the slice's dynamic parts dominate (defined
   * outside it; BubbleUpHivm.c), or null. */
  MlirBlock parts_dominate;
  int ngroups;
  /* The last group looked up, by the address of its name. */
  const char *last_group;
  intptr_t last_first, last_count;
} bub_rw;

extern const int64_t BUB_DYN; /* mlirShapedTypeGetDynamicSize() */

/* ---- values, constants and index arithmetic (BubbleUpIndex.c) ---------- */

bub_ofr bub_c(int64_t c);
bub_ofr bub_v(MlirValue v);
/* The constant behind an ofr (through arith.constant), if any. */
bool bub_const(bub_ofr x, int64_t *out);
/* Same SSA value or same constant. */
bool bub_eq(bub_ofr a, bub_ofr b);
bool bub_is(bub_ofr x, int64_t c);
/* An integer constant at the top of the function (reusing one there). */
MlirValue bub_constant(bub_rw *r, MlirType type, int64_t c);
MlirValue bub_index(bub_rw *r, int64_t c);
MlirValue bub_value(bub_rw *r, bub_ofr x);
/* Index arithmetic: constants fold; otherwise affine.apply (add, mul by a
 * constant, floordiv by a constant) or arith.minsi/maxsi/subi/muli. */
bub_ofr bub_add(bub_rw *r, bub_ofr a, bub_ofr b);
bub_ofr bub_sub(bub_rw *r, bub_ofr a, bub_ofr b);
bub_ofr bub_mul(bub_rw *r, bub_ofr a, bub_ofr b);
bub_ofr bub_mulc(bub_rw *r, bub_ofr a, int64_t k);
bub_ofr bub_floordivc(bub_rw *r, bub_ofr a, int64_t k);
bub_ofr bub_min(bub_rw *r, bub_ofr a, bub_ofr b);
bub_ofr bub_max(bub_rw *r, bub_ofr a, bub_ofr b);
/* Is `x` provably a multiple of k (constant, or affine.apply / arith.muli
 * by a multiple of k)? */
bool bub_multiple_of(bub_ofr x, int64_t k);

/* ---- types (BubbleUpTypes.c) --------------------------------------------- */

/* The rank and shape of `t` from the cache of `bc`: rank -1 unless `t`
 * is a ranked shaped type of rank <= BUB_MAX_RANK; shape[d] is BUB_DYN for
 * a dynamic dim. Valid until the next call. */
typedef struct {
  int rank;
  bool ranked_tensor;
  const int64_t *shape;
} bub_type_info;
bub_type_info bub_type_fill(npuc_bubble_ctx *bc, MlirType t);
/* Inline: patterns ask on every operand they look at, and almost always
 * about a type in the cache. */
static inline bub_type_info bub_type(npuc_bubble_ctx *bc, MlirType t) {
  size_t slot =
      ((uintptr_t)t.ptr >> 4) % (sizeof bc->types / sizeof bc->types[0]);
  if (t.ptr && bc->types[slot].type == t.ptr)
    return (bub_type_info){bc->types[slot].rank, bc->types[slot].ranked_tensor,
                           bc->types[slot].shape};
  return bub_type_fill(bc, t);
}
bool bub_is_ranked_tensor(MlirType t);
int64_t bub_rank(MlirType t);
int64_t bub_dim_size(MlirType t, intptr_t d); /* BUB_DYN when dynamic */
/* The size of dim d of `v` as an ofr: static, the matching operand of a
 * tensor.empty, or (when `r`) a new tensor.dim/memref.dim; with `r` NULL an
 * unknown dynamic size gives a null value and c == BUB_DYN. */
bub_ofr bub_dim(bub_rw *r, MlirValue v, intptr_t d);
/* The type of `s` applied to a tensor of type `src`, dropping the dims with
 * drop[d] (NULL: none). */
MlirType bub_slice_tensor_type(MlirType src, const bub_slice *s,
                               const bool *drop);
/* The same for a slice `s` inside a rewrite, remembering the last type
 * made for a slice with r->s's sizes. */
MlirType bub_sliced_type(bub_rw *r, MlirType src, const bub_slice *s,
                         const bool *drop);
/* The dim sizes of a ranked shaped type (BUB_DYN for dynamic ones) into
 * `out` (room for BUB_MAX_RANK); returns the rank, -1 when too large. */
int bub_shape(MlirType t, int64_t *out);

/* ---- slices (BubbleUpSlices.c) ------------------------------------------- */

/* Reads offsets/sizes/strides of an extract_slice, insert_slice or subview
 * (dynamic operands start at operand `dyn_start`). */
bool bub_slice_read(MlirOperation op, intptr_t dyn_start, bub_slice *out);
/* The same for a tensor.extract_slice, decoding its static parts through
 * the cache of `bc`. */
bool bub_extract_slice_read(npuc_bubble_ctx *bc, MlirOperation op,
                            bub_slice *out);
/* The whole of `v` (offsets 0, sizes its dims, strides 1). */
void bub_slice_full(bub_rw *r, MlirValue v, bub_slice *out);
/* Does `s` take all of dim d of `v` (static zero offset and equal size)? */
bool bub_slice_full_dim(const bub_slice *s, MlirValue v, intptr_t d);
bool bub_slice_is_identity(const bub_slice *s, MlirValue v);
bool bub_slice_unit_strides(const bub_slice *s);
/* Which result dims of an extract_slice were dropped (rank reduction). */
bool bub_dropped_dims(const bub_slice *s, MlirType result, bool *drop);

/* ---- building ops through the rewriter (BubbleUpBuild.c) ---------------- */

MlirNamedAttribute bub_named(bub_rw *r, const char *name, MlirAttribute a);
/* The static_* arrays and dynamic operands of a slice-like op built in
 * `st`: counts[0..2] get the numbers of dynamic offsets, sizes and strides
 * (strides are static: 0). */
void bub_add_slice_parts(bub_rw *r, MlirOperationState *st, const bub_slice *s,
                         int32_t *counts);
MlirOperation bub_create(bub_rw *r, MlirOperationState *st);
/* A new tensor.extract_slice of `src` (or `src` itself for an identity
 * slice), marked when `marked`; attributes of `attrs_from` (discardable
 * ones, except the mark) are copied when it is not null. */
MlirValue bub_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                      const bool *drop, bool marked, MlirOperation attrs_from);
/* The loop placeholder: `full`-typed stand-in for the whole of a value of
 * which only the slice `s` is carried (`v`). */
MlirOperation bub_unslice(bub_rw *r, MlirValue v, const bub_slice *s,
                          MlirType full);
/* tensor.empty of `type`, its dynamic sizes taken from `sizes_of`. */
MlirValue bub_empty(bub_rw *r, MlirType type, const bub_slice *sizes_of);
/* memref.subview of `src` by `s` (identity: `src`). */
MlirValue bub_subview(bub_rw *r, MlirValue src, const bub_slice *s);
/* The same, always creating the subview (null when `src` has no strides). */
MlirValue bub_view(bub_rw *r, MlirValue src, const bub_slice *s);
/* A copy of `op` with other operands and result types; attributes copied
 * (discardable; unregistered ops hold all theirs there), then `set` entries
 * override or add and names in `drop` are removed. */
MlirOperation bub_clone_op(bub_rw *r, MlirOperation op, intptr_t nopnds,
                           const MlirValue *opnds, intptr_t nres,
                           const MlirType *res, intptr_t nset,
                           const MlirNamedAttribute *set,
                           const char *const *drop);
/* annotation.mark v {buffer_size_in_byte = N} when `t` (the new type of a
 * buffer that had static type `was`) has dynamic dims; returns the mark
 * (null op when none). */
MlirOperation bub_mark_buffer_size(bub_rw *r, MlirValue v, MlirType t,
                                   MlirType was);

/* ---- finishing (BubbleUpFinish.c) ---------------------------------------- */

/* The producer, with these operands, result types and attribute changes,
 * computes the slice: rebuilt in place when r->in_place, else a new op.
 * Replaces the slice (bub_replace). */
void bub_rebuild(bub_rw *r, intptr_t nopnds, const MlirValue *opnds,
                 intptr_t nres, const MlirType *res, intptr_t nset,
                 const MlirNamedAttribute *set, const char *const *drop);
/* The in-place half of bub_rebuild, without replacing the slice: for an
 * op above the producer in a run of ops rewritten by one pattern (the
 * elementwise run), whose result keeps its one user. */
void bub_shrink_in_place(bub_rw *r, MlirOperation op, intptr_t nopnds,
                         const MlirValue *opnds, intptr_t nres,
                         const MlirType *res, intptr_t nset,
                         const MlirNamedAttribute *set,
                         const char *const *drop);
/* For patterns that end in bub_rebuild, once they have checked everything
 * and will succeed: sets r->in_place (and the insertion point before the
 * producer) when the slice is the producer's only user and the slice's
 * sizes can be computed before it. */
bool bub_prepare_in_place(bub_rw *r);

/* Replaces the slice with `v` (with a tensor.cast if only the static-ness
 * of the types differs), erases the producer when nothing uses it any more,
 * and counts the rewrite. */
void bub_replace(bub_rw *r, MlirValue v);
/* Records why a pattern refused the slice; returns false. */
bool bub_refuse(bub_rw *r, const char *why);
const char *bub_reason(npuc_bubble_ctx *bc, MlirOperation slice,
                       MlirOperation producer);
/* Defers `producer` (see npuc_bubble_ctx.defer); is it deferred? */
void bub_defer(npuc_bubble_ctx *bc, MlirOperation producer);
bool bub_deferred(npuc_bubble_ctx *bc, MlirOperation producer);
/* After a successful rewrite: the shared slices it used that are now the
 * only user of their to_tensor go back on the driver's worklist, no longer
 * deferred. */
void bub_wake_shared(bub_rw *r);
/* Does any deferred to_tensor need another sweep? */
bool bub_any_deferred(npuc_bubble_ctx *bc);

/* ---- op names and attributes (BubbleUpSlices.c); dominance (BubbleUpHoist.c)
 */

/* A string ref of a literal (inline, so its length is known at compile
 * time). */
static inline MlirStringRef bub_str(const char *s) {
  return mlirStringRefCreate(s, strlen(s));
}
/* An attribute by name (inline: the length of a literal name is known at
 * compile time). */
static inline MlirAttribute bub_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(
      op, mlirStringRefCreate(name, strlen(name)));
}
static inline bool bub_has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(bub_attr(op, name));
}
/* i64 elements of a DenseI64ArrayAttr or ArrayAttr of integers. */
intptr_t bub_i64_array(MlirAttribute a, int64_t *out, intptr_t cap);
/* The same through the cache of decoded arrays of `bc`, with room for
 * BUB_MAX_RANK elements in `out` (a longer array gives its length and only
 * the first BUB_MAX_RANK elements). */
intptr_t bub_cached_i64_array(npuc_bubble_ctx *bc, MlirAttribute a,
                              int64_t *out);
MlirAttribute bub_i64_array_attr(MlirContext ctx, const int64_t *v, intptr_t n);
/* Does `v` dominate `op` (defined before it in an enclosing block)? */
bool bub_dominates(MlirValue v, MlirOperation op);
/* Makes the slice's dynamic offsets and sizes dominate `op`, moving their
 * side-effect-free defining ops (arith, affine.apply) before it when their
 * operands allow. Moves nothing and returns false when that is impossible
 * for any of them. */
bool bub_slice_hoist(bub_rw *r, MlirOperation op);

/* The patterns (BubbleUpPatterns.def lists them). Each gets a bub_rw whose
 * producer passed its test (bub_pattern_applies). */
typedef struct {
  const char *name;
  const char *summary;
  /* The producers it takes: its name (NULL: any op) and its numbers of
   * results, operands and regions (0: any), then `applies` when set. */
  const char *op;
  int results, operands, regions;
  bool (*applies)(npuc_bubble_ctx *bc, MlirOperation producer);
  bool (*rewrite)(bub_rw *r);
  /* A promise, checked before anything is rewritten (npuc_bubble_certain):
   * `rewrite` will succeed on any full-rank, unit-stride slice of the
   * producer's one result, of type `t`, and slices each shaped operand
   * alike: every shaped operand has type `t`. NULL: no promise. */
  bool (*certain)(npuc_bubble_ctx *bc, MlirOperation producer, MlirType t);
} bub_pattern;

static inline bool bub_pattern_applies(const bub_pattern *pat,
                                       npuc_bubble_ctx *bc, MlirOperation p) {
  return (!pat->op || npuc_op_is(p, pat->op)) &&
         (!pat->results || mlirOperationGetNumResults(p) == pat->results) &&
         (!pat->operands || mlirOperationGetNumOperands(p) == pat->operands) &&
         (!pat->regions || mlirOperationGetNumRegions(p) == pat->regions) &&
         (!pat->applies || pat->applies(bc, p));
}

/* Each row's rewrite (BubbleUpPatterns.def), and the tests and promises
 * the rows name. */
#define BUB_PATTERN(sym, ...) bool bub_rewrite_##sym(bub_rw *r);
#include "BubbleUpPatterns.def"
bool bub_applies_elementwise(npuc_bubble_ctx *bc, MlirOperation p);
bool bub_applies_reduce(npuc_bubble_ctx *bc, MlirOperation p);
bool bub_applies_pointwise_load(npuc_bubble_ctx *bc, MlirOperation p);
bool bub_certain_elementwise(npuc_bubble_ctx *bc, MlirOperation p, MlirType t);

/* The op definition of an HIVM op (NULL for other ops). */
const npuc_op_def *bub_def(npuc_bubble_ctx *bc, MlirOperation op);

#endif
