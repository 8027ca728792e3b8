/* Shared by the parts of libnpuc_aie1_rt; not public. */
#ifndef NPUC_AIE1_RT_INTERNAL_H
#define NPUC_AIE1_RT_INTERNAL_H

#include "npuc/Aie1Runtime.h"

#include <stddef.h>

/* Records why an op failed in ctx->error; returns false for `return
 * aie1_error(...)`. */
bool aie1_error(npuc_aie1_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *aie1_elem_name(npuc_aie1_elem elem);
bool aie1_is_acc(npuc_aie1_elem elem);
bool aie1_is_int_data(npuc_aie1_elem elem);
/* Fails unless v has a shape npuc_aie1_vec_init accepts. */
bool aie1_check_vec(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v,
                    const char *what);
/* Reinterprets two's-complement bits as signed, without
 * implementation-defined conversions. */
int64_t aie1_s64(uint64_t u);
/* The low `bits` bits of v, sign-extended (bits in 1..64). */
int64_t aie1_sext(uint64_t v, int bits);

/* Integer lanes of data vectors as int64, and back (keeping the low bits). */
int64_t aie1_get_int(const npuc_aie1_vec *v, int32_t lane);
void aie1_set_int(npuc_aie1_vec *v, int32_t lane, int64_t value);
/* out lane `to` = src lane `from`, any element kind (same kind). */
void aie1_copy_lane(npuc_aie1_vec *out, int32_t to, const npuc_aie1_vec *src,
                    int32_t from);

/* ---- 128-bit two's-complement integers for accumulator lanes ------------ */

typedef struct {
  uint64_t lo, hi;
} aie1_wide;

aie1_wide aie1_wide_from_i64(int64_t v);
aie1_wide aie1_wide_add(aie1_wide a, aie1_wide b);
aie1_wide aie1_wide_neg(aie1_wide a);
aie1_wide aie1_wide_shl(aie1_wide a, int s); /* 0 <= s < 64 */
aie1_wide aie1_wide_sar(aie1_wide a, int s); /* 0 <= s < 64, arithmetic */
bool aie1_wide_is_neg(aie1_wide a);
/* -1, 0, 1 as a < b, a == b, a > b (signed). */
int aie1_wide_cmp(aie1_wide a, aie1_wide b);
/* Wraps to `bits` (48 or 80) bits, sign-extending from the top one. */
aie1_wide aie1_wide_wrap(aie1_wide a, int bits);

/* Accumulator lanes (ACC48 or ACC80) as wide integers, and back (wrapped to
 * the lane's width). */
aie1_wide aie1_get_acc(const npuc_aie1_vec *v, int32_t lane);
void aie1_set_acc(npuc_aie1_vec *v, int32_t lane, aie1_wide value);

/* ---- lane addressing --------------------------------------------------- */

/* Nibble k of w (k = 0 is the least significant). */
unsigned aie1_nib(uint32_t w, int k);
/* Nibble k of the 16-nibble pair (lo, hi): lo serves 0..7, hi 8..15. */
unsigned aie1_off16(uint32_t lo, uint32_t hi, int k);
/* i mod n. Indices are never negative: starts, offsets and steps are
 * unsigned. */
int32_t aie1_wrap_index(int64_t i, int32_t n);
/* Fails unless the four nibbles of a square select one of four candidates
 * (0..3) and nothing is set above them. */
bool aie1_check_square(npuc_aie1_ctx *ctx, uint32_t square, const char *name);
/* The 16-bit permute (UG1078 RA_16): the element that slot s takes, with
 * quad s/4 built from the even/odd offset nibbles and position s%4 chosen
 * by the square. Not wrapped. */
int64_t aie1_ra16(const npuc_aie1_addr *a, int32_t s);

#endif
