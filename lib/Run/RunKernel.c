/* Compiles a kernel with --target=ascend-cmodel, builds it with the C
 * compiler, runs it, and compares outputs of two runs. */
#include "npuc/AscendCModel.h"
#include "npuc/Dtype.h"
#include "npuc/IR.h"
#include "npuc/Run.h"
#include "npuc/ToolSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

static bool emit_into(const npuc_op_registry *reg, const char *kernel_path,
                      const char *kernel, const char *work_dir,
                      const npuc_diag_sink *sink);
static bool build(const char *work_dir, const npuc_diag_sink *sink);
static bool write_manifest(const npuc_run_spec *spec, int64_t sub_blocks,
                           const char *in_dir, const char *work_dir,
                           const char *out_dir);
static int spawn(char *const argv[], const char *log_path);

bool npuc_run_kernel(const npuc_op_registry *reg, const char *kernel_path,
                     const npuc_run_spec *spec, int64_t sub_blocks,
                     const char *in_dir, const char *work_dir,
                     const char *out_dir, const npuc_diag_sink *sink) {
  if (!npuc_make_dirs(work_dir, sink) || !npuc_make_dirs(out_dir, sink) ||
      !emit_into(reg, kernel_path, spec->kernel, work_dir, sink) || !build(work_dir, sink) ||
      !write_manifest(spec, sub_blocks, in_dir, work_dir, out_dir))
    return false;
  char exe[4200], manifest[4200];
  snprintf(exe, sizeof exe, "%s/kernel", work_dir);
  snprintf(manifest, sizeof manifest, "%s/manifest.txt", work_dir);
  char *argv[] = {exe, manifest, NULL};
  int status = spawn(argv, NULL);
  if (status != 0) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, kernel_path, 0, 0,
                   "the kernel run failed (exit status %d)", status);
    return false;
  }
  return true;
}

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

static bool write_text(const char *dir, const char *name, const char *text) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  bool ok = f && fputs(text, f) >= 0;
  if (f)
    ok = fclose(f) == 0 && ok;
  return ok;
}

static bool emit_into(const npuc_op_registry *reg, const char *kernel_path,
                      const char *kernel, const char *work_dir,
                      const npuc_diag_sink *sink) {
  size_t len;
  char *text = npuc_read_input(kernel_path, &len, sink);
  if (!text)
    return false;
  const char *name = npuc_input_display_name(kernel_path);
  bool ok = npuc_check_text(text, len, name, sink);
  MlirContext ctx = npuc_context_create();
  npuc_module m = {{NULL}, {0}, NULL};
  ok = ok && npuc_module_parse(ctx, reg, text, len, name, 1, sink, &m);
  npuc_emitted_files files = {0};
  /* A named kernel is emitted alone: it need not be an entry, and ops of
   * the module's other functions need not be supported. */
  npuc_cmodel_options opts = {env_or("NPUC_INCLUDE_DIR", NPUC_INCLUDE_DIR),
                              env_or("NPUC_RUNTIME_LIB", NPUC_RUNTIME_LIB),
                              kernel};
  ok = ok && npuc_emit_ascend_cmodel(reg, m.op, &opts, &files);
  for (size_t i = 0; ok && i < files.count; ++i)
    ok = write_text(work_dir, files.files[i].name, files.files[i].text);
  npuc_emitted_files_free(&files);
  if (!mlirOperationIsNull(m.op))
    npuc_module_destroy(&m);
  npuc_context_destroy(ctx);
  free(text);
  return ok;
}

static bool build(const char *work_dir, const npuc_diag_sink *sink) {
  char src1[4200], src2[4200], exe[4200], inc[4200], log[4200];
  snprintf(src1, sizeof src1, "%s/kernel.c", work_dir);
  snprintf(src2, sizeof src2, "%s/host.c", work_dir);
  snprintf(exe, sizeof exe, "%s/kernel", work_dir);
  snprintf(inc, sizeof inc, "-I%s", env_or("NPUC_INCLUDE_DIR", NPUC_INCLUDE_DIR));
  snprintf(log, sizeof log, "%s/build.log", work_dir);
  char cc[256], flags[512];
  snprintf(cc, sizeof cc, "%s", env_or("CC", "cc"));
  snprintf(flags, sizeof flags, "%s", env_or("NPUC_CFLAGS", NPUC_KERNEL_CFLAGS));
  char std[] = "-std=c11", o[] = "-o", lm[] = "-lm", lp[] = "-lpthread";
  char rt[4200];
  snprintf(rt, sizeof rt, "%s", env_or("NPUC_RUNTIME_LIB", NPUC_RUNTIME_LIB));
  /* The flags are words separated by spaces (no quoting needed for ours). */
  char *argv[32] = {cc, std};
  int argc = 2;
  for (char *w = strtok(flags, " "); w && argc < 20; w = strtok(NULL, " "))
    argv[argc++] = w;
  char *rest[] = {inc, src1, src2, rt, lm, lp, o, exe, NULL};
  for (int i = 0; rest[i]; ++i)
    argv[argc++] = rest[i];
  argv[argc] = NULL;
  if (spawn(argv, log) != 0) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, log, 0, 0,
                   "the generated C did not build (compiler output there)");
    return false;
  }
  return true;
}

static bool write_manifest(const npuc_run_spec *spec, int64_t sub_blocks,
                           const char *in_dir, const char *work_dir,
                           const char *out_dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/manifest.txt", work_dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  /* A named kernel was emitted alone (emit_into), as the first and only
   * one: the manifest need not name it, and its C name may differ. */
  if (spec->blocks >= 0)
    fprintf(f, "blocks %lld\n", (long long)spec->blocks);
  if (sub_blocks > 0)
    fprintf(f, "sub_blocks %lld\n", (long long)sub_blocks);
  fprintf(f, "out %s\n", out_dir);
  for (int i = 0; i < spec->num_args; ++i) {
    const npuc_run_arg *a = &spec->args[i];
    if (!a->is_buffer) {
      fprintf(f, "arg scalar %s %s\n", a->dtype, a->value);
      continue;
    }
    fprintf(f, "arg buf %s %d", a->dtype, a->rank);
    for (int d = 0; d < a->rank; ++d)
      fprintf(f, " %lld", (long long)a->shape[d]);
    fprintf(f, " %s/arg%d.bin\n", in_dir, i);
  }
  return fclose(f) == 0;
}

/* Runs argv; stdout and stderr go to log_path when given. Returns the exit
 * status, or -1 when it could not run or died by a signal. */
static int spawn(char *const argv[], const char *log_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (log_path) {
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return -1;
  int status;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

/* ---- comparison ------------------------------------------------------------ */

static char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *data = malloc(cap);
  size_t got;
  while ((got = fread(data + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap)
      data = realloc(data, cap *= 2);
  }
  fclose(f);
  *n = len;
  return data;
}

static double element(const void *data, npuc_dtype dt, size_t k) {
  switch (dt) {
  case NPUC_DT_I1: return ((const uint8_t *)data)[k];
  case NPUC_DT_I8: return ((const int8_t *)data)[k];
  case NPUC_DT_I16: return ((const int16_t *)data)[k];
  case NPUC_DT_I32: return ((const int32_t *)data)[k];
  case NPUC_DT_I64: return (double)((const int64_t *)data)[k];
  case NPUC_DT_F16: return npuc_rt_f16_to_f32(((const uint16_t *)data)[k]);
  case NPUC_DT_BF16: return npuc_rt_bf16_to_f32(((const uint16_t *)data)[k]);
  case NPUC_DT_F32: return ((const float *)data)[k];
  case NPUC_DT_F64: return ((const double *)data)[k];
  }
  return 0;
}

static npuc_dtype parse_dtype(const char *s) {
  npuc_dtype dt = NPUC_DT_I64;
  npuc_rt_dtype_parse(s, &dt);
  return dt;
}

int npuc_run_compare(const npuc_run_spec *spec, const char *out_a,
                     const char *out_b, const npuc_diag_sink *sink) {
  int differing = 0;
  for (int i = 0; i < spec->num_args; ++i) {
    if (!spec->args[i].is_buffer)
      continue;
    char pa[4200], pb[4200];
    snprintf(pa, sizeof pa, "%s/arg%d.bin", out_a, i);
    snprintf(pb, sizeof pb, "%s/arg%d.bin", out_b, i);
    size_t na = 0, nb = 0;
    char *a = read_all(pa, &na), *b = read_all(pb, &nb);
    if (!a || !b || na != nb) {
      npuc_diag_emit(sink, NPUC_SEV_ERROR, !a ? pa : pb, 0, 0,
                     "missing or of a different size");
      free(a);
      free(b);
      return -1;
    }
    npuc_dtype dt = parse_dtype(spec->args[i].dtype);
    size_t es = npuc_rt_elem_size(dt), n = es ? na / es : 0, bad = 0, first = 0;
    for (size_t k = 0; k < n; ++k)
      if (memcmp(a + k * es, b + k * es, es) != 0 && bad++ == 0)
        first = k;
    if (bad) {
      printf("arg%d: %zu of %zu elements differ; first at %zu: %.9g vs %.9g\n", i,
             bad, n, first, element(a, dt, first), element(b, dt, first));
      ++differing;
    } else {
      printf("arg%d: %zu elements identical\n", i, n);
    }
    free(a);
    free(b);
  }
  return differing;
}
