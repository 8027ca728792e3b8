/* include/npuc/Checked.h: GCC's overflow builtins, which compute the
 * wrapped result and report whether it wrapped, without undefined
 * behaviour. */
#include "npuc/Checked.h"

bool npuc_checked_mul(int64_t a, int64_t b, int64_t *out) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return false;
  *out = r;
  return true;
}

bool npuc_checked_add(int64_t a, int64_t b, int64_t *out) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return false;
  *out = r;
  return true;
}

/* C's division truncates toward zero; the quotient is one too small
 * exactly when there is a remainder and the true quotient is positive.
 * Computed without a + b - 1, which can overflow. */
bool npuc_checked_ceil_div(int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return false;
  int64_t q = a / b;
  if (a % b != 0 && (a < 0) == (b < 0))
    q++;
  *out = q;
  return true;
}

bool npuc_checked_product(const int64_t *dims, int n, int64_t *out) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    if (!npuc_checked_mul(p, dims[i], &p))
      return false;
  *out = p;
  return true;
}
