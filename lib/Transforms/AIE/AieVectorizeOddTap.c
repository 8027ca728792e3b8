/* aie-vectorize: the 16-bit multiply that fused no second column (the odd
 * tap of a filter row).
 *
 * mac16 multiplies two columns per lane (aie1-lane-semantics.md 4.4), so an
 * unfused multiply points its second Z column at a filter element that
 * zero-offset says is 0, as mlir-aie does. That is right only where the
 * filter's layout puts a zero there: at a linear position k with
 * k % zero-offset == zero-offset - 1 whatever the read's loop indices are,
 * and inside the memref. A 3x3 filter memref has rows 3 apart, so z[3] of
 * the vector of row r is element 3r + 3: the next row's first tap, or past
 * the end (mlir-aie's conv2d_uj_i16). Where the zero is not proven, the
 * multiply takes one column: each operand is first moved so that lane L
 * holds the element lane L multiplies (select32 from the operand's start, a
 * splat repeating its element, then the low half), and the mac is the
 * lane-wise one (4.2). Both steps are exact by the lane semantics (5.2,
 * 4.2), whatever the filter holds. */
#include "AieVectorizeInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>

static bool paired_element_is_zero(const aie_state *s, MlirOperation read,
                                   int64_t step);
static int64_t floor_mod(int64_t a, int64_t m);
static bool linearize(MlirOperation read, npuc_linear_access *a);
static bool linear_offset(MlirOperation read, int64_t *offset);
static MlirValue select_lanes(aie_state *s, npuc_builder *b, MlirValue v,
                              int64_t start, bool splat);
static MlirValue ext_of(aie_state *s, npuc_builder *b, MlirValue v,
                        int64_t index, int64_t lanes);

/* The second column of an unfused 16-bit multiply: the next position of
 * the recurring zero (1 element on without zero-offset). */
int64_t aie_i16_zstep(const aie_state *s, aie_operand z) {
  if (s->zero_offset <= 0)
    return 1;
  return (s->zero_offset - 1) - z.start % s->zero_offset;
}

/* Before the reuse analysis, from the Z read's linear position alone:
 * can the unfused multiply `n` pair with a zero? Only a splat Z read whose
 * next zero position the layout proves zero. When this is false, X needs
 * no element past its lanes. */
bool aie_i16_may_pair(const aie_state *s, const aie_node *n) {
  size_t r = aie_read_of_value(s, n->z);
  if (s->zero_offset <= 0 || r == SIZE_MAX || !s->reads[r].splat)
    return false;
  int64_t offset;
  if (!linear_offset(s->reads[r].op, &offset))
    return false;
  int64_t step = (s->zero_offset - 1) - floor_mod(offset, s->zero_offset);
  return paired_element_is_zero(s, s->reads[r].op, step);
}

/* After upd generation, with Z as the op takes it (`z`): does the second
 * column, zstep on from zstart in the Z vector, land on that proven zero
 * and stay inside the vector (no wrap)? */
bool aie_i16_pairs_with_zero(const aie_state *s, const aie_node *n,
                             aie_operand z) {
  size_t r = aie_read_of_value(s, n->z);
  if (!z.splat || r == SIZE_MAX || !s->reads[r].analysed ||
      !aie_i16_may_pair(s, n))
    return false;
  int64_t step = aie_i16_zstep(s, z);
  if (z.start + step >= aie_lanes_of(z.v))
    return false;
  return paired_element_is_zero(s, s->reads[r].op, step);
}

/* `v` (16-bit) as `lanes` lanes where lane L holds element start + L (a
 * splat: element start). A whole aligned vector is returned as it is; an
 * aligned half of a wider one is only extracted. */
MlirValue aie_i16_lanes_from(aie_state *s, npuc_builder *b, aie_operand o,
                             int64_t lanes) {
  if (!o.splat && o.start == 0 && aie_lanes_of(o.v) == lanes)
    return o.v;
  if (!o.splat && o.start % lanes == 0)
    return ext_of(s, b, o.v, o.start / lanes, lanes);
  MlirValue v = o.v;
  if (aie_lanes_of(v) < 2 * lanes) /* select32 reads 32 lanes */
    v = aie_concat_self(s, b, v);
  return ext_of(s, b, select_lanes(s, b, v, o.start, o.splat), 0, lanes);
}

/* The element `step` past the read is zero for every value of the read's
 * indices: all of the read's index terms move by multiples of zero-offset
 * (static strides), the paired element's linear position is a zero
 * position, and it lies in the read's row (a dynamic row length is
 * trusted: the zero-offset layout is the user's promise, and nothing
 * bounds it). */
static bool paired_element_is_zero(const aie_state *s, MlirOperation read,
                                   int64_t step) {
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(read, 0));
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1)
    return false;
  int64_t zo = s->zero_offset, row = mlirShapedTypeGetDimSize(mt, rank - 1);
  bool row_known = !mlirShapedTypeIsDynamicSize(row);
  npuc_linear_access a;
  if ((row_known && row <= 0) || !linearize(read, &a))
    return false; /* an empty row has no zero to pair with */
  bool zero = floor_mod(a.offset + step, zo) == zo - 1;
  bool whole_rows = true; /* the terms move by whole rows */
  for (size_t t = 0; t < a.num_terms; t++) {
    const npuc_linear_term *term = &a.terms[t];
    if (term->dim >= 0 || term->coeff % zo != 0)
      zero = false;
    if (row_known && term->coeff % row != 0)
      whole_rows = false;
  }
  bool inside =
      !row_known || (whole_rows && floor_mod(a.offset, row) + step < row);
  npuc_linear_access_free(&a);
  return zero && inside;
}

/* The read's access, row-major: index terms + constant offset. */
static bool linearize(MlirOperation read, npuc_linear_access *a) {
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(read, 0));
  intptr_t rank = mlirShapedTypeGetRank(mt);
  MlirValue indices[16];
  if (rank < 1 || rank > 16)
    return false;
  for (intptr_t k = 0; k < rank; k++)
    indices[k] = mlirOperationGetOperand(read, 1 + k);
  return npuc_linearize_access(mt, indices, (size_t)rank, a);
}

static bool linear_offset(MlirOperation read, int64_t *offset) {
  npuc_linear_access a;
  if (!linearize(read, &a))
    return false;
  *offset = a.offset;
  npuc_linear_access_free(&a);
  return true;
}

/* aievec_aie1.ext: slice `index` of `lanes` lanes. */
static MlirValue ext_of(aie_state *s, npuc_builder *b, MlirValue v,
                        int64_t index, int64_t lanes) {
  MlirType type = mlirVectorTypeGet(
      1, &lanes, mlirShapedTypeGetElementType(mlirValueGetType(v)));
  MlirNamedAttribute attr =
      aie_named(s->ctx, "index",
                mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), index));
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec_aie1.ext", 1, &v, 1, &type, 1, &attr), 0);
}

static int64_t floor_mod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

/* select32 (RA_16, aie1-lane-semantics.md 5.2): output quad q takes the
 * pair at start + 2*ne and the pair at start + 2*(ne + no + 1), and the
 * square picks among those four. Starts must be even.
 *  - even t: ne = 2q, no = 0 (0x06040200 / 0x0e0c0a08) makes the quad
 *    t + 4q .. +3; square 0x3210.
 *  - odd t: from start t - 1 the quad holds t - 1 + 4q .. t + 2 + 4q, so
 *    positions 0..2 take candidates 1..3 (square 0x0321) and position 3
 *    (select bits 0x88888888) comes from the y side at start t + 3.
 *  - splat: every position takes candidate t % 2 of the pair at t - t % 2. */
static MlirValue select_lanes(aie_state *s, npuc_builder *b, MlirValue v,
                              int64_t start, bool splat) {
  int64_t even = start - (start & 1);
  bool odd = (start & 1) != 0;
  char xstart[24], ystart[24];
  snprintf(xstart, sizeof xstart, "%lld", (long long)even);
  snprintf(ystart, sizeof ystart, "%lld",
           (long long)(odd && !splat ? start + 3 : even));
  const char *offs = splat ? "0" : "0x06040200";
  const char *offs_hi = splat ? "0" : "0x0e0c0a08";
  const char *xsquare =
      splat ? (odd ? "0x1111" : "0") : (odd ? "0x0321" : "0x3210");
  const char *ysquare = odd && !splat ? "0" : xsquare;
  const char *names[9] = {"select",      "xstart",      "xoffsets",
                          "xoffsets_hi", "xsquare",     "ystart",
                          "yoffsets",    "yoffsets_hi", "ysquare"};
  const char *values[9] = {odd && !splat ? "0x88888888" : "0",
                           xstart,
                           offs,
                           offs_hi,
                           xsquare,
                           ystart,
                           offs,
                           offs_hi,
                           ysquare};
  MlirNamedAttribute attrs[9];
  for (int i = 0; i < 9; i++)
    attrs[i] = aie_named(s->ctx, names[i], aie_str_attr(s->ctx, values[i]));
  MlirType type = mlirValueGetType(v);
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec_aie1.select", 1, &v, 1, &type, 9, attrs), 0);
}
