/* AIE-ML sliding multiplies and the legacy shuffle: aievec.mul_conv,
 * aievec.fma_conv and aievec.legacyshuffle, as aie-vectorize emits them for
 * AIE-ML (aieml=true). Not from aie1-lane-semantics.md, which covers AIE1
 * only. Where each rule comes from (docs/aie1-emulator.md, "AIE-ML
 * convolutions"):
 *  - mul_conv_MxN: the AI Engine-ML intrinsics user guide (UG1603's
 *    companion, "MUL/MAC operations"): out(x) = sum over u < N of
 *    G(u) * F(x + u), F of M + N - 1 lanes and G of N; the 8-bit form is
 *    32x8 into 32-bit lanes, the 16-bit one 16x4 into 64-bit lanes
 *    (acc32 / acc64), as mlir-aie's ops and its C++ translation use them;
 *  - fma_conv: the same added to (fmsub: subtracted from) the accumulator,
 *    the mac_conv intrinsics of that guide;
 *  - legacyshuffle mode m: the AIE-ML shuffle modes numbered as the
 *    intrinsics header numbers them (0, 1: T8_64x2 lo/hi; 2, 3: T16_32x2;
 *    4, 5: T32_16x2), each read as mlir-aie's aievec.shuffle documentation
 *    reads t<bits>_<r>x2: lhs:rhs as r rows of 2 lanes, transposed, lo the
 *    first row (the even lanes), hi the second (the odd ones). The op has
 *    one operand; the shuffle takes it as both lhs and rhs.
 * Integer sums wrap to the accumulator lane, like the other AIE-ML ops. */
#include "internal.h"

static bool check_conv(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                       const npuc_aie1_vec *rhs, int32_t m, int32_t n,
                       npuc_aie1_elem *acc_elem);
static void conv_lanes(npuc_aie1_vec *r, const npuc_aie1_vec *lhs,
                       const npuc_aie1_vec *rhs, int32_t m, int32_t n,
                       bool fmsub);

bool npuc_aie1_mul_conv(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        int32_t m, int32_t n) {
  npuc_aie1_elem acc;
  npuc_aie1_vec r;
  if (!check_conv(ctx, lhs, rhs, m, n, &acc) ||
      !npuc_aie1_vec_init(ctx, &r, acc, m))
    return false;
  conv_lanes(&r, lhs, rhs, m, n, false);
  *out = r;
  return true;
}

bool npuc_aie1_fma_conv(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        const npuc_aie1_vec *acc, int32_t m, int32_t n,
                        bool fmsub) {
  npuc_aie1_elem acc_elem;
  if (!check_conv(ctx, lhs, rhs, m, n, &acc_elem) ||
      !aie1_check_vec(ctx, acc, "fma_conv accumulator"))
    return false;
  if (acc->elem != acc_elem || acc->lanes != m)
    return aie1_error(ctx,
                      "fma_conv %dx%d of %s lanes accumulates in "
                      "vector<%dx%s>, not vector<%dx%s>",
                      (int)m, (int)n, aie1_elem_name(lhs->elem), (int)m,
                      aie1_elem_name(acc_elem), (int)acc->lanes,
                      aie1_elem_name(acc->elem));
  npuc_aie1_vec r = *acc;
  conv_lanes(&r, lhs, rhs, m, n, fmsub);
  *out = r;
  return true;
}

bool npuc_aie1_legacyshuffle(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                             const npuc_aie1_vec *src, int32_t mode) {
  if (!ctx->aieml)
    return aie1_error(ctx, "legacyshuffle is an AIE-ML op; this core is AIE1");
  if (!aie1_check_vec(ctx, src, "legacyshuffle source"))
    return false;
  static const npuc_aie1_elem elem_of_mode[] = {NPUC_AIE1_I8, NPUC_AIE1_I16,
                                                NPUC_AIE1_I32};
  if (mode < 0 || mode > 5)
    return aie1_error(ctx,
                      "legacyshuffle mode %d is not modelled (modes 0-5: "
                      "T8_64x2, T16_32x2, T32_16x2, lo and hi)",
                      (int)mode);
  npuc_aie1_elem want = elem_of_mode[mode / 2];
  int32_t lanes = 512 / npuc_aie1_elem_bits(want);
  if (src->elem != want || src->lanes != lanes)
    return aie1_error(ctx,
                      "legacyshuffle mode %d takes vector<%dx%s>, not "
                      "vector<%dx%s>",
                      (int)mode, (int)lanes, aie1_elem_name(want),
                      (int)src->lanes, aie1_elem_name(src->elem));
  npuc_aie1_vec r = *src;
  int32_t parity = mode % 2; /* lo: even lanes of src:src, hi: odd ones */
  for (int32_t k = 0; k < lanes; ++k)
    aie1_copy_lane(&r, k, src, (2 * k + parity) % lanes);
  *out = r;
  return true;
}

/* Integer lanes of one type on an AIE-ML core, in a form the hardware has:
 * 32x8 on i8 (into i32 lanes) or 16x4 on i16 (into i64 lanes), lhs
 * holding the M + N - 1 lanes it reads and rhs the N taps. */
static bool check_conv(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                       const npuc_aie1_vec *rhs, int32_t m, int32_t n,
                       npuc_aie1_elem *acc_elem) {
  if (!ctx->aieml)
    return aie1_error(ctx, "mul_conv / fma_conv are AIE-ML ops; this core "
                           "is AIE1");
  if (!aie1_check_vec(ctx, lhs, "conv lhs") ||
      !aie1_check_vec(ctx, rhs, "conv rhs"))
    return false;
  bool i8 = lhs->elem == NPUC_AIE1_I8 && m == 32 && n == 8;
  bool i16 = lhs->elem == NPUC_AIE1_I16 && m == 16 && n == 4;
  if (!i8 && !i16)
    return aie1_error(ctx,
                      "conv %dx%d on %s lanes is not modelled (32x8 on i8, "
                      "16x4 on i16)",
                      (int)m, (int)n, aie1_elem_name(lhs->elem));
  if (rhs->elem != lhs->elem || lhs->lanes < m + n - 1 || rhs->lanes < n)
    return aie1_error(ctx,
                      "conv %dx%d reads %d lanes of lhs and %d of rhs, of "
                      "one type: not vector<%dx%s> and vector<%dx%s>",
                      (int)m, (int)n, (int)(m + n - 1), (int)n, (int)lhs->lanes,
                      aie1_elem_name(lhs->elem), (int)rhs->lanes,
                      aie1_elem_name(rhs->elem));
  *acc_elem = i8 ? NPUC_AIE1_I32 : NPUC_AIE1_I64;
  return true;
}

/* r[x] += (or -=) sum over u < n of rhs[u] * lhs[x + u], wrapping. */
static void conv_lanes(npuc_aie1_vec *r, const npuc_aie1_vec *lhs,
                       const npuc_aie1_vec *rhs, int32_t m, int32_t n,
                       bool fmsub) {
  for (int32_t x = 0; x < m; ++x) {
    /* Unsigned arithmetic: the sum wraps instead of overflowing. */
    uint64_t sum = (uint64_t)aie1_get_int(r, x);
    for (int32_t u = 0; u < n; ++u) {
      uint64_t p = (uint64_t)(aie1_get_int(rhs, u) * aie1_get_int(lhs, x + u));
      sum = fmsub ? sum - p : sum + p;
    }
    aie1_set_int(r, x, aie1_s64(sum));
  }
}
