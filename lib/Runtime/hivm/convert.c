/* Number conversions: compute types, exact rounding of any value to any
 * float format, and the strided row loads and stores that turn buffer
 * elements into compute-type values. Element sizes, names and f16/bf16 <->
 * f32 are lib/Common/Dtype.c. */
#include "internal.h"

#include <string.h>

/* ---- dtypes ------------------------------------------------------------- */

bool npuc_rti_dtype_valid(npuc_dtype dt) { return npuc_rt_elem_size(dt) != 0; }

int npuc_rti_int_width(npuc_dtype dt) {
  return dt == NPUC_DT_I1 ? 1 : (int)npuc_rt_elem_size(dt) * 8;
}

rt_ct npuc_rti_compute_type(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_F64: return RT_CT_F64;
  case NPUC_DT_I1:
  case NPUC_DT_I8: return RT_CT_I8;
  case NPUC_DT_I16: return RT_CT_I16;
  case NPUC_DT_I32: return RT_CT_I32;
  case NPUC_DT_I64: return RT_CT_I64;
  default: return RT_CT_F32;
  }
}

size_t npuc_rti_ct_size(rt_ct ct) {
  switch (ct) {
  case RT_CT_I8: return 1;
  case RT_CT_I16: return 2;
  case RT_CT_F32:
  case RT_CT_I32: return 4;
  default: return 8;
  }
}

bool npuc_rti_ct_is_storage(rt_ct ct, npuc_dtype dt) {
  /* i1 is stored in a byte like i8, but only 0/1 are valid, so it always
   * goes through a load (normalize) and a store (mask). */
  return dt != NPUC_DT_I1 && dt != NPUC_DT_F16 && dt != NPUC_DT_BF16 &&
         npuc_rti_compute_type(dt) == ct;
}

/* ---- exact rounding to a float format ----------------------------------- */

typedef struct {
  int mant_bits, exp_bits;
} float_format;

static float_format format_of(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_F16: return (float_format){10, 5};
  case NPUC_DT_BF16: return (float_format){7, 8};
  case NPUC_DT_F32: return (float_format){23, 8};
  default: return (float_format){52, 11};
  }
}

static uint64_t round_magnitude(bool neg, uint64_t mag, int e, float_format f,
                                rt_rounding r);
static uint64_t overflow_bits(bool neg, float_format f, rt_rounding r);

uint64_t npuc_rti_float_bits_from_double(double v, npuc_dtype dt,
                                         rt_rounding r) {
  float_format f = format_of(dt);
  uint64_t x;
  memcpy(&x, &v, sizeof x);
  bool neg = x >> 63;
  uint64_t sign = (uint64_t)neg << (f.mant_bits + f.exp_bits);
  uint64_t exp = (x >> 52) & 0x7ff, frac = x & ((UINT64_C(1) << 52) - 1);
  uint64_t inf = ((UINT64_C(1) << f.exp_bits) - 1) << f.mant_bits;
  if (exp == 0x7ff) {
    if (frac == 0)
      return sign | inf;
    /* NaN: quiet, with as much of the payload as fits. */
    return sign | inf | UINT64_C(1) << (f.mant_bits - 1) |
           frac >> (52 - f.mant_bits);
  }
  if (exp == 0 && frac == 0)
    return sign;
  if (exp == 0)
    return round_magnitude(neg, frac, -1074, f, r);
  return round_magnitude(neg, frac | UINT64_C(1) << 52, (int)exp - 1075, f, r);
}

uint64_t npuc_rti_float_bits_from_int(bool neg, uint64_t mag, npuc_dtype dt,
                                      rt_rounding r) {
  float_format f = format_of(dt);
  if (mag == 0)
    return 0; /* integers have no -0 */
  return round_magnitude(neg, mag, 0, f, r);
}

double npuc_rti_float_bits_to_double(uint64_t bits, npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_F16: return npuc_f16_to_f32_inline((uint16_t)bits);
  case NPUC_DT_BF16: return npuc_bf16_to_f32_inline((uint16_t)bits);
  case NPUC_DT_F32: return npuc_f32_from_bits((uint32_t)bits);
  default: {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
}

double npuc_rti_round_to_dtype(double v, npuc_dtype dt) {
  if (dt == NPUC_DT_F64)
    return v;
  return npuc_rti_float_bits_to_double(
      npuc_rti_float_bits_from_double(v, dt, RT_ROUND_NEAREST_EVEN), dt);
}

int64_t npuc_rti_wrap_int(int64_t v, npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_I1: return v & 1;
  case NPUC_DT_I8: return (int8_t)(uint8_t)v;
  case NPUC_DT_I16: return (int16_t)(uint16_t)v;
  case NPUC_DT_I32: return (int32_t)(uint32_t)v;
  default: return v;
  }
}

/* x != 0 */
static int leading_zeros64(uint64_t x) {
#if defined(__GNUC__)
  return __builtin_clzll(x);
#else
  int n = 0;
  for (uint64_t bit = UINT64_C(1) << 63; !(x & bit); bit >>= 1)
    n++;
  return n;
#endif
}

/* Where the discarded bits lie relative to half a unit in the last place. */
typedef enum {
  REST_ZERO,
  REST_BELOW_HALF,
  REST_HALF,
  REST_ABOVE_HALF
} rest_class;

static bool rounds_up(rest_class rest, bool neg, bool kept_odd, rt_rounding r) {
  switch (r) {
  case RT_ROUND_NEAREST_EVEN:
    return rest == REST_ABOVE_HALF || (rest == REST_HALF && kept_odd);
  case RT_ROUND_NEAREST_AWAY: return rest >= REST_HALF;
  case RT_ROUND_TOWARD_ZERO: return false;
  case RT_ROUND_DOWN: return neg && rest != REST_ZERO;
  case RT_ROUND_UP: return !neg && rest != REST_ZERO;
  }
  return false;
}

/* (neg ? -1 : 1) * mag * 2^e, mag != 0, rounded to format `f`. The kept
 * significand includes the implicit bit, so adding it to the biased
 * exponent field minus one encodes normals, subnormals and a rounding
 * carry into the next binade alike. */
static uint64_t round_magnitude(bool neg, uint64_t mag, int e, float_format f,
                                rt_rounding r) {
  int lz = leading_zeros64(mag);
  mag <<= lz;
  e -= lz; /* now mag is in [2^63, 2^64): the value is in [2^E, 2^(E+1)) */
  int top = e + 63;
  int bias = (1 << (f.exp_bits - 1)) - 1, emin = 1 - bias;
  uint64_t sign = (uint64_t)neg << (f.mant_bits + f.exp_bits);
  if (top > bias)
    return sign | overflow_bits(neg, f, r);
  int quantum =
      (top < emin ? emin : top) - f.mant_bits; /* exponent of the lsb */
  int shift = quantum - e;                     /* >= 64 - 1 - mant_bits */
  uint64_t kept;
  rest_class rest;
  if (shift >= 65) {
    kept = 0, rest = REST_BELOW_HALF;
  } else if (shift == 64) {
    kept = 0, rest = mag == UINT64_C(1) << 63 ? REST_HALF : REST_ABOVE_HALF;
  } else {
    kept = mag >> shift;
    uint64_t dropped = mag & ((UINT64_C(1) << shift) - 1),
             half = UINT64_C(1) << (shift - 1);
    rest = dropped == 0      ? REST_ZERO
           : dropped < half  ? REST_BELOW_HALF
           : dropped == half ? REST_HALF
                             : REST_ABOVE_HALF;
  }
  kept += rounds_up(rest, neg, kept & 1, r);
  uint64_t bits =
      ((uint64_t)(quantum + f.mant_bits + bias - 1) << f.mant_bits) + kept;
  if (bits >> f.mant_bits >= (UINT64_C(1) << f.exp_bits) - 1)
    return sign | overflow_bits(neg, f, r);
  return sign | bits;
}

/* Past the largest finite value: Inf, unless the direction rounds toward
 * zero for this sign, which stops at the largest finite value. */
static uint64_t overflow_bits(bool neg, float_format f, rt_rounding r) {
  uint64_t inf = ((UINT64_C(1) << f.exp_bits) - 1) << f.mant_bits;
  bool to_inf = r == RT_ROUND_NEAREST_EVEN || r == RT_ROUND_NEAREST_AWAY ||
                (r == RT_ROUND_DOWN && neg) || (r == RT_ROUND_UP && !neg);
  return to_inf ? inf : inf - 1;
}

/* ---- row loads ---------------------------------------------------------- */

/* The f16/bf16 loops of load_f32 and store_f32: STEP(i, j) moves value i
 * of the float side to or from half element j (f16 and bf16 conversion:
 * STEP_F16, STEP_BF16), with `s`, `n` and `f16` in scope. One loop per
 * format and stride, the dense ones apart: they are the ones that
 * vectorize. */
#define HALF_LOOPS(STEP_F16, STEP_BF16)                                        \
  do {                                                                         \
    if (s == 1 && f16) {                                                       \
      for (size_t i = 0; i < n; i++)                                           \
        STEP_F16(i, i);                                                        \
    } else if (s == 1) {                                                       \
      for (size_t i = 0; i < n; i++)                                           \
        STEP_BF16(i, i);                                                       \
    } else if (f16) {                                                          \
      for (size_t i = 0; i < n; i++)                                           \
        STEP_F16(i, (int64_t)i *s);                                            \
    } else {                                                                   \
      for (size_t i = 0; i < n; i++)                                           \
        STEP_BF16(i, (int64_t)i *s);                                           \
    }                                                                          \
  } while (0)

static void load_f32(float *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n);
static void load_f64(double *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n);
static void load_i64(int64_t *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n);
static void load_raw(void *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n);

void npuc_rti_row_load(rt_ct ct, void *out, const npuc_buf *b, int64_t off,
                       int64_t stride, size_t n) {
  switch (ct) {
  case RT_CT_F32: load_f32(out, b, off, stride, n); return;
  case RT_CT_F64: load_f64(out, b, off, stride, n); return;
  case RT_CT_I64: load_i64(out, b, off, stride, n); return;
  default:
    load_raw(out, b, off, stride, n);
    if (b->dtype == NPUC_DT_I1) {
      int8_t *o = out;
      for (size_t i = 0; i < n; i++)
        o[i] = o[i] != 0;
    }
    return;
  }
}

static void load_f32(float *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n) {
  if (b->dtype == NPUC_DT_F32) {
    load_raw(out, b, off, s, n);
    return;
  }
  const uint16_t *p = (const uint16_t *)b->data + off;
  bool f16 = b->dtype == NPUC_DT_F16;
#define LOAD_F16(i, j) out[i] = npuc_f16_to_f32_inline(p[j])
#define LOAD_BF16(i, j) out[i] = npuc_bf16_to_f32_inline(p[j])
  HALF_LOOPS(LOAD_F16, LOAD_BF16);
#undef LOAD_F16
#undef LOAD_BF16
}

static void load_f64(double *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n) {
  if (b->dtype == NPUC_DT_F64) {
    load_raw(out, b, off, s, n);
    return;
  }
  float tmp[RT_CHUNK];
  for (size_t done = 0; done < n; done += RT_CHUNK) {
    size_t len = n - done < RT_CHUNK ? n - done : RT_CHUNK;
    load_f32(tmp, b, off + (int64_t)done * s, s, len);
    for (size_t i = 0; i < len; i++)
      out[done + i] = tmp[i];
  }
}

/* load_i64's sign-extending loop for the signed integer type T. */
#define WIDEN(T)                                                               \
  do {                                                                         \
    const T *p = (const T *)base;                                              \
    for (size_t i = 0; i < n; i++)                                             \
      out[i] = p[(int64_t)i * s];                                              \
  } while (0)

static void load_i64(int64_t *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n) {
  const char *base = rt_elem_ptr(b, off);
  switch (b->dtype) {
  case NPUC_DT_I1: {
    const uint8_t *p = (const uint8_t *)base;
    for (size_t i = 0; i < n; i++)
      out[i] = p[(int64_t)i * s] != 0;
    return;
  }
  case NPUC_DT_I8: WIDEN(int8_t); return;
  case NPUC_DT_I16: WIDEN(int16_t); return;
  case NPUC_DT_I32: WIDEN(int32_t); return;
  default: load_raw(out, b, off, s, n); return;
  }
#undef WIDEN
}

/* Elements copied as they are stored (compute type == storage type). */
static void load_raw(void *out, const npuc_buf *b, int64_t off, int64_t s,
                     size_t n) {
  npuc_rti_copy_elements(out, 1, rt_elem_ptr(b, off), s, (int64_t)n,
                         npuc_rt_elem_size(b->dtype));
}

/* ---- row stores --------------------------------------------------------- */

static void store_f32(const float *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n);
static void store_f64(const double *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n);
static void store_i64(const int64_t *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n);
static void store_raw(const void *in, const npuc_buf *b, int64_t off, int64_t s,
                      size_t n);

void npuc_rti_row_store(rt_ct ct, const void *in, const npuc_buf *b,
                        int64_t off, int64_t stride, size_t n) {
  switch (ct) {
  case RT_CT_F32: store_f32(in, b, off, stride, n); return;
  case RT_CT_F64: store_f64(in, b, off, stride, n); return;
  case RT_CT_I64: store_i64(in, b, off, stride, n); return;
  default:
    if (b->dtype == NPUC_DT_I1) {
      const int8_t *v = in;
      uint8_t *p = (uint8_t *)rt_elem_ptr(b, off);
      for (size_t i = 0; i < n; i++)
        p[(int64_t)i * stride] = v[i] & 1;
      return;
    }
    store_raw(in, b, off, stride, n);
    return;
  }
}

static void store_f32(const float *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n) {
  if (b->dtype == NPUC_DT_F32) {
    store_raw(in, b, off, s, n);
    return;
  }
  uint16_t *p = (uint16_t *)b->data + off;
  bool f16 = b->dtype == NPUC_DT_F16;
#define STORE_F16(i, j) p[j] = npuc_f32_to_f16_inline(in[i])
#define STORE_BF16(i, j) p[j] = npuc_f32_to_bf16_inline(in[i])
  HALF_LOOPS(STORE_F16, STORE_BF16);
#undef STORE_F16
#undef STORE_BF16
}

/* Doubles go to narrower formats in one rounding step (a detour through
 * float could round twice). */
static void store_f64(const double *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n) {
  if (b->dtype == NPUC_DT_F64) {
    store_raw(in, b, off, s, n);
    return;
  }
  char *p = rt_elem_ptr(b, off);
  for (size_t i = 0; i < n; i++) {
    uint64_t bits =
        npuc_rti_float_bits_from_double(in[i], b->dtype, RT_ROUND_NEAREST_EVEN);
    if (b->dtype == NPUC_DT_F32)
      ((uint32_t *)p)[(int64_t)i * s] = (uint32_t)bits;
    else
      ((uint16_t *)p)[(int64_t)i * s] = (uint16_t)bits;
  }
}

/* Integers narrow by keeping the low bits, computed on unsigned values so
 * that the conversion is defined. */
static void store_i64(const int64_t *in, const npuc_buf *b, int64_t off,
                      int64_t s, size_t n) {
  char *base = rt_elem_ptr(b, off);
  switch (b->dtype) {
  case NPUC_DT_I1:
    for (size_t i = 0; i < n; i++)
      ((uint8_t *)base)[(int64_t)i * s] = (uint8_t)(in[i] & 1);
    return;
  case NPUC_DT_I8:
    for (size_t i = 0; i < n; i++)
      ((uint8_t *)base)[(int64_t)i * s] = (uint8_t)in[i];
    return;
  case NPUC_DT_I16:
    for (size_t i = 0; i < n; i++)
      ((uint16_t *)base)[(int64_t)i * s] = (uint16_t)in[i];
    return;
  case NPUC_DT_I32:
    for (size_t i = 0; i < n; i++)
      ((uint32_t *)base)[(int64_t)i * s] = (uint32_t)in[i];
    return;
  default: store_raw(in, b, off, s, n); return;
  }
}

static void store_raw(const void *in, const npuc_buf *b, int64_t off, int64_t s,
                      size_t n) {
  npuc_rti_copy_elements(rt_elem_ptr(b, off), s, in, 1, (int64_t)n,
                         npuc_rt_elem_size(b->dtype));
}
