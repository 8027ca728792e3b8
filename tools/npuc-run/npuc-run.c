/* npuc-run: runs a HIVM kernel on this machine through the C model, on
 * inputs a YAML spec describes; or runs two kernels (before and after a
 * pass) on the same inputs and compares every output bit for bit.
 *
 *   npuc-run KERNEL.mlir --spec S.yaml [-o DIR]
 *   npuc-run --compare A.mlir B.mlir --spec S.yaml [-o DIR]
 *
 * Exit status: 0 ran (and, comparing, identical); 1 outputs differ or the
 * kernel failed; 2 bad usage or input. */
/* nftw */
#define _XOPEN_SOURCE 700
#include "npuc/Passes.h"
#include "npuc/Run.h"
#include "npuc/ToolSupport.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "npuc-run"

typedef struct {
  const char *kernels[2];
  int num_kernels;
  bool compare;
  const char *spec;
  const char *out;
} options;

static int parse_args(int argc, char **argv, options *o);
static int run(const options *o);
static void usage(FILE *f);

int main(int argc, char **argv) {
  options o = {{NULL, NULL}, 0, false, NULL, NULL};
  npuc_register_passes();
  int status = parse_args(argc, argv, &o);
  return status >= 0 ? status : run(&o);
}

static int parse_args(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--compare")) {
      o->compare = true;
    } else if (!strcmp(a, "--spec") || !strcmp(a, "-o")) {
      if (i + 1 >= argc) {
        fprintf(stderr, TOOL ": error: %s needs a value\n", a);
        return 2;
      }
      *(a[1] == 'o' ? &o->out : &o->spec) = argv[++i];
    } else if (!strncmp(a, "--spec=", 7)) {
      o->spec = a + 7;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, TOOL ": error: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else if (o->num_kernels < 2) {
      o->kernels[o->num_kernels++] = a;
    } else {
      fprintf(stderr, TOOL ": error: too many kernel files\n");
      return 2;
    }
  }
  if (!o->spec || o->num_kernels != (o->compare ? 2 : 1)) {
    fprintf(stderr, TOOL ": error: %s\n",
            !o->spec ? "no --spec given"
                     : o->compare ? "--compare takes two kernel files"
                                  : "give one kernel file (or --compare A B)");
    usage(stderr);
    return 2;
  }
  return -1;
}

static void usage(FILE *f) {
  fprintf(f, "USAGE: " TOOL " KERNEL.mlir --spec SPEC.yaml [-o DIR]\n"
             "       " TOOL " --compare A.mlir B.mlir --spec SPEC.yaml [-o DIR]\n\n"
             "Compiles with --target=ascend-cmodel, builds with $CC (default cc),\n"
             "runs every block, and writes DIR/argN.bin and DIR/summary.txt\n"
             "(with --compare: DIR/a and DIR/b). NPUC_THREADS=n runs blocks on n\n"
             "threads; NPUC_CHECK_BOUNDS=1 checks every access. The spec's\n"
             "sub_blocks: N (or [A, B] for the two kernels of --compare) sets\n"
             "the sub-blocks launched per block. The spec's kernel: NAME runs\n"
             "the func.func NAME alone, entry or not (the module's other\n"
             "functions are not compiled).\n");
}

static int remove_entry(const char *path, const struct stat *sb, int flag,
                        struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void print_summary(const char *dir) {
  char path[8300];
  snprintf(path, sizeof path, "%s/summary.txt", dir);
  FILE *f = fopen(path, "r");
  char line[512];
  while (f && fgets(line, sizeof line, f))
    fputs(line, stdout);
  if (f)
    fclose(f);
}

static int run(const options *o) {
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  npuc_run_spec spec;
  if (!reg || !npuc_run_spec_load(o->spec, &spec, NULL))
    return 2;
  const char *tmp = getenv("TMPDIR");
  char work[4096];
  snprintf(work, sizeof work, "%s/npuc-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(work)) {
    perror(TOOL ": error: cannot create a temporary directory");
    npuc_run_spec_free(&spec);
    return 2;
  }
  /* With -o the inputs stay beside the outputs, for reference checks. */
  const char *base = o->out ? o->out : work;
  size_t cap = strlen(base) + 64;
  char *in = malloc(cap), *out[2] = {malloc(cap), malloc(cap)};
  char *build[2] = {malloc(strlen(work) + 16), malloc(strlen(work) + 16)};
  snprintf(in, cap, "%s/in", base);
  int status = npuc_make_dirs(in, NULL) && npuc_run_write_inputs(&spec, in, NULL) ? 0 : 2;
  for (int k = 0; status == 0 && k < o->num_kernels; ++k) {
    snprintf(out[k], cap, "%s%s", base, o->compare ? (k ? "/b" : "/a") : "");
    snprintf(build[k], strlen(work) + 16, "%s/build%d", work, k);
    if (!npuc_run_kernel(reg, o->kernels[k], &spec, spec.sub_blocks[k], in,
                         build[k], out[k], NULL))
      status = 1;
    else if (!o->compare)
      print_summary(out[k]);
  }
  if (status == 0 && o->compare) {
    int differing = npuc_run_compare(&spec, out[0], out[1], NULL);
    if (differing < 0)
      status = 2;
    else if (differing > 0) {
      printf("%d output buffer%s differ\n", differing, differing == 1 ? "" : "s");
      status = 1;
    } else {
      printf("outputs identical\n");
    }
  }
  if (!getenv("NPUC_KEEP_TEMPS"))
    nftw(work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(in);
  for (int k = 0; k < 2; ++k) {
    free(out[k]);
    free(build[k]);
  }
  npuc_run_spec_free(&spec);
  return status;
}
