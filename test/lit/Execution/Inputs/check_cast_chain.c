#include "refcheck.h"

int main(int argc, char **argv) {
  (void)argc;
  float *x = read_bin(argv[1], "in/arg0.bin", 256 * 4);
  int32_t *out = read_bin(argv[1], "arg1.bin", 256 * 4);
  size_t bad = 0;
  for (int k = 0; k < 256; ++k) {
    int32_t want = (int32_t)half_to_float(float_to_half(x[k]));
    if (out[k] != want && bad++ < 5)
      printf("element %d: %.9g gave %d, want %d\n", k, x[k], out[k], want);
  }
  return report("f32 -> f16 -> f32 -> i32", bad, 256);
}
