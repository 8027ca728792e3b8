/* libnpuc_aie1_rt against worked examples. Every expected value below was
 * derived by hand from ../shared/reference/aie1-lane-semantics.md (section
 * numbers in the comments) or taken from the examples it quotes (UG1079,
 * the XD100 tutorial, the mlir-aie conv2d index tables); none is computed
 * with the library's own helpers. Also: srs rounding and saturation edge
 * cases, 80-bit accumulators beyond 64 bits, and every misuse the library
 * must refuse with a clear error. */
/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "npuc/Aie1Runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static npuc_aie1_ctx ctx;

static int reset(void **state) {
  (void)state;
  npuc_aie1_ctx_init(&ctx);
  return 0;
}

/* ---- helpers --------------------------------------------------------------
 */

static npuc_aie1_vec vec(npuc_aie1_elem elem, int lanes) {
  npuc_aie1_vec v;
  if (!npuc_aie1_vec_init(&ctx, &v, elem, lanes))
    fail_msg("vec_init: %s", ctx.error);
  return v;
}

/* lanes of v: base, base + step, ... (integers) */
static npuc_aie1_vec ramp(npuc_aie1_elem elem, int lanes, int base, int step) {
  npuc_aie1_vec v = vec(elem, lanes);
  for (int k = 0; k < lanes; ++k) {
    int x = base + k * step;
    if (elem == NPUC_AIE1_I8)
      v.u.i8[k] = (int8_t)x;
    else if (elem == NPUC_AIE1_I16)
      v.u.i16[k] = (int16_t)x;
    else if (elem == NPUC_AIE1_I32)
      v.u.i32[k] = x;
    else
      v.u.f32[k] = (float)x;
  }
  return v;
}

static int64_t lane(const npuc_aie1_vec *v, int k) {
  switch (v->elem) {
  case NPUC_AIE1_I8: return v->u.i8[k];
  case NPUC_AIE1_I16: return v->u.i16[k];
  case NPUC_AIE1_I32: return v->u.i32[k];
  case NPUC_AIE1_ACC48: return v->u.acc48[k];
  case NPUC_AIE1_ACC80: {
    int64_t out;
    if (!npuc_aie1_i80_to_i64(v->u.acc80[k], &out))
      fail_msg("lane %d does not fit in 64 bits", k);
    return out;
  }
  default: fail_msg("not an integer vector"); return 0;
  }
}

static void expect_lanes(const npuc_aie1_vec *v, const int64_t *want, int n) {
  assert_int_equal(v->lanes, n);
  for (int k = 0; k < n; ++k)
    if (lane(v, k) != want[k])
      fail_msg("lane %d: want %lld, got %lld", k, (long long)want[k],
               (long long)lane(v, k));
}

static void expect_ok(bool ok) {
  if (!ok)
    fail_msg("unexpected error: %s", ctx.error);
}

static void expect_error(bool ok, const char *needle) {
  if (ok)
    fail_msg("expected an error containing '%s'", needle);
  if (!strstr(ctx.error, needle))
    fail_msg("error '%s' does not contain '%s'", ctx.error, needle);
}

/* Parameters from name / value pairs, as the attribute dictionary holds
 * them. */
static npuc_aie1_params params(const char *const *kv) {
  npuc_aie1_params p;
  npuc_aie1_params_init(&p);
  for (; kv[0]; kv += 2)
    if (!npuc_aie1_params_set(&ctx, &p, kv[0], kv[1]))
      fail_msg("params_set(%s, %s): %s", kv[0], kv[1], ctx.error);
  return p;
}
#define PARAMS(...) params((const char *const[]){__VA_ARGS__, NULL})

/* ---- vectors, parameters ---------------------------------------------------
 */

static void shapes(void **state) {
  (void)state;
  npuc_aie1_vec v;
  expect_ok(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_I8, 128));
  expect_ok(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_F32, 4));
  expect_ok(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_ACC80, 8));
  expect_error(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_I16, 12),
               "no AIE1 register holds vector<12xi16>");
  expect_error(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_I32, 64),
               "vector<64xi32>");
  expect_error(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_ACC48, 32),
               "vector<32xi48>");
  expect_error(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_I8, 0), "vector<0xi8>");
  expect_error(npuc_aie1_vec_init(&ctx, &v, NPUC_AIE1_ACC80, 12),
               "vector<12xi80>");
  assert_int_equal(npuc_aie1_elem_bits(NPUC_AIE1_ACC80), 80);
}

static void i80_conversions(void **state) {
  (void)state;
  npuc_aie1_i80 m = npuc_aie1_i80_from_i64(-5);
  assert_int_equal(m.hi, -1);
  assert_true(m.lo == (uint64_t)0 - 5);
  int64_t back = 0;
  assert_true(npuc_aie1_i80_to_i64(m, &back));
  assert_int_equal(back, -5);
  npuc_aie1_i80 big = {0, 1}; /* 2^64 */
  assert_false(npuc_aie1_i80_to_i64(big, &back));
  npuc_aie1_i80 odd = {UINT64_C(1) << 63, 0}; /* 2^63: positive, no fit */
  assert_false(npuc_aie1_i80_to_i64(odd, &back));
}

static void parse_params(void **state) {
  (void)state;
  npuc_aie1_params p = PARAMS(
      "xoffsets", "0x76543210", "zstart", "16", "xoffsets_hi", "0xFEDCBA98",
      "select", "0xcccccccc", "fmsub", "true", "ysquare", "0x1010");
  assert_false(p.lane_addressed); /* no xstart */
  assert_true(p.x.offsets == 0x76543210u);
  assert_true(p.x.offsets_hi == 0xFEDCBA98u);
  assert_true(p.z.start == 16);
  assert_true(p.select == 0xccccccccu);
  assert_true(p.fmsub);
  assert_true(p.z.square == 0x1010); /* y* share the second operand's slot */
  assert_true(p.x.square == 0x3210); /* absent: the identity square */
  p = PARAMS("xstart", "0");
  assert_true(p.lane_addressed);
  p = PARAMS("xstart", ""); /* "" is an absent attribute */
  assert_false(p.lane_addressed);

  npuc_aie1_params_init(&p);
  expect_error(npuc_aie1_params_set(&ctx, &p, "xoffsets", "0x100000000"),
               "not a 32-bit decimal or 0x-hex number");
  expect_error(npuc_aie1_params_set(&ctx, &p, "zoffsets_hi", "0x"),
               "zoffsets_hi = \"0x\"");
  expect_error(npuc_aie1_params_set(&ctx, &p, "xstep", "4a"), "xstep");
  expect_error(npuc_aie1_params_set(&ctx, &p, "xstep", "-4"), "xstep");
  expect_error(npuc_aie1_params_set(&ctx, &p, "wstart", "0"),
               "unknown lane-addressing attribute 'wstart'");
  expect_error(npuc_aie1_params_set(&ctx, &p, "fmsub", "1"),
               "fmsub must be true or false");
}

/* ---- upd, store (2.1, 2.2) ----------------------------------------------- */

static void upd_halves(void **state) {
  (void)state;
  int32_t mem[40];
  for (int i = 0; i < 40; ++i)
    mem[i] = 100 + i;
  /* 2.1 example (conv2d_uij_i32): upd %A[%r, %c] {index 0} then
   * upd %A[%r, %c + 1], %5 {index 1, offset 224}: 224 bits = 7 i32, so the
   * high half reads A[c + 8 .. c + 15]. With c = 0 (and r = 0): */
  npuc_aie1_vec v;
  expect_ok(npuc_aie1_upd(&ctx, &v, NULL, mem, 40, NPUC_AIE1_I32, 16, 0, 0, 0));
  int64_t low[16] = {100, 101, 102, 103, 104, 105, 106, 107};
  expect_lanes(&v, low, 16); /* high half: 0 without a previous vector */
  expect_ok(npuc_aie1_upd(&ctx, &v, &v, mem, 40, NPUC_AIE1_I32, 16, 1, 224, 1));
  int64_t both[16];
  for (int k = 0; k < 16; ++k)
    both[k] = 100 + k;
  expect_lanes(&v, both, 16);

  /* At most 256 bits: read whole, vector<8xi32> at element 30. */
  expect_ok(npuc_aie1_upd(&ctx, &v, NULL, mem, 40, NPUC_AIE1_I32, 8, 30, 0, 0));
  int64_t whole[8] = {130, 131, 132, 133, 134, 135, 136, 137};
  expect_lanes(&v, whole, 8);
}

static void upd_i8_filter(void **state) {
  (void)state;
  /* conv2d_uij_i8: %0 = upd %B[%c0] {index 0} : vector<64xi8>, then
   * %1 = upd %B[%c32], %0 {index 1, offset 0}: lanes 32..63 = B[32..63]. */
  int8_t mem[96];
  for (int i = 0; i < 96; ++i)
    mem[i] = (int8_t)(i - 40);
  npuc_aie1_vec v0, v1;
  expect_ok(npuc_aie1_upd(&ctx, &v0, NULL, mem, 96, NPUC_AIE1_I8, 64, 0, 0, 0));
  expect_ok(npuc_aie1_upd(&ctx, &v1, &v0, mem, 96, NPUC_AIE1_I8, 64, 32, 0, 1));
  for (int k = 0; k < 64; ++k) {
    assert_int_equal(v0.u.i8[k], k < 32 ? k - 40 : 0);
    assert_int_equal(v1.u.i8[k], k - 40);
  }
  /* f32 and a negative offset in bits: element 10 - 64/32 = 8. */
  float fm[16];
  for (int i = 0; i < 16; ++i)
    fm[i] = (float)i * 0.5f;
  expect_ok(
      npuc_aie1_upd(&ctx, &v0, NULL, fm, 16, NPUC_AIE1_F32, 8, 10, -64, 0));
  for (int k = 0; k < 8; ++k)
    assert_true(v0.u.f32[k] == (float)(8 + k) * 0.5f);
}

static void upd_errors(void **state) {
  (void)state;
  int32_t mem[9] = {0};
  npuc_aie1_vec v, w = vec(NPUC_AIE1_I32, 8);
  /* 2.1 point 5: vector<8xi32> of memref<9xi32> at 8 reads past the end;
   * the caller must give the buffer slack. */
  expect_error(npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_I32, 8, 8, 0, 0),
               "give buffers a vector of slack");
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_I32, 8, -1, 0, 0),
      "outside a buffer of 9");
  expect_error(npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_I32, 8, 0, 0, 1),
               "only index 0");
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_I32, 16, 0, 0, 2),
      "index 0 (low half) and 1 (high half)");
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_I32, 4, 0, 16, 0),
      "not a whole number of i32");
  expect_error(npuc_aie1_upd(&ctx, &v, &w, mem, 9, NPUC_AIE1_I32, 8, 0, 0, 0),
               "updates no vector");
  expect_error(npuc_aie1_upd(&ctx, &v, &w, mem, 9, NPUC_AIE1_I16, 32, 0, 0, 1),
               "another type");
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, mem, 9, NPUC_AIE1_ACC48, 8, 0, 0, 0),
      "upd loads data vectors");
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, NULL, 9, NPUC_AIE1_I32, 8, 0, 0, 0),
      "no buffer");
}

static void store_masked(void **state) {
  (void)state;
  /* 2.2: the last iteration of a row writes only the lanes inside it. */
  int16_t mem[12];
  for (int i = 0; i < 12; ++i)
    mem[i] = -1;
  npuc_aie1_vec v = ramp(NPUC_AIE1_I16, 8, 10, 1);
  expect_ok(npuc_aie1_store(&ctx, &v, mem, 12, 2, 6));
  const int16_t want[12] = {-1, -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1};
  assert_memory_equal(mem, want, sizeof want);
  expect_error(npuc_aie1_store(&ctx, &v, mem, 12, 6, 8), "outside a buffer");
  expect_error(npuc_aie1_store(&ctx, &v, mem, 12, 0, 9), "store of 9 lanes");
  npuc_aie1_vec a = vec(NPUC_AIE1_ACC48, 8);
  expect_error(npuc_aie1_store(&ctx, &a, mem, 12, 0, 8), "srs an accumulator");
}

/* ---- concat, ext, broadcast, shift, pack (2.3 - 2.5) ------------------------
 */

static void concat_ext(void **state) {
  (void)state;
  npuc_aie1_vec a = ramp(NPUC_AIE1_I32, 8, 0, 1),
                b = ramp(NPUC_AIE1_I32, 8, 100, 1);
  const npuc_aie1_vec *two[2] = {&a, &b};
  npuc_aie1_vec c;
  expect_ok(npuc_aie1_concat(&ctx, &c, two, 2));
  int64_t want[16] = {0,   1,   2,   3,   4,   5,   6,   7,
                      100, 101, 102, 103, 104, 105, 106, 107};
  expect_lanes(&c, want, 16);
  /* ext index 1 of the 16 lanes, 8 at a time: the second source back. */
  npuc_aie1_vec e;
  expect_ok(npuc_aie1_ext(&ctx, &e, &c, 8, 1));
  expect_lanes(&e, want + 8, 8);
  /* concat(x, x), as the vectorizer builds X for f32 */
  npuc_aie1_vec f = ramp(NPUC_AIE1_F32, 8, 1, 1);
  const npuc_aie1_vec *ff[2] = {&f, &f};
  expect_ok(npuc_aie1_concat(&ctx, &c, ff, 2));
  assert_true(c.u.f32[8] == 1.0f && c.u.f32[15] == 8.0f);

  npuc_aie1_vec h = ramp(NPUC_AIE1_I16, 16, 0, 1);
  const npuc_aie1_vec *mixed[2] = {&a, &h};
  expect_error(npuc_aie1_concat(&ctx, &c, mixed, 2),
               "concat operand 1 differs");
  const npuc_aie1_vec *five[5] = {&a, &a, &a, &a, &a};
  expect_error(npuc_aie1_concat(&ctx, &c, five, 5), "fits no register");
  expect_error(npuc_aie1_concat(&ctx, &c, five, 0), "concat of no vectors");
  expect_error(npuc_aie1_ext(&ctx, &e, &a, 4, 2),
               "ext index 2: a 8-lane vector has 2 slices");
  expect_error(npuc_aie1_ext(&ctx, &e, &a, 4, -1), "ext index -1");
}

static void broadcast_lane(void **state) {
  (void)state;
  npuc_aie1_vec s = ramp(NPUC_AIE1_I32, 16, 50, -3), b;
  expect_ok(npuc_aie1_broadcast(&ctx, &b, &s, 3));
  for (int k = 0; k < 16; ++k)
    assert_int_equal(b.u.i32[k], 41);
  expect_error(npuc_aie1_broadcast(&ctx, &b, &s, 16),
               "broadcast idx 16 of a 16-lane vector");
}

static void shift_bytes(void **state) {
  (void)state;
  npuc_aie1_vec l = ramp(NPUC_AIE1_I16, 32, 0, 1),
                r = ramp(NPUC_AIE1_I16, 32, 100, 1), s;
  /* conv2d aie-ml: shift %f, %f, 8 bytes = 4 i16 lanes. */
  expect_ok(npuc_aie1_shift(&ctx, &s, &l, &r, 8));
  for (int k = 0; k < 32; ++k)
    assert_int_equal(s.u.i16[k], k < 28 ? k + 4 : 100 + k - 28);
  expect_ok(npuc_aie1_shift(&ctx, &s, &l, &r, 64));
  assert_int_equal(s.u.i16[0], 100);
  assert_int_equal(s.u.i16[31], 131);
  expect_error(npuc_aie1_shift(&ctx, &s, &l, &r, 3), "multiple of 2");
  expect_error(npuc_aie1_shift(&ctx, &s, &l, &r, 66), "in [0, 64]");
  npuc_aie1_vec w = ramp(NPUC_AIE1_I32, 16, 0, 1);
  expect_error(npuc_aie1_shift(&ctx, &s, &l, &w, 0), "of one type");
}

static void pack_modes(void **state) {
  (void)state;
  npuc_aie1_vec v = vec(NPUC_AIE1_I16, 16), p;
  const int16_t in[6] = {300, -300, 127, -129, 255, -1};
  memcpy(v.u.i16, in, sizeof in);
  /* none: the low byte (0x012C -> 0x2C, 0xFED4 -> 0xD4, 0xFF7F -> 0x7F) */
  expect_ok(npuc_aie1_pack(&ctx, &p, &v, false));
  int64_t none[16] = {44, -44, 127, 127, -1, -1};
  expect_lanes(&p, none, 16);
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_pack(&ctx, &p, &v, false));
  int64_t sat[16] = {127, -128, 127, -128, 127, -1};
  expect_lanes(&p, sat, 16);
  ctx.sat = NPUC_AIE1_SAT_SYMMETRIC;
  expect_ok(npuc_aie1_pack(&ctx, &p, &v, false));
  int64_t sym[16] = {127, -127, 127, -127, 127, -1};
  expect_lanes(&p, sym, 16);
  /* upack: the lanes as u16 (-1 is 65535), clamped to [0, 255] = bits
   * 0xFF, which read back as -1 in an i8 lane. */
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_pack(&ctx, &p, &v, true));
  int64_t usat[16] = {-1, -1, 127, -1, -1, -1};
  expect_lanes(&p, usat, 16);
  npuc_aie1_vec w = vec(NPUC_AIE1_I32, 16);
  expect_error(npuc_aie1_pack(&ctx, &p, &w, false), "pack narrows i16");
  npuc_aie1_vec narrow = vec(NPUC_AIE1_I16, 8); /* 8 x i8 fits no register */
  expect_error(npuc_aie1_pack(&ctx, &p, &narrow, false), "vector<8xi8>");
}

/* ---- ups, srs (3.1, 3.2) ------------------------------------------------- */

static void ups_values(void **state) {
  (void)state;
  npuc_aie1_vec v = vec(NPUC_AIE1_I16, 16), a;
  const int16_t in[4] = {1, -1, 32767, -32768};
  memcpy(v.u.i16, in, sizeof in);
  expect_ok(npuc_aie1_ups(&ctx, &a, &v, NPUC_AIE1_ACC48, 3));
  int64_t x8[16] = {8, -8, 262136, -262144};
  expect_lanes(&a, x8, 16);
  /* Wrap at 48 bits: 1 << 47 is -2^47; -32768 << 40 = -2^55 is 0 mod 2^48. */
  expect_ok(npuc_aie1_ups(&ctx, &a, &v, NPUC_AIE1_ACC48, 47));
  assert_int_equal(a.u.acc48[0], -(INT64_C(1) << 47));
  expect_ok(npuc_aie1_ups(&ctx, &a, &v, NPUC_AIE1_ACC48, 40));
  assert_int_equal(a.u.acc48[3], 0);
  assert_int_equal(a.u.acc48[1], -(INT64_C(1) << 40));

  npuc_aie1_vec w = vec(NPUC_AIE1_I32, 8);
  w.u.i32[0] = INT32_MIN;
  w.u.i32[1] = 1;
  w.u.i32[2] = INT32_MAX;
  /* -2^31 << 40 = -2^71: hi = -2^7, lo = 0 */
  expect_ok(npuc_aie1_ups(&ctx, &a, &w, NPUC_AIE1_ACC80, 40));
  assert_int_equal(a.u.acc80[0].hi, -128);
  assert_true(a.u.acc80[0].lo == 0);
  /* 1 << 63 = 2^63: lo = 0x8000..., hi = 0 */
  expect_ok(npuc_aie1_ups(&ctx, &a, &w, NPUC_AIE1_ACC80, 63));
  assert_true(a.u.acc80[1].lo == UINT64_C(1) << 63);
  assert_int_equal(a.u.acc80[1].hi, 0);
  /* (2^31 - 1) << 63 mod 2^80 = 2^63 (2^17 - 1) = 2^80 - 2^63, i.e. -2^63
   * as an 80-bit value: hi = -1, lo = 0x8000... */
  assert_int_equal(a.u.acc80[2].hi, -1);
  assert_true(a.u.acc80[2].lo == UINT64_C(1) << 63);

  npuc_aie1_vec f = ramp(NPUC_AIE1_F32, 8, -3, 1);
  expect_ok(npuc_aie1_ups(&ctx, &a, &f, NPUC_AIE1_F32, 0));
  assert_true(a.elem == NPUC_AIE1_F32 && a.u.f32[0] == -3.0f);

  expect_error(npuc_aie1_ups(&ctx, &a, &v, NPUC_AIE1_ACC48, 64),
               "ups shift 64 outside [0, 63]");
  expect_error(npuc_aie1_ups(&ctx, &a, &v, NPUC_AIE1_ACC80, 0),
               "ups of i16 lanes gives i48 lanes, not i80");
  npuc_aie1_vec b = ramp(NPUC_AIE1_I8, 32, 0, 1); /* 32 x i48: no register */
  expect_error(npuc_aie1_ups(&ctx, &a, &b, NPUC_AIE1_ACC48, 0),
               "vector<32xi48>");
}

static npuc_aie1_vec acc48(const int64_t *vals, int n) {
  npuc_aie1_vec a = vec(NPUC_AIE1_ACC48, 16);
  for (int k = 0; k < n; ++k)
    a.u.acc48[k] = vals[k];
  return a;
}

/* 3.2, every rounding mode at shift 2 (half = 2), worked by hand:
 * x:   5     6     7    -5    -6    -7    2    -2    10    -10
 * x/4: 1.25  1.5  1.75 -1.25 -1.5 -1.75  0.5 -0.5  2.5  -2.5 */
static void srs_rounding(void **state) {
  (void)state;
  const int64_t x[10] = {5, 6, 7, -5, -6, -7, 2, -2, 10, -10};
  const int64_t want[8][10] = {
      /* floor    */ {1, 1, 1, -2, -2, -2, 0, -1, 2, -3},
      /* ceil     */ {2, 2, 2, -1, -1, -1, 1, 0, 3, -2},
      /* pos_inf  */ {1, 2, 2, -1, -1, -2, 1, 0, 3, -2},
      /* neg_inf  */ {1, 1, 2, -1, -2, -2, 0, -1, 2, -3},
      /* sym_inf  */ {1, 2, 2, -1, -2, -2, 1, -1, 3, -3},
      /* sym_zero */ {1, 1, 2, -1, -1, -2, 0, 0, 2, -2},
      /* conv_even*/ {1, 2, 2, -1, -2, -2, 0, 0, 2, -2},
      /* conv_odd */ {1, 1, 2, -1, -1, -2, 1, -1, 3, -3},
  };
  npuc_aie1_vec a = acc48(x, 10), out;
  for (int mode = 0; mode < 8; ++mode) {
    ctx.round = (npuc_aie1_round)mode;
    expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 2, true));
    for (int k = 0; k < 10; ++k)
      if (out.u.i16[k] != want[mode][k])
        fail_msg("mode %d, x = %lld: want %lld, got %d", mode, (long long)x[k],
                 (long long)want[mode][k], out.u.i16[k]);
    /* shift 0 never rounds */
    expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, true));
    expect_lanes(&out, (int64_t[16]){5, 6, 7, -5, -6, -7, 2, -2, 10, -10}, 16);
  }
}

static void srs_saturation(void **state) {
  (void)state;
  const int64_t x[5] = {40000, -40000, -32768, 32767, 70000};
  npuc_aie1_vec a = acc48(x, 5), out;
  /* none: the low 16 bits (40000 - 65536, -40000 + 65536, 70000 - 65536) */
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, true));
  expect_lanes(&out, (int64_t[16]){-25536, 25536, -32768, 32767, 4464}, 16);
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, true));
  expect_lanes(&out, (int64_t[16]){32767, -32768, -32768, 32767, 32767}, 16);
  ctx.sat = NPUC_AIE1_SAT_SYMMETRIC;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, true));
  expect_lanes(&out, (int64_t[16]){32767, -32767, -32767, 32767, 32767}, 16);
  /* unsigned (sign = 0): [0, 65535]; 65535 is the bits 0xFFFF = -1 */
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, false));
  expect_lanes(&out, (int64_t[16]){-25536, 0, 0, 32767, -1}, 16);
  /* to i8 with a shift: 40000 >> 8 = 156 -> 127; -40000 >> 8 = -157 ->
   * -128; 70000 >> 8 = 273 -> 127 */
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I8, 8, true));
  assert_int_equal(out.u.i8[0], 127);
  assert_int_equal(out.u.i8[1], -128);
  assert_int_equal(out.u.i8[4], 127);
}

static void srs_80_bits(void **state) {
  (void)state;
  npuc_aie1_vec a = vec(NPUC_AIE1_ACC80, 8), out;
  a.u.acc80[0] = (npuc_aie1_i80){12345, 64};          /* 2^70 + 12345 */
  a.u.acc80[1] = (npuc_aie1_i80){0, -2048};           /* -2^75 */
  a.u.acc80[2] = (npuc_aie1_i80){UINT64_MAX - 2, -1}; /* -3 */
  a.u.acc80[3] = npuc_aie1_i80_from_i64(INT64_MAX);
  /* none: the low 32 bits */
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 0, true));
  expect_lanes(&out, (int64_t[8]){12345, 0, -3, -1}, 8);
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 0, true));
  expect_lanes(&out, (int64_t[8]){INT32_MAX, INT32_MIN, -3, INT32_MAX}, 8);
  /* shift 40: 2^30 (+ 12345 / 2^40, floored away); -2^35 -> saturates;
   * -3 / 2^40 floors to -1; (2^63 - 1) >> 40 = 2^23 - 1 */
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 40, true));
  expect_lanes(&out, (int64_t[8]){1 << 30, INT32_MIN, -1, (1 << 23) - 1}, 8);
  /* -3 at shift 1 is -1.5: conv_even gives -2, sym_zero -1, ceil -1 */
  ctx.sat = NPUC_AIE1_SAT_NONE;
  ctx.round = NPUC_AIE1_RND_CONV_EVEN;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 1, true));
  assert_int_equal(out.u.i32[2], -2);
  ctx.round = NPUC_AIE1_RND_SYM_ZERO;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 1, true));
  assert_int_equal(out.u.i32[2], -1);
  ctx.round = NPUC_AIE1_RND_CEIL;
  expect_ok(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I32, 1, true));
  assert_int_equal(out.u.i32[2], -1);
}

static void srs_errors(void **state) {
  (void)state;
  npuc_aie1_vec a = vec(NPUC_AIE1_ACC48, 16), out;
  expect_error(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 64, true),
               "srs shift 64 outside [0, 63]");
  expect_error(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, -1, true),
               "srs shift -1");
  expect_error(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_F32, 0, true),
               "not i48 into f32");
  npuc_aie1_vec d = vec(NPUC_AIE1_I16, 16);
  expect_error(npuc_aie1_srs(&ctx, &out, &d, NPUC_AIE1_I16, 0, true),
               "not i16 into i16");
  ctx.round = (npuc_aie1_round)9;
  expect_error(npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 0, true),
               "rounding mode 9");
  ctx.round = NPUC_AIE1_RND_FLOOR;
  npuc_aie1_vec f = ramp(NPUC_AIE1_F32, 8, 1, 1);
  expect_ok(npuc_aie1_srs(&ctx, &out, &f, NPUC_AIE1_F32, 10, true));
  assert_true(out.u.f32[7] == 8.0f); /* f32: the identity, shift or not */
}

/* ---- mul / mac, 32-bit schemes (4.3) ------------------------------------- */

static void mac_i32(void **state) {
  (void)state;
  /* 4.3 and 7.1: lmac8(acc, x, 1, 0x76543210, z, 1, 0x00000000): lane L
   * adds X[1 + L] * Z[1]. */
  npuc_aie1_vec x = ramp(NPUC_AIE1_I32, 16, 1, 1);  /* X[i] = i + 1 */
  npuc_aie1_vec z = ramp(NPUC_AIE1_I32, 8, 10, 10); /* Z[j] = 10 (j + 1) */
  npuc_aie1_params p = PARAMS("xstart", "1", "xoffsets", "0x76543210", "zstart",
                              "1", "zoffsets", "0x00000000");
  npuc_aie1_vec acc = vec(NPUC_AIE1_ACC80, 8), r;
  for (int k = 0; k < 8; ++k)
    acc.u.acc80[k] = npuc_aie1_i80_from_i64(1000 * k);
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &z, &acc, &p));
  /* lane L: 1000 L + (L + 2) * 20 */
  expect_lanes(&r, (int64_t[8]){40, 1060, 2080, 3100, 4120, 5140, 6160, 7180},
               8);
  /* fmsub (lmsc8): 1000 L - (L + 2) * 20; mul starts from 0 */
  p.fmsub = true;
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &z, &acc, &p));
  expect_lanes(&r, (int64_t[8]){-40, 940, 1920, 2900, 3880, 4860, 5840, 6820},
               8);
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC80, 8, &p));
  expect_lanes(&r, (int64_t[8]){40, 60, 80, 100, 120, 140, 160, 180}, 8);
  /* Wrap modulo NX (section 1): xstart 14 reads X[14], X[15], X[0], ... */
  p = PARAMS("xstart", "14", "xoffsets", "0x76543210", "zstart", "0",
             "zoffsets", "0");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC80, 8, &p));
  expect_lanes(&r, (int64_t[8]){150, 160, 10, 20, 30, 40, 50, 60}, 8);
}

static void mac_i32_beyond_64_bits(void **state) {
  (void)state;
  /* Full-range i32 products are 2^62; a few of them leave int64, which the
   * 80-bit accumulator holds: 4 macs of (-2^31)^2 make 2^64. */
  npuc_aie1_vec x = vec(NPUC_AIE1_I32, 16), z = vec(NPUC_AIE1_I32, 8), acc;
  for (int k = 0; k < 16; ++k)
    x.u.i32[k] = INT32_MIN;
  for (int k = 0; k < 8; ++k)
    z.u.i32[k] = INT32_MIN;
  npuc_aie1_params p = PARAMS("xstart", "0", "xoffsets", "0x76543210", "zstart",
                              "0", "zoffsets", "0x76543210");
  expect_ok(npuc_aie1_mul(&ctx, &acc, &x, &z, NPUC_AIE1_ACC80, 8, &p));
  for (int i = 0; i < 3; ++i)
    expect_ok(npuc_aie1_mac(&ctx, &acc, &x, &z, &acc, &p));
  assert_true(acc.u.acc80[0].lo == 0);
  assert_int_equal(acc.u.acc80[0].hi, 1);
  npuc_aie1_vec out;
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_srs(&ctx, &out, &acc, NPUC_AIE1_I32, 33, true));
  assert_int_equal(out.u.i32[0], INT32_MAX); /* 2^31 saturates */
  expect_ok(npuc_aie1_srs(&ctx, &out, &acc, NPUC_AIE1_I32, 34, true));
  assert_int_equal(out.u.i32[0], 1 << 30);
}

static void mul_f32_fpmul_table(void **state) {
  (void)state;
  /* XD100 "Start, Offset": fpmul with xstart 2, xoffsets 0x210FEDCB reads
   * X indices D, E, F, 10, 11, 2, 3, 4. Z[0] = 1 exposes them. */
  npuc_aie1_vec x = vec(NPUC_AIE1_F32, 32), z = vec(NPUC_AIE1_F32, 8), r;
  for (int k = 0; k < 32; ++k)
    x.u.f32[k] = (float)k + 0.5f;
  z.u.f32[0] = 1.0f;
  npuc_aie1_params p = PARAMS("xstart", "2", "xoffsets", "0x210FEDCB", "zstart",
                              "0", "zoffsets", "0");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_F32, 8, &p));
  const float want[8] = {13.5f, 14.5f, 15.5f, 16.5f, 17.5f, 2.5f, 3.5f, 4.5f};
  for (int k = 0; k < 8; ++k)
    if (r.u.f32[k] != want[k])
      fail_msg("lane %d: want %g, got %g", k, want[k], r.u.f32[k]);
}

static void mac_f32_not_fused(void **state) {
  (void)state;
  /* 4: the product is rounded to f32, then the sum. (1 + 2^-12)^2 =
   * 1 + 2^-11 + 2^-24: the 2^-24 is half an ulp, so the product rounds (to
   * even) to 1 + 2^-11, and adding -1 leaves exactly 2^-11; a fused
   * multiply-add would give 2^-11 + 2^-24. pointwise_mult_f32: xoffsets =
   * zoffsets = 0x76543210 on concat(a, a), so lane i is A[i] * B[i]. */
  npuc_aie1_vec a = vec(NPUC_AIE1_F32, 8), b = vec(NPUC_AIE1_F32, 8),
                acc = vec(NPUC_AIE1_F32, 8), x, r;
  for (int k = 0; k < 8; ++k) {
    a.u.f32[k] = 1.0f + 0x1p-12f;
    b.u.f32[k] = 1.0f + 0x1p-12f;
    acc.u.f32[k] = -1.0f;
  }
  a.u.f32[7] = 2.0f;
  b.u.f32[7] = -0.0f;
  const npuc_aie1_vec *aa[2] = {&a, &a};
  expect_ok(npuc_aie1_concat(&ctx, &x, aa, 2));
  npuc_aie1_params p = PARAMS("xstart", "0", "xoffsets", "0x76543210", "zstart",
                              "0", "zoffsets", "0x76543210");
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &b, &acc, &p));
  assert_true(r.u.f32[0] == 0x1p-11f);
  /* fpmsc: -1 - (1 + 2^-11) = -2 - 2^-11, exact in f32 */
  p.fmsub = true;
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &b, &acc, &p));
  assert_true(r.u.f32[0] == -2.0f - 0x1p-11f);
  /* mul gives the product itself: 2 * -0 is -0, as the scalar program
   * computes (docs/aie1-emulator.md). */
  p.fmsub = false;
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &b, NPUC_AIE1_F32, 8, &p));
  assert_true(r.u.f32[7] == 0.0f && signbit(r.u.f32[7]));
}

/* ---- mul / mac, 16-bit schemes (4.4, 4.5) -------------------------------- */

/* Expected lane L: acc + sum_c X[xi[L][c]] * Z[zi[L][c]] with index tables
 * written out by hand. */
static void expect_products(const npuc_aie1_vec *r, const npuc_aie1_vec *x,
                            const npuc_aie1_vec *z, int lanes, int cols,
                            int xi[][16], int zi[][16]) {
  int64_t want[16];
  for (int L = 0; L < lanes; ++L) {
    want[L] = 0;
    for (int c = 0; c < cols; ++c)
      want[L] += lane(x, xi[L][c]) * lane(z, zi[L][c]);
  }
  expect_lanes(r, want, lanes);
}

static void mac16_conv2d_table(void **state) {
  (void)state;
  /* 7.2, conv2d_uij_i16: xoffsets 0x03020100 / 0x07060504, xsquare 0x2110,
   * zoffsets 0 / 0, zstep 1. With xstart = zstart = 0 the table is
   * lane L: X (L, L+1), Z (0, 1); the mac with xstart 2, zstart 2 reads
   * X (L+2, L+3), Z (2, 3). */
  npuc_aie1_vec x = ramp(NPUC_AIE1_I16, 32, 3, 7); /* distinct values */
  npuc_aie1_vec z = ramp(NPUC_AIE1_I16, 16, -5, 3);
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x03020100", "xoffsets_hi",
             "0x07060504", "xsquare", "0x2110", "zstart", "0", "zoffsets", "0",
             "zoffsets_hi", "0", "zstep", "1");
  int xi[16][16], zi[16][16];
  for (int L = 0; L < 16; ++L) {
    xi[L][0] = L, xi[L][1] = L + 1, zi[L][0] = 0, zi[L][1] = 1;
  }
  npuc_aie1_vec r, m;
  expect_ok(npuc_aie1_mul(&ctx, &m, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  expect_products(&m, &x, &z, 16, 2, xi, zi);
  p = PARAMS("xstart", "2", "xoffsets", "0x03020100", "xoffsets_hi",
             "0x07060504", "xsquare", "0x2110", "zstart", "2", "zoffsets", "0",
             "zoffsets_hi", "0", "zstep", "1");
  for (int L = 0; L < 16; ++L) {
    xi[L][0] = L + 2, xi[L][1] = L + 3, zi[L][0] = 2, zi[L][1] = 3;
  }
  npuc_aie1_vec zero = vec(NPUC_AIE1_ACC48, 16);
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &z, &zero, &p));
  expect_products(&r, &x, &z, 16, 2, xi, zi);
  /* mac accumulates onto the mul: lane 15 = X15 Z0 + X16 Z1 + X17 Z2 +
   * X18 Z3, written out: X[i] = 3 + 7i, Z[j] = -5 + 3j. */
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &z, &m, &p));
  assert_int_equal(r.u.acc48[15], 108 * -5 + 115 * -2 + 122 * 1 + 129 * 4);
}

static void mac16_ug1079_examples(void **state) {
  (void)state;
  npuc_aie1_vec x = ramp(NPUC_AIE1_I16, 32, 1, 1); /* X[i] = i + 1 */
  npuc_aie1_vec z = vec(NPUC_AIE1_I16, 16), r;
  z.u.i16[0] = 1; /* column 0 only: lane L = X[xi(L, 0)] */
  /* 4.4: offsets byte 0x24 gives 16-bit indices 8, 9 (even lane) and
   * 14, 15 (odd lane); with the identity square the even lane's columns
   * are (8, 9), the odd lane's (14, 15). */
  npuc_aie1_params p = PARAMS("xstart", "0", "xoffsets", "0x24", "xsquare",
                              "0x3210", "zstart", "0", "zstep", "1");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  assert_int_equal(r.u.acc48[0], 9);  /* X[8] */
  assert_int_equal(r.u.acc48[1], 15); /* X[14] */
  z.u.i16[0] = 0, z.u.i16[1] = 1;     /* column 1 only */
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  assert_int_equal(r.u.acc48[0], 10); /* X[9] */
  assert_int_equal(r.u.acc48[1], 16); /* X[15] */
  /* Square 0x2103 puts indices 3, 0 in the even row and 1, 2 in the odd
   * row (offsets 0: Q = 0, 1, 2, 3). */
  p = PARAMS("xstart", "0", "xoffsets", "0", "xsquare", "0x2103", "zstart", "0",
             "zstep", "1");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  assert_int_equal(r.u.acc48[0], 1); /* column 1 of the even lane: X[0] */
  assert_int_equal(r.u.acc48[1], 3); /* column 1 of the odd lane: X[2] */
  z.u.i16[0] = 1, z.u.i16[1] = 0;
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  assert_int_equal(r.u.acc48[0], 4); /* X[3] */
  assert_int_equal(r.u.acc48[1], 2); /* X[1] */
}

static void mac16_gemv(void **state) {
  (void)state;
  /* 8: mac16(concat(m0, m1), 0, 0x73727170, 0x77767574, 0x3120, vx, i, 0,
   * 0, 1) gives m0[j] vx[i] + m1[j] vx[i+1] in lane j. */
  npuc_aie1_vec m0 = ramp(NPUC_AIE1_I16, 16, 1, 1),
                m1 = ramp(NPUC_AIE1_I16, 16, -40, 3), x, r;
  npuc_aie1_vec vx = ramp(NPUC_AIE1_I16, 16, 2, 5);
  const npuc_aie1_vec *mm[2] = {&m0, &m1};
  expect_ok(npuc_aie1_concat(&ctx, &x, mm, 2));
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x73727170", "xoffsets_hi",
             "0x77767574", "xsquare", "0x3120", "zstart", "5", "zoffsets", "0",
             "zoffsets_hi", "0", "zstep", "1");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &vx, NPUC_AIE1_ACC48, 16, &p));
  int64_t want[16];
  for (int j = 0; j < 16; ++j)
    want[j] =
        (int64_t)(1 + j) * (2 + 5 * 5) + (int64_t)(-40 + 3 * j) * (2 + 5 * 6);
  expect_lanes(&r, want, 16);
  /* msc16 subtracts the same products from acc */
  npuc_aie1_vec acc = vec(NPUC_AIE1_ACC48, 16);
  for (int j = 0; j < 16; ++j)
    acc.u.acc48[j] = INT64_C(1) << 40;
  p.fmsub = true;
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &vx, &acc, &p));
  for (int j = 0; j < 16; ++j)
    want[j] = (INT64_C(1) << 40) - want[j];
  expect_lanes(&r, want, 16);
}

static void mac16_wraps_at_48_bits(void **state) {
  (void)state;
  npuc_aie1_vec x = vec(NPUC_AIE1_I16, 16), z = vec(NPUC_AIE1_I16, 16), r;
  npuc_aie1_vec acc = vec(NPUC_AIE1_ACC48, 16);
  x.u.i16[0] = 1, z.u.i16[0] = 1;
  acc.u.acc48[0] = (INT64_C(1) << 47) - 1; /* the largest i48 */
  npuc_aie1_params p;
  npuc_aie1_params_init(&p); /* no xstart: lane-wise (4.2) */
  expect_ok(npuc_aie1_mac(&ctx, &r, &x, &z, &acc, &p));
  assert_int_equal(r.u.acc48[0], -(INT64_C(1) << 47));
}

static void mac16_z_offsets_hi(void **state) {
  (void)state;
  /* 4.4: Z takes one absolute nibble per lane, lanes 8..15 from
   * zoffsets_hi. zoffsets 0x01234567 / 0x89ABCDEF give lane L < 8 the Z
   * index 7 - L and lane L >= 8 the index 23 - L; zstep 0 repeats it for
   * column 1. X as in conv2d_uij_i16: columns L and L + 1. */
  npuc_aie1_vec x = ramp(NPUC_AIE1_I16, 32, 1, 1),
                z = ramp(NPUC_AIE1_I16, 16, 100, 10), r;
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x03020100", "xoffsets_hi",
             "0x07060504", "xsquare", "0x2110", "zstart", "0", "zoffsets",
             "0x01234567", "zoffsets_hi", "0x89ABCDEF", "zstep", "0");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  int64_t want[16];
  for (int L = 0; L < 16; ++L) {
    int zi = L < 8 ? 7 - L : 23 - L;
    want[L] = (int64_t)((L + 1) + (L + 2)) * (100 + 10 * zi);
  }
  expect_lanes(&r, want, 16);
}

static void mac8_i16(void **state) {
  (void)state;
  /* 4.5 by hand: xoffsets 0x03020100 gives pair p ne = p, no = 0, so
   * E_b = 2p + 4b and O_b = 2p + 2 + 4b (xstep 4); identity square. Even
   * lane 2p: X (2p, 2p+1, 2p+4, 2p+5); odd lane 2p+1: X (2p+2, 2p+3,
   * 2p+6, 2p+7). Z: zoffsets 0x76543210 and zstep 1: (L, L+1, L+2, L+3). */
  npuc_aie1_vec x = ramp(NPUC_AIE1_I16, 32, 1, 3),
                z = ramp(NPUC_AIE1_I16, 16, 2, 1), r;
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x03020100", "xstep", "4", "xsquare",
             "0x3210", "zstart", "0", "zoffsets", "0x76543210", "zstep", "1");
  int xi[16][16], zi[16][16];
  for (int L = 0; L < 8; ++L) {
    int e = L - L % 2, base = L % 2 ? e + 2 : e;
    const int xs[4] = {base, base + 1, base + 4, base + 5};
    for (int c = 0; c < 4; ++c)
      xi[L][c] = xs[c], zi[L][c] = L + c;
  }
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 8, &p));
  expect_products(&r, &x, &z, 8, 4, xi, zi);
  /* lane 3, written out: X 4, 5, 8, 9 and Z 3, 4, 5, 6 */
  assert_int_equal(r.u.acc48[3], 13 * 5 + 16 * 6 + 25 * 7 + 28 * 8);
}

static void mac_i16_errors(void **state) {
  (void)state;
  npuc_aie1_vec x = ramp(NPUC_AIE1_I16, 32, 0, 1),
                z = ramp(NPUC_AIE1_I16, 16, 0, 1), r;
  npuc_aie1_params p = PARAMS("xstart", "1", "xsquare", "0x2110");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "xstart 1: 16-bit X starts must be even");
  p = PARAMS("xstart", "0", "xsquare", "0x2140");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "xsquare = 0x2140");
  p = PARAMS("xstart", "0", "xsquare", "0x12110");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "xsquare = 0x12110");
  p = PARAMS("xstart", "0");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC80, 16, &p),
               "wrong accumulator");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 4, &p),
               "the 16-bit schemes have 8 or 16 lanes");
  expect_error(npuc_aie1_mul(&ctx, &r, &z, &z, NPUC_AIE1_ACC48, 16, &p),
               "X needs at least twice Z's lanes");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &x, NPUC_AIE1_ACC48, 16, &p),
               "Z must be 256 bits");
  npuc_aie1_vec w = ramp(NPUC_AIE1_I32, 8, 0, 1);
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &w, NPUC_AIE1_ACC48, 16, &p),
               "of one element type");
  npuc_aie1_params_init(&p); /* lane-wise needs equal lanes */
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "lane-wise alike");
  npuc_aie1_vec acc = vec(NPUC_AIE1_ACC48, 8);
  expect_error(npuc_aie1_mac(&ctx, &r, &z, &z, &acc, &p), "lane-wise alike");
  expect_error(npuc_aie1_mac(&ctx, &r, &z, &z, NULL, &p),
               "mac accumulator is missing");
  expect_error(npuc_aie1_mul(&ctx, &r, &z, &z, NPUC_AIE1_ACC48, 16, NULL),
               "without parameters");
}

/* ---- mul / mac, 8-bit scheme (4.6, 7.3) ---------------------------------- */

static void mac_i8_conv2d_table(void **state) {
  (void)state;
  /* 7.3, conv2d_uij_i8: X = filter (vector<64xi8>), Z = image row
   * (vector<32xi8>), xoffsets 0, xstep 4, xsquare 0x1010, zoffsets
   * 0x43322110, zstep 2, zsquare 0x2110. Lane 4p + 2r + h, column c:
   * X byte xstart + 2c + h, Z byte zstart + 2p + h + c. */
  npuc_aie1_vec x = vec(NPUC_AIE1_I8, 64), z = vec(NPUC_AIE1_I8, 32), r;
  for (int i = 0; i < 64; ++i)
    x.u.i8[i] = (int8_t)(i % 11 - 5);
  for (int j = 0; j < 32; ++j)
    z.u.i8[j] = (int8_t)(j * 3 % 13 - 6);
  const char *starts[3][2] = {{"0", "0"}, {"0", "8"}, {"16", "0"}};
  for (int s = 0; s < 3; ++s) {
    npuc_aie1_params p =
        PARAMS("xstart", starts[s][0], "xoffsets", "0x00000000", "xstep", "4",
               "xsquare", "0x1010", "zstart", starts[s][1], "zoffsets",
               "0x43322110", "zstep", "2", "zsquare", "0x2110");
    int xs = s == 2 ? 16 : 0, zs = s == 1 ? 8 : 0;
    int xi[16][16], zi[16][16];
    for (int L = 0; L < 16; ++L)
      for (int c = 0; c < 8; ++c) {
        int p4 = L / 4, h = L % 2;
        xi[L][c] = xs + 2 * c + h;
        zi[L][c] = zs + 2 * p4 + h + c;
      }
    expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
    expect_products(&r, &x, &z, 16, 8, xi, zi);
  }
  /* The table's rows, literally: lane 1 reads X 1 3 5 .. 15 and Z 1 .. 8;
   * lane 13 reads X 1 3 .. 15 and Z 7 .. 14 (xstart = zstart = 0). */
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x00000000", "xstep", "4", "xsquare",
             "0x1010", "zstart", "0", "zoffsets", "0x43322110", "zstep", "2",
             "zsquare", "0x2110");
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
  int64_t lane1 = 0, lane13 = 0;
  const int xodd[8] = {1, 3, 5, 7, 9, 11, 13, 15};
  for (int c = 0; c < 8; ++c) {
    lane1 += (int64_t)x.u.i8[xodd[c]] * z.u.i8[1 + c];
    lane13 += (int64_t)x.u.i8[xodd[c]] * z.u.i8[7 + c];
  }
  assert_int_equal(r.u.acc48[1], lane1);
  assert_int_equal(r.u.acc48[13], lane13);
}

static void mac_i8_square_and_steps(void **state) {
  (void)state;
  /* 4.6 by hand with other parameters. X: xoffsets nibbles (ne, no) =
   * (1, 0) for p = 0, xstep 8, xsquare 0x3210: We = 4 + 8b, Wo =
   * 4 (1 + 0 + 1) + 8b = 8 + 8b. Lane 0 (r = 0, h = 0), column c = 2b + c'
   * reads half c' of the even word, We + 2c': c = 0..3 -> 4, 6, 12, 14.
   * Lane 1 (h = 1) reads the next byte: 5, 7, 13, 15. Lane 2 (r = 1) the
   * odd word, Wo + 2c': 8, 10, 16, 18.
   * Z: zoffsets nibbles (0, 3) for p = 0, zstep 4, zsquare 0x3210: e0 = 4b,
   * e1 = 6 + 4b. Lanes 0 and 2 (h = 0) take (e0, e0 + 1): 0, 1, 4, 5;
   * lane 1 (h = 1) takes (e1, e1 + 1): 6, 7, 10, 11. */
  npuc_aie1_vec x = vec(NPUC_AIE1_I8, 64), z = vec(NPUC_AIE1_I8, 32), r;
  npuc_aie1_params p = PARAMS("xstart", "0", "xoffsets", "0x01", "xstep", "8",
                              "xsquare", "0x3210", "zstart", "0", "zoffsets",
                              "0x30", "zstep", "4", "zsquare", "0x3210");
  const int xi0[4] = {4, 6, 12, 14}, xi2[4] = {8, 10, 16, 18};
  const int zi0[4] = {0, 1, 4, 5}, zi1[4] = {6, 7, 10, 11};
  for (int c = 0; c < 4; ++c) {
    /* X one-hot at lane 0's and lane 2's byte of column c, Z[j] = j + 1:
     * each lane gives the Z of that same column. */
    memset(x.u.i8, 0, sizeof x.u.i8);
    for (int j = 0; j < 32; ++j)
      z.u.i8[j] = (int8_t)(j + 1);
    x.u.i8[xi0[c]] = 1;
    x.u.i8[xi2[c]] = 2;
    expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
    if (r.u.acc48[0] != zi0[c] + 1 || r.u.acc48[2] != 2 * (zi0[c] + 1))
      fail_msg("X column %d: lanes 0 and 2 give %lld, %lld", c,
               (long long)r.u.acc48[0], (long long)r.u.acc48[2]);
    /* Z one-hot at lane 0's and lane 1's byte of column c, X[i] = i + 1 */
    for (int i = 0; i < 64; ++i)
      x.u.i8[i] = (int8_t)(i + 1);
    memset(z.u.i8, 0, sizeof z.u.i8);
    z.u.i8[zi0[c]] = 3;
    z.u.i8[zi1[c]] = 5;
    expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p));
    if (r.u.acc48[0] != 3 * (xi0[c] + 1) || r.u.acc48[1] != 5 * (xi0[c] + 2))
      fail_msg("Z column %d: lanes 0 and 1 give %lld, %lld", c,
               (long long)r.u.acc48[0], (long long)r.u.acc48[1]);
  }
}

static void mac8_i8(void **state) {
  (void)state;
  /* 4.6, mac8 at 8 bits: 8 lanes x 16 columns, the same formulas. With the
   * conv2d_uij_i8 parameters the 7.3 derivation holds for c = 0..15
   * (b = 0..7): lane 4p + 2r + h reads X 2c + h and Z 2p + h + c. */
  npuc_aie1_vec x = vec(NPUC_AIE1_I8, 64), z = vec(NPUC_AIE1_I8, 32), r;
  for (int i = 0; i < 64; ++i)
    x.u.i8[i] = (int8_t)(i % 9 - 4);
  for (int j = 0; j < 32; ++j)
    z.u.i8[j] = (int8_t)(j % 7 - 3);
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x00000000", "xstep", "4", "xsquare",
             "0x1010", "zstart", "0", "zoffsets", "0x43322110", "zstep", "2",
             "zsquare", "0x2110");
  int xi[16][16], zi[16][16];
  for (int L = 0; L < 8; ++L)
    for (int c = 0; c < 16; ++c) {
      xi[L][c] = 2 * c + L % 2;
      zi[L][c] = 2 * (L / 4) + L % 2 + c;
    }
  expect_ok(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 8, &p));
  expect_products(&r, &x, &z, 8, 16, xi, zi);
}

static void mac_i8_errors(void **state) {
  (void)state;
  npuc_aie1_vec x = vec(NPUC_AIE1_I8, 64), z = vec(NPUC_AIE1_I8, 32), r;
  npuc_aie1_params p = PARAMS("xstart", "0", "xstep", "2", "zstep", "2");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "8-bit steps are multiples of 4 (X) and 2 (Z)");
  p = PARAMS("xstart", "0", "xstep", "4", "zstep", "3");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "zstep 3");
  p = PARAMS("xstart", "0", "zsquare", "0x4000");
  expect_error(npuc_aie1_mul(&ctx, &r, &x, &z, NPUC_AIE1_ACC48, 16, &p),
               "zsquare = 0x4000");
}

/* ---- select, add, sub (5) ------------------------------------------------ */

static void select32_ug1079(void **state) {
  (void)state;
  /* 5.2: select32(0xAAAAAAAA, concat(A, B), 0, 0x03020100, 0x07060504,
   * 0x1100, 32, 0x03020100, 0x07060504, 0x1100) = {0, 32, 1, 33, ..., 15,
   * 47}, and shuffle32(concat(A, B), 0, 0xF3F2F1F0, 0xF7F6F5F4, 0x3120)
   * the same. Lane values are their indices into concat(A, B). */
  npuc_aie1_vec cat = ramp(NPUC_AIE1_I16, 64, 0, 1), r;
  npuc_aie1_params p =
      PARAMS("select", "0xAAAAAAAA", "xstart", "0", "xoffsets", "0x03020100",
             "xoffsets_hi", "0x07060504", "xsquare", "0x1100", "ystart", "32",
             "yoffsets", "0x03020100", "yoffsets_hi", "0x07060504", "ysquare",
             "0x1100");
  int64_t want[32];
  for (int i = 0; i < 16; ++i)
    want[2 * i] = i, want[2 * i + 1] = 32 + i;
  expect_ok(npuc_aie1_select(&ctx, &r, &cat, NULL, &p));
  expect_lanes(&r, want, 32);
  p = PARAMS("select", "0", "xstart", "0", "xoffsets", "0xF3F2F1F0",
             "xoffsets_hi", "0xF7F6F5F4", "xsquare", "0x3120");
  expect_ok(npuc_aie1_select(&ctx, &r, &cat, NULL, &p));
  expect_lanes(&r, want, 32);
}

static void select32_conv2d_i8(void **state) {
  (void)state;
  /* 7.3: select32(0xcccccccc, cat, x: 0, 0x0c080400, 0, 0x1010; y: 4,
   * 0x0c080400, 0, 0x1010): lanes 0..15 = cat[0, 1, 4, 5, 8, 9, 12, 13,
   * 16, 17, 20, 21, 24, 25, 28, 29]. Lanes 16..31, by hand: the hi
   * offsets are 0, so each quad is x (0, 1), y (4, 5). */
  npuc_aie1_vec cat = ramp(NPUC_AIE1_I16, 32, 0, 1), r;
  npuc_aie1_params p = PARAMS("select", "0xcccccccc", "xstart", "0", "xoffsets",
                              "0x0c080400", "xoffsets_hi", "0x0", "xsquare",
                              "0x1010", "ystart", "4", "yoffsets", "0x0c080400",
                              "yoffsets_hi", "0x0", "ysquare", "0x1010");
  expect_ok(npuc_aie1_select(&ctx, &r, &cat, NULL, &p));
  int64_t want[32] = {0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29,
                      0, 1, 4, 5, 0, 1, 4,  5,  0,  1,  4,  5,  0,  1,  4,  5};
  expect_lanes(&r, want, 32);
  /* then ext index 0 and pack, as the conv2d does */
  npuc_aie1_vec e, k;
  expect_ok(npuc_aie1_ext(&ctx, &e, &r, 16, 0));
  expect_ok(npuc_aie1_pack(&ctx, &k, &e, false));
  expect_lanes(&k, want, 16);
}

static void select16_two_buffers(void **state) {
  (void)state;
  /* 5.1 / 5.3: 32-bit lanes, xi = xstart + offset nibble s (lo for s < 8,
   * hi for 8..15); bit s of select picks ybuff. y reversed within each
   * half: lane 8 takes y[15], lane 15 y[8]. */
  npuc_aie1_vec xb = ramp(NPUC_AIE1_I32, 16, 0, 1),
                yb = ramp(NPUC_AIE1_I32, 16, 100, 1), r;
  npuc_aie1_params p =
      PARAMS("select", "0xFF00", "xstart", "0", "xoffsets", "0x76543210",
             "xoffsets_hi", "0xFEDCBA98", "ystart", "0", "yoffsets",
             "0x01234567", "yoffsets_hi", "0x89ABCDEF");
  expect_ok(npuc_aie1_select(&ctx, &r, &xb, &yb, &p));
  int64_t want[16] = {0,   1,   2,   3,   4,   5,   6,   7,
                      115, 114, 113, 112, 111, 110, 109, 108};
  expect_lanes(&r, want, 16);
  /* xstart 12 wraps modulo 16: lane 5 reads x[(12 + 5) mod 16] = x[1] */
  p = PARAMS("xstart", "12", "xoffsets", "0x76543210", "xoffsets_hi",
             "0xFEDCBA98");
  expect_ok(npuc_aie1_select(&ctx, &r, &xb, &yb, &p));
  assert_int_equal(r.u.i32[5], 1);
  assert_int_equal(r.u.i32[3], 15);
}

static void select_errors(void **state) {
  (void)state;
  npuc_aie1_vec h = ramp(NPUC_AIE1_I16, 32, 0, 1), b = vec(NPUC_AIE1_I8, 64),
                w = ramp(NPUC_AIE1_I32, 16, 0, 1), r;
  npuc_aie1_params p = PARAMS("xstart", "0", "ystart", "3");
  expect_error(npuc_aie1_select(&ctx, &r, &h, NULL, &p),
               "ystart 3: 16-bit starts must be even");
  p = PARAMS("xstart", "0", "xsquare", "0x0005");
  expect_error(npuc_aie1_select(&ctx, &r, &h, NULL, &p), "xsquare = 0x5");
  p = PARAMS("xstart", "0");
  expect_error(npuc_aie1_select(&ctx, &r, &b, NULL, &p),
               "i16, i32 and f32 lanes, not i8");
  expect_error(npuc_aie1_select(&ctx, &r, &h, &w, &p),
               "select of i16 and i32 lanes");
  expect_error(npuc_aie1_select(&ctx, &r, NULL, NULL, &p), "is missing");
}

static void add_sub_lanewise(void **state) {
  (void)state;
  npuc_aie1_vec a = vec(NPUC_AIE1_I32, 8), b = vec(NPUC_AIE1_I32, 8), r;
  a.u.i32[0] = INT32_MAX, b.u.i32[0] = 1;
  a.u.i32[1] = INT32_MIN, b.u.i32[1] = 1;
  a.u.i32[2] = 7, b.u.i32[2] = -9;
  npuc_aie1_params p;
  npuc_aie1_params_init(&p);
  expect_ok(npuc_aie1_add(&ctx, &r, &a, &b, &p)); /* wraps */
  expect_lanes(&r, (int64_t[8]){INT32_MIN, INT32_MIN + 1, -2}, 8);
  expect_ok(npuc_aie1_sub(&ctx, &r, &a, &b, &p));
  expect_lanes(&r, (int64_t[8]){INT32_MAX - 1, INT32_MAX, 16}, 8);
  npuc_aie1_vec f = ramp(NPUC_AIE1_F32, 8, 1, 1),
                g = ramp(NPUC_AIE1_F32, 8, 10, -2);
  expect_ok(npuc_aie1_sub(&ctx, &r, &f, &g, &p));
  assert_true(r.u.f32[0] == -9.0f && r.u.f32[7] == 12.0f);
  npuc_aie1_vec acc = vec(NPUC_AIE1_ACC48, 16);
  acc.u.acc48[0] = -(INT64_C(1) << 47);
  npuc_aie1_vec one = vec(NPUC_AIE1_ACC48, 16);
  one.u.acc48[0] = 1;
  expect_ok(npuc_aie1_sub(&ctx, &r, &acc, &one, &p)); /* wraps at 48 bits */
  assert_int_equal(r.u.acc48[0], (INT64_C(1) << 47) - 1);
  npuc_aie1_vec h = ramp(NPUC_AIE1_I16, 16, 0, 1);
  expect_error(npuc_aie1_add(&ctx, &r, &a, &h, &p), "add of i32 and i16");
  npuc_aie1_vec w = ramp(NPUC_AIE1_I32, 16, 0, 1);
  expect_error(npuc_aie1_sub(&ctx, &r, &a, &w, &p),
               "lane-wise sub of 8 and 16");
}

static void add32_test_add_i16(void **state) {
  (void)state;
  /* 6 / 7.4, test_add_i16: xoffsets 0x03020100 / 0x07060504, xsquare
   * 0x3210, zoffsets 0 / 0, zsquare 0: lane 4q + k gets A[2q + k] + B[0]. */
  npuc_aie1_vec a = ramp(NPUC_AIE1_I16, 32, 0, 10),
                b = ramp(NPUC_AIE1_I16, 32, 5, 1), r;
  npuc_aie1_params p =
      PARAMS("xstart", "0", "xoffsets", "0x03020100", "xoffsets_hi",
             "0x07060504", "xsquare", "0x3210", "zstart", "0", "zoffsets", "0",
             "zoffsets_hi", "0", "zsquare", "0");
  expect_ok(npuc_aie1_add(&ctx, &r, &a, &b, &p));
  int64_t want[32];
  for (int q = 0; q < 8; ++q)
    for (int k = 0; k < 4; ++k)
      want[4 * q + k] = (2 * q + k) * 10 + 5;
  expect_lanes(&r, want, 32);
  /* add16 on i32 lanes: xi = xstart + nibble s; zstart 3, zoffsets 0:
   * every lane adds B[3] */
  npuc_aie1_vec c = ramp(NPUC_AIE1_I32, 16, 0, 100),
                d = ramp(NPUC_AIE1_I32, 16, 1, 1);
  p = PARAMS("xstart", "1", "xoffsets", "0x76543210", "xoffsets_hi",
             "0xEDCBA987", "zstart", "3", "zoffsets", "0");
  expect_ok(npuc_aie1_sub(&ctx, &r, &c, &d, &p));
  for (int s = 0; s < 16; ++s) {
    int xi = s < 8 ? 1 + s : 1 + s - 1; /* hi nibbles start at 7 */
    assert_int_equal(r.u.i32[s], xi * 100 - 4);
  }
}

/* ---- npuc_aie1_fail ------------------------------------------------------ */

static void fail_reports_and_exits(void **state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], 2);
    npuc_aie1_vec a = vec(NPUC_AIE1_ACC48, 16), out;
    if (!npuc_aie1_srs(&ctx, &out, &a, NPUC_AIE1_I16, 99, true))
      npuc_aie1_fail(&ctx, "k.mlir:4:7");
    _exit(0);
  }
  close(fds[1]);
  char buf[512] = {0};
  ssize_t n = read(fds[0], buf, sizeof buf - 1);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  assert_true(n > 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 3);
  assert_string_equal(buf, "k.mlir:4:7: error: srs shift 99 outside [0, 63]\n");
}

/* ---- AIE-ML (ctx.aieml)
 * ------------------------------------------------------ Not from the AIE1
 * reference: the element-wise semantics of the aievec op documentation
 * (docs/aie1-cmodel.md, "AIE-ML"). Expected values by hand. */

static int64_t i64_lane(const npuc_aie1_vec *v, int k) {
  assert_int_equal(v->elem, NPUC_AIE1_I64);
  return v->u.i64[k];
}

static void aieml_upd_whole_512(void **state) {
  (void)state;
  int32_t mem[40];
  for (int i = 0; i < 40; ++i)
    mem[i] = 100 + i;
  ctx.aieml = true;
  npuc_aie1_vec v;
  /* AIE1 reads the low half only (upd_halves); AIE-ML all 512 bits. */
  expect_ok(npuc_aie1_upd(&ctx, &v, NULL, mem, 40, NPUC_AIE1_I32, 16, 3, 0, 0));
  for (int k = 0; k < 16; ++k)
    assert_int_equal(v.u.i32[k], 103 + k);
  expect_error(
      npuc_aie1_upd(&ctx, &v, NULL, mem, 40, NPUC_AIE1_I32, 16, 0, 0, 1),
      "only index 0");
}

static void aieml_ups_srs(void **state) {
  (void)state;
  ctx.aieml = true;
  npuc_aie1_vec x = vec(NPUC_AIE1_I32, 16), acc, back;
  x.u.i32[0] = -3;
  x.u.i32[1] = 2147483647;
  x.u.i32[2] = -2147483647 - 1;
  expect_ok(npuc_aie1_ups(&ctx, &acc, &x, NPUC_AIE1_I64, 4));
  assert_int_equal(i64_lane(&acc, 0), -48);
  assert_int_equal(i64_lane(&acc, 1), INT64_C(34359738352));  /* (2^31-1)*16 */
  assert_int_equal(i64_lane(&acc, 2), -INT64_C(34359738368)); /* -2^31*16 */
  expect_ok(npuc_aie1_srs(&ctx, &back, &acc, NPUC_AIE1_I32, 4, true));
  for (int k = 0; k < 3; ++k)
    assert_int_equal(back.u.i32[k], x.u.i32[k]);
  /* Past 32 bits: the low bits without saturation, clamped with it. */
  acc.u.i64[0] = INT64_C(0x123456789);
  expect_ok(npuc_aie1_srs(&ctx, &back, &acc, NPUC_AIE1_I32, 0, true));
  assert_int_equal(back.u.i32[0], 0x23456789);
  ctx.sat = NPUC_AIE1_SAT_SATURATE;
  expect_ok(npuc_aie1_srs(&ctx, &back, &acc, NPUC_AIE1_I32, 0, true));
  assert_int_equal(back.u.i32[0], 2147483647);
  /* i16 into 32 lanes of i32, and back with a floor shift: -7 >> 1 = -4. */
  npuc_aie1_vec h = ramp(NPUC_AIE1_I16, 32, -7, 1), a32, h2;
  expect_ok(npuc_aie1_ups(&ctx, &a32, &h, NPUC_AIE1_I32, 0));
  assert_int_equal(a32.elem, NPUC_AIE1_I32);
  assert_int_equal(a32.u.i32[31], 24);
  expect_ok(npuc_aie1_srs(&ctx, &h2, &a32, NPUC_AIE1_I16, 1, true));
  assert_int_equal(h2.u.i16[0], -4);
  assert_int_equal(h2.u.i16[31], 12);
  expect_error(npuc_aie1_ups(&ctx, &acc, &x, NPUC_AIE1_I32, 0),
               "AIE-ML ups widens");
  expect_error(npuc_aie1_srs(&ctx, &back, &a32, NPUC_AIE1_I32, 0, true),
               "AIE-ML srs narrows");
}

static void aieml_mul_mac_elem(void **state) {
  (void)state;
  ctx.aieml = true;
  npuc_aie1_vec a = vec(NPUC_AIE1_I32, 16), b = vec(NPUC_AIE1_I32, 16);
  npuc_aie1_vec p, m;
  a.u.i32[0] = 1 << 30;
  b.u.i32[0] = 1 << 30;
  a.u.i32[1] = -100000;
  b.u.i32[1] = 70000;
  a.u.i32[15] = 3;
  b.u.i32[15] = -5;
  expect_ok(npuc_aie1_mul_elem(&ctx, &p, &a, &b, NPUC_AIE1_I64));
  assert_int_equal(i64_lane(&p, 0), INT64_C(1) << 60); /* exact, 61 bits */
  assert_int_equal(i64_lane(&p, 1), -INT64_C(7000000000));
  assert_int_equal(i64_lane(&p, 15), -15);
  assert_int_equal(i64_lane(&p, 2), 0);
  /* acc + a*b, and acc - a*b with fmsub: lane 0 is 2^60 + 2^60. */
  expect_ok(npuc_aie1_mac_elem(&ctx, &m, &a, &b, &p, false));
  assert_int_equal(i64_lane(&m, 0), INT64_C(1) << 61);
  assert_int_equal(i64_lane(&m, 15), -30);
  expect_ok(npuc_aie1_mac_elem(&ctx, &m, &a, &b, &m, true));
  assert_int_equal(i64_lane(&m, 0), INT64_C(1) << 60);
  assert_int_equal(i64_lane(&m, 1), -INT64_C(7000000000));
  /* i16 accumulates in 32-bit lanes and wraps there:
   * (2^31 - 1) + 30000 * 30000 - 2^32 = -1247483649. */
  npuc_aie1_vec h = vec(NPUC_AIE1_I16, 32), acc = vec(NPUC_AIE1_I32, 32), r;
  h.u.i16[5] = 30000;
  acc.u.i32[5] = 2147483647;
  expect_ok(npuc_aie1_mac_elem(&ctx, &r, &h, &h, &acc, false));
  assert_int_equal(r.u.i32[5], -1247483649);
  assert_int_equal(r.u.i32[4], 0);
}

/* ---- AIE-ML convolutions and shuffle ---------------------------------------
 * Rules in lib/Runtime/aie1/conv.c (AIE-ML intrinsics guide, mlir-aie's
 * shuffle documentation). The hand cases give expected lanes worked out by
 * hand; the conv2d cases run the op sequence mlir-aie's aie-vectorize
 * emits for conv2d_uij_{i8,i16}_noinit_aie-ml.mlir and compare it with the
 * scalar loop nest of those files. */

static void aieml_conv_hand(void **state) {
  (void)state;
  ctx.aieml = true;
  /* 16x4 on i16: out[x] = 1*F[x] + 10*F[x+1] + 100*F[x+2] - 1*F[x+3] with
   * F[k] = k: 110x + 207 (x = 0: 0 + 10 + 200 - 3 = 207). */
  npuc_aie1_vec f = ramp(NPUC_AIE1_I16, 32, 0, 1), g = vec(NPUC_AIE1_I16, 32);
  g.u.i16[0] = 1;
  g.u.i16[1] = 10;
  g.u.i16[2] = 100;
  g.u.i16[3] = -1;
  g.u.i16[4] = 1000; /* past N: not read */
  npuc_aie1_vec acc, acc2;
  expect_ok(npuc_aie1_mul_conv(&ctx, &acc, &f, &g, 16, 4));
  assert_int_equal(acc.elem, NPUC_AIE1_I64);
  assert_int_equal(acc.lanes, 16);
  assert_int_equal(i64_lane(&acc, 0), 207);
  assert_int_equal(i64_lane(&acc, 15), 110 * 15 + 207);
  /* fma_conv adds the same again; fmsub takes it back off. */
  expect_ok(npuc_aie1_fma_conv(&ctx, &acc2, &f, &g, &acc, 16, 4, false));
  assert_int_equal(i64_lane(&acc2, 3), 2 * (110 * 3 + 207));
  expect_ok(npuc_aie1_fma_conv(&ctx, &acc2, &f, &g, &acc2, 16, 4, true));
  assert_int_equal(i64_lane(&acc2, 3), 110 * 3 + 207);
  /* 32x8 on i8 into i32 lanes: taps all 1 sum F[x..x+7] = 8x + 28. */
  npuc_aie1_vec f8 = ramp(NPUC_AIE1_I8, 64, 0, 1), g8 = vec(NPUC_AIE1_I8, 64);
  for (int u = 0; u < 8; ++u)
    g8.u.i8[u] = 1;
  expect_ok(npuc_aie1_mul_conv(&ctx, &acc, &f8, &g8, 32, 8));
  assert_int_equal(acc.elem, NPUC_AIE1_I32);
  assert_int_equal(acc.u.i32[0], 28);
  assert_int_equal(acc.u.i32[31], 8 * 31 + 28);
  /* legacyshuffle mode 0 (T8_64x2_lo): the even lanes of src:src; mode 1
   * (hi) the odd ones. */
  npuc_aie1_vec sh;
  expect_ok(npuc_aie1_legacyshuffle(&ctx, &sh, &f8, 0));
  assert_int_equal(sh.u.i8[0], 0);
  assert_int_equal(sh.u.i8[1], 2);
  assert_int_equal(sh.u.i8[31], 62);
  assert_int_equal(sh.u.i8[32], 0);
  assert_int_equal(sh.u.i8[63], 62);
  expect_ok(npuc_aie1_legacyshuffle(&ctx, &sh, &f8, 1));
  assert_int_equal(sh.u.i8[0], 1);
  assert_int_equal(sh.u.i8[31], 63);
  /* T16_32x2_lo on 32 i16 lanes. */
  expect_ok(npuc_aie1_legacyshuffle(&ctx, &sh, &f, 2));
  assert_int_equal(sh.u.i16[5], 10);
  assert_int_equal(sh.u.i16[16], 0);
}

static void aieml_conv_errors(void **state) {
  (void)state;
  npuc_aie1_vec f = vec(NPUC_AIE1_I16, 32), r;
  expect_error(npuc_aie1_mul_conv(&ctx, &r, &f, &f, 16, 4),
               "mul_conv / fma_conv are AIE-ML ops; this core is AIE1");
  expect_error(npuc_aie1_legacyshuffle(&ctx, &r, &f, 2),
               "legacyshuffle is an AIE-ML op");
  ctx.aieml = true;
  expect_error(npuc_aie1_mul_conv(&ctx, &r, &f, &f, 16, 8),
               "conv 16x8 on i16 lanes is not modelled");
  npuc_aie1_vec small = vec(NPUC_AIE1_I16, 16);
  expect_error(npuc_aie1_mul_conv(&ctx, &r, &small, &f, 16, 4),
               "reads 19 lanes of lhs and 4 of rhs");
  npuc_aie1_vec acc32 = vec(NPUC_AIE1_I32, 16);
  expect_error(npuc_aie1_fma_conv(&ctx, &r, &f, &f, &acc32, 16, 4, false),
               "accumulates in vector<16xi64>, not vector<16xi32>");
  expect_error(npuc_aie1_legacyshuffle(&ctx, &r, &f, 0),
               "mode 0 takes vector<64xi8>, not vector<32xi16>");
  expect_error(npuc_aie1_legacyshuffle(&ctx, &r, &f, 6), "mode 6 is not");
}

/* matmul 2x3 by 3x2 into i32 lanes, by hand: A = [1 2 3; 4 5 6], B = [7 8;
 * 9 10; 11 12], acc = 1 everywhere: A.B = [58 64; 139 154], plus 1. lhs and
 * rhs hold more lanes than are read. */
static void aieml_matmul(void **state) {
  (void)state;
  npuc_aie1_vec r;
  npuc_aie1_vec a = ramp(NPUC_AIE1_I16, 32, 1, 1),
                b = ramp(NPUC_AIE1_I8, 64, 7, 1);
  npuc_aie1_vec acc = vec(NPUC_AIE1_I32, 4);
  for (int i = 0; i < 4; ++i)
    acc.u.i32[i] = 1;
  expect_error(npuc_aie1_matmul(&ctx, &r, &a, &b, &acc, 2, 3, 2),
               "matmul is an AIE-ML op");
  ctx.aieml = true;
  expect_ok(npuc_aie1_matmul(&ctx, &r, &a, &b, &acc, 2, 3, 2));
  assert_int_equal(r.elem, NPUC_AIE1_I32);
  assert_int_equal(r.u.i32[0], 59);
  assert_int_equal(r.u.i32[1], 65);
  assert_int_equal(r.u.i32[2], 140);
  assert_int_equal(r.u.i32[3], 155);
  expect_error(
      npuc_aie1_matmul(&ctx, &r, &a, &b, &acc, 2, 3, 3),
      "needs 6 lanes of lhs, 9 of rhs and exactly 6 of the accumulator");
  npuc_aie1_vec f = vec(NPUC_AIE1_F32, 16);
  expect_error(npuc_aie1_matmul(&ctx, &r, &f, &b, &acc, 2, 3, 2),
               "matmul of f32 by i8 into i32 is not modelled");
  expect_error(npuc_aie1_matmul(&ctx, &r, &a, &b, &acc, 0, 3, 2),
               "sizes are 1 to 64");
}

/* The conv2d kernels of conv2d_uij_{i8,i16}_noinit_aie-ml.mlir: C[i][j] =
 * sum over r, c < 3 of A[i+r][j+c] * B[row * r + step * c] in the element
 * type (wrapping), A 18 x 288, C 16 x 256. i8: row 16, step 2; aie-vectorize
 * loads 64 lanes of B, takes the even ones (legacyshuffle mode 0), and
 * runs 32x8 convolutions into i32 lanes. i16: row 4, step 1; B's 16 lanes
 * concatenated with themselves, 16x4 convolutions into i64 lanes. Both
 * shift rows 1 and 2 of the filter into place by 8 and 16 bytes, and per
 * output block run one mul_conv, two fma_conv and an srs. The taps past
 * the third of each row read B where the filter layout has zeros. */
typedef struct {
  npuc_aie1_elem elem;
  int32_t m, n, row, step, filter_lanes;
} conv2d_case;

static int64_t mem_get(npuc_aie1_elem e, const void *m, int64_t k) {
  return e == NPUC_AIE1_I8 ? ((const int8_t *)m)[k] : ((const int16_t *)m)[k];
}

static void mem_set(npuc_aie1_elem e, void *m, int64_t k, uint64_t v) {
  if (e == NPUC_AIE1_I8)
    ((int8_t *)m)[k] = (int8_t)(uint8_t)v;
  else
    ((int16_t *)m)[k] = (int16_t)(uint16_t)v;
}

static void conv2d_reference(const conv2d_case *cc, const void *a,
                             const void *b, void *c) {
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 256; ++j) {
      uint64_t sum = 0; /* wraps like the element type, mod 2^64 here */
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k)
          sum += (uint64_t)(mem_get(cc->elem, a, (i + r) * 288 + j + k) *
                            mem_get(cc->elem, b, cc->row * r + cc->step * k));
      mem_set(cc->elem, c, i * 256 + j, sum);
    }
}

static void conv2d_vectorized(const conv2d_case *cc, const void *a,
                              const void *b, void *c) {
  npuc_aie1_vec t0, t[3], x, acc, out;
  int32_t lanes = cc->m + (cc->elem == NPUC_AIE1_I8 ? 32 : 16);
  expect_ok(npuc_aie1_upd(&ctx, &t0, NULL, b, cc->filter_lanes, cc->elem,
                          cc->filter_lanes, 0, 0, 0));
  if (cc->elem == NPUC_AIE1_I8) {
    expect_ok(npuc_aie1_legacyshuffle(&ctx, &t[0], &t0, 0));
  } else {
    const npuc_aie1_vec *halves[2] = {&t0, &t0};
    expect_ok(npuc_aie1_concat(&ctx, &t[0], halves, 2));
  }
  expect_ok(npuc_aie1_shift(&ctx, &t[1], &t[0], &t[0], 8));
  expect_ok(npuc_aie1_shift(&ctx, &t[2], &t[0], &t[0], 16));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 256; j += cc->m) {
      for (int r = 0; r < 3; ++r) {
        expect_ok(npuc_aie1_upd(&ctx, &x, NULL, a, 18 * 288, cc->elem, lanes,
                                (i + r) * 288 + j, 0, 0));
        expect_ok(r == 0
                      ? npuc_aie1_mul_conv(&ctx, &acc, &x, &t[0], cc->m, cc->n)
                      : npuc_aie1_fma_conv(&ctx, &acc, &x, &t[r], &acc, cc->m,
                                           cc->n, false));
      }
      expect_ok(npuc_aie1_srs(&ctx, &out, &acc, cc->elem, 0, true));
      expect_ok(npuc_aie1_store(&ctx, &out, c, 16 * 256, i * 256 + j, cc->m));
    }
}

static void conv2d_against_scalar(const conv2d_case *cc, uint32_t seed) {
  ctx.aieml = true;
  static int16_t a[18 * 288], b[64], c_vec[16 * 256], c_ref[16 * 256];
  for (int k = 0; k < 18 * 288; ++k) {
    seed = seed * 1103515245u + 12345u;
    mem_set(cc->elem, a, k, seed >> 12);
  }
  for (int k = 0; k < cc->filter_lanes; ++k) {
    seed = seed * 1103515245u + 12345u;
    bool tap = k % cc->step == 0 && (k % cc->row) / cc->step < 3;
    bool zero = k < 3 * cc->row && k % cc->step == 0 && !tap;
    mem_set(cc->elem, b, k, zero ? 0 : seed >> 14);
  }
  conv2d_reference(cc, a, b, c_ref);
  conv2d_vectorized(cc, a, b, c_vec);
  size_t bytes = (size_t)16 * 256 * (cc->elem == NPUC_AIE1_I8 ? 1 : 2);
  assert_memory_equal(c_vec, c_ref, bytes);
}

static void aieml_conv2d_i8_scalar(void **state) {
  (void)state;
  conv2d_case cc = {NPUC_AIE1_I8, 32, 8, 16, 2, 64};
  conv2d_against_scalar(&cc, 12345);
}

static void aieml_conv2d_i16_scalar(void **state) {
  (void)state;
  conv2d_case cc = {NPUC_AIE1_I16, 16, 4, 4, 1, 16};
  conv2d_against_scalar(&cc, 777);
}

static void aieml_errors(void **state) {
  (void)state;
  npuc_aie1_vec a = vec(NPUC_AIE1_I32, 16), acc = vec(NPUC_AIE1_I64, 16), r;
  expect_error(npuc_aie1_mac_elem(&ctx, &r, &a, &a, &acc, false),
               "mac_elem is an AIE-ML op; this core is AIE1");
  ctx.aieml = true;
  expect_error(npuc_aie1_mul_elem(&ctx, &r, &a, &a, NPUC_AIE1_I32),
               "mul_elem of i32 lanes accumulates in i64, not i32");
  npuc_aie1_vec narrow = vec(NPUC_AIE1_I64, 8);
  expect_error(npuc_aie1_mac_elem(&ctx, &r, &a, &a, &narrow, false),
               "accumulates in vector<16xi64>, not vector<8xi64>");
  npuc_aie1_vec h = vec(NPUC_AIE1_I16, 32);
  expect_error(npuc_aie1_mul_elem(&ctx, &r, &a, &h, NPUC_AIE1_I64),
               "two integer vectors of one type");
  int64_t mem[32] = {0};
  expect_error(
      npuc_aie1_upd(&ctx, &r, NULL, mem, 32, NPUC_AIE1_I64, 16, 0, 0, 0),
      "upd loads data vectors");
  expect_error(npuc_aie1_store(&ctx, &acc, mem, 32, 0, 16),
               "srs an accumulator first");
}

/* bf16 rounding: to nearest, ties to even, NaN kept quiet, the largest
 * finite values round up to infinity; widening is exact. */
static void aieml_bf16_rounding(void **state) {
  (void)state;
  assert_int_equal(npuc_aie1_bf16_bits(1.0f), 0x3f80);
  /* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even (1) wins. */
  assert_int_equal(npuc_aie1_bf16_bits(1.00390625f), 0x3f80);
  /* 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6. */
  assert_int_equal(npuc_aie1_bf16_bits(1.01171875f), 0x3f82);
  assert_int_equal(npuc_aie1_bf16_bits(1.00390631f), 0x3f81);
  assert_int_equal(npuc_aie1_bf16_bits(-1.00390631f), 0xbf81);
  assert_int_equal(npuc_aie1_bf16_bits(3.4028235e38f), 0x7f80);
  uint16_t nan = npuc_aie1_bf16_bits(__builtin_nanf("1"));
  assert_true((nan & 0x7f80) == 0x7f80 && (nan & 0x7f) != 0);
  assert_true(npuc_aie1_bf16_value(0xc0a0) == -5.0f);
  ctx.aieml = true;
  npuc_aie1_vec b = vec(NPUC_AIE1_I16, 16), acc, back;
  for (int k = 0; k < 16; ++k)
    b.u.i16[k] = (int16_t)(0x3f80 + k);
  expect_ok(npuc_aie1_ups_float(&ctx, &acc, &b, true));
  assert_int_equal(acc.elem, NPUC_AIE1_F32);
  assert_true(acc.u.f32[1] == 1.0078125f);
  expect_ok(npuc_aie1_to_bf16(&ctx, &back, &acc));
  assert_memory_equal(back.u.i16, b.u.i16, 16 * sizeof(int16_t));
}

/* bf16 products are exact in f32; f32 products round before the sum. */
static void aieml_float_elem(void **state) {
  (void)state;
  ctx.aieml = true;
  npuc_aie1_vec x = vec(NPUC_AIE1_I16, 32), z = vec(NPUC_AIE1_I16, 32), r;
  for (int k = 0; k < 32; ++k) {
    x.u.i16[k] = (int16_t)npuc_aie1_bf16_bits(1.0078125f); /* 1 + 2^-7 */
    z.u.i16[k] = (int16_t)npuc_aie1_bf16_bits(-3.0f);
  }
  expect_ok(npuc_aie1_float_mac_elem(&ctx, &r, &x, &z, NULL, true, 16, false));
  assert_int_equal(r.lanes, 16);
  assert_true(r.u.f32[5] == -3.0234375f);
  npuc_aie1_vec acc = r;
  expect_ok(npuc_aie1_float_mac_elem(&ctx, &r, &x, &z, &acc, true, 16, true));
  assert_true(r.u.f32[0] == 0.0f);
  npuc_aie1_vec f = vec(NPUC_AIE1_F32, 16);
  for (int k = 0; k < 16; ++k)
    f.u.f32[k] = 1.0f + 0x1p-12f; /* squared: 1 + 2^-11 + 2^-24 */
  expect_ok(npuc_aie1_float_mac_elem(&ctx, &r, &f, &f, NULL, false, 16, false));
  assert_true(r.u.f32[3] == 1.0f + 0x1p-11f + 0x1p-24f);
  expect_ok(npuc_aie1_float_add_elem(&ctx, &r, &r, &acc, true));
  assert_true(r.u.f32[3] == (1.0f + 0x1p-11f + 0x1p-24f) + 3.0234375f);
}

static void aieml_float_errors(void **state) {
  (void)state;
  npuc_aie1_vec b = vec(NPUC_AIE1_I16, 16), f = vec(NPUC_AIE1_F32, 16), r;
  expect_error(npuc_aie1_ups_float(&ctx, &r, &b, true),
               "ups_float is an AIE-ML op; this core is AIE1");
  ctx.aieml = true;
  expect_error(npuc_aie1_ups_float(&ctx, &r, &f, true),
               "ups_float takes at least 16 bf16 lanes, not vector<16xf32>");
  expect_error(
      npuc_aie1_to_bf16(&ctx, &r, &b),
      "to_bf16 takes a vector<16xf32> accumulator, not vector<16xi16>");
  expect_error(
      npuc_aie1_float_mac_elem(&ctx, &r, &b, &b, NULL, true, 32, false),
      "float mul_elem lhs takes at least 32 bf16 lanes, not vector<16xi16>");
  npuc_aie1_vec f8 = vec(NPUC_AIE1_F32, 8);
  expect_error(npuc_aie1_float_mac_elem(&ctx, &r, &b, &b, &f8, true, 16, false),
               "float mac_elem takes a vector<16xf32> accumulator, not "
               "vector<8xf32>");
  expect_error(npuc_aie1_float_add_elem(&ctx, &r, &f, &f8, false),
               "float add_elem takes a vector<16xf32> accumulator");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(shapes, reset),
      cmocka_unit_test_setup(i80_conversions, reset),
      cmocka_unit_test_setup(parse_params, reset),
      cmocka_unit_test_setup(upd_halves, reset),
      cmocka_unit_test_setup(upd_i8_filter, reset),
      cmocka_unit_test_setup(upd_errors, reset),
      cmocka_unit_test_setup(store_masked, reset),
      cmocka_unit_test_setup(concat_ext, reset),
      cmocka_unit_test_setup(broadcast_lane, reset),
      cmocka_unit_test_setup(shift_bytes, reset),
      cmocka_unit_test_setup(pack_modes, reset),
      cmocka_unit_test_setup(ups_values, reset),
      cmocka_unit_test_setup(srs_rounding, reset),
      cmocka_unit_test_setup(srs_saturation, reset),
      cmocka_unit_test_setup(srs_80_bits, reset),
      cmocka_unit_test_setup(srs_errors, reset),
      cmocka_unit_test_setup(mac_i32, reset),
      cmocka_unit_test_setup(mac_i32_beyond_64_bits, reset),
      cmocka_unit_test_setup(mul_f32_fpmul_table, reset),
      cmocka_unit_test_setup(mac_f32_not_fused, reset),
      cmocka_unit_test_setup(mac16_conv2d_table, reset),
      cmocka_unit_test_setup(mac16_ug1079_examples, reset),
      cmocka_unit_test_setup(mac16_gemv, reset),
      cmocka_unit_test_setup(mac16_wraps_at_48_bits, reset),
      cmocka_unit_test_setup(mac16_z_offsets_hi, reset),
      cmocka_unit_test_setup(mac8_i16, reset),
      cmocka_unit_test_setup(mac_i16_errors, reset),
      cmocka_unit_test_setup(mac_i8_conv2d_table, reset),
      cmocka_unit_test_setup(mac_i8_square_and_steps, reset),
      cmocka_unit_test_setup(mac8_i8, reset),
      cmocka_unit_test_setup(mac_i8_errors, reset),
      cmocka_unit_test_setup(select32_ug1079, reset),
      cmocka_unit_test_setup(select32_conv2d_i8, reset),
      cmocka_unit_test_setup(select16_two_buffers, reset),
      cmocka_unit_test_setup(select_errors, reset),
      cmocka_unit_test_setup(add_sub_lanewise, reset),
      cmocka_unit_test_setup(add32_test_add_i16, reset),
      cmocka_unit_test_setup(fail_reports_and_exits, reset),
      cmocka_unit_test_setup(aieml_upd_whole_512, reset),
      cmocka_unit_test_setup(aieml_ups_srs, reset),
      cmocka_unit_test_setup(aieml_mul_mac_elem, reset),
      cmocka_unit_test_setup(aieml_errors, reset),
      cmocka_unit_test_setup(aieml_bf16_rounding, reset),
      cmocka_unit_test_setup(aieml_float_elem, reset),
      cmocka_unit_test_setup(aieml_float_errors, reset),
      cmocka_unit_test_setup(aieml_conv_hand, reset),
      cmocka_unit_test_setup(aieml_conv_errors, reset),
      cmocka_unit_test_setup(aieml_matmul, reset),
      cmocka_unit_test_setup(aieml_conv2d_i8_scalar, reset),
      cmocka_unit_test_setup(aieml_conv2d_i16_scalar, reset),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
