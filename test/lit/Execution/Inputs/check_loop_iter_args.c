#include "refcheck.h"

int main(int argc, char **argv) {
  (void)argc;
  float *x = read_bin(argv[1], "in/arg0.bin", 5 * 32 * 4);
  float *out = read_bin(argv[1], "arg1.bin", 32 * 4);
  int32_t *count = read_bin(argv[1], "arg2.bin", 4);
  size_t bad = count[0] != 5;
  for (int c = 0; c < 32; ++c) {
    float s = 0;
    for (int r = 0; r < 5; ++r)
      s = s + x[r * 32 + c];
    bad += out[c] != s;
  }
  return report("running sum and count", bad, 33);
}
