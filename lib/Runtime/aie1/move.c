/* Data movement: upd, store, concat, ext, broadcast, shift, pack. */
#include "internal.h"

static bool check_bounds(npuc_aie1_ctx *ctx, const void *mem, int64_t mem_len,
                         int64_t first, int64_t count, const char *op);
static void load_lanes(npuc_aie1_vec *out, int32_t to, const void *mem,
                       int64_t first, int32_t count);

bool npuc_aie1_upd(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *prev, const void *mem, int64_t mem_len,
                   npuc_aie1_elem elem, int32_t lanes, int64_t linear_index,
                   int32_t offset_bits, int32_t index) {
  npuc_aie1_vec r;
  if (aie1_is_acc(elem) || elem == NPUC_AIE1_I64)
    return aie1_error(ctx, "upd loads data vectors, not vector<%dx%s>",
                      (int)lanes, aie1_elem_name(elem));
  if (!npuc_aie1_vec_init(ctx, &r, elem, lanes))
    return false;
  int32_t eb = npuc_aie1_elem_bits(elem);
  if (offset_bits % eb != 0)
    return aie1_error(ctx, "upd offset %d bits is not a whole number of %s",
                      (int)offset_bits, aie1_elem_name(elem));
  int32_t whole_bits = ctx->aieml ? 512 : 256; /* the load width */
  bool whole = lanes * eb <= whole_bits;
  if (index != 0 && (whole || index != 1))
    return aie1_error(ctx, "upd index %d: a vector of %d bits has %s",
                      (int)index, (int)(lanes * eb),
                      whole ? "only index 0 (it is read whole)"
                            : "index 0 (low half) and 1 (high half)");
  if (prev && (whole || prev->elem != elem || prev->lanes != lanes))
    return whole ? aie1_error(ctx,
                              "upd of a vector of at most %d bits reads it "
                              "whole and updates no vector",
                              (int)whole_bits)
                 : aie1_error(ctx, "upd updates a vector of another type");
  int32_t count = whole ? lanes : lanes / 2;
  int64_t first = linear_index + offset_bits / eb;
  if (!check_bounds(ctx, mem, mem_len, first, count, "upd"))
    return false;
  if (prev)
    r = *prev;
  load_lanes(&r, whole ? 0 : index * count, mem, first, count);
  *out = r;
  return true;
}

/* Vectorized loops read up to a vector past the data they use (e.g.
 * vector<8xi32> of memref<9xi32> at 8): the caller gives buffers slack. */
static bool check_bounds(npuc_aie1_ctx *ctx, const void *mem, int64_t mem_len,
                         int64_t first, int64_t count, const char *op) {
  if (!mem)
    return aie1_error(ctx, "%s: no buffer", op);
  if (first < 0 || mem_len < 0 || first > mem_len - count)
    return aie1_error(ctx,
                      "%s of %lld elements from element %lld: outside a "
                      "buffer of %lld (give buffers a vector of slack)",
                      op, (long long)count, (long long)first,
                      (long long)mem_len);
  return true;
}

static void load_lanes(npuc_aie1_vec *out, int32_t to, const void *mem,
                       int64_t first, int32_t count) {
  for (int32_t k = 0; k < count; ++k) {
    int64_t a = first + k;
    switch (out->elem) {
    case NPUC_AIE1_I8: out->u.i8[to + k] = ((const int8_t *)mem)[a]; break;
    case NPUC_AIE1_I16: out->u.i16[to + k] = ((const int16_t *)mem)[a]; break;
    case NPUC_AIE1_I32: out->u.i32[to + k] = ((const int32_t *)mem)[a]; break;
    case NPUC_AIE1_F32: out->u.f32[to + k] = ((const float *)mem)[a]; break;
    default: break;
    }
  }
}

static void store_lane(const npuc_aie1_vec *v, int32_t k, void *mem,
                       int64_t a) {
  switch (v->elem) {
  case NPUC_AIE1_I8: ((int8_t *)mem)[a] = v->u.i8[k]; break;
  case NPUC_AIE1_I16: ((int16_t *)mem)[a] = v->u.i16[k]; break;
  case NPUC_AIE1_I32: ((int32_t *)mem)[a] = v->u.i32[k]; break;
  case NPUC_AIE1_F32: ((float *)mem)[a] = v->u.f32[k]; break;
  default: break;
  }
}

bool npuc_aie1_store(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v, void *mem,
                     int64_t mem_len, int64_t linear_index, int32_t count) {
  if (!aie1_check_vec(ctx, v, "store"))
    return false;
  if (aie1_is_acc(v->elem) || v->elem == NPUC_AIE1_I64)
    return aie1_error(ctx, "store writes data vectors; srs an accumulator "
                           "first");
  if (count < 0 || count > v->lanes)
    return aie1_error(ctx, "store of %d lanes of a %d-lane vector", (int)count,
                      (int)v->lanes);
  if (!check_bounds(ctx, mem, mem_len, linear_index, count, "store"))
    return false;
  for (int32_t k = 0; k < count; ++k)
    store_lane(v, k, mem, linear_index + k);
  return true;
}

bool npuc_aie1_concat(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *const *srcs, int32_t count) {
  if (count < 1 || !srcs)
    return aie1_error(ctx, "concat of no vectors");
  for (int32_t j = 0; j < count; ++j) {
    if (!aie1_check_vec(ctx, srcs[j], "concat operand"))
      return false;
    if (srcs[j]->elem != srcs[0]->elem || srcs[j]->lanes != srcs[0]->lanes)
      return aie1_error(ctx, "concat operand %d differs from operand 0",
                        (int)j);
  }
  int32_t n = srcs[0]->lanes;
  npuc_aie1_vec r;
  if ((int64_t)n * count > NPUC_AIE1_MAX_LANES ||
      !npuc_aie1_vec_init(ctx, &r, srcs[0]->elem, n * count))
    return aie1_error(ctx, "concat of %d x vector<%dx%s> fits no register",
                      (int)count, (int)n, aie1_elem_name(srcs[0]->elem));
  for (int32_t j = 0; j < count; ++j)
    for (int32_t k = 0; k < n; ++k)
      aie1_copy_lane(&r, j * n + k, srcs[j], k);
  *out = r;
  return true;
}

bool npuc_aie1_ext(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *src, int32_t lanes, int32_t index) {
  npuc_aie1_vec r;
  if (!aie1_check_vec(ctx, src, "ext operand") ||
      !npuc_aie1_vec_init(ctx, &r, src->elem, lanes))
    return false;
  if (index < 0 || ((int64_t)index + 1) * lanes > src->lanes)
    return aie1_error(ctx,
                      "ext index %d: a %d-lane vector has %d slices of "
                      "%d lanes",
                      (int)index, (int)src->lanes, (int)(src->lanes / lanes),
                      (int)lanes);
  for (int32_t k = 0; k < lanes; ++k)
    aie1_copy_lane(&r, k, src, index * lanes + k);
  *out = r;
  return true;
}

bool npuc_aie1_broadcast(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                         const npuc_aie1_vec *src, int32_t idx) {
  if (!aie1_check_vec(ctx, src, "broadcast operand"))
    return false;
  if (idx < 0 || idx >= src->lanes)
    return aie1_error(ctx, "broadcast idx %d of a %d-lane vector", (int)idx,
                      (int)src->lanes);
  npuc_aie1_vec r = *src;
  for (int32_t k = 0; k < r.lanes; ++k)
    aie1_copy_lane(&r, k, src, idx);
  *out = r;
  return true;
}

bool npuc_aie1_shift(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                     const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                     int32_t shift_bytes) {
  if (!aie1_check_vec(ctx, lhs, "shift lhs") ||
      !aie1_check_vec(ctx, rhs, "shift rhs"))
    return false;
  if (aie1_is_acc(lhs->elem) || lhs->elem != rhs->elem ||
      lhs->lanes != rhs->lanes)
    return aie1_error(ctx, "shift takes two data vectors of one type");
  int32_t eb = npuc_aie1_elem_bits(lhs->elem) / 8;
  if (shift_bytes < 0 || shift_bytes > lhs->lanes * eb || shift_bytes % eb != 0)
    return aie1_error(ctx,
                      "shift by %d bytes: must be a multiple of %d in "
                      "[0, %d]",
                      (int)shift_bytes, (int)eb, (int)(lhs->lanes * eb));
  npuc_aie1_vec r = *lhs;
  int32_t n = lhs->lanes, first = shift_bytes / eb;
  for (int32_t k = 0; k < n; ++k) {
    int32_t at = first + k;
    aie1_copy_lane(&r, k, at < n ? lhs : rhs, at < n ? at : at - n);
  }
  *out = r;
  return true;
}

/* Clamps to the i8 (or u8) range unless saturation is off; the caller then
 * keeps the low 8 bits. */
static int64_t narrow8(npuc_aie1_sat sat, int64_t v, bool is_unsigned) {
  if (sat == NPUC_AIE1_SAT_NONE)
    return v;
  int64_t lo = is_unsigned ? 0 : sat == NPUC_AIE1_SAT_SYMMETRIC ? -127 : -128;
  int64_t hi = is_unsigned ? 255 : 127;
  return v < lo ? lo : v > hi ? hi : v;
}

bool npuc_aie1_pack(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                    const npuc_aie1_vec *src, bool is_unsigned) {
  npuc_aie1_vec r;
  if (!aie1_check_vec(ctx, src, "pack operand"))
    return false;
  if (src->elem != NPUC_AIE1_I16)
    return aie1_error(ctx, "pack narrows i16 lanes, not %s",
                      aie1_elem_name(src->elem));
  if (!npuc_aie1_vec_init(ctx, &r, NPUC_AIE1_I8, src->lanes))
    return false;
  for (int32_t k = 0; k < src->lanes; ++k)
    aie1_set_int(&r, k,
                 narrow8(ctx->sat,
                         is_unsigned ? (int64_t)(uint16_t)src->u.i16[k]
                                     : (int64_t)src->u.i16[k],
                         is_unsigned));
  *out = r;
  return true;
}
