/* The reduced lane-addressing scheme (aie1-lane-semantics.md section 5):
 * aievec_aie1.select and the lane-addressed add / sub. Output lane s takes
 * element xi(s) of the first operand (and yi(s) / zi(s) of the second):
 *   32-bit elements (RA, 16 lanes):    start + offset nibble s
 *   16-bit elements (RA_16, 32 lanes): aie1_ra16, quads chosen by offsets
 *                                       and a square */
#include "internal.h"

static bool check_reduced(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                          const npuc_aie1_addr *a, const char *op,
                          const char *side);
static int32_t reduced_lanes(npuc_aie1_elem elem);
static int32_t reduced_index(const npuc_aie1_vec *v, const npuc_aie1_addr *a,
                             int32_t s);
static bool add_sub(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                    const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                    const npuc_aie1_params *p, bool subtract);
static void combine(npuc_aie1_vec *r, int32_t s, const npuc_aie1_vec *x,
                    int32_t xi, const npuc_aie1_vec *z, int32_t zi,
                    bool subtract);

bool npuc_aie1_select(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *xbuff, const npuc_aie1_vec *ybuff,
                      const npuc_aie1_params *p) {
  const npuc_aie1_vec *y = ybuff ? ybuff : xbuff;
  if (!p)
    return aie1_error(ctx, "select without parameters");
  if (!check_reduced(ctx, xbuff, &p->x, "select xbuff", "x") ||
      !check_reduced(ctx, y, &p->z, "select ybuff", "y"))
    return false;
  if (y->elem != xbuff->elem)
    return aie1_error(ctx, "select of %s and %s lanes",
                      aie1_elem_name(xbuff->elem), aie1_elem_name(y->elem));
  npuc_aie1_vec r;
  if (!npuc_aie1_vec_init(ctx, &r, xbuff->elem, reduced_lanes(xbuff->elem)))
    return false;
  for (int32_t s = 0; s < r.lanes; ++s) {
    if ((p->select >> s) & 1u)
      aie1_copy_lane(&r, s, y, reduced_index(y, &p->z, s));
    else
      aie1_copy_lane(&r, s, xbuff, reduced_index(xbuff, &p->x, s));
  }
  *out = r;
  return true;
}

bool npuc_aie1_add(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_params *p) {
  return add_sub(ctx, out, x, z, p, false);
}

bool npuc_aie1_sub(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_params *p) {
  return add_sub(ctx, out, x, z, p, true);
}

/* Output lanes of one select32 / select16 / add32 / add16. */
static int32_t reduced_lanes(npuc_aie1_elem elem) {
  return elem == NPUC_AIE1_I16 ? 32 : 16;
}

static bool check_reduced(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                          const npuc_aie1_addr *a, const char *op,
                          const char *side) {
  if (!aie1_check_vec(ctx, v, op))
    return false;
  if (v->elem != NPUC_AIE1_I16 && v->elem != NPUC_AIE1_I32 &&
      v->elem != NPUC_AIE1_F32)
    return aie1_error(ctx,
                      "%s has lane addressing for i16, i32 and f32 "
                      "lanes, not %s",
                      op, aie1_elem_name(v->elem));
  if (v->elem != NPUC_AIE1_I16)
    return true;
  if (a->start % 2 != 0)
    return aie1_error(ctx, "%sstart %u: 16-bit starts must be even", side,
                      (unsigned)a->start);
  char name[16] = "?square";
  name[0] = side[0];
  return aie1_check_square(ctx, a->square, name);
}

static int32_t reduced_index(const npuc_aie1_vec *v, const npuc_aie1_addr *a,
                             int32_t s) {
  int64_t i =
      v->elem == NPUC_AIE1_I16
          ? aie1_ra16(a, s)
          : (int64_t)a->start + aie1_off16(a->offsets, a->offsets_hi, s);
  return aie1_wrap_index(i, v->lanes);
}

/* One lane of add / sub: integers wrap like the hardware's lanes. */
static void combine(npuc_aie1_vec *r, int32_t s, const npuc_aie1_vec *x,
                    int32_t xi, const npuc_aie1_vec *z, int32_t zi,
                    bool subtract) {
  switch (r->elem) {
  case NPUC_AIE1_F32:
    r->u.f32[s] =
        subtract ? x->u.f32[xi] - z->u.f32[zi] : x->u.f32[xi] + z->u.f32[zi];
    return;
  case NPUC_AIE1_ACC48:
  case NPUC_AIE1_ACC80: {
    aie1_wide b = aie1_get_acc(z, zi);
    aie1_set_acc(
        r, s,
        aie1_wide_add(aie1_get_acc(x, xi), subtract ? aie1_wide_neg(b) : b));
    return;
  }
  default: {
    /* Unsigned arithmetic wraps without overflow; set_int keeps the low
     * bits, as the two's-complement lanes of the hardware do. */
    uint64_t a = (uint64_t)aie1_get_int(x, xi),
             b = (uint64_t)aie1_get_int(z, zi);
    aie1_set_int(r, s, aie1_s64(subtract ? a - b : a + b));
    return;
  }
  }
}

static bool add_sub(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                    const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                    const npuc_aie1_params *p, bool subtract) {
  const char *op = subtract ? "sub" : "add";
  npuc_aie1_vec r;
  if (!p)
    return aie1_error(ctx, "%s without parameters", op);
  if (!aie1_check_vec(ctx, x, op) || !aie1_check_vec(ctx, z, op))
    return false;
  if (x->elem != z->elem)
    return aie1_error(ctx, "%s of %s and %s lanes", op, aie1_elem_name(x->elem),
                      aie1_elem_name(z->elem));
  if (!p->lane_addressed) {
    if (x->lanes != z->lanes)
      return aie1_error(ctx, "lane-wise %s of %d and %d lanes", op,
                        (int)x->lanes, (int)z->lanes);
    r = *x;
    for (int32_t s = 0; s < x->lanes; ++s)
      combine(&r, s, x, s, z, s, subtract);
    *out = r;
    return true;
  }
  if (!check_reduced(ctx, x, &p->x, op, "x") ||
      !check_reduced(ctx, z, &p->z, op, "z") ||
      !npuc_aie1_vec_init(ctx, &r, x->elem, reduced_lanes(x->elem)))
    return false;
  for (int32_t s = 0; s < r.lanes; ++s)
    combine(&r, s, x, reduced_index(x, &p->x, s), z, reduced_index(z, &p->z, s),
            subtract);
  *out = r;
  return true;
}
