/* AIE-ML bfloat16 data and float accumulators: ups to an accumulator of
 * float lanes, the conversion of one back to bfloat16, and the element-wise
 * multiplies and adds on bfloat16 and f32 data.
 *
 * Not from aie1-lane-semantics.md (AIE1 only). The lane rules are those of
 * the aievec ops (lane k of the result from lane k of each operand) and of
 * the bfloat16 format (the high 16 bits of an IEEE single); what is
 * assumed beyond them (rounding to nearest even, a product of two f32
 * rounded before the sum) is listed in docs/aie1-cmodel.md, "AIE-ML
 * floats". bfloat16 lanes are held as their bits in I16 lanes (as unsigned
 * lanes are); float accumulator lanes are F32 lanes. Requires ctx->aieml. */
#include "internal.h"

#include <string.h>

static bool check_float_data(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                             bool bf16, int32_t lanes, const char *what);
static bool check_float_acc(npuc_aie1_ctx *ctx, const npuc_aie1_vec *acc,
                            int32_t lanes, const char *what);
static float lane_value(const npuc_aie1_vec *v, bool bf16, int32_t k);

bool npuc_aie1_ups_float(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                         const npuc_aie1_vec *src, bool bf16) {
  if (!check_float_data(ctx, src, bf16, src ? src->lanes : 0, "ups_float"))
    return false;
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, NPUC_AIE1_F32, src->lanes))
    return false;
  for (int32_t k = 0; k < src->lanes; ++k)
    r.u.f32[k] = lane_value(src, bf16, k);
  *out = r;
  return true;
}

bool npuc_aie1_to_bf16(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                       const npuc_aie1_vec *acc) {
  if (!check_float_acc(ctx, acc, acc ? acc->lanes : 0, "to_bf16"))
    return false;
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, NPUC_AIE1_I16, acc->lanes))
    return false;
  for (int32_t k = 0; k < acc->lanes; ++k)
    r.u.i16[k] = (int16_t)npuc_aie1_bf16_bits(acc->u.f32[k]);
  *out = r;
  return true;
}

bool npuc_aie1_float_mac_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                              const npuc_aie1_vec *lhs,
                              const npuc_aie1_vec *rhs,
                              const npuc_aie1_vec *acc, bool bf16,
                              int32_t lanes, bool fmsub) {
  if (!check_float_data(ctx, lhs, bf16, lanes, "float mul_elem lhs") ||
      !check_float_data(ctx, rhs, bf16, lanes, "float mul_elem rhs") ||
      (acc && !check_float_acc(ctx, acc, lanes, "float mac_elem")))
    return false;
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, NPUC_AIE1_F32, lanes))
    return false;
  for (int32_t k = 0; k < lanes; ++k) {
    /* Two bf16 multiply exactly in f32; two f32 round here. */
    float p = lane_value(lhs, bf16, k) * lane_value(rhs, bf16, k);
    float a = acc ? acc->u.f32[k] : 0.0f;
    r.u.f32[k] = !acc ? p : fmsub ? a - p : a + p;
  }
  *out = r;
  return true;
}

bool npuc_aie1_float_add_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                              const npuc_aie1_vec *a, const npuc_aie1_vec *b,
                              bool sub) {
  if (!check_float_acc(ctx, a, a ? a->lanes : 0, "float add_elem") ||
      !check_float_acc(ctx, b, a->lanes, "float add_elem"))
    return false;
  npuc_aie1_vec r = *a;
  for (int32_t k = 0; k < a->lanes; ++k)
    r.u.f32[k] = sub ? a->u.f32[k] - b->u.f32[k] : a->u.f32[k] + b->u.f32[k];
  *out = r;
  return true;
}

/* A data vector of bf16 (I16 bits) or f32 lanes, at least `lanes` of
 * them, on an AIE-ML core. */
static bool check_float_data(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                             bool bf16, int32_t lanes, const char *what) {
  if (!ctx->aieml)
    return aie1_error(ctx, "%s is an AIE-ML op; this core is AIE1", what);
  if (!aie1_check_vec(ctx, v, what))
    return false;
  npuc_aie1_elem want = bf16 ? NPUC_AIE1_I16 : NPUC_AIE1_F32;
  if (v->elem != want || v->lanes < lanes || lanes <= 0)
    return aie1_error(ctx, "%s takes at least %d %s lanes, not vector<%dx%s>",
                      what, (int)lanes, bf16 ? "bf16" : "f32", (int)v->lanes,
                      aie1_elem_name(v->elem));
  return true;
}

static bool check_float_acc(npuc_aie1_ctx *ctx, const npuc_aie1_vec *acc,
                            int32_t lanes, const char *what) {
  if (!ctx->aieml)
    return aie1_error(ctx, "%s is an AIE-ML op; this core is AIE1", what);
  if (!aie1_check_vec(ctx, acc, what))
    return false;
  if (acc->elem != NPUC_AIE1_F32 || acc->lanes != lanes)
    return aie1_error(ctx,
                      "%s takes a vector<%dxf32> accumulator, not "
                      "vector<%dx%s>",
                      what, (int)lanes, (int)acc->lanes,
                      aie1_elem_name(acc->elem));
  return true;
}

static float lane_value(const npuc_aie1_vec *v, bool bf16, int32_t k) {
  return bf16 ? npuc_aie1_bf16_value((uint16_t)v->u.i16[k]) : v->u.f32[k];
}

/* bfloat16 is the high half of an f32: widening is exact. */
float npuc_aie1_bf16_value(uint16_t bits) {
  uint32_t u = (uint32_t)bits << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* To nearest, ties to even; a NaN stays a (quiet) NaN, whose low bits
 * rounding could otherwise carry into an infinity. */
uint16_t npuc_aie1_bf16_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
