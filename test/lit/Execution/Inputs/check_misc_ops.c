#include "refcheck.h"

int main(int argc, char **argv) {
  const char *d = argv[1];
  float *x = read_bin(d, "in/arg0.bin", 32 * 4),
        *y = read_bin(d, "in/arg1.bin", 32 * 4);
  float *sel = read_bin(d, "arg2.bin", 32 * 4),
        *tr = read_bin(d, "arg3.bin", 32 * 4);
  int32_t *ar = read_bin(d, "arg4.bin", 8 * 4);
  float *ins = read_bin(d, "arg5.bin", 32 * 4);
  int64_t *sc = read_bin(d, "arg6.bin", 4 * 8);
  size_t bad = 0;
  for (int k = 0; k < 32; ++k)
    bad += sel[k] != (x[k] > y[k] ? x[k] : y[k]);
  int rc = report("select(x > y, x, y)", bad, 32);
  bad = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c)
      bad += tr[r * 4 + c] != x[c * 8 + r];
  rc |= report("transpose", bad, 32);
  bad = 0;
  for (int k = 0; k < 8; ++k)
    bad += ar[k] != 3 + 2 * k;
  rc |= report("arange", bad, 8);
  bad = 0;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) {
      float want =
          (r >= 2 && c >= 4) ? x[8 + (r - 2) * 4 + (c - 4)] : y[r * 8 + c];
      bad += ins[r * 8 + c] != want;
    }
  rc |= report("insert_slice of a reshaped slice", bad, 32);
  /* while: 7 -> 3 -> 1 while i > 1; if n > 3: min(7, 2n + 1), else 0. */
  int64_t n = argc > 2 ? atoll(argv[2]) : 2;
  int64_t pick = n > 3 ? (7 < 2 * n + 1 ? 7 : 2 * n + 1) : 0;
  int64_t want[4] = {(int64_t)(x[2 * 8 + 3] + x[2 * 8 + 3]), 1, pick, 8};
  bad = 0;
  for (int k = 0; k < 4; ++k)
    if (sc[k] != want[k] && ++bad)
      printf("scalar %d: %lld, want %lld\n", k, (long long)sc[k],
             (long long)want[k]);
  return rc | report("scalars", bad, 4);
}
