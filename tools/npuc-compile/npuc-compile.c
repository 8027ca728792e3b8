/* npuc-compile: the whole-compilation driver, in the manner of
 * bishengir-compile: one input, one target, an output directory.
 * Each target (npuc/Target.h) gives the pipeline to run and the files to
 * write; this file owns the command line and the output directory. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/Alloc.h"
#include "npuc/IR.h"
#include "npuc/Onnx.h"
#include "npuc/Pass.h"
#include "npuc/Passes.h"
#include "npuc/StringBuilder.h"
#include "npuc/Target.h"
#include "npuc/ToolSupport.h"
#include "npuc/Verify.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NPUC_VERSION
#define NPUC_VERSION "0.0.0"
#endif

#define TOOL "npuc-compile"

typedef struct {
  const char *input;
  const char *output_dir;
  const char *target;
  npuc_compile_options compile;
  /* ONNX input (docs/onnx.md): by extension or --input-format=onnx. */
  bool onnx;
  const char *input_format;
  npuc_onnx_input_shape shapes[16];
  npuc_onnx_import_options import;
} options;

enum { CONTINUE = -1 };

static int parse_command_line(int argc, char **argv, options *o);
static int compile(const options *o);
static int compile_parsed(const options *o, const char *input, size_t len);
static void print_help(void);

int main(int argc, char **argv) {
  options o = {.compile = {false, true, NULL, NULL, NULL, NULL}};
  npuc_register_passes();
  int status = parse_command_line(argc, argv, &o);
  return status == CONTINUE ? compile(&o) : status;
}

static bool write_staged(const char *staging, const npuc_emitted_file *file);
static bool emit_target(const options *o, const npuc_op_registry *registry,
                        MlirOperation module);
static void finish_options(options *o);
static bool run_pipeline(MlirContext ctx, const npuc_op_registry *registry,
                         npuc_module *m, const char *pipeline);

static bool parse_input(MlirContext ctx, const npuc_op_registry *registry,
                        const options *o, const char *input, size_t len,
                        npuc_module *m);
static bool prepare_config(options *o, char **scratch, char **copy);
static void remove_scratch(char *scratch, char *copy);
static bool compile_text(const options *o);
static int compile_parsed(const options *o, const char *input, size_t len);

static int compile(const options *o) {
  npuc_keep_freed_memory();
  npuc_install_fatal_error_handler(TOOL);
  options full = *o;
  char *scratch = NULL, *copy = NULL;
  bool ok = prepare_config(&full, &scratch, &copy);
  if (ok)
    ok = o->onnx ? compile_parsed(&full, NULL, 0) == 0 : compile_text(&full);
  if (!ok && copy)
    fprintf(stderr,
            TOOL ": note: the passes read --target-config '%s' from a copy, "
                 "'%s'\n",
            o->compile.target_config, copy);
  remove_scratch(scratch, copy);
  return ok ? 0 : 1;
}

/* The MLIR text of the input, checked, then compiled. */
static bool compile_text(const options *o) {
  size_t len;
  char *input = npuc_read_input(o->input, &len, NULL);
  if (!input)
    return false;
  bool ok =
      npuc_check_text(input, len, npuc_input_display_name(o->input), NULL) &&
      compile_parsed(o, input, len) == 0;
  free(input);
  return ok;
}

/* The module from the MLIR text, or imported from the ONNX model. */
static bool parse_input(MlirContext ctx, const npuc_op_registry *registry,
                        const options *o, const char *input, size_t len,
                        npuc_module *m) {
  if (!o->onnx)
    return npuc_module_parse(ctx, registry, input, len,
                             npuc_input_display_name(o->input), 1, NULL, m);
  memset(m, 0, sizeof *m);
  npuc_context_set_sink(ctx, NULL, NULL);
  m->op = npuc_onnx_import_file(ctx, registry, o->input, &o->import, NULL);
  return !mlirOperationIsNull(m->op);
}

static int compile_parsed(const options *o, const char *input, size_t len) {
  options full = *o;
  finish_options(&full);
  const npuc_target_def *target = npuc_target_lookup(o->target);
  const npuc_op_registry *registry = npuc_builtin_op_registry(NULL);
  bool ok = registry != NULL;
  if (ok) {
    MlirContext ctx = npuc_context_create();
    npuc_module m;
    ok = parse_input(ctx, registry, &full, input, len, &m);
    if (ok) {
      /* The pipeline names the config once per pass: room for long paths. */
      size_t cap = (size_t)64 << 10;
      char *pipeline = npuc_xmalloc(cap);
      *pipeline = '\0';
      npuc_context_set_sink(ctx, NULL, m.map);
      ok = target->pipeline(m.op, &full.compile, pipeline, cap);
      if (!ok && strlen(pipeline) + 1 >= cap)
        fprintf(stderr,
                TOOL ": error: the pass pipeline of --target=%s does "
                     "not fit in %zu bytes\n",
                o->target, cap);
      if (ok && *pipeline)
        ok = run_pipeline(ctx, registry, &m, pipeline);
      free(pipeline);
      ok = ok && emit_target(&full, registry, m.op);
      npuc_module_destroy(&m);
    }
    npuc_context_destroy(ctx);
  }
  return ok ? 0 : 1;
}

/* --target-config: the passes open the file by its path, each in turn, and
 * the path is written into the pipeline text. A FIFO or /dev/fd/N (a
 * shell's <(...)) gave its text to the first pass only, and the others
 * saw an empty file, that is the defaults, silently; a path holding
 * characters of the pipeline syntax, or a long one, did not survive the
 * text. So the path is checked here (a directory or an unreadable file is
 * an error), and when it is not a plain regular file the passes get a
 * copy in a private scratch directory, under a plain name. */
static bool prepare_config(options *o, char **scratch, char **copy) {
  const char *path = o->compile.target_config;
  struct stat st;
  if (!path)
    return true;
  if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
    /* Reading it says what is wrong, as for every input. */
    size_t len;
    free(npuc_read_input_limited(path, NPUC_CONFIG_LIMIT, &len, NULL));
    return false;
  }
  if (S_ISREG(st.st_mode) && strlen(path) < 256 &&
      !strpbrk(path, " \t\n,{}()'\"=\\"))
    return true;
  size_t len;
  char *text = npuc_read_input_limited(path, NPUC_CONFIG_LIMIT, &len, NULL);
  if (!text)
    return false;
  const char *tmp = getenv("TMPDIR");
  npuc_sb dir = {0};
  npuc_sb_printf(&dir, "%s/npuc-config.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  bool ok = mkdtemp(dir.data) != NULL;
  if (ok) {
    npuc_temp_dir_track(dir.data);
    *scratch = dir.data;
    npuc_sb file = {0};
    npuc_sb_printf(&file, "%s/target-config.yaml", dir.data);
    *copy = file.data;
    npuc_output *out = npuc_output_open(file.data, NULL);
    ok = out && npuc_output_write(out, text, len) &&
         npuc_output_commit(out, NULL);
    o->compile.target_config = file.data;
  } else {
    fprintf(stderr,
            TOOL ": error: cannot create a scratch directory '%s': %s\n",
            dir.data, strerror(errno));
    free(dir.data);
  }
  free(text);
  return ok;
}

static void remove_scratch(char *scratch, char *copy) {
  free(copy);
  if (!scratch)
    return;
  npuc_remove_tree(scratch);
  npuc_temp_dir_untrack(scratch);
  free(scratch);
}

/* The flag, or triton-ascend's switch: TRITON_ALL_BLOCKS_PARALLEL=1
 * (TRITON_ALL_PARALLEL=1 in the Auto Blockify docs). */
static bool env_true(const char *name) {
  const char *v = getenv(name);
  if (!v)
    return false;
  char lower[8];
  size_t n = 0;
  while (v[n] && n < sizeof lower - 1) {
    lower[n] = (char)tolower((unsigned char)v[n]);
    n++;
  }
  lower[n] = '\0';
  return !v[n] && (!strcmp(lower, "1") || !strcmp(lower, "true") ||
                   !strcmp(lower, "on") || !strcmp(lower, "yes"));
}

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

/* Fills in what comes from the environment: the blockify switch and where
 * the headers and runtimes are (overridable for installed trees). */
static void finish_options(options *o) {
  o->compile.auto_blockify_loop = o->compile.auto_blockify_loop ||
                                  env_true("TRITON_ALL_BLOCKS_PARALLEL") ||
                                  env_true("TRITON_ALL_PARALLEL");
  o->compile.include_dir = env_or("NPUC_INCLUDE_DIR", NPUC_INCLUDE_DIR);
  o->compile.runtime_dir = env_or("NPUC_RUNTIME_DIR", NPUC_RUNTIME_DIR);
}

/* Runs `pipeline` on the module, then verifies our ops again (the passes
 * may have built some). Diagnostics go to stderr at the user's positions. */
static bool run_pipeline(MlirContext ctx, const npuc_op_registry *registry,
                         npuc_module *m, const char *pipeline) {
  npuc_context_set_sink(ctx, NULL, m->map);
  npuc_verify_each verify_each = {false, false};
  npuc_pass_context pctx = {registry, ctx, &verify_each};
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  bool ok = npuc_pipeline_parse(pm, pipeline, &pctx, NULL);
  if (ok)
    npuc_pass_manager_verify_each(pm, &verify_each);
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, m->op)) &&
       npuc_verify_after_passes(registry, m->op);
  mlirPassManagerDestroy(pm);
  return ok;
}

/* Generates every file in memory first, writes them into a staging
 * directory beside the output, and only when all are written moves them
 * into place: on any error the output directory is neither created nor
 * touched, and the staging directory is removed. */
static bool emit_target(const options *o, const npuc_op_registry *registry,
                        MlirOperation module) {
  npuc_emitted_files files = {0};
  if (!npuc_target_lookup(o->target)->emit(registry, module, &o->compile,
                                           &files)) {
    npuc_emitted_files_free(&files);
    return false;
  }
  char *staging = npuc_staging_dir_create(o->output_dir, NULL);
  bool ok = staging != NULL;
  for (size_t i = 0; ok && i < files.count; ++i)
    ok = write_staged(staging, &files.files[i]);
  if (ok)
    ok = npuc_staging_dir_commit(staging, o->output_dir, NULL);
  else if (staging)
    npuc_staging_dir_remove(staging);
  free(staging);
  npuc_emitted_files_free(&files);
  return ok;
}

static bool write_staged(const char *staging, const npuc_emitted_file *file) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s", staging, file->name);
  npuc_output *out =
      n > 0 && (size_t)n < sizeof path ? npuc_output_open(path, NULL) : NULL;
  return out && npuc_output_write(out, file->text, strlen(file->text)) &&
         npuc_output_commit(out, NULL);
}

/* ---- Command line --------------------------------------------------- */

static bool parse_bool(const char *flag, const char *value, bool *out);
static bool valid_target(const char *target);
static void list_targets(FILE *f);
static int unknown_option(const char *arg, const char *name);
static bool parse_onnx_option(options *o, const char *flag, const char *value);
static int finish_input_kind(options *o);

static const char *const option_names[] = {"target",
                                           "o",
                                           "enable-auto-blockify-loop",
                                           "enable-auto-bind-sub-block",
                                           "target-config",
                                           "kernel",
                                           "input-format",
                                           "input-shape",
                                           "tx8-dtype",
                                           "tx8-search-report",
                                           "help",
                                           "version",
                                           NULL};

static int parse_command_line(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == '\0') {
      if (o->input) {
        fprintf(stderr,
                TOOL ": error: more than one input file ('%s' and "
                     "'%s')\n",
                o->input, arg);
        return 1;
      }
      o->input = arg;
      continue;
    }
    const char *body = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(body, '=');
    size_t n = eq ? (size_t)(eq - body) : strlen(body);
    const char *value = eq ? eq + 1 : NULL;
#define IS(name) (n == strlen(name) && strncmp(body, name, n) == 0)
    if (IS("help") || IS("h")) {
      print_help();
      return 0;
    }
    if (IS("version")) {
      printf(TOOL " version " NPUC_VERSION " (MLIR 22)\n");
      return 0;
    }
    if (IS("input-format") || IS("input-shape") || IS("tx8-dtype")) {
      if (!value && i + 1 < argc)
        value = argv[++i];
      if (!parse_onnx_option(o,
                             IS("input-format")  ? "input-format"
                             : IS("input-shape") ? "input-shape"
                                                 : "tx8-dtype",
                             value))
        return 1;
      continue;
    }
    if (IS("target") || IS("o") || IS("target-config") || IS("kernel")) {
      if (!value && i + 1 < argc)
        value = argv[++i];
      if (!value || !*value) {
        fprintf(stderr, TOOL ": error: option '%s' needs a value\n", arg);
        return 1;
      }
      if (IS("target-config"))
        o->compile.target_config = value;
      else if (IS("kernel"))
        o->compile.kernel = value;
      else
        *(IS("o") ? &o->output_dir : &o->target) = value;
    } else if (IS("enable-auto-blockify-loop")) {
      if (!parse_bool("--enable-auto-blockify-loop", value,
                      &o->compile.auto_blockify_loop))
        return 1;
    } else if (IS("tx8-search-report")) {
      if (!parse_bool("--tx8-search-report", value,
                      &o->compile.tx8_search_report))
        return 1;
    } else if (IS("enable-auto-bind-sub-block")) {
      if (!parse_bool("--enable-auto-bind-sub-block", value,
                      &o->compile.auto_bind_sub_block))
        return 1;
    } else {
      char *name = strndup(body, n);
      int status = unknown_option(arg, name ? name : body);
      free(name);
      return status;
    }
#undef IS
  }
  if (!o->target) {
    fprintf(stderr, TOOL ": error: no target given: use --target=<name>, ");
    list_targets(stderr);
    return 1;
  }
  if (!valid_target(o->target)) {
    fprintf(stderr, TOOL ": error: unknown target '%s'; ", o->target);
    list_targets(stderr);
    return 1;
  }
  /* Only the C model can run one function alone (see AscendCModel.h). */
  if (o->compile.kernel && strcmp(o->target, "ascend-cmodel") != 0) {
    fprintf(stderr, TOOL ": error: --kernel is an option of "
                         "--target=ascend-cmodel only\n");
    return 1;
  }
  if (!o->output_dir) {
    fprintf(stderr, TOOL ": error: no output directory given: use -o <dir>\n");
    return 1;
  }
  if (!o->input) {
    fprintf(stderr, TOOL ": error: no input file given\n");
    return 1;
  }
  return finish_input_kind(o);
}

/* --input-format=mlir|onnx, --input-shape=NAME:DxD..., --tx8-dtype. */
static bool parse_onnx_option(options *o, const char *flag, const char *value) {
  if (!value || !*value) {
    fprintf(stderr, TOOL ": error: option '--%s' needs a value\n", flag);
    return false;
  }
  char err[256];
  if (!strcmp(flag, "input-format")) {
    if (strcmp(value, "mlir") && strcmp(value, "onnx")) {
      fprintf(stderr,
              TOOL ": error: --input-format takes mlir or onnx, not "
                   "'%s'\n",
              value);
      return false;
    }
    o->input_format = value;
  } else if (!strcmp(flag, "input-shape")) {
    size_t k = o->import.num_input_shapes;
    if (k == sizeof o->shapes / sizeof o->shapes[0]) {
      fprintf(stderr, TOOL ": error: too many --input-shape options\n");
      return false;
    }
    if (!npuc_onnx_parse_input_shape(value, &o->shapes[k], err, sizeof err)) {
      fprintf(stderr, TOOL ": error: --input-shape: %s\n", err);
      return false;
    }
    o->import.num_input_shapes++;
    o->import.input_shapes = o->shapes;
  } else if (!strcmp(value, "f32") || !strcmp(value, "f16") ||
             !strcmp(value, "bf16")) {
    o->import.dtype = value[0] == 'b'   ? NPUC_ONNX_DTYPE_BF16
                      : value[1] == '1' ? NPUC_ONNX_DTYPE_F16
                                        : NPUC_ONNX_DTYPE_MODEL;
  } else {
    fprintf(stderr,
            TOOL ": error: --tx8-dtype takes f32, f16 or bf16, not "
                 "'%s'\n",
            value);
    return false;
  }
  return true;
}

/* ONNX by --input-format or the .onnx extension; its options need it and
 * the tx8 target. */
static int finish_input_kind(options *o) {
  size_t n = strlen(o->input);
  o->onnx = o->input_format ? !strcmp(o->input_format, "onnx")
                            : n > 5 && !strcmp(o->input + n - 5, ".onnx");
  bool onnx_options = o->import.num_input_shapes || o->import.dtype;
  if (onnx_options && !o->onnx) {
    fprintf(stderr, TOOL ": error: --input-shape and --tx8-dtype apply to "
                         "ONNX input only\n");
    return 1;
  }
  if (o->onnx && strcmp(o->target, "tx8") != 0) {
    fprintf(stderr, TOOL ": error: ONNX input compiles for --target=tx8 "
                         "only\n");
    return 1;
  }
  o->import.progress = isatty(2);
  return CONTINUE;
}

static bool parse_bool(const char *flag, const char *value, bool *out) {
  if (!value || !strcmp(value, "true") || !strcmp(value, "True") ||
      !strcmp(value, "1")) {
    *out = true;
    return true;
  }
  if (!strcmp(value, "false") || !strcmp(value, "False") ||
      !strcmp(value, "0")) {
    *out = false;
    return true;
  }
  fprintf(stderr, TOOL ": error: %s expects true or false, got '%s'\n", flag,
          value);
  return false;
}

static bool valid_target(const char *target) {
  return npuc_target_lookup(target) != NULL;
}

static void list_targets(FILE *f) {
  fprintf(f, "valid targets:");
  for (size_t i = 0; i < npuc_num_targets(); i++)
    fprintf(f, " %s", npuc_target_at(i)->name);
  fprintf(f, "\n");
}

static int unknown_option(const char *arg, const char *name) {
  const char *best = NULL;
  size_t best_distance = 3; /* only close misspellings */
  for (const char *const *o = option_names; *o; o++) {
    size_t d = npuc_edit_distance(name, *o);
    if (d < best_distance)
      best = *o, best_distance = d;
  }
  if (best)
    fprintf(stderr,
            TOOL ": error: unknown option '%s'; did you mean "
                 "'--%s'?\n",
            arg, best);
  else
    fprintf(stderr,
            TOOL ": error: unknown option '%s' (see '" TOOL " --help')\n", arg);
  return 1;
}

static void print_help(void) {
  printf("OVERVIEW: npuc compiler driver: MLIR in, target artefacts out\n\n"
         "USAGE: " TOOL " --target=<target> -o <dir> [options] "
         "<input.mlir | model.onnx>\n\n"
         "OPTIONS:\n"
         "  --target=<target>                  The target; one of:\n");
  for (size_t i = 0; i < npuc_num_targets(); i++)
    printf("      %-14s %s\n", npuc_target_at(i)->name,
           npuc_target_at(i)->summary);
  printf(
      "  -o <dir>                           Output directory\n"
      "  --target-config=<file>             Override the target "
      "description (YAML)\n"
      "  --kernel=<name>                    ascend-cmodel: emit only the "
      "func.func <name>,\n"
      "                                     entry or not (default: every "
      "hacc.entry)\n"
      "  --enable-auto-blockify-loop        Run auto-blockify-parallel-loop: "
      "loop each kernel\n"
      "                                     over its logical blocks on the "
      "physical cores\n"
      "                                     (also on with "
      "TRITON_ALL_BLOCKS_PARALLEL=1)\n"
      "  --enable-auto-bind-sub-block=<bool>\n"
      "                                     Bind sub-blocks automatically "
      "(default: true)\n"
      "  --input-format=mlir|onnx           The input's kind (default: "
      "by extension;\n"
      "                                     .onnx is ONNX, anything else "
      "MLIR)\n"
      "  --input-shape=<name>:<DxDx...>     ONNX: the static shape of a "
      "graph input\n"
      "  --tx8-dtype=f32|f16|bf16           ONNX: compute in this element "
      "type (default f32)\n"
      "  --tx8-search-report                tx8: print each group's "
      "sharding/split\n"
      "                                     candidates and their estimated "
      "cycles\n"
      "  --help, -h                         Show this help\n"
      "  --version                          Show the version\n");
}
