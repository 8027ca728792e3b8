/* aievec_aie1.mul / mac: which X and Z elements feed each accumulator lane
 * (aie1-lane-semantics.md section 4).
 *
 *   acc'[L] = acc[L] +/- sum over columns c of X[xi(L, c)] * Z[zi(L, c)]
 *
 * The scheme, and with it the number of lanes and columns, follows from
 * the operand and result shapes as mlir-aie's emitter picks the
 * intrinsic. */
#include "internal.h"

typedef enum {
  SCHEME_LANEWISE, /* no xstart: acc[L] +/- X[L] * Z[L] */
  SCHEME_W32,      /* i32 / f32: lmac8, fpmac (8 lanes x 1 column) */
  SCHEME_I16_16,   /* i16 mac16 (16 lanes x 2 columns) */
  SCHEME_I16_8,    /* i16 mac8 (8 lanes x 4 columns) */
  SCHEME_I8,       /* i8 mac16 / mac8 (16 x 8 or 8 x 16) */
} scheme;

typedef struct {
  scheme kind;
  int32_t lanes, cols;
} plan;

static bool make_plan(npuc_aie1_ctx *ctx, const npuc_aie1_vec *x,
                      const npuc_aie1_vec *z, npuc_aie1_elem acc_elem,
                      int32_t acc_lanes, const npuc_aie1_params *p, plan *pl);
static bool multiply(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                     const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                     const npuc_aie1_vec *acc, npuc_aie1_elem acc_elem,
                     int32_t acc_lanes, const npuc_aie1_params *p,
                     bool subtract);

bool npuc_aie1_mul(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   npuc_aie1_elem acc_elem, int32_t acc_lanes,
                   const npuc_aie1_params *p) {
  return multiply(ctx, out, x, z, NULL, acc_elem, acc_lanes, p, false);
}

bool npuc_aie1_mac(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_vec *acc, const npuc_aie1_params *p) {
  if (!aie1_check_vec(ctx, acc, "mac accumulator"))
    return false;
  return multiply(ctx, out, x, z, acc, acc->elem, acc->lanes, p, p->fmsub);
}

/* ---- scheme selection ---------------------------------------------------- */

static npuc_aie1_elem acc_of(npuc_aie1_elem elem) {
  return elem == NPUC_AIE1_I32   ? NPUC_AIE1_ACC80
         : elem == NPUC_AIE1_F32 ? NPUC_AIE1_F32
                                 : NPUC_AIE1_ACC48;
}

static bool no_scheme(npuc_aie1_ctx *ctx, const npuc_aie1_vec *x,
                      const npuc_aie1_vec *z, npuc_aie1_elem acc_elem,
                      int32_t acc_lanes, const char *why) {
  return aie1_error(ctx,
                    "no AIE1 multiply of vector<%dx%s> by vector<%dx%s> into "
                    "vector<%dx%s>: %s",
                    (int)x->lanes, aie1_elem_name(x->elem), (int)z->lanes,
                    aie1_elem_name(z->elem), (int)acc_lanes,
                    aie1_elem_name(acc_elem), why);
}

/* The documented constraints of each scheme's parameters (UG1078/UG1079):
 * squares choose among four candidates; 16-bit X starts are even; 8-bit
 * steps are multiples of 4 (X) and 2 (Z). */
static bool check_params(npuc_aie1_ctx *ctx, scheme kind,
                         const npuc_aie1_params *p) {
  if (kind == SCHEME_I16_16 || kind == SCHEME_I16_8) {
    if (p->x.start % 2 != 0)
      return aie1_error(ctx, "xstart %u: 16-bit X starts must be even",
                        (unsigned)p->x.start);
    return aie1_check_square(ctx, p->x.square, "xsquare");
  }
  if (kind != SCHEME_I8)
    return true;
  if (p->x.step % 4 != 0 || p->z.step % 2 != 0)
    return aie1_error(ctx,
                      "xstep %u / zstep %u: 8-bit steps are multiples of 4 "
                      "(X) and 2 (Z)",
                      (unsigned)p->x.step, (unsigned)p->z.step);
  return aie1_check_square(ctx, p->x.square, "xsquare") &&
         aie1_check_square(ctx, p->z.square, "zsquare");
}

static bool pick_lane_addressed(npuc_aie1_ctx *ctx, const npuc_aie1_vec *x,
                                const npuc_aie1_vec *z, npuc_aie1_elem acc_elem,
                                int32_t acc_lanes, plan *pl) {
  if (z->lanes * npuc_aie1_elem_bits(z->elem) != 256)
    return no_scheme(ctx, x, z, acc_elem, acc_lanes, "Z must be 256 bits");
  if (x->lanes < 2 * z->lanes)
    return no_scheme(ctx, x, z, acc_elem, acc_lanes,
                     "X needs at least twice Z's lanes");
  if (acc_elem != acc_of(x->elem))
    return no_scheme(ctx, x, z, acc_elem, acc_lanes, "wrong accumulator");
  pl->lanes = acc_lanes;
  switch (x->elem) {
  case NPUC_AIE1_I32:
  case NPUC_AIE1_F32:
    pl->kind = SCHEME_W32;
    pl->cols = 1;
    return acc_lanes == 8 || no_scheme(ctx, x, z, acc_elem, acc_lanes,
                                       "the 32-bit scheme has 8 lanes");
  case NPUC_AIE1_I16:
    pl->kind = acc_lanes == 16 ? SCHEME_I16_16 : SCHEME_I16_8;
    pl->cols = acc_lanes == 16 ? 2 : 4;
    return acc_lanes == 16 || acc_lanes == 8 ||
           no_scheme(ctx, x, z, acc_elem, acc_lanes,
                     "the 16-bit schemes have 8 or 16 lanes");
  case NPUC_AIE1_I8:
    pl->kind = SCHEME_I8;
    pl->cols = acc_lanes == 8 ? 16 : 8;
    return acc_lanes == 16 || acc_lanes == 8 ||
           no_scheme(ctx, x, z, acc_elem, acc_lanes,
                     "the 8-bit schemes have 8 or 16 lanes");
  default:
    return no_scheme(ctx, x, z, acc_elem, acc_lanes, "not a data vector");
  }
}

static bool make_plan(npuc_aie1_ctx *ctx, const npuc_aie1_vec *x,
                      const npuc_aie1_vec *z, npuc_aie1_elem acc_elem,
                      int32_t acc_lanes, const npuc_aie1_params *p, plan *pl) {
  if (!aie1_check_vec(ctx, x, "mul/mac X") ||
      !aie1_check_vec(ctx, z, "mul/mac Z"))
    return false;
  if (x->elem != z->elem || aie1_is_acc(x->elem))
    return no_scheme(ctx, x, z, acc_elem, acc_lanes,
                     "X and Z must be data vectors of one element type");
  if (p->lane_addressed)
    return pick_lane_addressed(ctx, x, z, acc_elem, acc_lanes, pl) &&
           check_params(ctx, pl->kind, p);
  if (x->lanes != z->lanes || x->lanes != acc_lanes ||
      acc_elem != acc_of(x->elem))
    return no_scheme(ctx, x, z, acc_elem, acc_lanes,
                     "without xstart, X, Z and the result are lane-wise "
                     "alike");
  pl->kind = SCHEME_LANEWISE;
  pl->lanes = acc_lanes;
  pl->cols = 1;
  return true;
}

/* ---- lane addressing ----------------------------------------------------- */

/* 16-bit mac8 (section 4.5): lane pair p shares a square over the even and
 * odd 32-bit words its offsets pick; each block of two columns moves by
 * xstep. */
static int64_t x_i16_8(const npuc_aie1_addr *a, int32_t lane, int32_t col) {
  int p = lane / 2, r = lane % 2, b = col / 2, cp = col % 2;
  int64_t ne = aie1_nib(a->offsets, 2 * p),
          no = aie1_nib(a->offsets, 2 * p + 1);
  int64_t e = (int64_t)a->start + 2 * ne + (int64_t)b * a->step;
  int64_t o = (int64_t)a->start + 2 * (ne + no + 1) + (int64_t)b * a->step;
  const int64_t quad[4] = {e, e + 1, o, o + 1};
  return quad[aie1_nib(a->square, 2 * r + cp) & 3];
}

/* 8-bit X (section 4.6, [INF] for the square): the offsets pick 32-bit
 * words, the square picks a 16-bit half, the lane's parity the byte. */
static int64_t x_i8(const npuc_aie1_addr *a, int32_t lane, int32_t col) {
  int h = lane % 2, r = (lane / 2) % 2, p = lane / 4, b = col / 2, cp = col % 2;
  int64_t ne = aie1_nib(a->offsets, 2 * p),
          no = aie1_nib(a->offsets, 2 * p + 1);
  int64_t we = (int64_t)a->start + 4 * ne + (int64_t)b * a->step;
  int64_t wo = (int64_t)a->start + 4 * (ne + no + 1) + (int64_t)b * a->step;
  const int64_t halves[4] = {we, we + 2, wo, wo + 2};
  return halves[aie1_nib(a->square, 2 * r + cp) & 3] + h;
}

/* 8-bit Z (section 4.6, [INF] for the square): both offsets absolute in
 * 16-bit words; lanes 4p..4p+3 share a square over their bytes. */
static int64_t z_i8(const npuc_aie1_addr *a, int32_t lane, int32_t col) {
  int h = lane % 2, p = lane / 4, b = col / 2, cp = col % 2;
  int64_t step = (int64_t)b * a->step;
  int64_t e0 = (int64_t)a->start + 2 * aie1_nib(a->offsets, 2 * p) + step;
  int64_t e1 = (int64_t)a->start + 2 * aie1_nib(a->offsets, 2 * p + 1) + step;
  const int64_t bytes[4] = {e0, e0 + 1, e1, e1 + 1};
  return bytes[aie1_nib(a->square, 2 * h + cp) & 3];
}

static int64_t x_index(const plan *pl, const npuc_aie1_addr *a, int32_t lane,
                       int32_t col) {
  switch (pl->kind) {
  case SCHEME_LANEWISE: return lane;
  case SCHEME_W32: return (int64_t)a->start + aie1_nib(a->offsets, lane);
  case SCHEME_I16_16: return aie1_ra16(a, 2 * lane + col);
  case SCHEME_I16_8: return x_i16_8(a, lane, col);
  case SCHEME_I8: return x_i8(a, lane, col);
  }
  return 0;
}

static int64_t z_index(const plan *pl, const npuc_aie1_addr *a, int32_t lane,
                       int32_t col) {
  int64_t step = (int64_t)col * a->step;
  switch (pl->kind) {
  case SCHEME_LANEWISE: return lane;
  case SCHEME_W32: return (int64_t)a->start + aie1_nib(a->offsets, lane);
  case SCHEME_I16_16:
    return (int64_t)a->start + aie1_off16(a->offsets, a->offsets_hi, lane) +
           step;
  case SCHEME_I16_8:
    return (int64_t)a->start + aie1_nib(a->offsets, lane) + step;
  case SCHEME_I8: return z_i8(a, lane, col);
  }
  return 0;
}

/* ---- arithmetic ---------------------------------------------------------- */

/* f32: each product rounded to f32, then each sum (no fused multiply-add,
 * section 4). mul starts from the first product, so -0 stays -0. */
static float float_lane(const plan *pl, const npuc_aie1_vec *x,
                        const npuc_aie1_vec *z, const npuc_aie1_vec *acc,
                        const npuc_aie1_params *p, int32_t lane,
                        bool subtract) {
  bool have = acc != NULL;
  float a = have ? acc->u.f32[lane] : 0.0f;
  for (int32_t c = 0; c < pl->cols; ++c) {
    float xv = x->u.f32[aie1_wrap_index(x_index(pl, &p->x, lane, c), x->lanes)];
    float zv = z->u.f32[aie1_wrap_index(z_index(pl, &p->z, lane, c), z->lanes)];
    float prod = xv * zv;
    a = !have ? (subtract ? -prod : prod) : subtract ? a - prod : a + prod;
    have = true;
  }
  return a;
}

/* Integers: products and their sum are exact in int64 (at most 16 columns
 * of i8, 4 of i16 or 1 of i32); the accumulator wraps at its width. */
static aie1_wide int_lane(const plan *pl, const npuc_aie1_vec *x,
                          const npuc_aie1_vec *z, const npuc_aie1_vec *acc,
                          const npuc_aie1_params *p, int32_t lane,
                          bool subtract) {
  int64_t t = 0;
  for (int32_t c = 0; c < pl->cols; ++c) {
    int64_t xv =
        aie1_get_int(x, aie1_wrap_index(x_index(pl, &p->x, lane, c), x->lanes));
    int64_t zv =
        aie1_get_int(z, aie1_wrap_index(z_index(pl, &p->z, lane, c), z->lanes));
    t += xv * zv;
  }
  aie1_wide sum = aie1_wide_from_i64(t);
  if (subtract)
    sum = aie1_wide_neg(sum);
  return acc ? aie1_wide_add(aie1_get_acc(acc, lane), sum) : sum;
}

static bool multiply(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                     const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                     const npuc_aie1_vec *acc, npuc_aie1_elem acc_elem,
                     int32_t acc_lanes, const npuc_aie1_params *p,
                     bool subtract) {
  plan pl = {SCHEME_LANEWISE, 0, 0};
  npuc_aie1_vec r;
  if (!p)
    return aie1_error(ctx, "mul/mac without parameters");
  if (!make_plan(ctx, x, z, acc_elem, acc_lanes, p, &pl) ||
      !npuc_aie1_vec_init(ctx, &r, acc_elem, acc_lanes))
    return false;
  for (int32_t lane = 0; lane < pl.lanes; ++lane) {
    if (acc_elem == NPUC_AIE1_F32)
      r.u.f32[lane] = float_lane(&pl, x, z, acc, p, lane, subtract);
    else
      aie1_set_acc(&r, lane, int_lane(&pl, x, z, acc, p, lane, subtract));
  }
  *out = r;
  return true;
}
