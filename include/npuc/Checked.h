/* Checked: int64 size arithmetic that says when it overflows instead of
 * wrapping (signed overflow is undefined in C). For sizes, offsets,
 * strides, tile and element counts computed from input: a false result is
 * the caller's cue for a located error naming the value.
 *
 * Header-only (GCC's overflow builtins, which compute the wrapped result
 * and report whether it wrapped, without undefined behaviour), so that
 * code the runtimes share with the compiler (lib/Common) can use it
 * without linking lib/Support. */
#ifndef NPUC_CHECKED_H
#define NPUC_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* *out = a * b; false (and *out unchanged) when it does not fit. */
static inline bool npuc_checked_mul(int64_t a, int64_t b, int64_t *out) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return false;
  *out = r;
  return true;
}

/* *out = a + b; false (and *out unchanged) when it does not fit. */
static inline bool npuc_checked_add(int64_t a, int64_t b, int64_t *out) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return false;
  *out = r;
  return true;
}

/* *out = ceil(a / b); false for b == 0 and INT64_MIN / -1. C's division
 * truncates toward zero; the quotient is one too small exactly when there
 * is a remainder and the true quotient is positive. Computed without
 * a + b - 1, which can overflow. */
static inline bool npuc_checked_ceil_div(int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return false;
  int64_t q = a / b;
  if (a % b != 0 && (a < 0) == (b < 0))
    q++;
  *out = q;
  return true;
}

/* *out = dims[0] * ... * dims[n-1] (1 for n == 0); false on overflow. */
static inline bool npuc_checked_product(const int64_t *dims, int n,
                                        int64_t *out) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    if (!npuc_checked_mul(p, dims[i], &p))
      return false;
  *out = p;
  return true;
}

/* *out = ceil(a / b) * b: a rounded up to a multiple of b (> 0); false
 * when it does not fit. */
static inline bool npuc_checked_align_up(int64_t a, int64_t b, int64_t *out) {
  int64_t q;
  return b > 0 && npuc_checked_ceil_div(a, b, &q) &&
         npuc_checked_mul(q, b, out);
}

#endif
