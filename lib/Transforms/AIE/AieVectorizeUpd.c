/* aie-vectorize: the reuse analysis over the function's reads, then one
 * aievec.upd per AIE vector (half) actually needed, shared by every read
 * of the same interval in the same block. */
#include "AieVectorizeInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

static void mark_operand_roles(aie_state *s);

bool aie_compute_reuse(aie_state *s) {
  mark_operand_roles(s);
  s->reuse = npuc_reuse_create(s->num_reads);
  if (!s->reuse)
    return false;
  for (size_t i = 0; i < s->num_reads; i++) {
    aie_read *r = &s->reads[i];
    if (mlirOperationIsNull(r->loop) || r->absorbed)
      continue; /* only loop bodies get upds, as in mlir-aie */
    MlirValue memref = mlirOperationGetOperand(r->op, 0);
    MlirType mt = mlirValueGetType(memref);
    intptr_t rank = mlirShapedTypeGetRank(mt);
    MlirValue indices[16];
    if (rank > 16)
      continue;
    for (intptr_t k = 0; k < rank; k++)
      indices[k] = mlirOperationGetOperand(r->op, 1 + k);
    npuc_linear_access access;
    if (!npuc_linearize_access(mt, indices, (size_t)rank, &access)) {
      npuc_pass_error(r->op, "the reuse analysis cannot linearize this read: "
                             "its offset or strides do not fit int64");
      return false;
    }
    /* AIE-ML takes an 8-bit filter, and the source of a broadcast, as
     * one 512-bit vector. */
    bool whole_512 =
        s->aieml && r->splat && (r->elem_bits == 8 || r->broadcast_src);
    int64_t min_vec = !r->mul_operand ? 128 : whole_512 ? 512 : 256;
    npuc_reuse_read info = {memref,   r->loop, r->elem_bits,  r->lanes,
                            r->splat, min_vec, r->extra_elems};
    if (!npuc_reuse_insert(s->reuse, i, &info, &access)) {
      npuc_pass_error(r->op, "the reuse analysis cannot place this read: its "
                             "offset in bits does not fit int64");
      return false;
    }
    r->analysed = true;
    if (r->lhs_only)
      npuc_reuse_mark_lhs_only(s->reuse, i);
  }
  return npuc_reuse_finalize(s->reuse);
}

static size_t count_uses(MlirValue v) {
  size_t n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    n++;
  return n;
}

/* mul/fma operands need 256-bit vectors at least; a read used only as X
 * may be coalesced with its neighbour. */
static void mark_operand_roles(aie_state *s) {
  size_t *x_uses = calloc(s->num_reads ? s->num_reads : 1, sizeof *x_uses);
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead || (n->kind != AIE_MUL && n->kind != AIE_FMA))
      continue;
    /* The AIE1 8-bit scheme multiplies the filter (X) into the image (Z). */
    bool swap = n->elem_bits == 8 && !s->aieml;
    size_t rx = aie_read_of_value(s, swap ? n->z : n->x);
    size_t rz = aie_read_of_value(s, swap ? n->x : n->z);
    if (rx != SIZE_MAX) {
      s->reads[rx].mul_operand = true;
      if (x_uses)
        x_uses[rx]++;
      /* The 16-bit multiply's second column reads past the vector (an
       * unfused one only when it may pair with a filter zero). */
      int64_t extra = n->fused ? n->col_offset_x : 1;
      if (s->aieml)
        extra = aie_ml_elementwise(n) ? 0 : aie_conv_columns(n) - 1;
      bool second_column = n->elem_bits == 16 && !aie_simple_candidate(s, n) &&
                           (n->fused || aie_i16_may_pair(s, n));
      if ((s->aieml || second_column) && extra > s->reads[rx].extra_elems)
        s->reads[rx].extra_elems = extra;
    }
    if (s->aieml && aie_ml_elementwise(n)) {
      if (rx != SIZE_MAX && s->reads[rx].splat)
        s->reads[rx].broadcast_src = true;
      if (rz != SIZE_MAX && s->reads[rz].splat)
        s->reads[rz].broadcast_src = true;
    }
    if (rz != SIZE_MAX) {
      s->reads[rz].mul_operand = true;
      /* The 8-bit pair reads the image up to 8 + 14 elements on. */
      if (swap && s->reads[rz].extra_elems < 7)
        s->reads[rz].extra_elems = 7;
    }
  }
  for (size_t i = 0; x_uses && i < s->num_reads; i++)
    s->reads[i].lhs_only =
        x_uses[i] > 0 &&
        x_uses[i] == count_uses(mlirOperationGetResult(s->reads[i].op, 0));
  free(x_uses);
}

/* ---- upd generation --------------------------------------------------- */

/* The upd ops already made for one interval in one block, between the
 * same writes to memory. */
typedef struct {
  size_t group;
  int64_t lo;
  MlirBlock block;
  uint32_t epoch;
  MlirValue value; /* the latest upd of the interval */
  unsigned halves; /* bit i: half i loaded */
} upd_entry;

/* (group, interval, block) -> entry, open addressing: one probe per read
 * on average, however many intervals a group has. */
typedef struct {
  upd_entry *slots;
  bool *used;
  size_t cap;
} upd_table;

static upd_entry *lookup(upd_table *t, size_t group, int64_t lo,
                         MlirBlock block, uint32_t epoch);
static MlirValue build_upd(aie_state *s, aie_read *r, MlirType type,
                           int64_t index, int64_t offset, MlirValue prev);

bool aie_generate_upds(aie_state *s) {
  upd_table t = {NULL, NULL, 16};
  while (t.cap < 2 * s->num_reads + 2)
    t.cap *= 2;
  t.slots = malloc(t.cap * sizeof *t.slots);
  t.used = calloc(t.cap, sizeof *t.used);
  bool ok = t.slots && t.used;
  for (size_t i = 0; ok && i < s->num_reads; i++) {
    aie_read *r = &s->reads[i];
    if (!r->analysed)
      continue;
    int64_t ilo, ihi, elo, ehi;
    npuc_reuse_interval(s->reuse, i, &ilo, &ihi);
    npuc_reuse_extent(s->reuse, i, &elo, &ehi);
    int64_t start_bits = npuc_reuse_start_bits(s->reuse, i);
    int64_t width = ihi - ilo, mid = ilo + width / 2;
    MlirType elem = mlirShapedTypeGetElementType(
        mlirValueGetType(mlirOperationGetResult(r->op, 0)));
    int64_t lanes = width / r->elem_bits;
    MlirType type = mlirVectorTypeGet(1, &lanes, elem);
    /* Up to 256 bits (AIE-ML: 512) a vector loads at once; wider ones by
     * halves, and only the halves some read needs. */
    bool whole = width <= (s->aieml ? 512 : 256);
    bool need[2] = {whole || elo < mid, !whole && ehi > mid};
    upd_entry *e = lookup(&t, npuc_reuse_group(s->reuse, i), ilo,
                          mlirOperationGetBlock(r->op), r->epoch);
    for (int h = 0; h < 2; h++) {
      if (!need[h] || (e->halves & (1u << h)))
        continue;
      int64_t half_start = h == 0 ? ilo : mid;
      e->value = build_upd(s, r, type, h, half_start - start_bits, e->value);
      e->halves |= 1u << h;
    }
    r->vec = e->value;
    r->start = (start_bits - ilo) / r->elem_bits;
  }
  free(t.slots);
  free(t.used);
  return ok;
}

/* The table has room for every read, so it never fills. */
static upd_entry *lookup(upd_table *t, size_t group, int64_t lo,
                         MlirBlock block, uint32_t epoch) {
  uint64_t h = (uint64_t)group * 0x9e3779b97f4a7c15ull;
  h ^= (uint64_t)lo * 0xc2b2ae3d27d4eb4full;
  h ^= (uint64_t)epoch * 0x165667b19e3779f9ull;
  h ^= (uintptr_t)block.ptr;
  h ^= h >> 29;
  size_t i = (size_t)h & (t->cap - 1);
  while (t->used[i]) {
    upd_entry *e = &t->slots[i];
    if (e->group == group && e->lo == lo && e->epoch == epoch &&
        mlirBlockEqual(e->block, block))
      return e;
    i = (i + 1) & (t->cap - 1);
  }
  t->used[i] = true;
  t->slots[i] = (upd_entry){group, lo, block, epoch, {NULL}, 0};
  return &t->slots[i];
}

/* aievec.upd %mem[indices of the read], [%prev] {index, offset}: the
 * offset (bits) is from the read's own first element to the half. */
static MlirValue build_upd(aie_state *s, aie_read *r, MlirType type,
                           int64_t index, int64_t offset, MlirValue prev) {
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
  intptr_t rank = mlirShapedTypeGetRank(mt);
  MlirValue operands[18];
  intptr_t n = 0;
  for (intptr_t k = 0; k <= rank; k++)
    operands[n++] = mlirOperationGetOperand(r->op, k);
  bool chained = !mlirValueIsNull(prev);
  if (chained)
    operands[n++] = prev;
  int32_t segments[3] = {1, (int32_t)rank, chained ? 1 : 0};
  MlirNamedAttribute attrs[3] = {
      aie_named(s->ctx, "index",
                mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), index)),
      aie_named(s->ctx, "offset",
                mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 32), offset)),
      aie_named(s->ctx, "operandSegmentSizes",
                mlirDenseI32ArrayGet(s->ctx, 3, segments)),
  };
  npuc_builder b = npuc_builder_before(r->op);
  MlirOperation upd =
      npuc_build_op(&b, "aievec.upd", n, operands, 1, &type, 3, attrs);
  return mlirOperationGetResult(upd, 0);
}
