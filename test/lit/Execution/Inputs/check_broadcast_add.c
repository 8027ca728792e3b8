#include "refcheck.h"

int main(int argc, char **argv) {
  (void)argc;
  float *a = read_bin(argv[1], "in/arg0.bin", 128 * 4);
  float *b = read_bin(argv[1], "in/arg1.bin", 8 * 4);
  float *out = read_bin(argv[1], "arg3.bin", 128 * 4);
  size_t bad = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 16; ++c) {
      float sum = a[r * 16 + c] + b[r];
      bad += out[r * 16 + c] != sum * 1.5f;
    }
  return report("(a + b) * s", bad, 128);
}
