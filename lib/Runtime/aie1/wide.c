/* 128-bit two's-complement arithmetic for accumulator lanes, in portable
 * C11 (no __int128): 80-bit accumulators hold sums of 63-bit products, and
 * srs must see their exact value to round and saturate. */
#include "internal.h"

aie1_wide aie1_wide_from_i64(int64_t v) {
  aie1_wide r = {(uint64_t)v, v < 0 ? UINT64_MAX : 0};
  return r;
}

aie1_wide aie1_wide_add(aie1_wide a, aie1_wide b) {
  aie1_wide r = {a.lo + b.lo, a.hi + b.hi};
  r.hi += r.lo < a.lo; /* carry */
  return r;
}

aie1_wide aie1_wide_neg(aie1_wide a) {
  aie1_wide inv = {~a.lo, ~a.hi}, one = {1, 0};
  return aie1_wide_add(inv, one);
}

aie1_wide aie1_wide_shl(aie1_wide a, int s) {
  if (s == 0)
    return a;
  aie1_wide r = {a.lo << s, (a.hi << s) | (a.lo >> (64 - s))};
  return r;
}

bool aie1_wide_is_neg(aie1_wide a) { return (a.hi >> 63) != 0; }

aie1_wide aie1_wide_sar(aie1_wide a, int s) {
  if (s == 0)
    return a;
  uint64_t fill = aie1_wide_is_neg(a) ? ~(UINT64_MAX >> s) : 0;
  aie1_wide r = {(a.lo >> s) | (a.hi << (64 - s)), (a.hi >> s) | fill};
  return r;
}

int aie1_wide_cmp(aie1_wide a, aie1_wide b) {
  bool na = aie1_wide_is_neg(a), nb = aie1_wide_is_neg(b);
  if (na != nb)
    return na ? -1 : 1;
  /* Same sign: the unsigned order of the bits is the signed order. */
  if (a.hi != b.hi)
    return a.hi < b.hi ? -1 : 1;
  if (a.lo != b.lo)
    return a.lo < b.lo ? -1 : 1;
  return 0;
}

aie1_wide aie1_wide_wrap(aie1_wide a, int bits) {
  if (bits <= 64) {
    int64_t v = aie1_sext(a.lo, bits);
    return aie1_wide_from_i64(v);
  }
  aie1_wide r = {a.lo, (uint64_t)aie1_sext(a.hi, bits - 64)};
  return r;
}

aie1_wide aie1_get_acc(const npuc_aie1_vec *v, int32_t lane) {
  if (v->elem == NPUC_AIE1_ACC48)
    return aie1_wide_from_i64(v->u.acc48[lane]);
  aie1_wide r = {v->u.acc80[lane].lo, (uint64_t)v->u.acc80[lane].hi};
  return r;
}

void aie1_set_acc(npuc_aie1_vec *v, int32_t lane, aie1_wide value) {
  if (v->elem == NPUC_AIE1_ACC48) {
    v->u.acc48[lane] = aie1_sext(value.lo, 48);
    return;
  }
  aie1_wide w = aie1_wide_wrap(value, 80);
  v->u.acc80[lane].lo = w.lo;
  v->u.acc80[lane].hi = aie1_s64(w.hi);
}
