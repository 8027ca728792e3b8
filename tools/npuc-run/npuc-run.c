/* npuc-run: runs a HIVM kernel on this machine through the C model, on
 * inputs a YAML spec describes; or runs two kernels (before and after a
 * pass) on the same inputs and compares every output bit for bit.
 *
 *   npuc-run KERNEL.mlir --spec S.yaml [-o DIR]
 *   npuc-run --compare A.mlir B.mlir --spec S.yaml [-o DIR]
 *
 * Exit status: 0 ran (and, comparing, identical); 1 outputs differ or a
 * kernel failed (did not compile or build, does not take the spec's
 * arguments, exited with an error or was killed); 2 bad usage, spec or -o
 * DIR. With -o, DIR changes only when every kernel ran. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include "npuc/Alloc.h"
#include "npuc/Passes.h"
#include "npuc/Run.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
      if (i + 1 >= argc || !argv[i + 1][0]) {
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
            !o->spec     ? "no --spec given"
            : o->compare ? "--compare takes two kernel files"
                         : "give one kernel file (or --compare A B)");
    usage(stderr);
    return 2;
  }
  return -1;
}

static void usage(FILE *f) {
  fprintf(
      f, "USAGE: " TOOL " KERNEL.mlir --spec SPEC.yaml [-o DIR]\n"
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

/* Removes a directory npuc-run made, no longer to be removed on a
 * signal. */
static void remove_tree(const char *dir) {
  npuc_remove_tree(dir);
  npuc_temp_dir_untrack(dir);
}

/* "DIR/NAME", malloc'd. */
static char *path_in(const char *dir, const char *name) {
  char *p = npuc_xmalloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

static char *make_work_dir(void);
static int build_kernels(const options *o, const npuc_run_spec *spec,
                         const npuc_op_registry *reg, const char *work);
static int run_kernels(const options *o, const npuc_run_spec *spec,
                       const char *run_dir, const char *work, bool *complete);
static bool commit_run_dir(const char *staging, const char *dir);

/* Nothing is written before the spec is valid and every kernel is built
 * and takes what the spec gives; with -o, the run then happens in a
 * staging directory beside DIR that replaces DIR's files only when every
 * kernel ran (a failure leaves DIR as it was). */
static int run(const options *o) {
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  npuc_run_spec spec;
  if (!reg || !npuc_run_spec_load(o->spec, &spec, NULL))
    return 2;
  struct stat st;
  if (o->out && stat(o->out, &st) == 0 && !S_ISDIR(st.st_mode)) {
    fprintf(stderr, TOOL ": error: -o '%s' exists and is not a directory\n",
            o->out);
    npuc_run_spec_free(&spec);
    return 2;
  }
  char *work = make_work_dir();
  int status = work ? build_kernels(o, &spec, reg, work) : 2;
  char *staging = NULL;
  if (status == 0 && o->out &&
      !(staging = npuc_staging_dir_create(o->out, NULL)))
    status = 2;
  bool complete = false;
  if (status == 0)
    status = run_kernels(o, &spec, staging ? staging : work, work, &complete);
  if (staging && complete && !commit_run_dir(staging, o->out))
    status = 2;
  else if (staging && !complete)
    remove_tree(staging);
  if (work && !getenv("NPUC_KEEP_TEMPS"))
    remove_tree(work);
  free(staging);
  free(work);
  npuc_run_spec_free(&spec);
  return status;
}

static char *make_work_dir(void) {
  const char *tmp = getenv("TMPDIR");
  char *work = path_in(tmp && *tmp ? tmp : "/tmp", "npuc-run.XXXXXX");
  if (mkdtemp(work)) {
    if (!getenv("NPUC_KEEP_TEMPS"))
      npuc_temp_dir_track(work);
    return work;
  }
  perror(TOOL ": error: cannot create a temporary directory");
  free(work);
  return NULL;
}

/* Each kernel compiled and built in WORK/buildK, its arguments checked
 * against the spec: 0, or 1 when one did not. */
static int build_kernels(const options *o, const npuc_run_spec *spec,
                         const npuc_op_registry *reg, const char *work) {
  for (int k = 0; k < o->num_kernels; ++k) {
    char name[16];
    snprintf(name, sizeof name, "build%d", k);
    char *build = path_in(work, name);
    bool ok = npuc_run_build(reg, o->kernels[k], spec, build, NULL);
    free(build);
    if (!ok)
      return 1;
  }
  return 0;
}

static void print_summary(const char *dir) {
  char *path = path_in(dir, "summary.txt");
  FILE *f = fopen(path, "r");
  char line[512];
  while (f && fgets(line, sizeof line, f))
    fputs(line, stdout);
  if (f)
    fclose(f);
  free(path);
}

/* Inputs to RUN_DIR/in, each kernel's outputs to RUN_DIR (RUN_DIR/a and
 * RUN_DIR/b comparing), then the comparison. *complete: every output was
 * written (the outputs may still differ). */
static int run_kernels(const options *o, const npuc_run_spec *spec,
                       const char *run_dir, const char *work, bool *complete) {
  char *in = path_in(run_dir, "in");
  char *out[2] = {path_in(run_dir, o->compare ? "a" : "."),
                  path_in(run_dir, "b")};
  int status =
      npuc_make_dirs(in, NULL) && npuc_run_write_inputs(spec, in, NULL) ? 0 : 2;
  for (int k = 0; status == 0 && k < o->num_kernels; ++k) {
    char name[16];
    snprintf(name, sizeof name, "build%d", k);
    char *build = path_in(work, name);
    const char *sub = o->compare ? (k ? "b" : "a") : ".";
    if (!npuc_make_dirs(out[k], NULL) ||
        !npuc_run_execute(o->kernels[k], spec, spec->sub_blocks[k], build,
                          run_dir, sub, NULL))
      status = 1;
    else if (!o->compare)
      print_summary(out[k]);
    free(build);
  }
  *complete = status == 0;
  if (status == 0 && o->compare) {
    int differing = npuc_run_compare(spec, out[0], out[1], NULL);
    if (differing < 0) {
      status = 2;
      *complete = false;
    } else if (differing > 0) {
      printf("%d output buffer%s differ\n", differing,
             differing == 1 ? "" : "s");
      status = 1;
    } else {
      printf("outputs identical\n");
    }
  }
  free(in);
  free(out[0]);
  free(out[1]);
  return status;
}

/* Moves the staging directory into place: renamed when DIR is new, else
 * its subdirectories (in, a, b) and files each into DIR's. */
static bool commit_run_dir(const char *staging, const char *dir) {
  if (rename(staging, dir) == 0)
    return true;
  static const char *const subs[] = {"in", "a", "b"};
  bool ok = true;
  for (int i = 0; ok && i < 3; ++i) {
    char *from = path_in(staging, subs[i]), *to = path_in(dir, subs[i]);
    struct stat st;
    if (stat(from, &st) == 0)
      ok = npuc_staging_dir_commit(from, to, NULL);
    free(from);
    free(to);
  }
  if (ok)
    return npuc_staging_dir_commit(staging, dir, NULL);
  remove_tree(staging);
  return false;
}
