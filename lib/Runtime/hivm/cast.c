/* vcast: conversions between any two dtypes, with a rounding mode.
 *
 *   float -> float  different dtypes: rounded once, in the mode's direction
 *                   (DEFAULT and RINT: nearest even; ROUND: nearest, ties
 *                   away from zero; FLOOR, CEIL, TRUNC: directed). Same
 *                   dtype: DEFAULT copies, the other modes round to an
 *                   integral value as Ascend's same-type Cast does.
 *   float -> int    rounded to an integer by the mode (DEFAULT: toward
 *                   zero), then saturated to the dtype's range; NaN -> 0.
 *   int -> float    rounded once in the mode's direction.
 *   int -> int      sign-extended (zero-extended with UNSIGNED), then
 *                   wrapped to the dst width.
 * i1 reads as 0/1, and as an integer target keeps bit 0 of an integer and
 * saturates a float to [0, 1]. */
#include "internal.h"

static void cast_rows(const npuc_buf *dst, const npuc_buf *src,
                      npuc_cast_mode mode);

void npuc_rt_cast(const npuc_buf *dst, const npuc_buf *src, npuc_cast_mode mode,
                  const char *loc) {
  npuc_rti_check_buf(dst, "cast dst", loc);
  npuc_rti_check_buf(src, "cast src", loc);
  npuc_rti_check_same_shape(dst, src, "cast src", loc);
  if ((unsigned)mode > NPUC_CAST_UNSIGNED)
    npuc_rt_fail(loc, "cast: invalid mode %d", (int)mode);
  bool float_src = npuc_rt_is_float(src->dtype);
  bool keeps_value =
      mode == NPUC_CAST_DEFAULT || mode == NPUC_CAST_UNSIGNED || !float_src;
  if (dst->dtype == src->dtype && keeps_value) {
    npuc_rti_copy_strided(dst, src->data, src->offset, src->strides);
    return;
  }
  cast_rows(dst, src, mode);
}

static rt_rounding rounding_of(npuc_cast_mode mode) {
  switch (mode) {
  case NPUC_CAST_ROUND: return RT_ROUND_NEAREST_AWAY;
  case NPUC_CAST_FLOOR: return RT_ROUND_DOWN;
  case NPUC_CAST_CEIL: return RT_ROUND_UP;
  case NPUC_CAST_TRUNC: return RT_ROUND_TOWARD_ZERO;
  default: return RT_ROUND_NEAREST_EVEN;
  }
}

int64_t npuc_rti_float_to_int(double v, npuc_cast_mode mode, npuc_dtype dt) {
  if (isnan(v))
    return 0;
  switch (mode) {
  case NPUC_CAST_RINT: v = nearbyint(v); break;
  case NPUC_CAST_ROUND: v = round(v); break;
  case NPUC_CAST_FLOOR: v = floor(v); break;
  case NPUC_CAST_CEIL: v = ceil(v); break;
  default: v = trunc(v); break;
  }
  if (dt == NPUC_DT_I1)
    return v >= 1 ? 1 : 0;
  int w = npuc_rti_int_width(dt);
  double limit = ldexp(1.0, w - 1); /* 2^(w-1): exact, just past the max */
  if (v >= limit)
    return w == 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
  if (v < -limit)
    return w == 64 ? INT64_MIN : -(INT64_C(1) << (w - 1));
  return (int64_t)v;
}

/* ---- per-chunk conversions ---------------------------------------------- */

typedef enum {
  PATH_F32, /* among f16/bf16/f32, nearest even: float in, float out */
  PATH_FLOAT_TO_FLOAT,
  PATH_FLOAT_TO_INT,
  PATH_INT_TO_FLOAT,
  PATH_INT_TO_INT,
} cast_path;

static cast_path choose_path(npuc_dtype to, npuc_dtype from,
                             npuc_cast_mode mode);
static void convert_chunk(cast_path path, void *out, const void *in, size_t n,
                          npuc_dtype to, npuc_dtype from, npuc_cast_mode mode);

static void cast_rows(const npuc_buf *dst, const npuc_buf *src,
                      npuc_cast_mode mode) {
  cast_path path = choose_path(dst->dtype, src->dtype, mode);
  rt_ct in_ct = path == PATH_F32               ? RT_CT_F32
                : npuc_rt_is_float(src->dtype) ? RT_CT_F64
                                               : RT_CT_I64;
  rt_ct out_ct = path == PATH_F32               ? RT_CT_F32
                 : npuc_rt_is_float(dst->dtype) ? RT_CT_F64
                                                : RT_CT_I64;
  rt_loop l;
  npuc_rti_loop_init(&l, dst->rank, dst->sizes);
  npuc_rti_loop_add(&l, dst->offset, dst->strides);
  npuc_rti_loop_add(&l, src->offset, src->strides);
  npuc_rti_loop_finish(&l);
  size_t n = (size_t)rt_loop_row_len(&l);
  int64_t ds = rt_loop_row_stride(&l, 0), ss = rt_loop_row_stride(&l, 1);
  _Alignas(64) unsigned char in[RT_CHUNK * 8], out[RT_CHUNK * 8];
  for (; l.rows > 0; npuc_rti_loop_next_row(&l)) {
    for (size_t start = 0; start < n; start += RT_CHUNK) {
      size_t len = n - start < RT_CHUNK ? n - start : RT_CHUNK;
      npuc_rti_row_load(in_ct, in, src, l.offset[1] + (int64_t)start * ss, ss,
                        len);
      convert_chunk(path, out, in, len, dst->dtype, src->dtype, mode);
      npuc_rti_row_store(out_ct, out, dst, l.offset[0] + (int64_t)start * ds,
                         ds, len);
    }
  }
}

static bool is_f32_family(npuc_dtype dt) {
  return dt == NPUC_DT_F16 || dt == NPUC_DT_BF16 || dt == NPUC_DT_F32;
}

static cast_path choose_path(npuc_dtype to, npuc_dtype from,
                             npuc_cast_mode mode) {
  bool float_to = npuc_rt_is_float(to), float_from = npuc_rt_is_float(from);
  /* f16/bf16 -> f32 is exact and f32 -> f16/bf16 rounds to nearest even
   * in one step: the float row loads and stores do exactly the cast. */
  if (is_f32_family(to) && is_f32_family(from) && to != from &&
      rounding_of(mode) == RT_ROUND_NEAREST_EVEN)
    return PATH_F32;
  if (float_from)
    return float_to ? PATH_FLOAT_TO_FLOAT : PATH_FLOAT_TO_INT;
  return float_to ? PATH_INT_TO_FLOAT : PATH_INT_TO_INT;
}

static double float_to_float(double v, npuc_dtype to, npuc_dtype from,
                             npuc_cast_mode mode);
static double int_to_float(int64_t v, bool is_unsigned, npuc_dtype to,
                           npuc_cast_mode mode);
static int64_t zero_extend(int64_t v, npuc_dtype from);

/* Float results are produced already rounded to `to`, as doubles (exact),
 * so the row store that follows changes nothing. */
static void convert_chunk(cast_path path, void *out, const void *in, size_t n,
                          npuc_dtype to, npuc_dtype from, npuc_cast_mode mode) {
  const double *fin = in;
  const int64_t *iin = in;
  double *fout = out;
  int64_t *iout = out;
  bool is_unsigned = mode == NPUC_CAST_UNSIGNED;
  switch (path) {
  case PATH_F32: memcpy(out, in, n * sizeof(float)); return;
  case PATH_FLOAT_TO_FLOAT:
    for (size_t i = 0; i < n; i++)
      fout[i] = float_to_float(fin[i], to, from, mode);
    return;
  case PATH_FLOAT_TO_INT:
    for (size_t i = 0; i < n; i++)
      iout[i] = npuc_rti_float_to_int(fin[i], mode, to);
    return;
  case PATH_INT_TO_FLOAT:
    for (size_t i = 0; i < n; i++) {
      int64_t v = is_unsigned ? zero_extend(iin[i], from) : iin[i];
      fout[i] = int_to_float(v, is_unsigned, to, mode);
    }
    return;
  case PATH_INT_TO_INT:
    for (size_t i = 0; i < n; i++)
      iout[i] = is_unsigned ? zero_extend(iin[i], from) : iin[i];
    return;
  }
}

static double float_to_float(double v, npuc_dtype to, npuc_dtype from,
                             npuc_cast_mode mode) {
  if (to != from)
    return npuc_rti_float_bits_to_double(
        npuc_rti_float_bits_from_double(v, to, rounding_of(mode)), to);
  /* Same dtype with a rounding mode: round to an integral value. The
   * result is representable in the dtype (values that large already are
   * integers). */
  switch (mode) {
  case NPUC_CAST_RINT: return nearbyint(v);
  case NPUC_CAST_ROUND: return round(v);
  case NPUC_CAST_FLOOR: return floor(v);
  case NPUC_CAST_CEIL: return ceil(v);
  case NPUC_CAST_TRUNC: return trunc(v);
  default: return v;
  }
}

/* `v` holds the integer; with is_unsigned its bits are read as uint64. */
static double int_to_float(int64_t v, bool is_unsigned, npuc_dtype to,
                           npuc_cast_mode mode) {
  bool neg = !is_unsigned && v < 0;
  uint64_t mag = neg ? 0 - (uint64_t)v : (uint64_t)v;
  return npuc_rti_float_bits_to_double(
      npuc_rti_float_bits_from_int(neg, mag, to, rounding_of(mode)), to);
}

/* Loads sign-extend; UNSIGNED wants the source bits as they are. */
static int64_t zero_extend(int64_t v, npuc_dtype from) {
  int w = npuc_rti_int_width(from);
  return w == 64 ? v : (int64_t)((uint64_t)v & ((UINT64_C(1) << w) - 1));
}
