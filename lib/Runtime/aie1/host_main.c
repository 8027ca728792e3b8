/* The host program of aie1-cmodel: gives each kernel's two versions the
 * same random buffers, runs the scalar reference on one copy and the
 * vectorized kernel on the other, then compares every buffer element by
 * element, including the slack after each one (a vector store past a
 * buffer's end shows there). The generated host.c provides the kernel
 * table and the settings (npuc_aie1_host, Aie1KernelPrelude.h) and calls
 * npuc_aie1_host_main. Output and exit status: see the generated host.c. */
#include "npuc/Aie1KernelPrelude.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next_random(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int64_t run_kernel(const npuc_aie1_host *h,
                          const npuc_aie1_host_kernel *k);

int npuc_aie1_host_main(int argc, char **argv, const npuc_aie1_host *h) {
  rng = argc > 1 ? strtoull(argv[1], NULL, 10) : h->default_seed;
  printf("seed %llu\n", (unsigned long long)rng);
  if (h->shift > 0)
    printf("reference: fixed point, shift %d\n", h->shift);
  int64_t bad = 0;
  for (int k = 0; k < h->num_kernels; ++k)
    bad += run_kernel(h, &h->kernels[k]);
  printf("%s: %d kernel(s), %lld element(s) differ\n", bad ? "MISMATCH" : "OK",
         h->num_kernels, (long long)bad);
  return bad ? 1 : 0;
}

static npuc_buf make_buffer(const npuc_aie1_host *h,
                            const npuc_aie1_host_arg *a, int64_t *n);
static void fill(npuc_buf *b, int64_t n);
static void shape_filter(const npuc_aie1_host *h, npuc_buf *b, int64_t n);
static int64_t compare(const npuc_aie1_host *h, const char *kernel, int arg,
                       const npuc_buf *vec, const npuc_buf *ref, int64_t n);

static int64_t run_kernel(const npuc_aie1_host *h,
                          const npuc_aie1_host_kernel *k) {
  npuc_buf vec[16], ref[16];
  int64_t n[16], bad = 0;
  if (k->nargs > 16) {
    fprintf(stderr, "npuc-aie1: %s has more than 16 buffers\n", k->name);
    exit(2);
  }
  for (int i = 0; i < k->nargs; ++i) {
    vec[i] = make_buffer(h, &k->args[i], &n[i]);
    ref[i] = make_buffer(h, &k->args[i], &n[i]);
    fill(&vec[i], n[i] + h->slack);
    if (i == h->filter_arg)
      shape_filter(h, &vec[i], n[i]);
    memcpy(ref[i].data, vec[i].data,
           (size_t)vec[i].extent * npuc_rt_elem_size(vec[i].dtype));
  }
  k->ref(ref);
  npuc_rt_arena_reset();
  k->vec(vec);
  npuc_rt_arena_reset();
  for (int i = 0; i < k->nargs; ++i) {
    bad += compare(h, k->name, i, &vec[i], &ref[i], n[i]);
    free(vec[i].data);
    free(ref[i].data);
  }
  return bad;
}

/* A row-major buffer of the argument's shape (dynamic sizes from the
 * settings) with h->slack elements after it; *n its element count. */
static npuc_buf make_buffer(const npuc_aie1_host *h,
                            const npuc_aie1_host_arg *a, int64_t *n) {
  npuc_buf b;
  memset(&b, 0, sizeof b);
  b.dtype = a->dtype;
  b.rank = a->rank;
  *n = 1;
  for (int d = a->rank - 1; d >= 0; --d) {
    b.sizes[d] = a->sizes[d] < 0 ? h->dynamic_size : a->sizes[d];
    b.strides[d] = *n;
    *n *= b.sizes[d];
  }
  b.extent = *n + h->slack;
  b.data = calloc((size_t)b.extent, npuc_rt_elem_size(a->dtype));
  if (!b.data) {
    fprintf(stderr, "npuc-aie1: out of memory\n");
    exit(2);
  }
  return b;
}

/* Integers: any bit pattern (both programs wrap alike). f32: uniform
 * in [-1, 1) with a full 24-bit mantissa, so roundings happen. */
static void fill(npuc_buf *b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = next_random();
    switch (b->dtype) {
    case NPUC_DT_I8: ((int8_t *)b->data)[i] = (int8_t)(uint8_t)r; break;
    case NPUC_DT_I16: ((int16_t *)b->data)[i] = (int16_t)(uint16_t)r; break;
    case NPUC_DT_I32: ((int32_t *)b->data)[i] = (int32_t)(uint32_t)r; break;
    default:
      ((float *)b->data)[i] =
          (float)((int32_t)(r >> 40) - 8388608) / 8388608.0f;
    }
  }
}

/* Gives the filter argument the layout the vectorization assumes. */
static void shape_filter(const npuc_aie1_host *h, npuc_buf *b, int64_t n) {
  size_t es = npuc_rt_elem_size(b->dtype);
  char *d = b->data;
  const int64_t period = h->filter_period > 0 ? h->filter_period : 1;
  const int64_t dup = h->filter_dup > 1 ? h->filter_dup : 1;
  for (int64_t e = 0; e < n; ++e) {
    if (h->filter_period > 0 && e % period >= h->filter_used)
      memset(d + e * (int64_t)es, 0, es);
    else if (dup > 1 && e % dup != 0)
      memcpy(d + e * (int64_t)es, d + (e - e % dup) * (int64_t)es, es);
  }
}

/* Distance of two floats in units in the last place (NaNs: 0 if both). */
static int64_t ulps(float a, float b) {
  if (a != a || b != b)
    return (a != a && b != b) ? 0 : INT64_MAX;
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  int64_t la = ia < 0 ? (int64_t)INT32_MIN - ia : ia;
  int64_t lb = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
  return la > lb ? la - lb : lb - la;
}

static double value(const npuc_buf *b, int64_t i) {
  switch (b->dtype) {
  case NPUC_DT_I8: return ((const int8_t *)b->data)[i];
  case NPUC_DT_I16: return ((const int16_t *)b->data)[i];
  case NPUC_DT_I32: return ((const int32_t *)b->data)[i];
  default: return ((const float *)b->data)[i];
  }
}

static void print_index(const npuc_buf *b, int64_t i, int64_t n) {
  if (i >= n) {
    printf("slack+%lld", (long long)(i - n));
    return;
  }
  printf("[");
  for (int d = 0; d < b->rank; ++d)
    printf("%s%lld", d ? ", " : "",
           (long long)(i / b->strides[d] % b->sizes[d]));
  printf("]");
}

/* Compares one buffer; prints its line; returns the differing count. */
static int64_t compare(const npuc_aie1_host *h, const char *kernel, int arg,
                       const npuc_buf *vec, const npuc_buf *ref, int64_t n) {
  int64_t bad = 0, first = -1, worst = 0;
  for (int64_t i = 0; i < n + h->slack; ++i) {
    bool same;
    if (vec->dtype == NPUC_DT_F32) {
      int64_t u =
          ulps(((const float *)vec->data)[i], ((const float *)ref->data)[i]);
      if (u > worst)
        worst = u;
      same = u <= h->f32_ulps;
    } else {
      size_t es = npuc_rt_elem_size(vec->dtype);
      same = memcmp((const char *)vec->data + i * (int64_t)es,
                    (const char *)ref->data + i * (int64_t)es, es) == 0;
    }
    if (!same && bad++ == 0)
      first = i;
  }
  printf("%s arg%d %s: %lld elements", kernel, arg,
         npuc_rt_dtype_name(vec->dtype), (long long)n);
  if (vec->dtype == NPUC_DT_F32)
    printf(", max %lld ulp", (long long)worst);
  if (bad == 0) {
    printf(", equal\n");
    return 0;
  }
  printf(", %lld DIFFER; first at ", (long long)bad);
  print_index(vec, first, n);
  printf(": vectorized %.9g, scalar %.9g\n", value(vec, first),
         value(ref, first));
  return bad;
}
