/* Checked: int64 size arithmetic that says when it overflows instead of
 * wrapping (signed overflow is undefined in C). For sizes, offsets,
 * strides, tile and element counts computed from input: a false result is
 * the caller's cue for a located error naming the value. */
#ifndef NPUC_CHECKED_H
#define NPUC_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* *out = a * b; false (and *out unchanged) when it does not fit. */
bool npuc_checked_mul(int64_t a, int64_t b, int64_t *out);
/* *out = a + b; false (and *out unchanged) when it does not fit. */
bool npuc_checked_add(int64_t a, int64_t b, int64_t *out);
/* *out = ceil(a / b); false for b == 0 and INT64_MIN / -1. */
bool npuc_checked_ceil_div(int64_t a, int64_t b, int64_t *out);
/* *out = dims[0] * ... * dims[n-1] (1 for n == 0); false on overflow. */
bool npuc_checked_product(const int64_t *dims, int n, int64_t *out);

#endif
