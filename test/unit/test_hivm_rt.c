/* libnpuc_hivm_rt against naive references: every op on random shapes of
 * rank 0..4, dense and strided views, broadcast size-1 dims and scalars,
 * every dtype; f16/bf16 rounding; casts in every mode; and every error
 * path (in a forked child: exit status 3 and "loc: error: ..."). The
 * references below use only C and libm, never the runtime's helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/HivmRuntime.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOC "t.mlir:7:3"
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const npuc_dtype kAllDtypes[] = {NPUC_DT_I1,   NPUC_DT_I8,  NPUC_DT_I16,
                                        NPUC_DT_I32,  NPUC_DT_I64, NPUC_DT_F16,
                                        NPUC_DT_BF16, NPUC_DT_F32, NPUC_DT_F64};
static const npuc_dtype kFloatDtypes[] = {NPUC_DT_F16, NPUC_DT_BF16,
                                          NPUC_DT_F32, NPUC_DT_F64};
static const npuc_dtype kIntDtypes[] = {NPUC_DT_I1, NPUC_DT_I8, NPUC_DT_I16,
                                        NPUC_DT_I32, NPUC_DT_I64};

/* ======================================================================
 * Deterministic random numbers (xorshift64*)
 * ====================================================================== */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

/* Uniform in [lo, hi]. */
static int64_t rnd_range(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static double rnd_unit(void) { return (double)(rnd() >> 11) * 0x1p-53; }

/* ======================================================================
 * Reference number formats
 * ====================================================================== */

typedef enum { RM_EVEN, RM_AWAY, RM_ZERO, RM_DOWN, RM_UP } ref_mode;

static bool is_float(npuc_dtype dt) {
  return dt == NPUC_DT_F16 || dt == NPUC_DT_BF16 || dt == NPUC_DT_F32 ||
         dt == NPUC_DT_F64;
}

static int int_width(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_I1: return 1;
  case NPUC_DT_I8: return 8;
  case NPUC_DT_I16: return 16;
  case NPUC_DT_I32: return 32;
  default: return 64;
  }
}

static size_t elem_size(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_I1:
  case NPUC_DT_I8: return 1;
  case NPUC_DT_I16:
  case NPUC_DT_F16:
  case NPUC_DT_BF16: return 2;
  case NPUC_DT_I32:
  case NPUC_DT_F32: return 4;
  default: return 8;
  }
}

static double f16_value(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double mag = exp == 0    ? ldexp(mant, -24)
               : exp == 31 ? (mant ? NAN : INFINITY)
                           : ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -mag : mag;
}

static double bf16_value(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The largest finite magnitude's bits, and the value one step past it
 * (where rounding up overflows to Inf). */
static uint16_t half_max_bits(npuc_dtype dt) {
  return dt == NPUC_DT_F16 ? 0x7bff : 0x7f7f;
}
static long double past_max(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_F16: return 65536.0L;
  case NPUC_DT_BF16:
  case NPUC_DT_F32: return ldexpl(1.0L, 128);
  default: return ldexpl(1.0L, 1024);
  }
}

static double half_value(npuc_dtype dt, uint16_t h) {
  return dt == NPUC_DT_F16 ? f16_value(h) : bf16_value(h);
}

/* Representable neighbours lo <= a < hi of a finite a > 0; lo_even tells
 * whether lo's last mantissa bit is 0. */
static void neighbours(long double a, npuc_dtype dt, long double *lo,
                       long double *hi, bool *lo_even) {
  if (dt == NPUC_DT_F16 || dt == NPUC_DT_BF16) {
    uint16_t max = half_max_bits(dt);
    if (a >= half_value(dt, max)) {
      *lo = half_value(dt, max), *hi = past_max(dt), *lo_even = false;
      return;
    }
    uint16_t l = 0, h = max; /* value(l) <= a < value(h) */
    while (h - l > 1) {
      uint16_t m = (uint16_t)((l + h) / 2);
      if (half_value(dt, m) <= a)
        l = m;
      else
        h = m;
    }
    *lo = half_value(dt, l), *hi = half_value(dt, (uint16_t)(l + 1));
    *lo_even = !(l & 1);
    return;
  }
  if (dt == NPUC_DT_F32) {
    float f = a > FLT_MAX ? FLT_MAX : (float)a;
    if ((long double)f > a)
      f = nextafterf(f, 0);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    *lo = f, *lo_even = !(u & 1);
    *hi = f == FLT_MAX ? past_max(dt) : (long double)nextafterf(f, INFINITY);
    return;
  }
  double d = a > DBL_MAX ? DBL_MAX : (double)a;
  if ((long double)d > a)
    d = nextafter(d, 0);
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  *lo = d, *lo_even = !(u & 1);
  *hi = d == DBL_MAX ? past_max(dt) : (long double)nextafter(d, INFINITY);
}

/* x rounded to dtype dt in mode m; Inf past the largest finite value. */
static double ref_round(long double x, npuc_dtype dt, ref_mode m) {
  if (isnan(x))
    return NAN;
  if (isinf(x) || x == 0)
    return (double)x;
  bool neg = x < 0;
  long double a = neg ? -x : x, lo, hi;
  bool lo_even;
  neighbours(a, dt, &lo, &hi, &lo_even);
  if (lo == a)
    return (double)x;
  bool up = false;
  switch (m) {
  case RM_EVEN: up = a - lo > hi - a || (a - lo == hi - a && !lo_even); break;
  case RM_AWAY: up = a - lo >= hi - a; break;
  case RM_ZERO: up = false; break;
  case RM_DOWN: up = neg; break;
  case RM_UP: up = !neg; break;
  }
  long double r = up ? hi : lo;
  double mag = r >= past_max(dt) ? INFINITY : (double)r;
  return neg ? -mag : mag;
}

/* Bits of a value representable in dt (or Inf/NaN). */
static uint64_t float_bits(npuc_dtype dt, double v) {
  if (dt == NPUC_DT_F32) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
  }
  if (dt == NPUC_DT_F64) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
  }
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  if (isnan(v))
    return dt == NPUC_DT_F16 ? 0x7e00 : 0x7fc0;
  double a = fabs(v);
  uint16_t inf = dt == NPUC_DT_F16 ? 0x7c00 : 0x7f80;
  if (isinf(a))
    return sign | inf;
  for (uint16_t l = 0, h = inf;;) { /* value(l) <= a <= value(h) */
    if (half_value(dt, l) == a)
      return sign | l;
    if (half_value(dt, h) == a)
      return sign | h;
    uint16_t m = (uint16_t)((l + h) / 2);
    assert_true(h - l > 1); /* a must be representable */
    if (half_value(dt, m) <= a)
      l = m;
    else
      h = m;
  }
}

static double value_of_bits(npuc_dtype dt, uint64_t bits) {
  switch (dt) {
  case NPUC_DT_F16: return f16_value((uint16_t)bits);
  case NPUC_DT_BF16: return bf16_value((uint16_t)bits);
  case NPUC_DT_F32: {
    float f;
    uint32_t u = (uint32_t)bits;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  default: {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
}

/* Sign-extends the low w bits (i1 stays 0/1). */
static int64_t wrap(uint64_t v, int w) {
  if (w == 1)
    return (int64_t)(v & 1);
  if (w == 64)
    return (int64_t)v;
  uint64_t m = 1ull << (w - 1);
  v &= (1ull << w) - 1;
  return (int64_t)(v ^ m) - (int64_t)m;
}

static bool same_float(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}

/* ======================================================================
 * Reference element access
 * ====================================================================== */

static char *elem_ptr(const npuc_buf *b, const int64_t *idx) {
  int64_t off = b->offset;
  for (int32_t j = 0; j < b->rank; j++)
    off += idx[j] * b->strides[j];
  return (char *)b->data + off * (int64_t)elem_size(b->dtype);
}

static uint64_t get_bits(const npuc_buf *b, const int64_t *idx) {
  const char *p = elem_ptr(b, idx);
  switch (elem_size(b->dtype)) {
  case 1: return *(const uint8_t *)p;
  case 2: return *(const uint16_t *)p;
  case 4: return *(const uint32_t *)p;
  default: return *(const uint64_t *)p;
  }
}

static void set_bits(const npuc_buf *b, const int64_t *idx, uint64_t v) {
  char *p = elem_ptr(b, idx);
  switch (elem_size(b->dtype)) {
  case 1: *(uint8_t *)p = (uint8_t)v; return;
  case 2: *(uint16_t *)p = (uint16_t)v; return;
  case 4: *(uint32_t *)p = (uint32_t)v; return;
  default: *(uint64_t *)p = v; return;
  }
}

static double getf(const npuc_buf *b, const int64_t *idx) {
  return value_of_bits(b->dtype, get_bits(b, idx));
}

static int64_t geti(const npuc_buf *b, const int64_t *idx) {
  uint64_t bits = get_bits(b, idx);
  return b->dtype == NPUC_DT_I1 ? bits != 0 : wrap(bits, int_width(b->dtype));
}

/* v must be representable (use ref_round first). */
static void setf(const npuc_buf *b, const int64_t *idx, double v) {
  set_bits(b, idx, float_bits(b->dtype, v));
}

static void seti(const npuc_buf *b, const int64_t *idx, int64_t v) {
  set_bits(b, idx, (uint64_t)wrap((uint64_t)v, int_width(b->dtype)));
}

/* Row-major odometer; false after the last index. */
static bool next_index(int64_t *idx, int32_t rank, const int64_t *sizes) {
  for (int32_t j = rank - 1; j >= 0; j--) {
    if (++idx[j] < sizes[j])
      return true;
    idx[j] = 0;
  }
  return false;
}

static int64_t count(int32_t rank, const int64_t *sizes) {
  int64_t n = 1;
  for (int32_t j = 0; j < rank; j++)
    n *= sizes[j];
  return n;
}

/* Index into a source that broadcasts its size-1 dims. */
static void broadcast_index(const npuc_buf *src, const int64_t *idx,
                            int64_t *out) {
  for (int32_t j = 0; j < src->rank; j++)
    out[j] = src->sizes[j] == 1 ? 0 : idx[j];
}

/* ======================================================================
 * Test buffers
 * ====================================================================== */

/* A buffer of the given shape; `strided` makes it a view with stride 2
 * and offset 1 in every dim of a larger parent. */
static npuc_buf make_buf(npuc_dtype dt, int32_t rank, const int64_t *sizes,
                         bool strided) {
  if (!strided)
    return npuc_rt_alloc(dt, rank, sizes, LOC);
  int64_t big[NPUC_RT_MAX_RANK] = {0}, offs[NPUC_RT_MAX_RANK] = {0},
          two[NPUC_RT_MAX_RANK] = {0};
  for (int32_t j = 0; j < rank; j++)
    big[j] = 2 * sizes[j] + 1, offs[j] = 1, two[j] = 2;
  npuc_buf parent = npuc_rt_alloc(dt, rank, big, LOC);
  /* Poison the parent so reads outside the view show up. */
  memset(parent.data, 0x7f, (size_t)count(rank, big) * elem_size(dt));
  return npuc_rt_subview(&parent, offs, sizes, two, rank, 0, LOC);
}

typedef enum {
  VALUES_GENERAL,  /* floats in [-4, 4] plus specials; ints: any bits */
  VALUES_NONZERO,  /* divisors */
  VALUES_SMALL,    /* ints in [-5, 5] (pow bases) */
  VALUES_EXPONENT, /* ints in [0, 12] (negative ones: see the wraparound test)
                    */
  VALUES_SHIFT,    /* ints in [-2, width + 2] */
  VALUES_PLAIN,    /* floats in [-4, 4], no specials */
} value_kind;

static double random_float(npuc_dtype dt, value_kind kind) {
  static const double specials[] = {0.0,  -0.0,  INFINITY, -INFINITY, NAN,
                                    1e-6, -3e-7, 65504.0,  0.1,       1.0};
  double v = (rnd_unit() * 8 - 4);
  if (kind == VALUES_GENERAL && rnd() % 8 == 0)
    v = specials[rnd() % ARRAY_LEN(specials)];
  if (kind == VALUES_NONZERO && fabs(v) < 0.01)
    v = 0.5;
  return ref_round(v, dt, RM_EVEN);
}

static int64_t random_int(npuc_dtype dt, value_kind kind) {
  int w = int_width(dt);
  int64_t v;
  switch (kind) {
  case VALUES_SMALL: v = rnd_range(-5, 5); break;
  case VALUES_EXPONENT: v = rnd_range(0, 12); break;
  case VALUES_SHIFT: v = rnd_range(-2, w + 2); break;
  default:
    /* Mostly small numbers, sometimes the extremes. */
    v = rnd() % 4 == 0 ? (int64_t)rnd() : rnd_range(-300, 300);
    break;
  }
  v = wrap((uint64_t)v, w);
  if (kind == VALUES_NONZERO && v == 0)
    v = 1;
  return v;
}

static void fill(const npuc_buf *b, value_kind kind) {
  int64_t idx[NPUC_RT_MAX_RANK] = {0};
  if (count(b->rank, b->sizes) == 0)
    return;
  do {
    if (is_float(b->dtype))
      setf(b, idx, random_float(b->dtype, kind));
    else
      seti(b, idx, random_int(b->dtype, kind));
  } while (next_index(idx, b->rank, b->sizes));
}

static void random_shape(int32_t rank, int64_t *sizes, int64_t max_dim) {
  for (int32_t j = 0; j < rank; j++)
    sizes[j] = rnd_range(1, max_dim);
}

static npuc_operand buf_operand(npuc_buf b) {
  return (npuc_operand){.is_scalar = false, .buf = b, .dtype = b.dtype};
}

static npuc_operand scalar_operand(npuc_dtype dt, value_kind kind) {
  npuc_operand s = {.is_scalar = true, .dtype = dt};
  if (is_float(dt))
    s.f = random_float(dt, kind);
  else
    s.i = random_int(dt, kind);
  return s;
}

/* The value an operand has at dst index idx. */
static double operand_f(const npuc_operand *o, const int64_t *idx) {
  if (o->is_scalar)
    return o->f;
  int64_t at[NPUC_RT_MAX_RANK];
  broadcast_index(&o->buf, idx, at);
  return getf(&o->buf, at);
}

static int64_t operand_i(const npuc_operand *o, const int64_t *idx) {
  if (o->is_scalar)
    return o->i;
  int64_t at[NPUC_RT_MAX_RANK];
  broadcast_index(&o->buf, idx, at);
  return geti(&o->buf, at);
}

/* An input for a dst shape: a scalar, or a buffer whose dims are 1 at
 * random (broadcast), dense or strided. */
static npuc_operand random_operand(npuc_dtype dt, int32_t rank,
                                   const int64_t *sizes, value_kind kind,
                                   int variant) {
  if (variant == 3 && rnd() % 2)
    return scalar_operand(dt, kind);
  int64_t s[NPUC_RT_MAX_RANK];
  for (int32_t j = 0; j < rank; j++)
    s[j] = variant == 2 && rnd() % 2 ? 1 : sizes[j];
  npuc_buf b =
      make_buf(dt, rank, s, variant == 1 || (variant >= 2 && rnd() % 2));
  fill(&b, kind);
  return buf_operand(b);
}

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      print_error(__VA_ARGS__);                                                \
      fail();                                                                  \
    }                                                                          \
  } while (0)

/* ======================================================================
 * Conversions
 * ====================================================================== */

static void dtype_sizes(void **state) {
  (void)state;
  for (size_t k = 0; k < ARRAY_LEN(kAllDtypes); k++) {
    assert_int_equal(npuc_rt_elem_size(kAllDtypes[k]),
                     elem_size(kAllDtypes[k]));
    assert_int_equal(npuc_rt_is_float(kAllDtypes[k]), is_float(kAllDtypes[k]));
  }
}

/* Every f16 converts to the exact f32 and back to itself. */
static void f16_round_trips_exhaustively(void **state) {
  (void)state;
  for (uint32_t h = 0; h <= 0xffff; h++) {
    float f = npuc_rt_f16_to_f32((uint16_t)h);
    double want = f16_value((uint16_t)h);
    CHECK(same_float(f, want), "f16 0x%04x -> %g, want %g\n", h, f, want);
    uint16_t back = npuc_rt_f32_to_f16(f);
    if (isnan(want))
      CHECK((back & 0x7c00) == 0x7c00 && (back & 0x3ff) &&
                (back & 0x8000) == (h & 0x8000),
            "NaN 0x%04x -> 0x%04x\n", h, back);
    else
      CHECK(back == h, "f16 0x%04x round trip gave 0x%04x\n", h, back);
  }
  for (uint32_t h = 0; h <= 0xffff; h++) {
    float f = npuc_rt_bf16_to_f32((uint16_t)h);
    CHECK(same_float(f, bf16_value((uint16_t)h)), "bf16 0x%04x\n", h);
    if (!isnan(f))
      CHECK(npuc_rt_f32_to_bf16(f) == h, "bf16 0x%04x back\n", h);
  }
}

static void check_f32_to_half(npuc_dtype dt, float f) {
  uint16_t got =
      dt == NPUC_DT_F16 ? npuc_rt_f32_to_f16(f) : npuc_rt_f32_to_bf16(f);
  double want = ref_round(f, dt, RM_EVEN);
  CHECK(same_float(half_value(dt, got), want), "%s(%a) = 0x%04x, want %a\n",
        dt == NPUC_DT_F16 ? "f16" : "bf16", f, got, want);
}

/* Floats at, just below and just above every midpoint between two
 * neighbouring half values, plus random floats of every magnitude. */
static void f32_to_half_rounds_to_nearest_even(void **state) {
  (void)state;
  const npuc_dtype dts[] = {NPUC_DT_F16, NPUC_DT_BF16};
  for (size_t k = 0; k < 2; k++) {
    npuc_dtype dt = dts[k];
    for (uint16_t h = 0; h < half_max_bits(dt); h++) {
      float mid =
          (float)((half_value(dt, h) + half_value(dt, (uint16_t)(h + 1))) / 2);
      check_f32_to_half(dt, mid);
      check_f32_to_half(dt, -mid);
      check_f32_to_half(dt, nextafterf(mid, 0));
      check_f32_to_half(dt, nextafterf(mid, INFINITY));
    }
    for (int i = 0; i < 200000; i++) {
      uint32_t u = (uint32_t)rnd();
      float f;
      memcpy(&f, &u, sizeof f);
      check_f32_to_half(dt, f);
    }
  }
}

static void f16_and_bf16_known_values(void **state) {
  (void)state;
  assert_int_equal(npuc_rt_f32_to_f16(0.1f), 0x2e66);
  assert_int_equal(npuc_rt_f32_to_f16(65504.0f), 0x7bff);
  assert_int_equal(npuc_rt_f32_to_f16(65519.99f), 0x7bff);
  assert_int_equal(npuc_rt_f32_to_f16(65520.0f), 0x7c00); /* overflow */
  assert_int_equal(npuc_rt_f32_to_f16(-65520.0f), 0xfc00);
  assert_int_equal(npuc_rt_f32_to_f16(0x1p-24f), 0x0001); /* min subnormal */
  assert_int_equal(npuc_rt_f32_to_f16(0x1p-25f), 0x0000); /* tie -> even */
  assert_int_equal(npuc_rt_f32_to_f16(0x1.8p-25f), 0x0001);
  assert_int_equal(npuc_rt_f32_to_f16(0x1.8p-24f), 0x0002); /* tie -> even */
  assert_int_equal(npuc_rt_f32_to_f16(0x1.ffcp-15f),
                   0x0400); /* tie -> min normal */
  assert_int_equal(npuc_rt_f32_to_f16(-0.0f), 0x8000);
  assert_int_equal(npuc_rt_f32_to_f16(INFINITY), 0x7c00);
  uint16_t nan = npuc_rt_f32_to_f16(NAN);
  assert_true((nan & 0x7c00) == 0x7c00 && (nan & 0x200));
  assert_true(isnan(npuc_rt_f16_to_f32(0x7c01)));
  assert_true(npuc_rt_f16_to_f32(0x0001) == 0x1p-24f);
  assert_int_equal(npuc_rt_f32_to_bf16(0.1f), 0x3dcd);
  assert_int_equal(npuc_rt_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80); /* tie */
  assert_int_equal(npuc_rt_f32_to_bf16(1.0f + 0x1.8p-7f), 0x3f82);
  assert_int_equal(npuc_rt_f32_to_bf16(FLT_MAX), 0x7f80);
  assert_int_equal(npuc_rt_f32_to_bf16(0x1p-133f), 0x0001); /* subnormal */
  uint16_t bnan = npuc_rt_f32_to_bf16(NAN);
  assert_true((bnan & 0x7f80) == 0x7f80 && (bnan & 0x7f));
}

/* ======================================================================
 * Buffers
 * ====================================================================== */

static void alloc_is_aligned_zeroed_and_row_major(void **state) {
  (void)state;
  for (int i = 0; i < 50; i++) {
    int64_t sizes[3] = {rnd_range(0, 40), rnd_range(1, 40), rnd_range(1, 40)};
    npuc_buf b = npuc_rt_alloc(NPUC_DT_F32, 3, sizes, LOC);
    assert_int_equal((uintptr_t)b.data % 64, 0);
    assert_int_equal(b.offset, 0);
    assert_int_equal(b.strides[2], 1);
    assert_int_equal(b.strides[1], sizes[2]);
    assert_int_equal(b.strides[0], sizes[1] * sizes[2]);
    for (int64_t k = 0; k < count(3, sizes); k++)
      assert_true(((float *)b.data)[k] == 0);
    memset(b.data, 0xff, (size_t)count(3, sizes) * 4); /* must not overlap */
  }
  /* Larger than a chunk, then reuse after a reset. */
  int64_t big = 3 << 20;
  npuc_buf b = npuc_rt_alloc(NPUC_DT_F64, 1, &big, LOC);
  ((double *)b.data)[big - 1] = 1;
  npuc_rt_arena_reset();
  npuc_buf c = npuc_rt_alloc(NPUC_DT_I8, 0, NULL, LOC);
  assert_int_equal(*(int8_t *)c.data, 0);
  assert_int_equal((uintptr_t)c.data % 64, 0);
  npuc_rt_arena_reset();
}

static void load_store_round_and_wrap(void **state) {
  (void)state;
  int64_t sizes[2] = {3, 4}, idx[2] = {2, 1};
  for (size_t k = 0; k < ARRAY_LEN(kFloatDtypes); k++) {
    npuc_dtype dt = kFloatDtypes[k];
    npuc_buf b = npuc_rt_alloc(dt, 2, sizes, LOC);
    const double values[] = {0.1, 65504,   65520, 1e-7,
                             3.0, -2.5e-8, 1e300, -0.0};
    for (size_t v = 0; v < ARRAY_LEN(values); v++) {
      npuc_rt_store_f(&b, idx, values[v], LOC);
      double want = ref_round(values[v], dt, RM_EVEN);
      double got = npuc_rt_load_f(&b, idx, LOC);
      CHECK(same_float(got, want), "%d: store %g -> %g, want %g\n", (int)dt,
            values[v], got, want);
      assert_true(same_float(getf(&b, idx), want));
    }
    npuc_rt_store_f(&b, idx, NAN, LOC);
    assert_true(isnan(npuc_rt_load_f(&b, idx, LOC)));
  }
  for (size_t k = 0; k < ARRAY_LEN(kIntDtypes); k++) {
    npuc_dtype dt = kIntDtypes[k];
    npuc_buf b = npuc_rt_alloc(dt, 2, sizes, LOC);
    const int64_t values[] = {0,    1,     -1,        127,      128,
                              -129, 40000, INT64_MIN, INT64_MAX};
    for (size_t v = 0; v < ARRAY_LEN(values); v++) {
      npuc_rt_store_i(&b, idx, values[v], LOC);
      int64_t want = dt == NPUC_DT_I1
                         ? -(values[v] & 1)
                         : wrap((uint64_t)values[v], int_width(dt));
      assert_int_equal(npuc_rt_load_i(&b, idx, LOC), want);
    }
  }
  /* i1 is one byte holding 0 or 1. */
  npuc_buf flags = npuc_rt_alloc(NPUC_DT_I1, 2, sizes, LOC);
  npuc_rt_store_i(&flags, idx, -1, LOC);
  assert_int_equal(*(uint8_t *)elem_ptr(&flags, idx), 1);
}

static void views(void **state) {
  (void)state;
  int64_t sizes[3] = {4, 5, 6};
  npuc_buf b = npuc_rt_alloc(NPUC_DT_I32, 3, sizes, LOC);
  for (int64_t k = 0; k < 120; k++)
    ((int32_t *)b.data)[k] = (int32_t)k;
  /* [1:3, 2, 0:6:2] dropping the middle dim. */
  int64_t offs[3] = {1, 2, 0}, szs[3] = {2, 1, 3}, strides[3] = {1, 1, 2};
  npuc_buf v = npuc_rt_subview(&b, offs, szs, strides, 2, 2u, LOC);
  assert_int_equal(v.rank, 2);
  for (int64_t i = 0; i < 2; i++)
    for (int64_t j = 0; j < 3; j++) {
      int64_t at[2] = {i, j};
      assert_int_equal(npuc_rt_load_i(&v, at, LOC),
                       (1 + i) * 30 + 2 * 6 + 2 * j);
    }
  /* A subview of a subview composes offsets and strides. */
  int64_t o2[2] = {1, 1}, s2[2] = {1, 2}, st2[2] = {1, 1};
  npuc_buf w = npuc_rt_subview(&v, o2, s2, st2, 2, 0, LOC);
  int64_t at[2] = {0, 1};
  assert_int_equal(npuc_rt_load_i(&w, at, LOC), 2 * 30 + 12 + 4);
  /* reinterpret: a 6x4 view with column-major strides over the data. */
  int64_t rs[2] = {6, 4}, rst[2] = {1, 6};
  npuc_buf r = npuc_rt_reinterpret(&b, 10, 2, rs, rst);
  int64_t ri[2] = {3, 2};
  assert_int_equal(npuc_rt_load_i(&r, ri, LOC), 10 + 3 + 12);
  /* reshape of a dense buffer is a view ... */
  int64_t flat = 120;
  npuc_buf f = npuc_rt_reshape(&b, 1, &flat, LOC);
  assert_ptr_equal(f.data, b.data);
  int64_t fi = 77;
  assert_int_equal(npuc_rt_load_i(&f, &fi, LOC), 77);
  /* ... of a strided one a dense copy in row-major order. */
  int64_t six = 6;
  npuc_buf g = npuc_rt_reshape(&v, 1, &six, LOC);
  assert_ptr_not_equal(g.data, b.data);
  for (int64_t k = 0; k < 6; k++)
    assert_int_equal(npuc_rt_load_i(&g, &k, LOC),
                     (1 + k / 3) * 30 + 12 + 2 * (k % 3));
  /* A unit dim with an odd stride does not make a view non-dense. */
  int64_t s3[3] = {20, 1, 6}, st3[3] = {6, 999, 1}, ush[2] = {4, 30};
  npuc_buf u = npuc_rt_reinterpret(&b, 0, 3, s3, st3);
  npuc_buf ur = npuc_rt_reshape(&u, 2, ush, LOC);
  assert_ptr_equal(ur.data, b.data);
  int64_t ui[2] = {3, 29};
  assert_int_equal(npuc_rt_load_i(&ur, ui, LOC), 119);
  /* Zero-sized reshape. */
  int64_t zero[2] = {0, 3}, z3[1] = {0};
  npuc_buf z = npuc_rt_alloc(NPUC_DT_F32, 2, zero, LOC);
  npuc_buf zr = npuc_rt_reshape(&z, 1, z3, LOC);
  assert_int_equal(zr.sizes[0], 0);
}

static void copy_and_clone(void **state) {
  (void)state;
  for (size_t k = 0; k < ARRAY_LEN(kAllDtypes); k++) {
    npuc_dtype dt = kAllDtypes[k];
    for (int32_t rank = 0; rank <= 4; rank++) {
      int64_t sizes[NPUC_RT_MAX_RANK];
      random_shape(rank, sizes, 4);
      npuc_buf src = make_buf(dt, rank, sizes, rank % 2);
      fill(&src, VALUES_GENERAL);
      npuc_buf dst = make_buf(dt, rank, sizes, rank % 3 == 0);
      npuc_rt_copy(&dst, &src, LOC);
      npuc_buf c = npuc_rt_clone(&src, LOC);
      int64_t idx[NPUC_RT_MAX_RANK] = {0};
      do {
        assert_int_equal(get_bits(&dst, idx), get_bits(&src, idx));
        assert_int_equal(get_bits(&c, idx), get_bits(&src, idx));
      } while (next_index(idx, rank, sizes));
    }
  }
}

/* ======================================================================
 * Elementwise
 * ====================================================================== */

static const npuc_ew_op kFloatOps[] = {
    NPUC_EW_ADD,  NPUC_EW_SUB,  NPUC_EW_MUL,   NPUC_EW_DIV, NPUC_EW_MAX,
    NPUC_EW_MIN,  NPUC_EW_POW,  NPUC_EW_MOD,   NPUC_EW_ABS, NPUC_EW_EXP,
    NPUC_EW_LN,   NPUC_EW_SQRT, NPUC_EW_RSQRT, NPUC_EW_REC, NPUC_EW_RELU,
    NPUC_EW_TANH, NPUC_EW_SIN,  NPUC_EW_COS,   NPUC_EW_ERF, NPUC_EW_SEL};
static const npuc_ew_op kIntOps[] = {
    NPUC_EW_ADD, NPUC_EW_SUB, NPUC_EW_MUL, NPUC_EW_DIV, NPUC_EW_MAX,
    NPUC_EW_MIN, NPUC_EW_AND, NPUC_EW_OR,  NPUC_EW_XOR, NPUC_EW_SHL,
    NPUC_EW_SHR, NPUC_EW_POW, NPUC_EW_MOD, NPUC_EW_ABS, NPUC_EW_RELU,
    NPUC_EW_NOT, NPUC_EW_SEL};

static int arity(npuc_ew_op op) {
  return op == NPUC_EW_SEL ? 3 : op >= NPUC_EW_ABS ? 1 : 2;
}

/* NaN-propagating max/min with -0 < +0, written out. */
static double ref_max(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return signbit(a) && signbit(b) ? -0.0 : 0.0;
  return a > b ? a : b;
}
static double ref_min(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return signbit(a) || signbit(b) ? -0.0 : 0.0;
  return a < b ? a : b;
}

/* One op in float (wide == false) or double precision. */
static double ref_float_op(npuc_ew_op op, double a, double b, bool wide) {
  float fa = (float)a, fb = (float)b;
  switch (op) {
  case NPUC_EW_ADD: return wide ? a + b : fa + fb;
  case NPUC_EW_SUB: return wide ? a - b : fa - fb;
  case NPUC_EW_MUL: return wide ? a * b : fa * fb;
  case NPUC_EW_DIV: return wide ? a / b : fa / fb;
  case NPUC_EW_MAX: return ref_max(a, b);
  case NPUC_EW_MIN: return ref_min(a, b);
  case NPUC_EW_POW: return wide ? pow(a, b) : powf(fa, fb);
  case NPUC_EW_MOD: return wide ? fmod(a, b) : fmodf(fa, fb);
  case NPUC_EW_ABS: return fabs(a);
  case NPUC_EW_EXP: return wide ? exp(a) : expf(fa);
  case NPUC_EW_LN: return wide ? log(a) : logf(fa);
  case NPUC_EW_SQRT: return wide ? sqrt(a) : sqrtf(fa);
  case NPUC_EW_RSQRT: return wide ? 1 / sqrt(a) : 1 / sqrtf(fa);
  case NPUC_EW_REC: return wide ? 1 / a : 1 / fa;
  case NPUC_EW_RELU: return ref_max(a, 0.0);
  case NPUC_EW_TANH: return wide ? tanh(a) : tanhf(fa);
  case NPUC_EW_SIN: return wide ? sin(a) : sinf(fa);
  case NPUC_EW_COS: return wide ? cos(a) : cosf(fa);
  case NPUC_EW_ERF: return wide ? erf(a) : erff(fa);
  default: fail_msg("not a float op: %d", (int)op);
  }
  return 0;
}

/* Floor of a / 2^s for 0 <= s < 64, without shifting negative numbers. */
static int64_t floor_shift(int64_t a, int s) {
  if (a >= 0)
    return (int64_t)((uint64_t)a >> s);
  uint64_t m = (uint64_t)(-(a + 1)); /* -a - 1 >= 0 */
  return -(int64_t)(m >> s) - 1;
}

/* i1 as a boolean: arithmetic mod 2, max/min as or/and. */
static int64_t ref_bool_op(npuc_ew_op op, int64_t a, int64_t b) {
  switch (op) {
  case NPUC_EW_ADD:
  case NPUC_EW_SUB:
  case NPUC_EW_XOR: return a ^ b;
  case NPUC_EW_MUL:
  case NPUC_EW_MIN:
  case NPUC_EW_AND: return a & b;
  case NPUC_EW_MAX:
  case NPUC_EW_OR: return a | b;
  case NPUC_EW_DIV: return a;
  case NPUC_EW_MOD: return 0;
  case NPUC_EW_SHL:
  case NPUC_EW_SHR: return b == 0 ? a : 0;
  case NPUC_EW_POW: return b == 0 ? 1 : a;
  case NPUC_EW_ABS:
  case NPUC_EW_RELU: return a;
  case NPUC_EW_NOT: return !a;
  default: fail_msg("not a bool op: %d", (int)op);
  }
  return 0;
}

static int64_t ref_int_op(npuc_ew_op op, int64_t a, int64_t b, int w) {
  if (w == 1)
    return ref_bool_op(op, a, b);
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case NPUC_EW_ADD: return wrap(ua + ub, w);
  case NPUC_EW_SUB: return wrap(ua - ub, w);
  case NPUC_EW_MUL: return wrap(ua * ub, w);
  case NPUC_EW_DIV: return b == -1 ? wrap(0 - ua, w) : a / b;
  case NPUC_EW_MOD: return b == -1 ? 0 : a % b;
  case NPUC_EW_MAX: return a > b ? a : b;
  case NPUC_EW_MIN: return a < b ? a : b;
  case NPUC_EW_AND: return wrap(ua & ub, w);
  case NPUC_EW_OR: return wrap(ua | ub, w);
  case NPUC_EW_XOR: return wrap(ua ^ ub, w);
  case NPUC_EW_SHL: return b < 0 || b >= w ? 0 : wrap(ua << b, w);
  case NPUC_EW_SHR: return b < 0 || b >= w ? 0 : floor_shift(a, (int)b);
  case NPUC_EW_POW: {
    if (b < 0)
      return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
    uint64_t r = 1;
    for (int64_t k = 0; k < b; k++)
      r = (uint64_t)wrap(r * ua, w);
    return wrap(r, w);
  }
  case NPUC_EW_ABS: return a < 0 ? wrap(0 - ua, w) : a;
  case NPUC_EW_RELU: return a > 0 ? a : 0;
  case NPUC_EW_NOT: return wrap(~ua, w);
  default: fail_msg("not an int op: %d", (int)op);
  }
  return 0;
}

static value_kind operand_kind(npuc_ew_op op, int k, npuc_dtype dt) {
  if (is_float(dt))
    return VALUES_GENERAL;
  if (k == 1 && (op == NPUC_EW_DIV || op == NPUC_EW_MOD))
    return VALUES_NONZERO;
  if (op == NPUC_EW_POW)
    return k == 0 ? VALUES_SMALL : VALUES_EXPONENT;
  if (k == 1 && (op == NPUC_EW_SHL || op == NPUC_EW_SHR))
    return VALUES_SHIFT;
  return VALUES_GENERAL;
}

/* The expected dst element at idx. */
static bool expect_elementwise(npuc_ew_op op, npuc_dtype dt,
                               const npuc_operand *in, const int64_t *idx,
                               double *f, int64_t *i) {
  if (op == NPUC_EW_SEL) {
    const npuc_operand *pick = operand_i(&in[0], idx) ? &in[1] : &in[2];
    if (is_float(dt))
      *f = operand_f(pick, idx);
    else
      *i = operand_i(pick, idx);
    return is_float(dt);
  }
  if (is_float(dt)) {
    double a = operand_f(&in[0], idx),
           b = arity(op) > 1 ? operand_f(&in[1], idx) : 0;
    *f = ref_round(ref_float_op(op, a, b, dt == NPUC_DT_F64), dt, RM_EVEN);
    return true;
  }
  int64_t a = operand_i(&in[0], idx),
          b = arity(op) > 1 ? operand_i(&in[1], idx) : 0;
  *i = ref_int_op(op, a, b, int_width(dt));
  return false;
}

/* variant: 0 dense, 1 strided, 2 broadcast dims, 3 scalars, 4 strided dst. */
static void check_elementwise(npuc_ew_op op, npuc_dtype dt, int32_t rank,
                              int variant) {
  int64_t sizes[NPUC_RT_MAX_RANK];
  random_shape(rank, sizes, 5);
  npuc_operand in[3];
  for (int k = 0; k < arity(op); k++) {
    bool cond = op == NPUC_EW_SEL && k == 0;
    npuc_dtype kdt = cond ? NPUC_DT_I1 : dt;
    in[k] = random_operand(kdt, rank, sizes, operand_kind(op, k, kdt), variant);
  }
  npuc_buf dst = make_buf(dt, rank, sizes, variant == 4);
  npuc_rt_elementwise(op, &dst, in, arity(op), LOC);
  int64_t idx[NPUC_RT_MAX_RANK] = {0};
  do {
    double f = 0;
    int64_t i = 0;
    if (expect_elementwise(op, dt, in, idx, &f, &i))
      CHECK(same_float(getf(&dst, idx), f),
            "op %d dtype %d rank %d variant %d: got %a want %a\n", (int)op,
            (int)dt, (int)rank, variant, getf(&dst, idx), f);
    else
      CHECK(geti(&dst, idx) == i,
            "op %d dtype %d rank %d variant %d: got %lld want %lld\n", (int)op,
            (int)dt, (int)rank, variant, (long long)geti(&dst, idx),
            (long long)i);
  } while (next_index(idx, rank, sizes));
}

static void elementwise_float_ops(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kFloatDtypes); d++)
    for (size_t o = 0; o < ARRAY_LEN(kFloatOps); o++)
      for (int32_t rank = 0; rank <= 4; rank++)
        for (int variant = 0; variant <= 4; variant++)
          check_elementwise(kFloatOps[o], kFloatDtypes[d], rank, variant);
  npuc_rt_arena_reset();
}

static void elementwise_int_ops(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kIntDtypes); d++)
    for (size_t o = 0; o < ARRAY_LEN(kIntOps); o++)
      for (int32_t rank = 0; rank <= 4; rank++)
        for (int variant = 0; variant <= 4; variant++)
          check_elementwise(kIntOps[o], kIntDtypes[d], rank, variant);
  npuc_rt_arena_reset();
}

static npuc_buf vector_i(npuc_dtype dt, const int64_t *v, int64_t n) {
  npuc_buf b = npuc_rt_alloc(dt, 1, &n, LOC);
  for (int64_t k = 0; k < n; k++)
    npuc_rt_store_i(&b, &k, v[k], LOC);
  return b;
}

static npuc_buf vector_f(npuc_dtype dt, const double *v, int64_t n) {
  npuc_buf b = npuc_rt_alloc(dt, 1, &n, LOC);
  for (int64_t k = 0; k < n; k++)
    npuc_rt_store_f(&b, &k, v[k], LOC);
  return b;
}

static void expect_i(const npuc_buf *b, const int64_t *want, int64_t n) {
  for (int64_t k = 0; k < n; k++)
    CHECK(npuc_rt_load_i(b, &k, LOC) == want[k], "[%lld] = %lld, want %lld\n",
          (long long)k, (long long)npuc_rt_load_i(b, &k, LOC),
          (long long)want[k]);
}

static void binary_i(npuc_ew_op op, npuc_dtype dt, const int64_t *a,
                     const int64_t *b, const int64_t *want, int64_t n) {
  npuc_operand in[2] = {buf_operand(vector_i(dt, a, n)),
                        buf_operand(vector_i(dt, b, n))};
  npuc_buf dst = npuc_rt_alloc(dt, 1, &n, LOC);
  npuc_rt_elementwise(op, &dst, in, 2, LOC);
  expect_i(&dst, want, n);
}

static void integer_wraparound_and_shifts(void **state) {
  (void)state;
  const int64_t a8[] = {127, -128, 100, -1}, b8[] = {1, -1, 100, 1};
  const int64_t add8[] = {-128, 127, -56, 0};
  binary_i(NPUC_EW_ADD, NPUC_DT_I8, a8, b8, add8, 4);
  const int64_t mul8[] = {127, -128, 16, -1}, div8[] = {127, -128, 1, -1};
  binary_i(NPUC_EW_MUL, NPUC_DT_I8, a8, b8, mul8, 4);
  binary_i(NPUC_EW_DIV, NPUC_DT_I8, a8, b8, div8, 4);
  const int64_t a64[] = {INT64_MAX, INT64_MIN, INT64_MIN, -7};
  const int64_t b64[] = {1, -1, -1, 2};
  const int64_t add64[] = {INT64_MIN, INT64_MAX, INT64_MAX, -5};
  const int64_t div64[] = {INT64_MAX, INT64_MIN, INT64_MIN, -3};
  const int64_t mod64[] = {0, 0, 0, -1};
  binary_i(NPUC_EW_ADD, NPUC_DT_I64, a64, b64, add64, 4);
  binary_i(NPUC_EW_DIV, NPUC_DT_I64, a64, b64, div64, 4);
  binary_i(NPUC_EW_MOD, NPUC_DT_I64, a64, b64, mod64, 4);
  const int64_t s[] = {-8, -8, 1, -1, 5}, by[] = {1, 40, 31, 32, -1};
  const int64_t shl[] = {-16, 0, INT32_MIN, 0, 0}, shr[] = {-4, 0, 0, 0, 0};
  binary_i(NPUC_EW_SHL, NPUC_DT_I32, s, by, shl, 5);
  binary_i(NPUC_EW_SHR, NPUC_DT_I32, s, by, shr, 5);
  const int64_t pa[] = {3, 2, -1, 5, 0, 1, -1, -2},
                pb[] = {4, 70, -3, -2, 0, -5, -4, -1};
  const int64_t pw[] = {81, 0, -1, 0, 1, 1, 1, 0};
  binary_i(NPUC_EW_POW, NPUC_DT_I64, pa, pb, pw, 8);
  const int64_t x16[] = {INT16_MIN, -3}, abs16[] = {INT16_MIN, 3};
  npuc_operand in = buf_operand(vector_i(NPUC_DT_I16, x16, 2));
  int64_t two = 2;
  npuc_buf dst = npuc_rt_alloc(NPUC_DT_I16, 1, &two, LOC);
  npuc_rt_elementwise(NPUC_EW_ABS, &dst, &in, 1, LOC);
  expect_i(&dst, abs16, 2);
  /* i1: not is logical, add is xor. */
  const int64_t t[] = {0, 1}, f1[] = {1, 1}, nt[] = {-1, 0}, sum[] = {-1, 0};
  npuc_operand bits = buf_operand(vector_i(NPUC_DT_I1, t, 2));
  npuc_buf out = npuc_rt_alloc(NPUC_DT_I1, 1, &two, LOC);
  npuc_rt_elementwise(NPUC_EW_NOT, &out, &bits, 1, LOC);
  expect_i(&out, nt, 2);
  binary_i(NPUC_EW_ADD, NPUC_DT_I1, t, f1, sum, 2);
}

static void float_special_cases(void **state) {
  (void)state;
  const double a[] = {NAN, 1, -0.0, 0.0, -3, INFINITY};
  const double b[] = {1, NAN, 0.0, -0.0, -0.0, -INFINITY};
  npuc_operand in[2] = {buf_operand(vector_f(NPUC_DT_F32, a, 6)),
                        buf_operand(vector_f(NPUC_DT_F32, b, 6))};
  int64_t n = 6;
  npuc_buf dst = npuc_rt_alloc(NPUC_DT_F32, 1, &n, LOC);
  npuc_rt_elementwise(NPUC_EW_MAX, &dst, in, 2, LOC);
  const double max[] = {NAN, NAN, 0.0, 0.0, -0.0, INFINITY};
  for (int64_t k = 0; k < n; k++)
    CHECK(same_float(npuc_rt_load_f(&dst, &k, LOC), max[k]), "max[%d]\n",
          (int)k);
  npuc_rt_elementwise(NPUC_EW_MIN, &dst, in, 2, LOC);
  const double min[] = {NAN, NAN, -0.0, -0.0, -3, -INFINITY};
  for (int64_t k = 0; k < n; k++)
    CHECK(same_float(npuc_rt_load_f(&dst, &k, LOC), min[k]), "min[%d]\n",
          (int)k);
  npuc_rt_elementwise(NPUC_EW_RELU, &dst, in, 1, LOC);
  const double relu[] = {NAN, 1, 0.0, 0.0, 0.0, INFINITY};
  for (int64_t k = 0; k < n; k++)
    CHECK(same_float(npuc_rt_load_f(&dst, &k, LOC), relu[k]), "relu[%d]\n",
          (int)k);
  /* f16: 0.1 + 0.2 computed in f32, rounded once; 60000 + 10000 -> Inf. */
  const double h1[] = {0.1, 60000}, h2[] = {0.2, 10000};
  npuc_operand hin[2] = {buf_operand(vector_f(NPUC_DT_F16, h1, 2)),
                         buf_operand(vector_f(NPUC_DT_F16, h2, 2))};
  int64_t two = 2, k0 = 0, k1 = 1;
  npuc_buf h = npuc_rt_alloc(NPUC_DT_F16, 1, &two, LOC);
  npuc_rt_elementwise(NPUC_EW_ADD, &h, hin, 2, LOC);
  float sum = (float)f16_value(npuc_rt_f32_to_f16(0.1f)) +
              (float)f16_value(npuc_rt_f32_to_f16(0.2f));
  assert_true(npuc_rt_load_f(&h, &k0, LOC) ==
              ref_round(sum, NPUC_DT_F16, RM_EVEN));
  assert_true(isinf(npuc_rt_load_f(&h, &k1, LOC)));
}

/* Scalars of another dtype convert to the dst dtype: an f64 0.1 becomes
 * the f32 nearest to 0.1; an integer scalar becomes a float. */
static void scalar_operands_convert(void **state) {
  (void)state;
  int64_t n = 3;
  const double a[] = {1, 2, 3};
  npuc_operand in[2] = {buf_operand(vector_f(NPUC_DT_F32, a, n)),
                        {.is_scalar = true, .f = 0.1, .dtype = NPUC_DT_F64}};
  npuc_buf dst = npuc_rt_alloc(NPUC_DT_F32, 1, &n, LOC);
  npuc_rt_elementwise(NPUC_EW_ADD, &dst, in, 2, LOC);
  for (int64_t k = 0; k < n; k++)
    assert_true(npuc_rt_load_f(&dst, &k, LOC) == (float)a[k] + 0.1f);
  in[1] = (npuc_operand){.is_scalar = true, .i = 7, .dtype = NPUC_DT_I32};
  npuc_rt_elementwise(NPUC_EW_MUL, &dst, in, 2, LOC);
  for (int64_t k = 0; k < n; k++)
    assert_true(npuc_rt_load_f(&dst, &k, LOC) == a[k] * 7);
  /* Both operands scalar: every element gets the same value. */
  npuc_operand two[2] = {{.is_scalar = true, .i = 5, .dtype = NPUC_DT_I64},
                         {.is_scalar = true, .i = -3, .dtype = NPUC_DT_I64}};
  npuc_buf idst = npuc_rt_alloc(NPUC_DT_I64, 1, &n, LOC);
  npuc_rt_elementwise(NPUC_EW_SUB, &idst, two, 2, LOC);
  const int64_t eight[] = {8, 8, 8};
  expect_i(&idst, eight, n);
}

/* Large dense, in-place and scalar cases (the fast paths), checked
 * against a plain loop. */
static void elementwise_fast_paths(void **state) {
  (void)state;
  int64_t n = 100003;
  const npuc_dtype dts[] = {NPUC_DT_F32, NPUC_DT_F16, NPUC_DT_I32, NPUC_DT_I64,
                            NPUC_DT_F64};
  for (size_t d = 0; d < ARRAY_LEN(dts); d++) {
    npuc_dtype dt = dts[d];
    npuc_buf a = npuc_rt_alloc(dt, 1, &n, LOC),
             b = npuc_rt_alloc(dt, 1, &n, LOC);
    fill(&a, VALUES_PLAIN);
    fill(&b, VALUES_PLAIN);
    npuc_buf keep = npuc_rt_clone(&a, LOC);
    npuc_operand in[2] = {buf_operand(a), buf_operand(b)};
    npuc_rt_elementwise(NPUC_EW_ADD, &a, in, 2, LOC); /* a = a + b in place */
    for (int64_t k = 0; k < n; k++) {
      if (is_float(dt)) {
        double want = ref_round(ref_float_op(NPUC_EW_ADD, getf(&keep, &k),
                                             getf(&b, &k), dt == NPUC_DT_F64),
                                dt, RM_EVEN);
        CHECK(same_float(getf(&a, &k), want), "dt %d [%lld]\n", (int)dt,
              (long long)k);
      } else {
        CHECK(geti(&a, &k) == ref_int_op(NPUC_EW_ADD, geti(&keep, &k),
                                         geti(&b, &k), int_width(dt)),
              "dt %d [%lld]\n", (int)dt, (long long)k);
      }
    }
    npuc_operand sc[2] = {buf_operand(b), scalar_operand(dt, VALUES_PLAIN)};
    npuc_rt_elementwise(NPUC_EW_MUL, &a, sc, 2, LOC);
    for (int64_t k = 0; k < n; k++) {
      if (is_float(dt)) {
        double want = ref_round(
            ref_float_op(NPUC_EW_MUL, getf(&b, &k), sc[1].f, dt == NPUC_DT_F64),
            dt, RM_EVEN);
        CHECK(same_float(getf(&a, &k), want), "scalar dt %d [%lld]\n", (int)dt,
              (long long)k);
      } else {
        CHECK(geti(&a, &k) ==
                  ref_int_op(NPUC_EW_MUL, geti(&b, &k), sc[1].i, int_width(dt)),
              "scalar dt %d [%lld]\n", (int)dt, (long long)k);
      }
    }
  }
  npuc_rt_arena_reset();
}

/* ======================================================================
 * Compare, select, broadcast
 * ====================================================================== */

static bool ref_compare(npuc_cmp_mode mode, double a, double b) {
  switch (mode) {
  case NPUC_CMP_EQ: return a == b;
  case NPUC_CMP_NE: return a != b;
  case NPUC_CMP_LT: return a < b;
  case NPUC_CMP_GT: return a > b;
  case NPUC_CMP_LE: return a <= b;
  case NPUC_CMP_GE: return a >= b;
  }
  return false;
}

static bool ref_compare_i(npuc_cmp_mode mode, int64_t a, int64_t b) {
  switch (mode) {
  case NPUC_CMP_EQ: return a == b;
  case NPUC_CMP_NE: return a != b;
  case NPUC_CMP_LT: return a < b;
  case NPUC_CMP_GT: return a > b;
  case NPUC_CMP_LE: return a <= b;
  case NPUC_CMP_GE: return a >= b;
  }
  return false;
}

static void compare_all_modes(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++) {
    npuc_dtype dt = kAllDtypes[d];
    for (int mode = NPUC_CMP_EQ; mode <= NPUC_CMP_GE; mode++)
      for (int32_t rank = 0; rank <= 4; rank++)
        for (int variant = 0; variant <= 4; variant++) {
          int64_t sizes[NPUC_RT_MAX_RANK];
          random_shape(rank, sizes, 4);
          /* Small ints so that equality happens. */
          value_kind kind = is_float(dt) ? VALUES_GENERAL : VALUES_SMALL;
          npuc_operand a = random_operand(dt, rank, sizes, kind, variant);
          npuc_operand b = random_operand(dt, rank, sizes, kind, variant);
          npuc_buf dst = make_buf(NPUC_DT_I1, rank, sizes, variant == 4);
          npuc_rt_compare((npuc_cmp_mode)mode, &dst, &a, &b, LOC);
          int64_t idx[NPUC_RT_MAX_RANK] = {0};
          do {
            bool want =
                is_float(dt)
                    ? ref_compare((npuc_cmp_mode)mode, operand_f(&a, idx),
                                  operand_f(&b, idx))
                    : ref_compare_i((npuc_cmp_mode)mode, operand_i(&a, idx),
                                    operand_i(&b, idx));
            CHECK(get_bits(&dst, idx) == (uint64_t)want, "cmp %d dt %d\n", mode,
                  (int)dt);
          } while (next_index(idx, rank, sizes));
        }
  }
  npuc_rt_arena_reset();
}

static void select_every_dtype(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++)
    for (int32_t rank = 0; rank <= 4; rank++)
      for (int variant = 0; variant <= 4; variant++)
        check_elementwise(NPUC_EW_SEL, kAllDtypes[d], rank, variant);
  npuc_rt_arena_reset();
}

static void broadcast_buffers_and_scalars(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++) {
    npuc_dtype dt = kAllDtypes[d];
    for (int32_t rank = 0; rank <= 4; rank++)
      for (int variant = 1; variant <= 3; variant++) {
        int64_t sizes[NPUC_RT_MAX_RANK];
        random_shape(rank, sizes, 5);
        npuc_operand src = random_operand(dt, rank, sizes, VALUES_GENERAL,
                                          variant == 1 ? 2 : variant);
        npuc_buf dst = make_buf(dt, rank, sizes, variant == 1);
        npuc_rt_broadcast(&dst, &src, LOC);
        int64_t idx[NPUC_RT_MAX_RANK] = {0};
        do {
          if (is_float(dt))
            assert_true(same_float(getf(&dst, idx), operand_f(&src, idx)));
          else
            assert_int_equal(geti(&dst, idx), operand_i(&src, idx));
        } while (next_index(idx, rank, sizes));
      }
  }
  /* A scalar is converted to the dst dtype: 0.1 rounds to f16 once. */
  int64_t n = 2, k = 1;
  npuc_buf h = npuc_rt_alloc(NPUC_DT_F16, 1, &n, LOC);
  npuc_operand s = {.is_scalar = true, .f = 0.1, .dtype = NPUC_DT_F16};
  npuc_rt_broadcast(&h, &s, LOC);
  assert_int_equal(*(uint16_t *)elem_ptr(&h, &k), 0x2e66);
  npuc_rt_arena_reset();
}

/* ======================================================================
 * Reduce
 * ====================================================================== */

static const npuc_reduce_op kFloatReductions[] = {NPUC_RED_SUM, NPUC_RED_PROD,
                                                  NPUC_RED_MAX, NPUC_RED_MIN};
static const npuc_reduce_op kIntReductions[] = {
    NPUC_RED_SUM, NPUC_RED_PROD, NPUC_RED_MAX, NPUC_RED_MIN, NPUC_RED_ANY,
    NPUC_RED_ALL, NPUC_RED_XOR,  NPUC_RED_OR,  NPUC_RED_AND};

static double float_identity(npuc_reduce_op op) {
  return op == NPUC_RED_PROD  ? 1
         : op == NPUC_RED_MAX ? -INFINITY
         : op == NPUC_RED_MIN ? INFINITY
                              : 0;
}

static int64_t int_identity(npuc_reduce_op op, npuc_dtype dt) {
  int w = int_width(dt);
  int64_t max = w == 1 ? 1 : w == 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
  int64_t min = w == 1 ? 0 : -max - 1;
  switch (op) {
  case NPUC_RED_PROD: return 1;
  case NPUC_RED_MAX: return min;
  case NPUC_RED_MIN: return max;
  case NPUC_RED_ALL:
  case NPUC_RED_AND: return w == 1 ? 1 : -1;
  default: return 0;
  }
}

static double combine_f(npuc_reduce_op op, double acc, double x, bool wide) {
  switch (op) {
  case NPUC_RED_SUM: return wide ? acc + x : (float)acc + (float)x;
  case NPUC_RED_PROD: return wide ? acc * x : (float)acc * (float)x;
  case NPUC_RED_MAX: return ref_max(acc, x);
  default: return ref_min(acc, x);
  }
}

static int64_t combine_i(npuc_reduce_op op, int64_t acc, int64_t x, int w) {
  if (w == 1) { /* booleans */
    switch (op) {
    case NPUC_RED_SUM:
    case NPUC_RED_XOR: return acc ^ x;
    case NPUC_RED_PROD:
    case NPUC_RED_MIN:
    case NPUC_RED_ALL:
    case NPUC_RED_AND: return acc & x;
    default: return acc | x;
    }
  }
  switch (op) {
  case NPUC_RED_SUM: return wrap((uint64_t)acc + (uint64_t)x, w);
  case NPUC_RED_PROD: return wrap((uint64_t)acc * (uint64_t)x, w);
  case NPUC_RED_MAX: return acc > x ? acc : x;
  case NPUC_RED_MIN: return acc < x ? acc : x;
  case NPUC_RED_ANY:
  case NPUC_RED_OR: return acc | x;
  case NPUC_RED_ALL:
  case NPUC_RED_AND: return acc & x;
  default: return acc ^ x;
  }
}

static int64_t dense_index(const npuc_buf *dst, const int64_t *idx) {
  int64_t k = 0;
  for (int32_t j = 0; j < dst->rank; j++)
    k = k * dst->sizes[j] + idx[j];
  return k;
}

static void check_reduce(npuc_reduce_op op, npuc_dtype dt, int32_t rank,
                         uint32_t mask, bool strided) {
  int64_t sizes[NPUC_RT_MAX_RANK], dsizes[NPUC_RT_MAX_RANK];
  random_shape(rank, sizes, 5);
  for (int32_t j = 0; j < rank; j++)
    dsizes[j] = (mask >> j & 1) ? 1 : sizes[j];
  npuc_buf src = make_buf(dt, rank, sizes, strided);
  fill(&src, is_float(dt)
                 ? (rnd() % 2 ? VALUES_GENERAL : VALUES_PLAIN)
                 : (op == NPUC_RED_PROD ? VALUES_SMALL : VALUES_GENERAL));
  npuc_buf dst = make_buf(dt, rank, dsizes, !strided);
  npuc_rt_reduce(op, &dst, &src, mask, LOC);
  /* Accumulate in source row-major order, in f32 for f16/bf16/f32. */
  int64_t n = count(rank, dsizes);
  double facc[1024];
  int64_t iacc[1024];
  for (int64_t k = 0; k < n; k++) {
    facc[k] = float_identity(op);
    iacc[k] = int_identity(op, dt);
  }
  int64_t idx[NPUC_RT_MAX_RANK] = {0}, at[NPUC_RT_MAX_RANK];
  do {
    for (int32_t j = 0; j < rank; j++)
      at[j] = (mask >> j & 1) ? 0 : idx[j];
    int64_t k = dense_index(&dst, at);
    if (is_float(dt))
      facc[k] = combine_f(op, facc[k], getf(&src, idx), dt == NPUC_DT_F64);
    else
      iacc[k] = combine_i(op, iacc[k], geti(&src, idx), int_width(dt));
  } while (next_index(idx, rank, sizes));
  memset(idx, 0, sizeof idx);
  do {
    int64_t k = dense_index(&dst, idx);
    if (is_float(dt))
      CHECK(same_float(getf(&dst, idx), ref_round(facc[k], dt, RM_EVEN)),
            "reduce %d dt %d mask %x: got %a want %a\n", (int)op, (int)dt, mask,
            getf(&dst, idx), facc[k]);
    else
      CHECK(geti(&dst, idx) == wrap((uint64_t)iacc[k], int_width(dt)),
            "reduce %d dt %d mask %x: got %lld want %lld\n", (int)op, (int)dt,
            mask, (long long)geti(&dst, idx), (long long)iacc[k]);
  } while (next_index(idx, rank, dsizes));
}

static void reduce_each_dim_and_several(void **state) {
  (void)state;
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++) {
    npuc_dtype dt = kAllDtypes[d];
    const npuc_reduce_op *ops =
        is_float(dt) ? kFloatReductions : kIntReductions;
    size_t nops =
        is_float(dt) ? ARRAY_LEN(kFloatReductions) : ARRAY_LEN(kIntReductions);
    for (size_t o = 0; o < nops; o++)
      for (int32_t rank = 0; rank <= 4; rank++)
        for (uint32_t mask = 0; mask < (1u << rank); mask++)
          check_reduce(ops[o], dt, rank, mask, (mask + (uint32_t)o) % 2);
  }
  npuc_rt_arena_reset();
}

/* f16 sums accumulate in f32: 2048 + 1 + 1 + ... keeps every 1 (an f16
 * accumulator would stay at 2048), and the result is rounded once. */
static void reduce_f16_accumulates_in_f32(void **state) {
  (void)state;
  double v[9] = {2048, 1, 1, 1, 1, 1, 1, 1, 1};
  npuc_buf src = vector_f(NPUC_DT_F16, v, 9);
  int64_t one = 1, k = 0;
  npuc_buf dst = npuc_rt_alloc(NPUC_DT_F16, 1, &one, LOC);
  npuc_rt_reduce(NPUC_RED_SUM, &dst, &src, 1, LOC);
  assert_true(npuc_rt_load_f(&dst, &k, LOC) == 2056);
  /* Empty reductions give the identity. */
  int64_t zero = 0;
  npuc_buf empty = npuc_rt_alloc(NPUC_DT_I32, 1, &zero, LOC);
  npuc_buf r = npuc_rt_alloc(NPUC_DT_I32, 1, &one, LOC);
  npuc_rt_reduce(NPUC_RED_MAX, &r, &empty, 1, LOC);
  assert_int_equal(npuc_rt_load_i(&r, &k, LOC), INT32_MIN);
  npuc_rt_reduce(NPUC_RED_AND, &r, &empty, 1, LOC);
  assert_int_equal(npuc_rt_load_i(&r, &k, LOC), -1);
  npuc_buf fe = npuc_rt_alloc(NPUC_DT_F32, 1, &zero, LOC);
  npuc_buf fr = npuc_rt_alloc(NPUC_DT_F32, 1, &one, LOC);
  npuc_rt_reduce(NPUC_RED_MIN, &fr, &fe, 1, LOC);
  assert_true(npuc_rt_load_f(&fr, &k, LOC) == INFINITY);
}

/* ======================================================================
 * Cast
 * ====================================================================== */

static const npuc_cast_mode kCastModes[] = {
    NPUC_CAST_DEFAULT, NPUC_CAST_RINT,  NPUC_CAST_ROUND,   NPUC_CAST_FLOOR,
    NPUC_CAST_CEIL,    NPUC_CAST_TRUNC, NPUC_CAST_UNSIGNED};

static ref_mode ref_mode_of(npuc_cast_mode mode) {
  switch (mode) {
  case NPUC_CAST_ROUND: return RM_AWAY;
  case NPUC_CAST_FLOOR: return RM_DOWN;
  case NPUC_CAST_CEIL: return RM_UP;
  case NPUC_CAST_TRUNC: return RM_ZERO;
  default: return RM_EVEN;
  }
}

/* Integral value of v in the cast mode (float -> int rounding). */
static double to_integral(double v, npuc_cast_mode mode) {
  switch (mode) {
  case NPUC_CAST_RINT: return nearbyint(v);
  case NPUC_CAST_ROUND: return round(v);
  case NPUC_CAST_FLOOR: return floor(v);
  case NPUC_CAST_CEIL: return ceil(v);
  default: return trunc(v);
  }
}

static int64_t saturate(double v, npuc_dtype dt) {
  if (isnan(v))
    return 0;
  int w = int_width(dt);
  if (w == 1)
    return v >= 1 ? 1 : 0;
  long double max = ldexpl(1.0L, w - 1) - 1, min = -ldexpl(1.0L, w - 1);
  if ((long double)v >= max)
    return (int64_t)max;
  if ((long double)v <= min)
    return (int64_t)min;
  return (int64_t)v;
}

/* The stored bits of integer v in dtype dt. */
static uint64_t int_bits(npuc_dtype dt, int64_t v) {
  size_t bytes = elem_size(dt);
  uint64_t bits = (uint64_t)wrap((uint64_t)v, int_width(dt));
  return bytes == 8 ? bits : bits & ((1ull << (8 * bytes)) - 1);
}

/* The expected cast of one element: bits of the dst element. */
static uint64_t expect_cast(const npuc_buf *src, const int64_t *idx,
                            npuc_dtype to, npuc_cast_mode mode) {
  npuc_dtype from = src->dtype;
  if (is_float(from)) {
    double v = getf(src, idx);
    if (!is_float(to))
      return int_bits(to, saturate(to_integral(v, mode), to));
    if (to == from)
      return float_bits(to,
                        mode == NPUC_CAST_DEFAULT || mode == NPUC_CAST_UNSIGNED
                            ? v
                            : to_integral(v, mode));
    return float_bits(to, ref_round(v, to, ref_mode_of(mode)));
  }
  int64_t i = geti(src, idx);
  long double x = i;
  if (mode == NPUC_CAST_UNSIGNED && from != NPUC_DT_I1) {
    int w = int_width(from);
    uint64_t u = w == 64 ? (uint64_t)i : (uint64_t)i & ((1ull << w) - 1);
    x = u;
    i = (int64_t)u;
  }
  if (is_float(to))
    return float_bits(to, ref_round(x, to, ref_mode_of(mode)));
  return int_bits(to, i);
}

static bool same_element(npuc_dtype dt, uint64_t a, uint64_t b) {
  if (!is_float(dt))
    return a == b;
  return same_float(value_of_bits(dt, a), value_of_bits(dt, b));
}

static void cast_every_pair_and_mode(void **state) {
  (void)state;
  for (size_t f = 0; f < ARRAY_LEN(kAllDtypes); f++)
    for (size_t t = 0; t < ARRAY_LEN(kAllDtypes); t++)
      for (size_t m = 0; m < ARRAY_LEN(kCastModes); m++) {
        npuc_dtype from = kAllDtypes[f], to = kAllDtypes[t];
        npuc_cast_mode mode = kCastModes[m];
        int32_t rank = (int32_t)((f + t + m) % 4);
        int64_t sizes[NPUC_RT_MAX_RANK];
        random_shape(rank, sizes, 6);
        npuc_buf src = make_buf(from, rank, sizes, m % 2);
        /* Float sources scaled to hit every range: small, near ties, huge. */
        int64_t idx[NPUC_RT_MAX_RANK] = {0};
        do {
          if (is_float(from)) {
            double scale = ldexp(1.0, (int)rnd_range(-30, 70));
            double v = rnd() % 3
                           ? rnd_range(-40, 40) / 4.0
                           : random_float(NPUC_DT_F64, VALUES_GENERAL) * scale;
            setf(&src, idx, ref_round(v, from, RM_EVEN));
          } else {
            seti(&src, idx, random_int(from, VALUES_GENERAL));
          }
        } while (next_index(idx, rank, sizes));
        npuc_buf dst = make_buf(to, rank, sizes, (m + 1) % 2);
        npuc_rt_cast(&dst, &src, mode, LOC);
        memset(idx, 0, sizeof idx);
        do {
          uint64_t want = expect_cast(&src, idx, to, mode),
                   got = get_bits(&dst, idx);
          CHECK(same_element(to, got, want),
                "cast %d -> %d mode %d: src bits 0x%llx gave 0x%llx, want "
                "0x%llx\n",
                (int)from, (int)to, (int)mode,
                (unsigned long long)get_bits(&src, idx),
                (unsigned long long)got, (unsigned long long)want);
        } while (next_index(idx, rank, sizes));
      }
  npuc_rt_arena_reset();
}

static uint64_t cast_one_f(double v, npuc_dtype from, npuc_dtype to,
                           npuc_cast_mode mode) {
  int64_t one = 1, k = 0;
  npuc_buf s = npuc_rt_alloc(from, 1, &one, LOC),
           d = npuc_rt_alloc(to, 1, &one, LOC);
  npuc_rt_store_f(&s, &k, v, LOC);
  npuc_rt_cast(&d, &s, mode, LOC);
  return get_bits(&d, &k);
}

static uint64_t cast_one_i(int64_t v, npuc_dtype from, npuc_dtype to,
                           npuc_cast_mode mode) {
  int64_t one = 1, k = 0;
  npuc_buf s = npuc_rt_alloc(from, 1, &one, LOC),
           d = npuc_rt_alloc(to, 1, &one, LOC);
  npuc_rt_store_i(&s, &k, v, LOC);
  npuc_rt_cast(&d, &s, mode, LOC);
  return get_bits(&d, &k);
}

static void cast_known_values(void **state) {
  (void)state;
  /* float -> int: rounding modes, saturation, NaN. */
  assert_int_equal(cast_one_f(2.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_DEFAULT),
                   2);
  assert_int_equal(
      cast_one_f(-2.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_DEFAULT),
      (uint32_t)-2);
  assert_int_equal(cast_one_f(2.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_RINT),
                   2);
  assert_int_equal(cast_one_f(3.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_RINT),
                   4);
  assert_int_equal(cast_one_f(2.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_ROUND),
                   3);
  assert_int_equal(cast_one_f(-2.5, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_ROUND),
                   (uint32_t)-3);
  assert_int_equal(cast_one_f(-2.1, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_FLOOR),
                   (uint32_t)-3);
  assert_int_equal(cast_one_f(2.1, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_CEIL),
                   3);
  assert_int_equal(
      cast_one_f(1e10, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_DEFAULT), INT32_MAX);
  assert_int_equal(
      cast_one_f(-1e10, NPUC_DT_F32, NPUC_DT_I8, NPUC_CAST_DEFAULT), 0x80);
  assert_int_equal(
      cast_one_f(INFINITY, NPUC_DT_F64, NPUC_DT_I64, NPUC_CAST_DEFAULT),
      INT64_MAX);
  assert_int_equal(cast_one_f(NAN, NPUC_DT_F32, NPUC_DT_I32, NPUC_CAST_DEFAULT),
                   0);
  assert_int_equal(cast_one_f(0.7, NPUC_DT_F32, NPUC_DT_I1, NPUC_CAST_ROUND),
                   1);
  assert_int_equal(cast_one_f(-5, NPUC_DT_F32, NPUC_DT_I1, NPUC_CAST_DEFAULT),
                   0);
  /* float -> float: directed rounding of the narrowing. */
  assert_int_equal(cast_one_f(0.1, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_DEFAULT),
                   0x2e66);
  assert_int_equal(cast_one_f(0.1, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_TRUNC),
                   0x2e66);
  assert_int_equal(cast_one_f(0.1, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_CEIL),
                   0x2e67);
  assert_int_equal(cast_one_f(70000, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_TRUNC),
                   0x7bff);
  assert_int_equal(
      cast_one_f(70000, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_DEFAULT), 0x7c00);
  assert_int_equal(cast_one_f(-70000, NPUC_DT_F32, NPUC_DT_F16, NPUC_CAST_CEIL),
                   0xfbff);
  /* Same dtype with a mode: round to an integral value. */
  assert_true(
      value_of_bits(NPUC_DT_F32, cast_one_f(2.5, NPUC_DT_F32, NPUC_DT_F32,
                                            NPUC_CAST_RINT)) == 2);
  assert_true(
      value_of_bits(NPUC_DT_F32, cast_one_f(2.5, NPUC_DT_F32, NPUC_DT_F32,
                                            NPUC_CAST_DEFAULT)) == 2.5);
  /* f64 -> f16 rounds once: a double just above an f16 tie rounds up,
   * where f64 -> f32 -> f16 would round the tie to even (down). */
  double above_tie = 1.0 + 0x1p-11 + 0x1p-40;
  assert_int_equal(
      cast_one_f(above_tie, NPUC_DT_F64, NPUC_DT_F16, NPUC_CAST_DEFAULT),
      0x3c01);
  /* int -> float: one rounding even from 64 bits. */
  int64_t big =
      (INT64_C(1) << 31) + (INT64_C(1) << 23) + 1; /* just above a bf16 tie */
  assert_int_equal(
      cast_one_i(big, NPUC_DT_I64, NPUC_DT_BF16, NPUC_CAST_DEFAULT), 0x4f01);
  assert_int_equal(cast_one_i(-1, NPUC_DT_I32, NPUC_DT_F32, NPUC_CAST_UNSIGNED),
                   0x4f800000); /* 4294967295 -> 2^32 */
  assert_int_equal(
      cast_one_i(16777217, NPUC_DT_I32, NPUC_DT_F32, NPUC_CAST_TRUNC),
      0x4b800000);
  assert_int_equal(
      cast_one_i(16777217, NPUC_DT_I32, NPUC_DT_F32, NPUC_CAST_CEIL),
      0x4b800001);
  assert_int_equal(
      cast_one_i(70000, NPUC_DT_I32, NPUC_DT_F16, NPUC_CAST_DEFAULT), 0x7c00);
  /* int -> int: wrap, sign- or zero-extend. */
  assert_int_equal(cast_one_i(300, NPUC_DT_I32, NPUC_DT_I8, NPUC_CAST_DEFAULT),
                   44);
  assert_int_equal(cast_one_i(-1, NPUC_DT_I8, NPUC_DT_I32, NPUC_CAST_DEFAULT),
                   0xffffffffu);
  assert_int_equal(cast_one_i(-1, NPUC_DT_I8, NPUC_DT_I32, NPUC_CAST_UNSIGNED),
                   255);
  assert_int_equal(cast_one_i(1, NPUC_DT_I1, NPUC_DT_I32, NPUC_CAST_DEFAULT),
                   1);
  assert_int_equal(cast_one_i(6, NPUC_DT_I32, NPUC_DT_I1, NPUC_CAST_DEFAULT),
                   0);
}

/* ======================================================================
 * Layout
 * ====================================================================== */

static void transpose_permutations(void **state) {
  (void)state;
  const int32_t perms3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++)
    for (int p = 0; p < 6 + 3; p++) {
      /* every 3-D perm, then reversals of rank 1, 2 and 4 */
      int32_t rank = p < 6 ? 3 : p == 8 ? 4 : p - 5;
      int32_t perm[NPUC_RT_MAX_RANK];
      if (p < 6)
        memcpy(perm, perms3[p], sizeof perms3[p]);
      else
        for (int32_t j = 0; j < rank; j++)
          perm[j] = rank - 1 - j;
      int64_t sizes[NPUC_RT_MAX_RANK], dsizes[NPUC_RT_MAX_RANK];
      random_shape(rank, sizes, 5);
      for (int32_t j = 0; j < rank; j++)
        dsizes[j] = sizes[perm[j]];
      npuc_buf src = make_buf(kAllDtypes[d], rank, sizes, p % 2);
      fill(&src, VALUES_GENERAL);
      npuc_buf dst = make_buf(kAllDtypes[d], rank, dsizes, p % 3 == 0);
      npuc_rt_transpose(&dst, &src, perm, LOC);
      int64_t idx[NPUC_RT_MAX_RANK] = {0}, at[NPUC_RT_MAX_RANK];
      do {
        for (int32_t j = 0; j < rank; j++)
          at[perm[j]] = idx[j];
        assert_int_equal(get_bits(&dst, idx), get_bits(&src, at));
      } while (next_index(idx, rank, dsizes));
    }
  npuc_rt_arena_reset();
}

static void arange_values(void **state) {
  (void)state;
  const npuc_dtype dts[] = {NPUC_DT_I8, NPUC_DT_I32, NPUC_DT_I64, NPUC_DT_F16,
                            NPUC_DT_F32};
  for (size_t d = 0; d < ARRAY_LEN(dts); d++)
    for (int32_t rank = 0; rank <= 3; rank++) {
      int64_t sizes[NPUC_RT_MAX_RANK], strides[NPUC_RT_MAX_RANK];
      random_shape(rank, sizes, 6);
      for (int32_t j = 0; j < rank; j++)
        strides[j] = rnd_range(-40, 40);
      int64_t offset = rnd_range(-100, 100);
      npuc_buf dst = make_buf(dts[d], rank, sizes, rank % 2);
      npuc_rt_arange(&dst, offset, strides, rank, LOC);
      int64_t idx[NPUC_RT_MAX_RANK] = {0};
      do {
        int64_t v = offset;
        for (int32_t j = 0; j < rank; j++)
          v += idx[j] * strides[j];
        if (is_float(dts[d]))
          assert_true(getf(&dst, idx) == ref_round(v, dts[d], RM_EVEN));
        else
          assert_int_equal(geti(&dst, idx),
                           wrap((uint64_t)v, int_width(dts[d])));
      } while (next_index(idx, rank, sizes));
    }
}

/* ======================================================================
 * Cube: mmadL1 and fixpipe
 * ====================================================================== */

static double mmad_ref_float(const npuc_buf *c, const npuc_buf *a,
                             const npuc_buf *b, bool init, int64_t i, int64_t j,
                             int64_t k, unsigned flags) {
  int64_t ij[2] = {i, j};
  float acc = init ? 0.0f : (float)getf(c, ij);
  for (int64_t p = 0; p < k; p++) {
    bool at = flags & NPUC_MMAD_A_TRANSPOSE, bt = flags & NPUC_MMAD_B_TRANSPOSE;
    int64_t ia[2] = {at ? p : i, at ? i : p}, ib[2] = {bt ? j : p, bt ? p : j};
    volatile float prod = (float)getf(a, ia) * (float)getf(b, ib);
    acc = acc + prod;
  }
  return acc;
}

/* Random shapes, both transposes, accumulation into C (init false) and
 * real sizes below the operands' (C outside them untouched). */
static void mmad_against_naive(void **state) {
  (void)state;
  static const npuc_dtype ins[] = {NPUC_DT_F16, NPUC_DT_BF16, NPUC_DT_F32,
                                   NPUC_DT_I8};
  for (int iter = 0; iter < 48; iter++) {
    npuc_dtype in = ins[iter % 4];
    npuc_dtype out = in == NPUC_DT_I8 ? NPUC_DT_I32 : NPUC_DT_F32;
    unsigned flags = (unsigned)(iter / 4) % 4;
    int64_t m = rnd_range(1, 9), k = rnd_range(1, 9), n = rnd_range(1, 9);
    int64_t sa[2] = {flags & NPUC_MMAD_A_TRANSPOSE ? k : m,
                     flags & NPUC_MMAD_A_TRANSPOSE ? m : k};
    int64_t sb[2] = {flags & NPUC_MMAD_B_TRANSPOSE ? n : k,
                     flags & NPUC_MMAD_B_TRANSPOSE ? k : n};
    int64_t sc[2] = {m, n};
    npuc_buf a = make_buf(in, 2, sa, iter % 2), b = make_buf(in, 2, sb, false);
    npuc_buf c = make_buf(out, 2, sc, iter % 3 == 0);
    fill(&a, is_float(in) ? VALUES_PLAIN : VALUES_GENERAL);
    fill(&b, is_float(in) ? VALUES_PLAIN : VALUES_GENERAL);
    fill(&c, is_float(out) ? VALUES_PLAIN : VALUES_GENERAL);
    npuc_buf before = npuc_rt_clone(&c, LOC);
    bool init = iter % 5 == 0;
    int64_t rm = rnd_range(0, m), rk = rnd_range(0, k), rn = rnd_range(0, n);
    npuc_rt_mmad(&c, &a, &b, init, rm, rk, rn, flags, LOC);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        int64_t ij[2] = {i, j};
        bool real = i < rm && j < rn;
        if (is_float(out)) {
          double want =
              real ? mmad_ref_float(&before, &a, &b, init, i, j, rk, flags)
                   : getf(&before, ij);
          CHECK(same_float(getf(&c, ij), want),
                "mmad %s flags %u: C[%lld][%lld] = %g, want %g\n",
                npuc_rt_dtype_name(in), flags, (long long)i, (long long)j,
                getf(&c, ij), want);
          continue;
        }
        uint64_t acc = init && real ? 0 : (uint64_t)geti(&before, ij);
        for (int64_t p = 0; real && p < rk; p++) {
          bool at = flags & NPUC_MMAD_A_TRANSPOSE,
               bt = flags & NPUC_MMAD_B_TRANSPOSE;
          int64_t ia[2] = {at ? p : i, at ? i : p},
                  ib[2] = {bt ? j : p, bt ? p : j};
          acc += (uint64_t)geti(&a, ia) * (uint64_t)geti(&b, ib);
        }
        assert_int_equal(geti(&c, ij), wrap(acc, 32));
      }
  }
}

/* A random R x C matrix as 2-D [R][C] and as zN [C1][R1][R0][C0]. */
static void matrix_pair(npuc_dtype dt, int64_t r1, int64_t c1, npuc_buf *nd,
                        npuc_buf *zn) {
  int64_t r0 = 2, c0 = 3, s2[2] = {r1 * r0, c1 * c0}, s4[4] = {c1, r1, r0, c0};
  *nd = make_buf(dt, 2, s2, false);
  *zn = make_buf(dt, 4, s4, true);
  fill(nd, is_float(dt) ? VALUES_PLAIN : VALUES_GENERAL);
  for (int64_t r = 0; r < s2[0]; r++)
    for (int64_t c = 0; c < s2[1]; c++) {
      int64_t i2[2] = {r, c}, i4[4] = {c / c0, r / r0, r % r0, c % c0};
      set_bits(zn, i4, get_bits(nd, i2));
    }
}

/* The fractal zN form computes what the 2-D one does, element for element
 * (R0 = 2 and C0 = 3 here: any fractal size works). */
static void mmad_fractal_matches_2d(void **state) {
  (void)state;
  for (int iter = 0; iter < 8; iter++) {
    npuc_dtype in = iter % 2 ? NPUC_DT_F16 : NPUC_DT_I8;
    npuc_dtype out = iter % 2 ? NPUC_DT_F32 : NPUC_DT_I32;
    int64_t m1 = rnd_range(1, 3), k1 = rnd_range(1, 3), n1 = rnd_range(1, 3);
    npuc_buf a2, a4, b2, b4, c2, c4;
    /* K has fractal 3 as A's columns and 2 as B's rows: take K = 6 k1. */
    matrix_pair(in, m1, 2 * k1, &a2, &a4);
    matrix_pair(in, 3 * k1, n1, &b2, &b4);
    matrix_pair(out, m1, n1, &c2, &c4);
    int64_t m = 2 * m1, k = 6 * k1, n = 3 * n1;
    int64_t rm = rnd_range(0, m), rk = rnd_range(0, k), rn = rnd_range(0, n);
    npuc_rt_mmad(&c2, &a2, &b2, iter % 3 == 0, rm, rk, rn, 0, LOC);
    npuc_rt_mmad(&c4, &a4, &b4, iter % 3 == 0, rm, rk, rn, 0, LOC);
    for (int64_t r = 0; r < m; r++)
      for (int64_t c = 0; c < n; c++) {
        int64_t i2[2] = {r, c}, i4[4] = {c / 3, r / 2, r % 2, c % 3};
        assert_int_equal(get_bits(&c4, i4), get_bits(&c2, i2));
      }
  }
}

/* The logical (r, c) element of an [M][N], [N][M] or [N1][M1][M0][N0]
 * buffer, the reference's own way. */
static void matrix_index(const npuc_buf *b, int layout, int64_t r, int64_t c,
                         int64_t *idx) {
  if (layout == 0)
    idx[0] = r, idx[1] = c;
  else if (layout == 1)
    idx[0] = c, idx[1] = r;
  else
    idx[0] = c / b->sizes[3], idx[1] = r / b->sizes[2],
    idx[2] = r % b->sizes[2], idx[3] = c % b->sizes[3];
}

/* Every layout pair, a destination smaller than the result, ReLU, and the
 * rounding of f32 to f16/bf16. */
static void fixpipe_layouts(void **state) {
  (void)state;
  static const npuc_dtype outs[] = {NPUC_DT_F32, NPUC_DT_F16, NPUC_DT_BF16};
  for (int iter = 0; iter < 36; iter++) {
    bool fractal = iter % 2;
    int dst_layout = (iter / 2) % 3; /* nz2nd, nz2dn, normal */
    npuc_dtype out = outs[(iter / 6) % 3];
    bool relu = iter / 18;
    int64_t m0 = 2, n0 = 3, m1 = rnd_range(1, 3), n1 = rnd_range(1, 3);
    int64_t ss[4] = {n1, m1, m0, n0}, s2[2] = {m1 * m0, n1 * n0};
    npuc_buf src = fractal ? make_buf(NPUC_DT_F32, 4, ss, false)
                           : make_buf(NPUC_DT_F32, 2, s2, true);
    fill(&src, VALUES_GENERAL);
    int64_t rows = rnd_range(1, m1 * m0), cols = rnd_range(1, n1 * n0);
    int layout = dst_layout < 2 ? dst_layout : fractal ? 2 : 0;
    int64_t d2[2] = {layout == 1 ? cols : rows, layout == 1 ? rows : cols};
    int64_t d4[4] = {rnd_range(1, n1), rnd_range(1, m1), m0, n0};
    if (layout == 2)
      rows = d4[1] * m0, cols = d4[0] * n0;
    npuc_buf dst = layout == 2 ? make_buf(out, 4, d4, false)
                               : make_buf(out, 2, d2, iter % 3 == 0);
    npuc_fixpipe_mode mode = {(npuc_fixpipe_layout)dst_layout, NPUC_DUAL_NONE,
                              0, relu};
    npuc_rt_fixpipe(&dst, &src, &mode, LOC);
    for (int64_t r = 0; r < rows; r++)
      for (int64_t c = 0; c < cols; c++) {
        int64_t si[4], di[4];
        matrix_index(&src, fractal ? 2 : 0, r, c, si);
        matrix_index(&dst, layout, r, c, di);
        double v = getf(&src, si);
        if (relu && !(v > 0) && !isnan(v))
          v = 0.0;
        double want = ref_round(v, out, RM_EVEN);
        CHECK(same_float(getf(&dst, di), want),
              "fixpipe %d->%d %s: (%lld, %lld) = %g, want %g\n", fractal,
              layout, npuc_rt_dtype_name(out), (long long)r, (long long)c,
              getf(&dst, di), want);
      }
  }
}

static void interleave_channels(void **state) {
  (void)state;
  for (int nsrc = 1; nsrc <= 3; nsrc++)
    for (int32_t rank = 1; rank <= 3; rank++) {
      npuc_dtype dt = kAllDtypes[(size_t)(nsrc + rank) % ARRAY_LEN(kAllDtypes)];
      int64_t sizes[NPUC_RT_MAX_RANK], dsizes[NPUC_RT_MAX_RANK];
      random_shape(rank, sizes, 4);
      memcpy(dsizes, sizes, sizeof sizes);
      dsizes[rank - 1] *= nsrc;
      npuc_buf srcs[3];
      for (int c = 0; c < nsrc; c++) {
        srcs[c] = make_buf(dt, rank, sizes, c % 2);
        fill(&srcs[c], VALUES_GENERAL);
      }
      npuc_buf dst = make_buf(dt, rank, dsizes, rank == 2);
      npuc_rt_interleave(&dst, srcs, nsrc, LOC);
      int64_t idx[NPUC_RT_MAX_RANK] = {0}, at[NPUC_RT_MAX_RANK];
      do {
        memcpy(at, idx, sizeof at);
        at[rank - 1] = idx[rank - 1] / nsrc;
        assert_int_equal(get_bits(&dst, idx),
                         get_bits(&srcs[idx[rank - 1] % nsrc], at));
      } while (next_index(idx, rank, dsizes));
    }
}

/* Gather and scatter on every dtype, dense and strided views of rank 0..3,
 * a strided rank-1 memref side, offsets of every integer width, and masks
 * (i1, i8, or none); a few offsets repeat, so a scatter's later element must
 * win. The reference walks the dense side in row-major order. */
static void indirect_gather_scatter(void **state) {
  (void)state;
  const npuc_dtype offset_dts[] = {NPUC_DT_I8, NPUC_DT_I16, NPUC_DT_I32,
                                   NPUC_DT_I64};
  for (size_t d = 0; d < ARRAY_LEN(kAllDtypes); d++)
    for (int32_t rank = 0; rank <= 3; rank++) {
      npuc_dtype dt = kAllDtypes[d];
      int64_t sizes[NPUC_RT_MAX_RANK], msize[1] = {rnd_range(1, 40)};
      random_shape(rank, sizes, 5);
      bool strided = (d + (size_t)rank) % 2 == 1;
      npuc_buf memref = make_buf(dt, 1, msize, !strided);
      npuc_buf before = npuc_rt_alloc(dt, 1, msize, LOC);
      npuc_buf dense = make_buf(dt, rank, sizes, strided);
      npuc_buf offs =
          make_buf(offset_dts[(size_t)rank % 4], rank, sizes, strided);
      npuc_buf mask =
          make_buf(rank % 2 ? NPUC_DT_I1 : NPUC_DT_I8, rank, sizes, false);
      bool masked = (d % 3) != 0;
      int64_t idx[NPUC_RT_MAX_RANK] = {0}, at[1];
      fill(&memref, VALUES_GENERAL);
      fill(&dense, VALUES_GENERAL);
      do {
        seti(&offs, idx, rnd_range(0, msize[0] - 1));
        seti(&mask, idx, (int64_t)(rnd() % 3 != 0));
      } while (next_index(idx, rank, sizes));
      npuc_rt_copy(&before, &memref, LOC);
      /* Gather into a copy of the dense side: masked-off elements stay. */
      npuc_buf gathered = npuc_rt_clone(&dense, LOC);
      npuc_rt_indirect_load(&gathered, &memref, &offs, masked ? &mask : NULL,
                            LOC);
      memset(idx, 0, sizeof idx);
      do {
        at[0] = geti(&offs, idx);
        bool on = !masked || geti(&mask, idx) != 0;
        assert_int_equal(get_bits(&gathered, idx),
                         on ? get_bits(&memref, at) : get_bits(&dense, idx));
      } while (next_index(idx, rank, sizes));
      /* Scatter, against the reference applied to `before`. */
      npuc_rt_indirect_store(&memref, &dense, &offs, masked ? &mask : NULL,
                             LOC);
      memset(idx, 0, sizeof idx);
      do {
        at[0] = geti(&offs, idx);
        if (!masked || geti(&mask, idx) != 0)
          set_bits(&before, at, get_bits(&dense, idx));
      } while (next_index(idx, rank, sizes));
      for (at[0] = 0; at[0] < msize[0]; at[0]++)
        assert_int_equal(get_bits(&memref, at), get_bits(&before, at));
      npuc_rt_arena_reset();
    }
}

/* ======================================================================
 * Errors: each case runs in a child that must exit 3 after printing
 * "t.mlir:7:3: error: " and the expected words.
 * ====================================================================== */

static const int64_t k2x3[2] = {2, 3}, k3x2[2] = {3, 2}, k1x3[2] = {1, 3};

static npuc_buf f32_2x3(void) {
  return npuc_rt_alloc(NPUC_DT_F32, 2, k2x3, LOC);
}
static npuc_buf i32_2x3(void) {
  return npuc_rt_alloc(NPUC_DT_I32, 2, k2x3, LOC);
}

static void fail_alloc_negative(void) {
  int64_t s[1] = {-1};
  npuc_rt_alloc(NPUC_DT_F32, 1, s, LOC);
}
static void fail_alloc_rank(void) { npuc_rt_alloc(NPUC_DT_F32, 9, k2x3, LOC); }
static void fail_alloc_dtype(void) {
  npuc_rt_alloc((npuc_dtype)42, 2, k2x3, LOC);
}
static void fail_alloc_huge(void) {
  int64_t s[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  npuc_rt_alloc(NPUC_DT_F64, 2, s, LOC);
}
static void fail_copy_shape(void) {
  npuc_buf a = f32_2x3(), b = npuc_rt_alloc(NPUC_DT_F32, 2, k3x2, LOC);
  npuc_rt_copy(&a, &b, LOC);
}
static void fail_copy_dtype(void) {
  npuc_buf a = f32_2x3(), b = i32_2x3();
  npuc_rt_copy(&a, &b, LOC);
}
static void fail_subview_bounds(void) {
  npuc_buf a = f32_2x3();
  int64_t o[2] = {1, 1}, s[2] = {1, 3}, st[2] = {1, 1};
  npuc_rt_subview(&a, o, s, st, 2, 0, LOC);
}
static void fail_subview_dropped(void) {
  npuc_buf a = f32_2x3();
  int64_t o[2] = {0, 0}, s[2] = {2, 3}, st[2] = {1, 1};
  npuc_rt_subview(&a, o, s, st, 1, 1u, LOC);
}
static void fail_subview_rank(void) {
  npuc_buf a = f32_2x3();
  int64_t o[2] = {0, 0}, s[2] = {2, 3}, st[2] = {1, 1};
  npuc_rt_subview(&a, o, s, st, 1, 0, LOC);
}
static void fail_reshape_count(void) {
  npuc_buf a = f32_2x3();
  int64_t s[1] = {7};
  npuc_rt_reshape(&a, 1, s, LOC);
}
static void fail_load_bounds(void) {
  npuc_buf a = f32_2x3();
  int64_t idx[2] = {1, 3};
  npuc_rt_load_f(&a, idx, LOC);
}
static void fail_store_bounds(void) {
  npuc_buf a = i32_2x3();
  int64_t idx[2] = {-1, 0};
  npuc_rt_store_i(&a, idx, 1, LOC);
}
static void fail_load_f_of_int(void) {
  npuc_buf a = i32_2x3();
  int64_t idx[2] = {0, 0};
  npuc_rt_load_f(&a, idx, LOC);
}
static void fail_store_i_of_float(void) {
  npuc_buf a = f32_2x3();
  int64_t idx[2] = {0, 0};
  npuc_rt_store_i(&a, idx, 1, LOC);
}
static void fail_ew_arity(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in = buf_operand(a);
  npuc_rt_elementwise(NPUC_EW_ADD, &a, &in, 1, LOC);
}
static void fail_ew_invalid_op(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in = buf_operand(a);
  npuc_rt_elementwise((npuc_ew_op)99, &a, &in, 1, LOC);
}
static void fail_ew_float_bitwise(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in[2] = {buf_operand(a), buf_operand(a)};
  npuc_rt_elementwise(NPUC_EW_XOR, &a, in, 2, LOC);
}
static void fail_ew_int_exp(void) {
  npuc_buf a = i32_2x3();
  npuc_operand in = buf_operand(a);
  npuc_rt_elementwise(NPUC_EW_EXP, &a, &in, 1, LOC);
}
static void fail_ew_dtype(void) {
  npuc_buf a = f32_2x3(), b = i32_2x3();
  npuc_operand in[2] = {buf_operand(a), buf_operand(b)};
  npuc_rt_elementwise(NPUC_EW_ADD, &a, in, 2, LOC);
}
static void fail_ew_broadcast(void) {
  npuc_buf a = f32_2x3(), b = npuc_rt_alloc(NPUC_DT_F32, 2, k3x2, LOC);
  npuc_operand in[2] = {buf_operand(a), buf_operand(b)};
  npuc_rt_elementwise(NPUC_EW_ADD, &a, in, 2, LOC);
}
static void fail_ew_rank(void) {
  npuc_buf a = f32_2x3(), b = npuc_rt_alloc(NPUC_DT_F32, 1, k2x3 + 1, LOC);
  npuc_operand in[2] = {buf_operand(a), buf_operand(b)};
  npuc_rt_elementwise(NPUC_EW_ADD, &a, in, 2, LOC);
}
static void fail_ew_sel_cond(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in[3] = {buf_operand(a), buf_operand(a), buf_operand(a)};
  npuc_rt_elementwise(NPUC_EW_SEL, &a, in, 3, LOC);
}
static void fail_div_zero(void) {
  npuc_buf a = i32_2x3();
  npuc_operand in[2] = {buf_operand(a), buf_operand(a)}; /* zeros */
  npuc_rt_elementwise(NPUC_EW_DIV, &a, in, 2, LOC);
}
static void fail_mod_zero(void) {
  npuc_buf a = npuc_rt_alloc(NPUC_DT_I8, 2, k2x3, LOC);
  npuc_operand in[2] = {buf_operand(a),
                        {.is_scalar = true, .i = 0, .dtype = NPUC_DT_I8}};
  npuc_rt_elementwise(NPUC_EW_MOD, &a, in, 2, LOC);
}
static void fail_pow_zero_negative(void) {
  npuc_buf a = i32_2x3();
  npuc_operand in[2] = {buf_operand(a),
                        {.is_scalar = true, .i = -1, .dtype = NPUC_DT_I32}};
  npuc_rt_elementwise(NPUC_EW_POW, &a, in, 2, LOC);
}
static void fail_scalar_dtype(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in[2] = {buf_operand(a),
                        {.is_scalar = true, .dtype = (npuc_dtype)-3}};
  npuc_rt_elementwise(NPUC_EW_ADD, &a, in, 2, LOC);
}
static void fail_compare_dst(void) {
  npuc_buf a = f32_2x3();
  npuc_operand in = buf_operand(a);
  npuc_rt_compare(NPUC_CMP_LT, &a, &in, &in, LOC);
}
static void fail_compare_dtypes(void) {
  npuc_buf d = npuc_rt_alloc(NPUC_DT_I1, 2, k2x3, LOC);
  npuc_operand a = buf_operand(f32_2x3()), b = buf_operand(i32_2x3());
  npuc_rt_compare(NPUC_CMP_LT, &d, &a, &b, LOC);
}
static void fail_compare_mode(void) {
  npuc_buf d = npuc_rt_alloc(NPUC_DT_I1, 2, k2x3, LOC);
  npuc_operand a = buf_operand(f32_2x3());
  npuc_rt_compare((npuc_cmp_mode)17, &d, &a, &a, LOC);
}
static void fail_broadcast_shape(void) {
  npuc_buf d = f32_2x3();
  npuc_operand s = buf_operand(npuc_rt_alloc(NPUC_DT_F32, 2, k3x2, LOC));
  npuc_rt_broadcast(&d, &s, LOC);
}
static void fail_broadcast_dtype(void) {
  npuc_buf d = f32_2x3();
  npuc_operand s = buf_operand(npuc_rt_alloc(NPUC_DT_I32, 2, k1x3, LOC));
  npuc_rt_broadcast(&d, &s, LOC);
}
static void fail_reduce_shape(void) {
  npuc_buf s = f32_2x3(), d = f32_2x3();
  npuc_rt_reduce(NPUC_RED_SUM, &d, &s, 1u, LOC);
}
static void fail_reduce_mask(void) {
  npuc_buf s = f32_2x3(), d = f32_2x3();
  npuc_rt_reduce(NPUC_RED_SUM, &d, &s, 4u, LOC);
}
static void fail_reduce_float_xor(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F32, 2, k1x3, LOC);
  npuc_rt_reduce(NPUC_RED_XOR, &d, &s, 1u, LOC);
}
static void fail_reduce_dtype(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F16, 2, k1x3, LOC);
  npuc_rt_reduce(NPUC_RED_SUM, &d, &s, 1u, LOC);
}
static void fail_reduce_op(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F32, 2, k1x3, LOC);
  npuc_rt_reduce((npuc_reduce_op)40, &d, &s, 1u, LOC);
}
static void fail_cast_shape(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F16, 2, k3x2, LOC);
  npuc_rt_cast(&d, &s, NPUC_CAST_DEFAULT, LOC);
}
static void fail_cast_mode(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F16, 2, k2x3, LOC);
  npuc_rt_cast(&d, &s, (npuc_cast_mode)12, LOC);
}
static void fail_transpose_perm(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F32, 2, k3x2, LOC);
  int32_t perm[2] = {1, 1};
  npuc_rt_transpose(&d, &s, perm, LOC);
}
static void fail_transpose_shape(void) {
  npuc_buf s = f32_2x3(), d = f32_2x3();
  int32_t perm[2] = {1, 0};
  npuc_rt_transpose(&d, &s, perm, LOC);
}
static void fail_transpose_rank(void) {
  npuc_buf s = f32_2x3(), d = npuc_rt_alloc(NPUC_DT_F32, 1, k2x3, LOC);
  int32_t perm[2] = {1, 0};
  npuc_rt_transpose(&d, &s, perm, LOC);
}
static void fail_arange_strides(void) {
  npuc_buf d = i32_2x3();
  int64_t st[1] = {1};
  npuc_rt_arange(&d, 0, st, 1, LOC);
}
static void fail_interleave_shape(void) {
  int64_t s6[2] = {2, 6};
  npuc_buf d = npuc_rt_alloc(NPUC_DT_F32, 2, s6, LOC);
  int64_t s3x3[2] = {3, 3};
  npuc_buf srcs[2] = {f32_2x3(), npuc_rt_alloc(NPUC_DT_F32, 2, s3x3, LOC)};
  npuc_rt_interleave(&d, srcs, 2, LOC);
}
static void fail_interleave_last_dim(void) {
  npuc_buf d = f32_2x3();
  npuc_buf srcs[2] = {f32_2x3(), f32_2x3()};
  npuc_rt_interleave(&d, srcs, 2, LOC);
}
static void fail_interleave_rank(void) {
  npuc_buf d = f32_2x3();
  npuc_buf srcs[1] = {npuc_rt_alloc(NPUC_DT_F32, 1, k2x3 + 1, LOC)};
  npuc_rt_interleave(&d, srcs, 1, LOC);
}
static void fail_interleave_none(void) {
  npuc_buf d = f32_2x3();
  npuc_rt_interleave(&d, NULL, 0, LOC);
}
static void fail_indirect_offset(void) {
  int64_t n4[1] = {4}, n2[1] = {2};
  npuc_buf m = npuc_rt_alloc(NPUC_DT_F32, 1, n4, LOC);
  npuc_buf d = npuc_rt_alloc(NPUC_DT_F32, 1, n2, LOC);
  npuc_buf o = npuc_rt_alloc(NPUC_DT_I64, 1, n2, LOC);
  ((int64_t *)o.data)[1] = 4;
  npuc_rt_indirect_load(&d, &m, &o, NULL, LOC);
}
static void fail_indirect_negative(void) {
  int64_t n4[1] = {4}, n2[1] = {2};
  npuc_buf m = npuc_rt_alloc(NPUC_DT_I16, 1, n4, LOC);
  npuc_buf s = npuc_rt_alloc(NPUC_DT_I16, 1, n2, LOC);
  npuc_buf o = npuc_rt_alloc(NPUC_DT_I32, 1, n2, LOC);
  ((int32_t *)o.data)[0] = -1;
  npuc_rt_indirect_store(&m, &s, &o, NULL, LOC);
}
static void fail_indirect_rank(void) {
  npuc_buf m = f32_2x3(), d = f32_2x3(),
           o = npuc_rt_alloc(NPUC_DT_I64, 2, k2x3, LOC);
  npuc_rt_indirect_load(&d, &m, &o, NULL, LOC);
}
static void fail_indirect_float_offsets(void) {
  int64_t n4[1] = {4};
  npuc_buf m = npuc_rt_alloc(NPUC_DT_F32, 1, n4, LOC);
  npuc_buf d = f32_2x3(), o = f32_2x3();
  npuc_rt_indirect_load(&d, &m, &o, NULL, LOC);
}
static void fail_indirect_mask_shape(void) {
  int64_t n4[1] = {4};
  npuc_buf m = npuc_rt_alloc(NPUC_DT_F32, 1, n4, LOC);
  npuc_buf s = f32_2x3(), o = i32_2x3(),
           k = npuc_rt_alloc(NPUC_DT_I1, 2, k3x2, LOC);
  npuc_rt_indirect_store(&m, &s, &o, &k, LOC);
}
static void fail_indirect_dtype(void) {
  int64_t n4[1] = {4};
  npuc_buf m = npuc_rt_alloc(NPUC_DT_F16, 1, n4, LOC);
  npuc_buf d = f32_2x3(), o = i32_2x3();
  npuc_rt_indirect_load(&d, &m, &o, NULL, LOC);
}
static void fail_direct(void) { npuc_rt_fail(LOC, "custom %d", 42); }

static void fail_mmad_shapes(void) {
  npuc_buf a = f32_2x3(), c = f32_2x3();
  npuc_rt_mmad(&c, &a, &a, true, 2, 3, 3, 0, LOC);
}

static void fail_fixpipe_larger(void) {
  int64_t big[2] = {3, 3};
  npuc_buf src = f32_2x3(), dst = npuc_rt_alloc(NPUC_DT_F32, 2, big, LOC);
  npuc_fixpipe_mode mode = {NPUC_FIXPIPE_NZ2ND, NPUC_DUAL_NONE, 0, false};
  npuc_rt_fixpipe(&dst, &src, &mode, LOC);
}

static void fail_fixpipe_dual_alone(void) {
  npuc_buf src = f32_2x3(), dst = f32_2x3();
  npuc_fixpipe_mode mode = {NPUC_FIXPIPE_NZ2ND, NPUC_DUAL_ROW, 0, false};
  npuc_rt_fixpipe(&dst, &src, &mode, LOC);
}

typedef struct {
  const char *name;
  void (*run)(void);
  const char *expect;
} fail_case;

static const fail_case kFailCases[] = {
    {"alloc negative", fail_alloc_negative, "negative size -1"},
    {"alloc rank", fail_alloc_rank, "rank 9"},
    {"alloc dtype", fail_alloc_dtype, "invalid dtype"},
    {"alloc huge", fail_alloc_huge, "overflows"},
    {"copy shape", fail_copy_shape, "shape 3x2 does not match 2x3"},
    {"copy dtype", fail_copy_dtype, "dtype i32 does not match f32"},
    {"subview bounds", fail_subview_bounds,
     "index 3 out of bounds for dimension 1 of size 3"},
    {"subview dropped", fail_subview_dropped, "dropped dim 0 has size 2"},
    {"subview rank", fail_subview_rank, "result rank 1"},
    {"reshape count", fail_reshape_count, "2x3 (6 elements) to 7"},
    {"load bounds", fail_load_bounds,
     "index 3 out of bounds for dimension 1 of size 3"},
    {"store bounds", fail_store_bounds,
     "index -1 out of bounds for dimension 0 of size 2"},
    {"load_f of int", fail_load_f_of_int, "load_f from a i32 buffer"},
    {"store_i of float", fail_store_i_of_float, "store_i to a f32 buffer"},
    {"ew arity", fail_ew_arity, "add: 1 operands, expected 2"},
    {"ew invalid op", fail_ew_invalid_op, "invalid op 99"},
    {"ew float xor", fail_ew_float_bitwise, "xor does not support dtype f32"},
    {"ew int exp", fail_ew_int_exp, "exp does not support dtype i32"},
    {"ew dtype", fail_ew_dtype, "src 1: dtype i32 does not match f32"},
    {"ew broadcast", fail_ew_broadcast,
     "src 1: shape 3x2 does not broadcast to 2x3"},
    {"ew rank", fail_ew_rank, "shape 3 does not broadcast to 2x3"},
    {"ew sel cond", fail_ew_sel_cond, "src 0: dtype f32 does not match i1"},
    {"div zero", fail_div_zero, "integer division by zero"},
    {"mod zero", fail_mod_zero, "integer remainder by zero"},
    {"pow zero negative", fail_pow_zero_negative, "0 to a negative power"},
    {"scalar dtype", fail_scalar_dtype, "scalar operand has an invalid dtype"},
    {"compare dst", fail_compare_dst, "dst dtype is f32, expected i1"},
    {"compare dtypes", fail_compare_dtypes,
     "rhs: dtype i32 does not match f32"},
    {"compare mode", fail_compare_mode, "invalid mode 17"},
    {"broadcast shape", fail_broadcast_shape,
     "shape 3x2 does not broadcast to 2x3"},
    {"broadcast dtype", fail_broadcast_dtype, "dtype i32 does not match f32"},
    {"reduce shape", fail_reduce_shape,
     "dst shape 2x3 does not match 2x3 reduced over mask 0x1"},
    {"reduce mask", fail_reduce_mask, "mask 0x4 names a dim past rank 2"},
    {"reduce float xor", fail_reduce_float_xor,
     "reduce xor does not support dtype f32"},
    {"reduce dtype", fail_reduce_dtype,
     "reduce dst: dtype f16 does not match f32"},
    {"reduce op", fail_reduce_op, "invalid op 40"},
    {"cast shape", fail_cast_shape, "shape 2x3 does not match 3x2"},
    {"cast mode", fail_cast_mode, "invalid mode 12"},
    {"transpose perm", fail_transpose_perm, "perm[1] = 1 is not a permutation"},
    {"transpose shape", fail_transpose_shape,
     "dst dim 0 has size 2, src dim 1 has 3"},
    {"transpose rank", fail_transpose_rank,
     "dst rank 1 differs from src rank 2"},
    {"arange strides", fail_arange_strides, "1 strides for a rank-2 dst"},
    {"interleave shape", fail_interleave_shape,
     "interleave src 1: shape 3x3 does not match 2x3"},
    {"interleave last dim", fail_interleave_last_dim,
     "last dim 3 times 2 sources is not dst's 3"},
    {"interleave rank", fail_interleave_rank,
     "interleave src 0 has rank 1, dst has 2"},
    {"interleave none", fail_interleave_none, "0 sources"},
    {"indirect offset", fail_indirect_offset,
     "indirect_load: offset 4 outside the memref's 4 elements"},
    {"indirect negative", fail_indirect_negative,
     "indirect_store: offset -1 outside the memref's 4 elements"},
    {"indirect rank", fail_indirect_rank,
     "the memref has rank 2; the C model indexes rank 1 only"},
    {"indirect float offsets", fail_indirect_float_offsets,
     "offsets must be integers, not f32"},
    {"indirect mask shape", fail_indirect_mask_shape,
     "mask: shape 3x2 does not match 2x3"},
    {"indirect dtype", fail_indirect_dtype,
     "indirect_load src: dtype f16 does not match f32"},
    {"npuc_rt_fail", fail_direct, "custom 42"},
    {"mmad shapes", fail_mmad_shapes,
     "mmadL1: A is 2x3, B 2x3, C 2x3 (after the transposes)"},
    {"fixpipe larger", fail_fixpipe_larger,
     "fixpipe: a 3x3 destination at row 0, column 0 of a 2x3 result"},
    {"fixpipe dual alone", fail_fixpipe_dual_alone,
     "a dual destination must be a tightly coupled UB buffer"},
};

/* Runs `run` in a child with stderr on a pipe; returns its exit status
 * (or -1 if it did not exit) and what it printed. */
static int run_in_child(void (*run)(void), char *out, size_t cap) {
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    run();
    _exit(0); /* did not fail */
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t got;
  while (len + 1 < cap && (got = read(fds[0], out + len, cap - 1 - len)) > 0)
    len += (size_t)got;
  out[len] = '\0';
  close(fds[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void every_error_path(void **state) {
  (void)state;
  for (size_t c = 0; c < ARRAY_LEN(kFailCases); c++) {
    char out[1024];
    int status = run_in_child(kFailCases[c].run, out, sizeof out);
    CHECK(status == 3, "%s: exit status %d, output: %s\n", kFailCases[c].name,
          status, out);
    CHECK(strncmp(out, LOC ": error: ", strlen(LOC ": error: ")) == 0 &&
              strstr(out, kFailCases[c].expect) != NULL,
          "%s: printed \"%s\", expected \"%s\"\n", kFailCases[c].name, out,
          kFailCases[c].expect);
  }
}

/* Out-of-range indices pass unchecked when NPUC_CHECK_BOUNDS is not 1.
 * The variable is read once, so this runs in a fresh child before the
 * tests set it. */
static void bounds_off_child(void) {
  if (npuc_rt_check_bounds())
    _exit(1);
  npuc_buf a = f32_2x3();
  int64_t idx[2] = {0, 4}; /* element 4 of the 6: inside the storage */
  npuc_rt_store_f(&a, idx, 1.5, LOC);
  int64_t flat[2] = {1, 1};
  _exit(npuc_rt_load_f(&a, flat, LOC) == 1.5 ? 0 : 2);
}

static void bounds_checks_follow_the_environment(void **state) {
  (void)state;
  char out[256];
  assert_true(npuc_rt_check_bounds()); /* main set NPUC_CHECK_BOUNDS=1 */
  assert_int_equal(run_in_child(fail_load_bounds, out, sizeof out), 3);
}

int main(void) {
  char out[256];
  setenv("NPUC_CHECK_BOUNDS", "0", 1);
  if (run_in_child(bounds_off_child, out, sizeof out) != 0) {
    fprintf(stderr, "unchecked indices failed: %s\n", out);
    return 1;
  }
  setenv("NPUC_CHECK_BOUNDS", "1", 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dtype_sizes),
      cmocka_unit_test(f16_round_trips_exhaustively),
      cmocka_unit_test(f32_to_half_rounds_to_nearest_even),
      cmocka_unit_test(f16_and_bf16_known_values),
      cmocka_unit_test(alloc_is_aligned_zeroed_and_row_major),
      cmocka_unit_test(load_store_round_and_wrap),
      cmocka_unit_test(views),
      cmocka_unit_test(copy_and_clone),
      cmocka_unit_test(elementwise_float_ops),
      cmocka_unit_test(elementwise_int_ops),
      cmocka_unit_test(integer_wraparound_and_shifts),
      cmocka_unit_test(float_special_cases),
      cmocka_unit_test(scalar_operands_convert),
      cmocka_unit_test(elementwise_fast_paths),
      cmocka_unit_test(compare_all_modes),
      cmocka_unit_test(select_every_dtype),
      cmocka_unit_test(broadcast_buffers_and_scalars),
      cmocka_unit_test(reduce_each_dim_and_several),
      cmocka_unit_test(reduce_f16_accumulates_in_f32),
      cmocka_unit_test(cast_every_pair_and_mode),
      cmocka_unit_test(cast_known_values),
      cmocka_unit_test(transpose_permutations),
      cmocka_unit_test(arange_values),
      cmocka_unit_test(interleave_channels),
      cmocka_unit_test(indirect_gather_scatter),
      cmocka_unit_test(mmad_against_naive),
      cmocka_unit_test(mmad_fractal_matches_2d),
      cmocka_unit_test(fixpipe_layouts),
      cmocka_unit_test(every_error_path),
      cmocka_unit_test(bounds_checks_follow_the_environment),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  npuc_rt_arena_reset();
  return failed;
}
