/* Contexts, errors, vectors and lane access. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exit status of libnpuc_hivm_rt's npuc_rt_fail too: a driver can tell
 * "the model refused" from a crash or the kernel's own status. */
enum { RT_FAIL_STATUS = 3 };

void npuc_aie1_ctx_init(npuc_aie1_ctx *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->round = NPUC_AIE1_RND_FLOOR;
  ctx->sat = NPUC_AIE1_SAT_NONE;
}

void npuc_aie1_fail(const npuc_aie1_ctx *ctx, const char *loc) {
  fflush(stdout);
  fprintf(stderr, "%s: error: %s\n", loc ? loc : "<unknown>",
          ctx->error[0] ? ctx->error : "AIE1 model failure");
  fflush(stderr);
  exit(RT_FAIL_STATUS);
}

bool aie1_error(npuc_aie1_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
  va_end(ap);
  return false;
}

int32_t npuc_aie1_elem_bits(npuc_aie1_elem elem) {
  switch (elem) {
  case NPUC_AIE1_I8: return 8;
  case NPUC_AIE1_I16: return 16;
  case NPUC_AIE1_I32: return 32;
  case NPUC_AIE1_F32: return 32;
  case NPUC_AIE1_ACC48: return 48;
  case NPUC_AIE1_ACC80: return 80;
  case NPUC_AIE1_I64: return 64;
  }
  return 0;
}

const char *aie1_elem_name(npuc_aie1_elem elem) {
  switch (elem) {
  case NPUC_AIE1_I8: return "i8";
  case NPUC_AIE1_I16: return "i16";
  case NPUC_AIE1_I32: return "i32";
  case NPUC_AIE1_F32: return "f32";
  case NPUC_AIE1_ACC48: return "i48";
  case NPUC_AIE1_ACC80: return "i80";
  case NPUC_AIE1_I64: return "i64";
  }
  return "?";
}

bool aie1_is_acc(npuc_aie1_elem elem) {
  return elem == NPUC_AIE1_ACC48 || elem == NPUC_AIE1_ACC80;
}

bool aie1_is_int_data(npuc_aie1_elem elem) {
  return elem == NPUC_AIE1_I8 || elem == NPUC_AIE1_I16 || elem == NPUC_AIE1_I32;
}

/* Registers are 128, 256, 512 or 1024 bits; accumulator registers hold 4,
 * 8 or 16 lanes. */
static bool shape_ok(npuc_aie1_elem elem, int32_t lanes) {
  if (aie1_is_acc(elem))
    return lanes == 4 || lanes == 8 || lanes == 16;
  int32_t bits = npuc_aie1_elem_bits(elem);
  if (bits == 0 || lanes <= 0)
    return false;
  int64_t total = (int64_t)lanes * bits;
  return total == 128 || total == 256 || total == 512 || total == 1024;
}

bool npuc_aie1_vec_init(npuc_aie1_ctx *ctx, npuc_aie1_vec *v,
                        npuc_aie1_elem elem, int32_t lanes) {
  if (!shape_ok(elem, lanes))
    return aie1_error(ctx, "no AIE1 register holds vector<%dx%s>", (int)lanes,
                      aie1_elem_name(elem));
  memset(v, 0, sizeof *v);
  v->elem = elem;
  v->lanes = lanes;
  return true;
}

bool aie1_check_vec(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                    const char *what) {
  if (!v)
    return aie1_error(ctx, "%s is missing", what);
  if (!shape_ok(v->elem, v->lanes))
    return aie1_error(ctx, "%s: no AIE1 register holds vector<%dx%s>", what,
                      (int)v->lanes, aie1_elem_name(v->elem));
  return true;
}

int64_t aie1_s64(uint64_t u) {
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

int64_t aie1_sext(uint64_t v, int bits) {
  if (bits >= 64)
    return aie1_s64(v);
  uint64_t mask = (UINT64_C(1) << bits) - 1, sign = UINT64_C(1) << (bits - 1);
  v &= mask;
  return aie1_s64(v & sign ? v | ~mask : v);
}

int64_t aie1_get_int(const npuc_aie1_vec *v, int32_t lane) {
  switch (v->elem) {
  case NPUC_AIE1_I8: return v->u.i8[lane];
  case NPUC_AIE1_I16: return v->u.i16[lane];
  case NPUC_AIE1_I32: return v->u.i32[lane];
  case NPUC_AIE1_ACC48: return v->u.acc48[lane];
  case NPUC_AIE1_I64: return v->u.i64[lane];
  default: return 0;
  }
}

void aie1_set_int(npuc_aie1_vec *v, int32_t lane, int64_t value) {
  uint64_t bits = (uint64_t)value;
  switch (v->elem) {
  case NPUC_AIE1_I8: v->u.i8[lane] = (int8_t)aie1_sext(bits, 8); break;
  case NPUC_AIE1_I16: v->u.i16[lane] = (int16_t)aie1_sext(bits, 16); break;
  case NPUC_AIE1_I32: v->u.i32[lane] = (int32_t)aie1_sext(bits, 32); break;
  case NPUC_AIE1_ACC48: v->u.acc48[lane] = aie1_sext(bits, 48); break;
  case NPUC_AIE1_I64: v->u.i64[lane] = value; break;
  default: break;
  }
}

void aie1_copy_lane(npuc_aie1_vec *out, int32_t to, const npuc_aie1_vec *src,
                    int32_t from) {
  switch (src->elem) {
  case NPUC_AIE1_F32: out->u.f32[to] = src->u.f32[from]; break;
  case NPUC_AIE1_ACC80: out->u.acc80[to] = src->u.acc80[from]; break;
  default: aie1_set_int(out, to, aie1_get_int(src, from)); break;
  }
}

npuc_aie1_i80 npuc_aie1_i80_from_i64(int64_t v) {
  npuc_aie1_i80 r = {(uint64_t)v, v < 0 ? -1 : 0};
  return r;
}

bool npuc_aie1_i80_to_i64(npuc_aie1_i80 v, int64_t *out) {
  bool neg = v.lo > (uint64_t)INT64_MAX;
  if (v.hi != (neg ? -1 : 0))
    return false;
  *out = aie1_s64(v.lo);
  return true;
}
