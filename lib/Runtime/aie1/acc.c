/* Accumulator conversions: ups (vector -> accumulator) and srs
 * (accumulator -> vector: shift, round, saturate). */
#include "internal.h"

static bool check_shift(npuc_aie1_ctx *ctx, int32_t shift, const char *op);
static npuc_aie1_elem acc_for(npuc_aie1_elem elem);
static bool check_modes(npuc_aie1_ctx *ctx);
static bool aieml_acc(const npuc_aie1_ctx *ctx, npuc_aie1_elem acc);
static bool ups_aieml(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *src, npuc_aie1_elem acc,
                      int32_t shift);
static bool srs_aieml(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *acc, npuc_aie1_elem to,
                      int32_t shift, bool is_signed);
static aie1_wide round_shift(aie1_wide x, int s, npuc_aie1_round mode);
static int64_t saturate(aie1_wide q, int n, npuc_aie1_sat sat, bool is_signed);
static bool shift_round_saturate(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                                 const npuc_aie1_vec *acc, npuc_aie1_elem to,
                                 int32_t shift, bool is_signed);

bool npuc_aie1_ups(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *src, npuc_aie1_elem acc,
                   int32_t shift) {
  if (!aie1_check_vec(ctx, src, "ups operand") ||
      !check_shift(ctx, shift, "ups"))
    return false;
  if (aieml_acc(ctx, acc))
    return ups_aieml(ctx, out, src, acc, shift);
  if (aie1_is_acc(src->elem) || acc != acc_for(src->elem))
    return aie1_error(ctx, "ups of %s lanes gives %s lanes, not %s",
                      aie1_elem_name(src->elem),
                      aie1_elem_name(acc_for(src->elem)), aie1_elem_name(acc));
  if (acc == NPUC_AIE1_F32) { /* float accumulators are the vector itself */
    *out = *src;
    return true;
  }
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, acc, src->lanes))
    return false;
  for (int32_t k = 0; k < src->lanes; ++k)
    aie1_set_acc(
        &r, k, aie1_wide_shl(aie1_wide_from_i64(aie1_get_int(src, k)), shift));
  *out = r;
  return true;
}

bool npuc_aie1_srs(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *acc, npuc_aie1_elem to, int32_t shift,
                   bool is_signed) {
  if (!aie1_check_vec(ctx, acc, "srs operand") ||
      !check_shift(ctx, shift, "srs") || !check_modes(ctx))
    return false;
  if (acc->elem == NPUC_AIE1_F32 && to == NPUC_AIE1_F32) {
    *out = *acc;
    return true;
  }
  if (aieml_acc(ctx, acc->elem))
    return srs_aieml(ctx, out, acc, to, shift, is_signed);
  if (!aie1_is_acc(acc->elem) || !aie1_is_int_data(to))
    return aie1_error(ctx,
                      "srs turns integer accumulators into i8, i16 or "
                      "i32 (f32 into f32), not %s into %s",
                      aie1_elem_name(acc->elem), aie1_elem_name(to));
  return shift_round_saturate(ctx, out, acc, to, shift, is_signed);
}

static bool check_shift(npuc_aie1_ctx *ctx, int32_t shift, const char *op) {
  if (shift < 0 || shift > 63)
    return aie1_error(ctx, "%s shift %d outside [0, 63]", op, (int)shift);
  return true;
}

/* The accumulator ups gives: i8 and i16 go to 48 bits, i32 to 80. */
static npuc_aie1_elem acc_for(npuc_aie1_elem elem) {
  return elem == NPUC_AIE1_I32   ? NPUC_AIE1_ACC80
         : elem == NPUC_AIE1_F32 ? NPUC_AIE1_F32
                                 : NPUC_AIE1_ACC48;
}

/* floor(x / 2^s), then up by one as the mode says, from the remainder r in
 * [0, 2^s) against half h = 2^(s-1). */
static aie1_wide round_shift(aie1_wide x, int s, npuc_aie1_round mode) {
  if (s == 0)
    return x;
  aie1_wide q = aie1_wide_sar(x, s);
  uint64_t r = x.lo & ((UINT64_C(1) << s) - 1), h = UINT64_C(1) << (s - 1);
  bool neg = aie1_wide_is_neg(x), odd = (q.lo & 1) != 0, up = false;
  switch (mode) {
  case NPUC_AIE1_RND_FLOOR: up = false; break;
  case NPUC_AIE1_RND_CEIL: up = r != 0; break;
  case NPUC_AIE1_RND_POS_INF: up = r >= h; break;
  case NPUC_AIE1_RND_NEG_INF: up = r > h; break;
  case NPUC_AIE1_RND_SYM_INF: up = neg ? r > h : r >= h; break;
  case NPUC_AIE1_RND_SYM_ZERO: up = neg ? r >= h : r > h; break;
  case NPUC_AIE1_RND_CONV_EVEN: up = r > h || (r == h && odd); break;
  case NPUC_AIE1_RND_CONV_ODD: up = r > h || (r == h && !odd); break;
  }
  return up ? aie1_wide_add(q, aie1_wide_from_i64(1)) : q;
}

/* The value to store in an n-bit lane (which keeps its low n bits). */
static int64_t saturate(aie1_wide q, int n, npuc_aie1_sat sat, bool is_signed) {
  if (sat == NPUC_AIE1_SAT_NONE)
    return aie1_s64(q.lo);
  int64_t hi = is_signed ? (INT64_C(1) << (n - 1)) - 1 : (INT64_C(1) << n) - 1;
  int64_t lo = !is_signed ? 0 : sat == NPUC_AIE1_SAT_SYMMETRIC ? -hi : -hi - 1;
  if (aie1_wide_cmp(q, aie1_wide_from_i64(lo)) < 0)
    return lo;
  if (aie1_wide_cmp(q, aie1_wide_from_i64(hi)) > 0)
    return hi;
  return aie1_s64(q.lo);
}

static bool check_modes(npuc_aie1_ctx *ctx) {
  if ((unsigned)ctx->round > NPUC_AIE1_RND_CONV_ODD)
    return aie1_error(ctx, "rounding mode %d is not one of AIE1's 0..7",
                      (int)ctx->round);
  if ((unsigned)ctx->sat > NPUC_AIE1_SAT_SYMMETRIC)
    return aie1_error(ctx, "saturation mode %d is unknown", (int)ctx->sat);
  return true;
}

/* ---- AIE-ML accumulators ------------------------------------------------
 * Not from aie1-lane-semantics.md (AIE1 only): AIE-ML's accumulator lanes
 * are 32 or 64 bits (vector<32xi32>, vector<16xi64>), held as I32 / I64
 * lanes; ups and srs are those of AIE1 at that width (docs/aie1-cmodel.md,
 * "AIE-ML"). */

static bool aieml_acc(const npuc_aie1_ctx *ctx, npuc_aie1_elem acc) {
  return ctx->aieml && (acc == NPUC_AIE1_I32 || acc == NPUC_AIE1_I64);
}

/* acc[k] = sign_extend(v[k]) << shift, wrapped to the lane. */
static bool ups_aieml(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *src, npuc_aie1_elem acc,
                      int32_t shift) {
  if (!aie1_is_int_data(src->elem) ||
      npuc_aie1_elem_bits(acc) <= npuc_aie1_elem_bits(src->elem))
    return aie1_error(ctx,
                      "AIE-ML ups widens i8, i16 or i32 lanes, not %s to %s",
                      aie1_elem_name(src->elem), aie1_elem_name(acc));
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, acc, src->lanes))
    return false;
  for (int32_t k = 0; k < src->lanes; ++k)
    aie1_set_int(&r, k, aie1_s64((uint64_t)aie1_get_int(src, k) << shift));
  *out = r;
  return true;
}

static bool srs_aieml(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *acc, npuc_aie1_elem to,
                      int32_t shift, bool is_signed) {
  if (!aie1_is_int_data(to) ||
      npuc_aie1_elem_bits(to) >= npuc_aie1_elem_bits(acc->elem))
    return aie1_error(ctx,
                      "AIE-ML srs narrows %s accumulator lanes to i8, i16 or "
                      "i32, not to %s",
                      aie1_elem_name(acc->elem), aie1_elem_name(to));
  return shift_round_saturate(ctx, out, acc, to, shift, is_signed);
}

/* Lane k of an accumulator: AIE1's 48- or 80-bit lanes, AIE-ML's i32 or
 * i64 ones. */
static aie1_wide acc_lane(const npuc_aie1_vec *acc, int32_t k) {
  if (aie1_is_acc(acc->elem))
    return aie1_get_acc(acc, k);
  return aie1_wide_from_i64(aie1_get_int(acc, k));
}

/* srs proper, once its operands are checked: each lane shifted right,
 * rounded and saturated into `to`. */
static bool shift_round_saturate(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                                 const npuc_aie1_vec *acc, npuc_aie1_elem to,
                                 int32_t shift, bool is_signed) {
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, to, acc->lanes))
    return false;
  int n = (int)npuc_aie1_elem_bits(to);
  for (int32_t k = 0; k < acc->lanes; ++k) {
    aie1_wide q = round_shift(acc_lane(acc, k), shift, ctx->round);
    aie1_set_int(&r, k, saturate(q, n, ctx->sat, is_signed));
  }
  *out = r;
  return true;
}
