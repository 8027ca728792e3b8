/* Row sums (accumulated in float, left to right) and column maxima. */
#include "refcheck.h"

int main(int argc, char **argv) {
  (void)argc;
  float *x = read_bin(argv[1], "in/arg0.bin", 16 * 32 * 4);
  float *sums = read_bin(argv[1], "arg1.bin", 16 * 4);
  float *maxes = read_bin(argv[1], "arg2.bin", 32 * 4);
  size_t bad = 0;
  for (int r = 0; r < 16; ++r) {
    float s = 0;
    for (int c = 0; c < 32; ++c)
      s += x[r * 32 + c];
    bad += sums[r] != s;
  }
  int rc = report("row sums", bad, 16);
  bad = 0;
  for (int c = 0; c < 32; ++c) {
    float m = -INFINITY;
    for (int r = 0; r < 16; ++r)
      m = x[r * 32 + c] > m ? x[r * 32 + c] : m;
    bad += maxes[c] != m;
  }
  return rc | report("column maxima", bad, 32);
}
