/* AIE-ML element-wise multiplies: mul_elem and mac_elem. Not from
 * aie1-lane-semantics.md, which covers AIE1 only: the semantics are those
 * of the aievec op documentation (lane k of the result from lane k of each
 * operand), written down in docs/aie1-cmodel.md ("AIE-ML"). Products are
 * exact (two i32 need 63 bits) and sums wrap to the accumulator lane: I64
 * for i32 operands, I32 for i8 / i16 ones. */
#include "internal.h"

static bool check_elem_operands(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                                const npuc_aie1_vec *rhs, const char *op);
static npuc_aie1_elem acc_of(npuc_aie1_elem data);

bool npuc_aie1_mul_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        npuc_aie1_elem acc_elem) {
  if (!check_elem_operands(ctx, lhs, rhs, "mul_elem"))
    return false;
  if (acc_elem != acc_of(lhs->elem))
    return aie1_error(ctx, "mul_elem of %s lanes accumulates in %s, not %s",
                      aie1_elem_name(lhs->elem),
                      aie1_elem_name(acc_of(lhs->elem)),
                      aie1_elem_name(acc_elem));
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, acc_elem, lhs->lanes))
    return false;
  for (int32_t k = 0; k < lhs->lanes; ++k)
    aie1_set_int(&r, k, aie1_get_int(lhs, k) * aie1_get_int(rhs, k));
  *out = r;
  return true;
}

bool npuc_aie1_mac_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        const npuc_aie1_vec *acc, bool fmsub) {
  if (!check_elem_operands(ctx, lhs, rhs, "mac_elem") ||
      !aie1_check_vec(ctx, acc, "mac_elem accumulator"))
    return false;
  if (acc->elem != acc_of(lhs->elem) || acc->lanes != lhs->lanes)
    return aie1_error(ctx,
                      "mac_elem of %d %s lanes accumulates in vector<%dx%s>, "
                      "not vector<%dx%s>",
                      (int)lhs->lanes, aie1_elem_name(lhs->elem),
                      (int)lhs->lanes, aie1_elem_name(acc_of(lhs->elem)),
                      (int)acc->lanes, aie1_elem_name(acc->elem));
  npuc_aie1_vec r = *acc;
  for (int32_t k = 0; k < lhs->lanes; ++k) {
    /* Unsigned arithmetic: the sum wraps instead of overflowing. */
    uint64_t p = (uint64_t)(aie1_get_int(lhs, k) * aie1_get_int(rhs, k));
    uint64_t a = (uint64_t)aie1_get_int(acc, k);
    aie1_set_int(&r, k, aie1_s64(fmsub ? a - p : a + p));
  }
  *out = r;
  return true;
}

/* Two integer data vectors of one shape, on an AIE-ML core. */
static bool check_elem_operands(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                                const npuc_aie1_vec *rhs, const char *op) {
  if (!ctx->aieml)
    return aie1_error(ctx, "%s is an AIE-ML op; this core is AIE1", op);
  if (!aie1_check_vec(ctx, lhs, "element-wise lhs") ||
      !aie1_check_vec(ctx, rhs, "element-wise rhs"))
    return false;
  if (!aie1_is_int_data(lhs->elem) || lhs->elem != rhs->elem ||
      lhs->lanes != rhs->lanes)
    return aie1_error(ctx,
                      "%s multiplies two integer vectors of one type, not "
                      "vector<%dx%s> and vector<%dx%s>",
                      op, (int)lhs->lanes, aie1_elem_name(lhs->elem),
                      (int)rhs->lanes, aie1_elem_name(rhs->elem));
  return true;
}

static npuc_aie1_elem acc_of(npuc_aie1_elem data) {
  return data == NPUC_AIE1_I32 ? NPUC_AIE1_I64 : NPUC_AIE1_I32;
}
