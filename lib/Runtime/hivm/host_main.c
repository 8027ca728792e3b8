/* The generic host program of emitted kernels: reads a manifest (written by
 * npuc-run from a YAML spec), allocates and fills the arguments, launches
 * every block (and sub-block) of one kernel, and writes each buffer argument
 * to OUT/argN.bin plus OUT/summary.txt.
 *
 * Manifest lines:
 *   kernel NAME            which entry of the kernel table (default: first)
 *   blocks N               the logical block count, when the kernel does not
 *                          compute it from its arguments
 *   sub_blocks N           sub-blocks per block, instead of the kernel's own
 *                          count (an untiled mix kernel runs with 1 to be
 *                          compared with its 1:2 tiled form)
 *   out DIR                where outputs go (must exist)
 *   arg buf DTYPE RANK D0 .. Dk PATH|-    a buffer, from a .bin file or zeros
 *   arg scalar DTYPE VALUE                a scalar
 */
#include "npuc/KernelPrelude.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Limits of a run, as npuc-run's (NPUC_RUN_MAX_* in include/npuc/Run.h,
 * which the runtime does not include): blocks (Ascend's block dimension),
 * sub-blocks per block, and bytes of one buffer. */
#define NPUC_HOST_MAX_BLOCKS 65535
#define NPUC_HOST_MAX_SUB_BLOCKS 64
#define NPUC_HOST_MAX_BYTES ((int64_t)1 << 30)

typedef struct {
  npuc_arg_kind kind;
  npuc_dtype dtype;
  npuc_buf buf;
  int64_t ival;
  float fval;
  double dval;
  void *storage; /* what the kernel receives */
} host_arg;

typedef struct {
  char kernel[256];
  char out_dir[4096];
  int64_t blocks;     /* < 0: ask the kernel */
  int64_t sub_blocks; /* 0: the kernel's own count */
  host_arg args[64];
  int num_args;
} manifest;

static int describe(const npuc_kernel_desc *kernels, int n);
static bool read_manifest(const char *path, manifest *m);
static const npuc_kernel_desc *
pick_kernel(const manifest *m, const npuc_kernel_desc *kernels, int n);
static bool check_args(const manifest *m, const npuc_kernel_desc *k);
static int64_t launch_blocks(const manifest *m, const npuc_kernel_desc *k,
                             void **argv, int64_t *logical);
static const npuc_kernel_desc *
mix_partner(const npuc_kernel_desc *k, const npuc_kernel_desc *kernels, int n);
static void run_blocks(const npuc_kernel_desc *k, const npuc_kernel_desc *other,
                       void **argv, int64_t blocks, int64_t sub_blocks);
static bool write_outputs(const manifest *m, const npuc_kernel_desc *k,
                          const npuc_kernel_desc *other, int64_t logical,
                          int64_t blocks, int64_t sub_blocks, double seconds);

int npuc_rt_host_main(int argc, char **argv, const npuc_kernel_desc *kernels,
                      int num_kernels) {
  if (argc == 2 && strcmp(argv[1], "--describe") == 0)
    return describe(kernels, num_kernels);
  if (argc != 2) {
    fprintf(stderr, "usage: %s MANIFEST | --describe\n", argv[0]);
    return 2;
  }
  static manifest m;
  if (!read_manifest(argv[1], &m))
    return 2;
  const npuc_kernel_desc *k = pick_kernel(&m, kernels, num_kernels);
  if (!k || !check_args(&m, k))
    return 2;
  /* The other half of a mix kernel runs with it. */
  const npuc_kernel_desc *other = mix_partner(k, kernels, num_kernels);
  if (other && !check_args(&m, other))
    return 2;
  void *args[64];
  for (int i = 0; i < m.num_args; ++i)
    args[i] = m.args[i].storage;
  int64_t logical;
  int64_t blocks = launch_blocks(&m, k, args, &logical);
  if (blocks < 0)
    return 2;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const npuc_kernel_desc *vector =
      other && other->core == NPUC_CORE_AIV ? other : k;
  int64_t sub_blocks = m.sub_blocks > 0 ? m.sub_blocks : vector->sub_blocks;
  run_blocks(k, other, args, blocks, sub_blocks);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) +
                   1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  return write_outputs(&m, k, other, logical, blocks, sub_blocks, seconds) ? 0
                                                                           : 1;
}

/* ---- manifest ------------------------------------------------------------ */

/* What each kernel takes, for tools that write manifests:
 *   kernel NAME
 *   arg N buf DTYPE RANK S0 .. Sk   (-1: dynamic)
 *   arg N scalar DTYPE */
static int describe(const npuc_kernel_desc *kernels, int n) {
  for (int k = 0; k < n; ++k) {
    printf("kernel %s\n", kernels[k].name);
    for (int i = 0; i < kernels[k].num_args; ++i) {
      const npuc_arg_desc *a = &kernels[k].args[i];
      printf("arg %d %s %s", i, a->kind == NPUC_ARG_BUF ? "buf" : "scalar",
             npuc_rt_dtype_name(a->dtype));
      if (a->kind == NPUC_ARG_BUF) {
        printf(" %d", a->rank);
        for (int d = 0; d < a->rank; ++d)
          printf(" %lld", (long long)a->static_sizes[d]);
      }
      printf("\n");
    }
  }
  return 0;
}

static bool load_buffer(host_arg *a, const char *path, int line) {
  int64_t count = 1, bytes = 0;
  bool fits = true;
  for (int d = 0; d < a->buf.rank; ++d)
    fits = fits && a->buf.sizes[d] >= 0 &&
           !__builtin_mul_overflow(count, a->buf.sizes[d], &count);
  fits = fits && !__builtin_mul_overflow(
                     count, (int64_t)npuc_rt_elem_size(a->dtype), &bytes);
  a->buf.data = fits && bytes <= NPUC_HOST_MAX_BYTES
                    ? calloc(bytes ? (size_t)bytes : 1, 1)
                    : NULL;
  if (!a->buf.data) {
    fprintf(stderr,
            "manifest:%d: error: a buffer of more than %lld bytes, "
            "or out of memory\n",
            line, (long long)NPUC_HOST_MAX_BYTES);
    return false;
  }
  a->buf.extent = count ? count : NPUC_RT_EXTENT_EMPTY; /* 0: unknown */
  int64_t stride = 1;
  for (int d = a->buf.rank - 1; d >= 0; --d) {
    a->buf.strides[d] = stride;
    stride *= a->buf.sizes[d];
  }
  a->storage = &a->buf;
  if (strcmp(path, "-") == 0)
    return true;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
    return false;
  }
  size_t got = fread(a->buf.data, 1, (size_t)bytes, f);
  fclose(f);
  if (got != (size_t)bytes) {
    fprintf(stderr, "error: %s has %zu bytes, the argument needs %zu\n", path,
            got, (size_t)bytes);
    return false;
  }
  return true;
}

static bool parse_arg(manifest *m, char *rest, int line) {
  host_arg *a = &m->args[m->num_args];
  memset(a, 0, sizeof *a);
  char kind[16], dtype[16];
  int used = 0;
  if (sscanf(rest, "%15s %15s %n", kind, dtype, &used) < 2 ||
      !npuc_rt_dtype_parse(dtype, &a->dtype)) {
    fprintf(stderr, "manifest:%d: error: expected 'arg buf|scalar DTYPE ...'\n",
            line);
    return false;
  }
  rest += used;
  if (strcmp(kind, "scalar") == 0) {
    a->kind = NPUC_ARG_SCALAR;
    a->ival = strtoll(rest, NULL, 0);
    a->dval = strtod(rest, NULL);
    a->fval = (float)a->dval;
    a->storage = a->dtype == NPUC_DT_F64      ? (void *)&a->dval
                 : npuc_rt_is_float(a->dtype) ? (void *)&a->fval
                                              : (void *)&a->ival;
  } else {
    a->kind = NPUC_ARG_BUF;
    a->buf.dtype = a->dtype;
    char *p = rest;
    a->buf.rank = (int32_t)strtol(p, &p, 10);
    if (a->buf.rank < 0 || a->buf.rank > NPUC_RT_MAX_RANK) {
      fprintf(stderr, "manifest:%d: error: bad rank\n", line);
      return false;
    }
    for (int d = 0; d < a->buf.rank; ++d)
      a->buf.sizes[d] = strtoll(p, &p, 10);
    char path[4096];
    if (sscanf(p, " %4095s", path) != 1) {
      fprintf(stderr, "manifest:%d: error: buffer without a path or '-'\n",
              line);
      return false;
    }
    if (!load_buffer(a, path, line))
      return false;
  }
  m->num_args++;
  return true;
}

static bool read_manifest(const char *path, manifest *m) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
    return false;
  }
  m->blocks = -1;
  strcpy(m->out_dir, ".");
  char line[8192];
  bool ok = true;
  for (int n = 1; ok && fgets(line, sizeof line, f); ++n) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "kernel ", 7) == 0)
      snprintf(m->kernel, sizeof m->kernel, "%.255s", line + 7);
    else if (strncmp(line, "blocks ", 7) == 0)
      m->blocks = strtoll(line + 7, NULL, 10);
    else if (strncmp(line, "sub_blocks ", 11) == 0) {
      m->sub_blocks = strtoll(line + 11, NULL, 10);
      if (m->sub_blocks < 1 || m->sub_blocks > NPUC_HOST_MAX_SUB_BLOCKS) {
        fprintf(stderr, "manifest:%d: error: sub_blocks must be 1 to %d\n", n,
                NPUC_HOST_MAX_SUB_BLOCKS);
        ok = false;
      }
    } else if (strncmp(line, "out ", 4) == 0)
      snprintf(m->out_dir, sizeof m->out_dir, "%.4095s", line + 4);
    else if (strncmp(line, "arg ", 4) == 0 && m->num_args < 64)
      ok = parse_arg(m, line + 4, n);
    else if (line[0] && line[0] != '#') {
      fprintf(stderr, "manifest:%d: error: unknown line '%s'\n", n, line);
      ok = false;
    }
  }
  fclose(f);
  return ok;
}

static const npuc_kernel_desc *
pick_kernel(const manifest *m, const npuc_kernel_desc *kernels, int n) {
  if (!m->kernel[0] && n > 0)
    return &kernels[0];
  for (int i = 0; i < n; ++i)
    if (strcmp(kernels[i].name, m->kernel) == 0)
      return &kernels[i];
  fprintf(stderr, "error: no kernel named '%s'\n", m->kernel);
  return NULL;
}

static bool check_args(const manifest *m, const npuc_kernel_desc *k) {
  if (m->num_args != k->num_args) {
    fprintf(stderr,
            "error: kernel '%s' takes %d arguments, the manifest gives %d\n",
            k->name, k->num_args, m->num_args);
    return false;
  }
  for (int i = 0; i < m->num_args; ++i) {
    const npuc_arg_desc *d = &k->args[i];
    const host_arg *a = &m->args[i];
    if (d->kind != a->kind || d->dtype != a->dtype ||
        (a->kind == NPUC_ARG_BUF && d->rank != a->buf.rank)) {
      fprintf(stderr, "error: argument %d of '%s' must be a %s %s%s\n", i,
              k->name, d->kind == NPUC_ARG_BUF ? "buffer of" : "scalar",
              npuc_rt_dtype_name(d->dtype),
              d->kind == NPUC_ARG_BUF ? " of that rank" : "");
      return false;
    }
    for (int r = 0; a->kind == NPUC_ARG_BUF && r < d->rank; ++r)
      if (d->static_sizes[r] >= 0 && d->static_sizes[r] != a->buf.sizes[r]) {
        fprintf(stderr,
                "error: argument %d of '%s' needs size %lld in dimension %d\n",
                i, k->name, (long long)d->static_sizes[r], r);
        return false;
      }
  }
  return true;
}

/* ---- launch ----------------------------------------------------------------
 */

/* Without auto-blockify every logical block is launched; with it, at most
 * the physical core count, and the kernel loops over the rest. */
static int64_t launch_blocks(const manifest *m, const npuc_kernel_desc *k,
                             void **argv, int64_t *logical) {
  *logical = m->blocks >= 0      ? m->blocks
             : k->logical_blocks ? k->logical_blocks(argv)
                                 : 1;
  if (*logical < 0) {
    fprintf(stderr, "error: the logical block count is negative (%lld)\n",
            (long long)*logical);
    return -1;
  }
  /* A count computed from scalar arguments may be anything: past the
   * hardware's limit the run would only take forever. */
  if (*logical > NPUC_HOST_MAX_BLOCKS) {
    fprintf(stderr,
            "error: the logical block count %lld is more than the "
            "limit of %d\n",
            (long long)*logical, NPUC_HOST_MAX_BLOCKS);
    return -1;
  }
  if (k->physical_blocks > 0 && k->physical_blocks < *logical)
    return k->physical_blocks;
  return *logical;
}

/* The cube half of a mix kernel for its vector half, or the other way;
 * NULL for a kernel that is no half or whose other half is not in the
 * table (a half emitted alone runs alone). */
static const npuc_kernel_desc *
mix_partner(const npuc_kernel_desc *k, const npuc_kernel_desc *kernels, int n) {
  if (!k->mix || k->core == NPUC_CORE_ANY)
    return NULL;
  int want = k->core == NPUC_CORE_AIC ? NPUC_CORE_AIV : NPUC_CORE_AIC;
  for (int i = 0; i < n; ++i)
    if (kernels[i].mix && kernels[i].core == want &&
        strcmp(kernels[i].mix, k->mix) == 0)
      return &kernels[i];
  return NULL;
}

typedef struct {
  const npuc_kernel_desc *k, *other;
  void **argv;
  int64_t blocks, first, step, sub_blocks;
} worker;

static void *run_worker(void *p) {
  worker *w = p;
  for (int64_t sb = 0; sb < w->sub_blocks; ++sb)
    for (int64_t b = w->first; b < w->blocks; b += w->step) {
      npuc_launch L = {b, w->blocks, sb, w->sub_blocks};
      w->k->fn(&L, w->argv);
      npuc_rt_arena_reset();
    }
  npuc_rt_arena_release(); /* a thread's arena dies with it */
  return NULL;
}

/* A mix kernel: each block runs both halves together (mix.c). */
static void *run_mix_worker(void *p) {
  worker *w = p;
  const npuc_kernel_desc *cube = w->k->core == NPUC_CORE_AIC ? w->k : w->other;
  const npuc_kernel_desc *vector = cube == w->k ? w->other : w->k;
  for (int64_t b = w->first; b < w->blocks; b += w->step) {
    npuc_rt_run_mix_block(cube, vector, w->argv, b, w->blocks, w->sub_blocks);
    npuc_rt_arena_reset();
  }
  npuc_rt_arena_release(); /* a thread's arena dies with it */
  return NULL;
}

/* NPUC_THREADS=n spreads blocks over n threads. Cross-block sync ops are
 * no-ops in the model, so kernels that have them run on one thread. */
static void run_blocks(const npuc_kernel_desc *k, const npuc_kernel_desc *other,
                       void **argv, int64_t blocks, int64_t sub_blocks) {
  const char *env = getenv("NPUC_THREADS");
  long threads = env ? strtol(env, NULL, 10) : 1;
  if (threads < 1 || k->has_sync || other)
    threads = 1;
  if (threads > 64)
    threads = 64;
  if (threads > blocks)
    threads = blocks > 0 ? (long)blocks : 1;
  worker w[64];
  pthread_t tid[64];
  for (long t = 0; t < threads; ++t) {
    w[t] = (worker){k, other, argv, blocks, t, threads, sub_blocks};
    void *(*fn)(void *) = other ? run_mix_worker : run_worker;
    if (threads == 1)
      fn(&w[t]);
    else
      pthread_create(&tid[t], NULL, fn, &w[t]);
  }
  for (long t = 0; threads > 1 && t < threads; ++t)
    pthread_join(tid[t], NULL);
}

/* ---- outputs
 * ----------------------------------------------------------------- */

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static bool write_outputs(const manifest *m, const npuc_kernel_desc *k,
                          const npuc_kernel_desc *other, int64_t logical,
                          int64_t blocks, int64_t sub_blocks, double seconds) {
  char path[4200];
  snprintf(path, sizeof path, "%s/summary.txt", m->out_dir);
  FILE *sum = fopen(path, "w");
  if (!sum) {
    fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  fprintf(
      sum,
      "kernel %s\nlogical_blocks %lld\nlaunched_blocks %lld\nsub_blocks %lld\n",
      k->name, (long long)logical, (long long)blocks, (long long)sub_blocks);
  if (other)
    fprintf(sum, "mix %s with %s\n", k->mix, other->name);
  fprintf(sum, "kernel_seconds %.6f\n", seconds);
  bool ok = true;
  for (int i = 0; i < m->num_args; ++i) {
    const host_arg *a = &m->args[i];
    if (a->kind != NPUC_ARG_BUF)
      continue;
    int64_t count = 1;
    for (int d = 0; d < a->buf.rank; ++d)
      count *= a->buf.sizes[d];
    size_t bytes = (size_t)count * npuc_rt_elem_size(a->dtype);
    snprintf(path, sizeof path, "%s/arg%d.bin", m->out_dir, i);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(a->buf.data, 1, bytes, f) != bytes) {
      fprintf(stderr, "error: cannot write %s\n", path);
      ok = false;
    }
    if (f)
      fclose(f);
    fprintf(sum, "arg%d %s %lld elements fnv1a %016llx\n", i,
            npuc_rt_dtype_name(a->dtype), (long long)count,
            (unsigned long long)fnv1a(a->buf.data, bytes));
  }
  fclose(sum);
  return ok;
}
