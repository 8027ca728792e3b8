/* grid3 after triton-global-kernel-args-to-hivm-op and auto-blockify: the
 * program (x, y, z) of an nx*ny*nz grid wrote
 * out[(x*ny + y)*nz + z] = 2*in[...] + (x - y + z), every one exactly. */
#include "refcheck.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: check_grid3 DIR NX NY NZ\n");
    return 2;
  }
  long nx = atol(argv[2]), ny = atol(argv[3]), nz = atol(argv[4]);
  size_t n = (size_t)(nx * ny * nz);
  float *in = read_bin(argv[1], "in/arg0.bin", n * 4);
  float *out = read_bin(argv[1], "arg1.bin", n * 4);
  size_t bad = 0;
  for (long x = 0; x < nx; ++x)
    for (long y = 0; y < ny; ++y)
      for (long z = 0; z < nz; ++z) {
        size_t i = (size_t)((x * ny + y) * nz + z);
        float want = in[i] * 2.0f + (float)(x - y + z);
        if (out[i] != want && bad++ < 5)
          printf("program (%ld, %ld, %ld): %g, want %g\n", x, y, z, out[i],
                 want);
      }
  return report("2*in + x - y + z", bad, n);
}
