/* add_kernel: out = a + b for every element, exactly. */
#include "refcheck.h"

int main(int argc, char **argv) {
  size_t n = (size_t)atol(argv[2]);
  float *a = read_bin(argv[1], "in/arg2.bin", n * 4);
  float *b = read_bin(argv[1], "in/arg3.bin", n * 4);
  float *c = read_bin(argv[1], "arg4.bin", n * 4);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i] && bad++ < 5)
      printf("element %zu: %g + %g gave %g\n", i, a[i], b[i], c[i]);
  (void)argc;
  return report("a + b", bad, n);
}
