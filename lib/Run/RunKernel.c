/* Compiles a kernel with --target=ascend-cmodel, builds it with the C
 * compiler, checks its arguments against the spec, runs it, and compares
 * outputs of two runs. Programs are started with fork and exec (argument
 * vectors, never a shell line), and the kernel runs inside its run
 * directory reading a manifest of relative paths, so any directory name
 * works. */
#include "npuc/Alloc.h"
#include "npuc/AscendCModel.h"
#include "npuc/Dtype.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Run.h"
#include "npuc/StringBuilder.h"
#include "npuc/Target.h"
#include "npuc/ToolSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool emit_into(const npuc_op_registry *reg, const char *kernel_path,
                      const char *kernel, const char *work_dir,
                      const npuc_diag_sink *sink);
static bool build(const char *work_dir, const npuc_diag_sink *sink);
static bool check_signature(const npuc_run_spec *spec, const char *work_dir,
                            const npuc_diag_sink *sink);
static bool write_manifest(const npuc_run_spec *spec, int64_t sub_blocks,
                           const char *work_dir, const char *out_sub);
static bool spawn(char *const argv[], const char *cwd, const char *log_path,
                  int *status);
static void report_status(const char *kernel_path, int status,
                          const npuc_diag_sink *sink);

/* "DIR/NAME", malloc'd. */
static char *path_in(const char *dir, const char *name) {
  npuc_sb sb = {0};
  npuc_sb_printf(&sb, "%s/%s", dir, name);
  return npuc_sb_take(&sb);
}

bool npuc_run_build(const npuc_op_registry *reg, const char *kernel_path,
                    const npuc_run_spec *spec, const char *work_dir,
                    const npuc_diag_sink *sink) {
  return npuc_make_dirs(work_dir, sink) &&
         emit_into(reg, kernel_path, spec->kernel, work_dir, sink) &&
         build(work_dir, sink) && check_signature(spec, work_dir, sink);
}

bool npuc_run_execute(const char *kernel_path, const npuc_run_spec *spec,
                      int64_t sub_blocks, const char *work_dir,
                      const char *run_dir, const char *out_sub,
                      const npuc_diag_sink *sink) {
  if (!write_manifest(spec, sub_blocks, work_dir, out_sub)) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot write the manifest in '%s': %s", work_dir,
                   strerror(errno));
    return false;
  }
  char *exe = path_in(work_dir, "kernel");
  char *manifest = path_in(work_dir, "manifest.txt");
  char *argv[] = {exe, manifest, NULL};
  int status = 0;
  bool ran = spawn(argv, run_dir, NULL, &status);
  if (!ran)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, exe, 0, 0, "cannot run: %s",
                   strerror(errno));
  else if (status != 0)
    report_status(kernel_path, status, sink);
  free(exe);
  free(manifest);
  return ran && status == 0;
}

/* A nonzero exit, or death by a signal named as the shell names it. */
static void report_status(const char *kernel_path, int status,
                          const npuc_diag_sink *sink) {
  if (WIFEXITED(status)) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, kernel_path, 0, 0,
                   "the kernel run failed (exit status %d)",
                   WEXITSTATUS(status));
    return;
  }
  static const struct {
    int sig;
    const char *name;
  } names[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"},
      {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGPIPE, "SIGPIPE"},
      {SIGTRAP, "SIGTRAP"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  char name[24];
  snprintf(name, sizeof name, "signal %d", sig);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (names[i].sig == sig)
      snprintf(name, sizeof name, "%s", names[i].name);
  npuc_diag_emit(sink, NPUC_SEV_ERROR, kernel_path, 0, 0,
                 "the kernel run was killed by %s (an access outside a "
                 "buffer? rerun with NPUC_CHECK_BOUNDS=1 to check every "
                 "access)",
                 name);
}

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

static bool write_text(const char *dir, const char *name, const char *text) {
  char *path = path_in(dir, name);
  FILE *f = fopen(path, "w");
  bool ok = f && fputs(text, f) >= 0;
  if (f)
    ok = fclose(f) == 0 && ok;
  free(path);
  return ok;
}

/* What npuc-compile --target=ascend-cmodel runs before emitting, with no
 * optional pass: the static bounds check, and the binding of a sub-block
 * loop (bishengir-opt's split leaves one), without which the C model would
 * run both of its iterations on one sub-block and the grid function would
 * not find the block count marked inside it. */
static bool run_target_pipeline(const npuc_op_registry *reg,
                                MlirOperation module,
                                const npuc_diag_sink *sink) {
  const npuc_target_def *t = npuc_target_lookup("ascend-cmodel");
  npuc_compile_options none = {0};
  char pipeline[512];
  return t && t->pipeline(module, &none, pipeline, sizeof pipeline) &&
         npuc_pipeline_run(reg, module, pipeline, sink);
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
  ok = ok && npuc_module_parse(ctx, reg, text, len, name, 1, sink, &m) &&
       run_target_pipeline(reg, m.op, sink);
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

/* $CC -std=c11 $NPUC_CFLAGS -I<include> kernel.c host.c <runtime> -lm
 * -lpthread -o kernel, its output in build.log. */
static bool build(const char *work_dir, const npuc_diag_sink *sink) {
  char *src1 = path_in(work_dir, "kernel.c"),
       *src2 = path_in(work_dir, "host.c");
  char *exe = path_in(work_dir, "kernel"),
       *log = path_in(work_dir, "build.log");
  npuc_sb inc = {0};
  npuc_sb_printf(&inc, "-I%s", env_or("NPUC_INCLUDE_DIR", NPUC_INCLUDE_DIR));
  char *cc = npuc_xstrdup(env_or("CC", "cc"));
  char *flags = npuc_xstrdup(env_or("NPUC_CFLAGS", NPUC_KERNEL_CFLAGS));
  char *rt = npuc_xstrdup(env_or("NPUC_RUNTIME_LIB", NPUC_RUNTIME_LIB));
  char std[] = "-std=c11", o[] = "-o", lm[] = "-lm", lp[] = "-lpthread";
  /* The flags are words separated by spaces (no quoting needed for ours). */
  char *argv[32] = {cc, std};
  int argc = 2;
  for (char *w = strtok(flags, " "); w && argc < 20; w = strtok(NULL, " "))
    argv[argc++] = w;
  char *rest[] = {inc.data, src1, src2, rt, lm, lp, o, exe, NULL};
  for (int i = 0; rest[i]; ++i)
    argv[argc++] = rest[i];
  argv[argc] = NULL;
  int status = 0;
  bool ok = spawn(argv, NULL, log, &status) && status == 0;
  if (!ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, log, 0, 0,
                   "the generated C did not build (compiler output there)");
  free(src1), free(src2), free(exe), free(log), free(cc), free(flags), free(rt);
  npuc_sb_free(&inc);
  return ok;
}

/* ---- the kernel's arguments against the spec ----------------------------- */

/* One argument as `kernel --describe` prints it. */
typedef struct {
  bool is_buffer;
  char dtype[8];
  int rank;
  int64_t sizes[8]; /* -1: dynamic */
} kernel_arg;

typedef struct {
  char name[256];
  kernel_arg args[64];
  int num_args;
} kernel_sig;

static bool read_signature(const char *work_dir, kernel_sig *sig,
                           const npuc_diag_sink *sink);
static bool check_arg(const npuc_run_spec *spec, const kernel_sig *sig, int i,
                      const npuc_diag_sink *sink);

/* The kernel the host runs (the first of its table: the named one, emitted
 * alone, or the first entry) takes what the spec gives: as many
 * arguments, of the same kinds, dtypes and ranks, and every size its type
 * fixes. Errors are at the spec's lines. */
static bool check_signature(const npuc_run_spec *spec, const char *work_dir,
                            const npuc_diag_sink *sink) {
  kernel_sig *sig = npuc_xcalloc(1, sizeof *sig);
  bool ok = read_signature(work_dir, sig, sink);
  if (ok && sig->num_args != spec->num_args) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, spec->file, spec->args_loc.line,
                   spec->args_loc.col,
                   "'args' gives %d argument%s, kernel '%s' takes %d",
                   spec->num_args, spec->num_args == 1 ? "" : "s", sig->name,
                   sig->num_args);
    ok = false;
  }
  for (int i = 0; ok && i < spec->num_args; ++i)
    ok = check_arg(spec, sig, i, sink);
  free(sig);
  return ok;
}

/* Parses the first kernel of `kernel --describe`:
 *   kernel NAME / arg N buf DTYPE RANK S0 .. / arg N scalar DTYPE */
static bool read_signature(const char *work_dir, kernel_sig *sig,
                           const npuc_diag_sink *sink) {
  char *exe = path_in(work_dir, "kernel");
  char *out = path_in(work_dir, "describe.txt");
  char describe[] = "--describe";
  char *argv[] = {exe, describe, NULL};
  int status = 0;
  bool ok = spawn(argv, NULL, out, &status) && status == 0;
  FILE *f = ok ? fopen(out, "r") : NULL;
  char line[512];
  int kernels = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (sscanf(line, "kernel %255s", sig->name) == 1 && ++kernels > 1)
      break;
    kernel_arg *a = &sig->args[sig->num_args];
    char kind[16];
    int n = 0, used = 0;
    if (kernels != 1 || sig->num_args == 64 ||
        sscanf(line, "arg %d %15s %7s %n", &n, kind, a->dtype, &used) < 3)
      continue;
    a->is_buffer = strcmp(kind, "buf") == 0;
    char *p = line + used;
    a->rank = a->is_buffer ? (int)strtol(p, &p, 10) : 0;
    for (int d = 0; d < a->rank && d < 8; ++d)
      a->sizes[d] = strtoll(p, &p, 10);
    sig->num_args++;
  }
  if (f)
    fclose(f);
  if (!f || kernels == 0) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, out, 0, 0,
                   "the built kernel did not describe its arguments");
    ok = false;
  }
  free(exe);
  free(out);
  return ok;
}

static void print_shape(npuc_sb *sb, const int64_t *sizes, int rank) {
  npuc_sb_printf(sb, "[");
  for (int d = 0; d < rank; ++d)
    if (sizes[d] < 0)
      npuc_sb_printf(sb, "%s?", d ? ", " : "");
    else
      npuc_sb_printf(sb, "%s%lld", d ? ", " : "", (long long)sizes[d]);
  npuc_sb_printf(sb, "]");
}

static void print_kind(npuc_sb *sb, bool is_buffer, const char *dtype,
                       int rank) {
  if (is_buffer)
    npuc_sb_printf(sb, "a buffer of %s of rank %d", dtype, rank);
  else
    npuc_sb_printf(sb, "a scalar %s", dtype);
}

static bool check_arg(const npuc_run_spec *spec, const kernel_sig *sig, int i,
                      const npuc_diag_sink *sink) {
  const npuc_run_arg *a = &spec->args[i];
  const kernel_arg *k = &sig->args[i];
  npuc_sb want = {0}, got = {0};
  bool ok = true;
  npuc_run_loc at = a->loc;
  if (k->is_buffer != a->is_buffer || strcmp(k->dtype, a->dtype) != 0 ||
      k->rank != a->rank) {
    print_kind(&want, k->is_buffer, k->dtype, k->rank);
    print_kind(&got, a->is_buffer, a->dtype, a->rank);
    ok = false;
  }
  for (int d = 0; ok && d < k->rank; ++d)
    if (k->sizes[d] >= 0 && k->sizes[d] != a->shape[d]) {
      print_shape(&want, k->sizes, k->rank);
      npuc_sb_printf(&want, " (the static sizes of its type; ? is any)");
      print_shape(&got, a->shape, a->rank);
      at = a->shape_loc;
      ok = false;
    }
  if (!ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, spec->file, at.line, at.col,
                   "argument %d: kernel '%s' takes %s, the spec gives %s", i,
                   sig->name, want.data, got.data);
  npuc_sb_free(&want);
  npuc_sb_free(&got);
  return ok;
}

/* ---- running ---------------------------------------------------------------
 */

/* work_dir/manifest.txt, its paths relative to the run directory the
 * kernel runs in: in/argN.bin, and out_sub for the outputs. */
static bool write_manifest(const npuc_run_spec *spec, int64_t sub_blocks,
                           const char *work_dir, const char *out_sub) {
  char *path = path_in(work_dir, "manifest.txt");
  FILE *f = fopen(path, "w");
  free(path);
  if (!f)
    return false;
  /* A named kernel was emitted alone (emit_into), as the first and only
   * one: the manifest need not name it, and its C name may differ. */
  if (spec->blocks >= 0)
    fprintf(f, "blocks %lld\n", (long long)spec->blocks);
  if (sub_blocks > 0)
    fprintf(f, "sub_blocks %lld\n", (long long)sub_blocks);
  fprintf(f, "out %s\n", out_sub);
  for (int i = 0; i < spec->num_args; ++i) {
    const npuc_run_arg *a = &spec->args[i];
    if (!a->is_buffer) {
      fprintf(f, "arg scalar %s %s\n", a->dtype, a->value);
      continue;
    }
    fprintf(f, "arg buf %s %d", a->dtype, a->rank);
    for (int d = 0; d < a->rank; ++d)
      fprintf(f, " %lld", (long long)a->shape[d]);
    fprintf(f, " in/arg%d.bin\n", i);
  }
  return fclose(f) == 0;
}

/* Runs argv[0] (searched in PATH) with argv, in `cwd` when given, stdout
 * and stderr to `log_path` when given; *status is waitpid's. False when it
 * could not be started (errno says why). */
static bool spawn(char *const argv[], const char *cwd, const char *log_path,
                  int *status) {
  pid_t pid = fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    int fd = log_path ? open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if ((cwd && chdir(cwd) != 0) || (log_path && fd < 0))
      _exit(127);
    if (fd >= 0 && (dup2(fd, 1) < 0 || dup2(fd, 2) < 0))
      _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  npuc_temp_child_track(pid); /* a signal to us ends the child too */
  bool waited = true;
  while (waited && waitpid(pid, status, 0) < 0)
    waited = errno == EINTR;
  npuc_temp_child_track(0);
  return waited;
}

/* ---- comparison ------------------------------------------------------------
 */

static char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *data = npuc_xmalloc(cap);
  size_t got;
  while ((got = fread(data + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap)
      data = npuc_xrealloc(data, cap *= 2);
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
      printf("arg%d: %zu of %zu elements differ; first at %zu: %.9g vs %.9g\n",
             i, bad, n, first, element(a, dt, first), element(b, dt, first));
      ++differing;
    } else {
      printf("arg%d: %zu elements identical\n", i, n);
    }
    free(a);
    free(b);
  }
  return differing;
}
