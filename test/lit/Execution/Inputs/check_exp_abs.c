/* |exp(x)| in f16, within one unit in the last place of a C reference. */
#include "refcheck.h"

int main(int argc, char **argv) {
  (void)argc;
  uint16_t *x = read_bin(argv[1], "in/arg0.bin", 64 * 2);
  uint16_t *y = read_bin(argv[1], "arg1.bin", 64 * 2);
  size_t bad = 0;
  for (int i = 0; i < 64; ++i) {
    uint16_t want = float_to_half(fabsf(expf(half_to_float(x[i]))));
    int ulps = abs((int)(y[i] & 0x7fff) - (int)(want & 0x7fff));
    if ((y[i] & 0x8000) || ulps > 1) {
      printf("element %d: exp(%g) gave %g, want %g\n", i, half_to_float(x[i]),
             half_to_float(y[i]), half_to_float(want));
      ++bad;
    }
  }
  return report("|exp(x)| within 1 ulp", bad, 64);
}
