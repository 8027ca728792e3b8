/* AIE-ML integer matrix multiply-accumulate: aievec.matmul, the mac_MxK_KxN
 * intrinsics. Not from aie1-lane-semantics.md (AIE1 only). The rule is the
 * matrix product the op's name and mlir-aie's AIEVecOps.td description
 * give it, on row-major lanes (docs/aie1-emulator.md, "AIE-ML matmul"):
 *   acc[i*N + j] + sum over k < K of lhs[i*K + k] * rhs[k*N + j],
 * wrapping in the accumulator lane (I32 or I64). lhs and rhs may hold more
 * lanes than M*K and K*N (the C++ translation widens them to 512 bits);
 * the extra lanes are not read. Floats (bf16) are not modelled. */
#include "internal.h"

static bool check_matmul(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                         const npuc_aie1_vec *rhs, const npuc_aie1_vec *acc,
                         int32_t m, int32_t k, int32_t n);

bool npuc_aie1_matmul(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                      const npuc_aie1_vec *acc, int32_t m, int32_t k,
                      int32_t n) {
  if (!check_matmul(ctx, lhs, rhs, acc, m, k, n))
    return false;
  npuc_aie1_vec r = *acc;
  for (int32_t i = 0; i < m; ++i)
    for (int32_t j = 0; j < n; ++j) {
      /* Unsigned arithmetic: the sum wraps instead of overflowing. */
      uint64_t sum = (uint64_t)aie1_get_int(acc, i * n + j);
      for (int32_t kk = 0; kk < k; ++kk)
        sum += (uint64_t)aie1_get_int(lhs, i * k + kk) *
               (uint64_t)aie1_get_int(rhs, kk * n + j);
      aie1_set_int(&r, i * n + j, aie1_s64(sum));
    }
  *out = r;
  return true;
}

/* An AIE-ML core; integer data; shapes within the operands. */
static bool check_matmul(npuc_aie1_ctx *ctx, const npuc_aie1_vec *lhs,
                         const npuc_aie1_vec *rhs, const npuc_aie1_vec *acc,
                         int32_t m, int32_t k, int32_t n) {
  if (!ctx->aieml)
    return aie1_error(ctx, "matmul is an AIE-ML op; this core is AIE1");
  if (!aie1_check_vec(ctx, lhs, "matmul lhs") ||
      !aie1_check_vec(ctx, rhs, "matmul rhs") ||
      !aie1_check_vec(ctx, acc, "matmul accumulator"))
    return false;
  if (m < 1 || k < 1 || n < 1 || m > 64 || k > 64 || n > 64)
    return aie1_error(ctx, "matmul %dx%d times %dx%d: sizes are 1 to 64",
                      (int)m, (int)k, (int)k, (int)n);
  bool int_ops = (lhs->elem == NPUC_AIE1_I8 || lhs->elem == NPUC_AIE1_I16 ||
                  lhs->elem == NPUC_AIE1_I32) &&
                 (rhs->elem == NPUC_AIE1_I8 || rhs->elem == NPUC_AIE1_I16 ||
                  rhs->elem == NPUC_AIE1_I32);
  bool int_acc = acc->elem == NPUC_AIE1_I32 || acc->elem == NPUC_AIE1_I64;
  if (!int_ops || !int_acc)
    return aie1_error(ctx,
                      "matmul of %s by %s into %s is not modelled (i8, i16 or "
                      "i32 operands into i32 or i64 lanes)",
                      aie1_elem_name(lhs->elem), aie1_elem_name(rhs->elem),
                      aie1_elem_name(acc->elem));
  if (lhs->lanes < m * k || rhs->lanes < k * n || acc->lanes != m * n)
    return aie1_error(ctx,
                      "matmul %dx%d times %dx%d needs %d lanes of lhs, %d of "
                      "rhs and exactly %d of the accumulator, not %d, %d, %d",
                      (int)m, (int)k, (int)k, (int)n, (int)(m * k),
                      (int)(k * n), (int)(m * n), (int)lhs->lanes,
                      (int)rhs->lanes, (int)acc->lanes);
  return true;
}
