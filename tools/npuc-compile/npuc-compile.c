/* npuc-compile: the whole-compilation driver, in the manner of
 * bishengir-compile: one input, one target, an output directory.
 * Each target (npuc/Target.h) gives the pipeline to run and the files to
 * write; this file owns the command line and the output directory. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/Alloc.h"
#include "npuc/CommandLine.h"
#include "npuc/IR.h"
#include "npuc/Onnx.h"
#include "npuc/Pass.h"
#include "npuc/Passes.h"
#include "npuc/Progress.h"
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
  const char *tx8_flag;        /* a --tx8-opt-* / --tx8-spm-svg flag given */
  npuc_progress_mode progress; /* --progress / --no-progress */
} options;

enum { CONTINUE = NPUC_CLI_CONTINUE };

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
typedef struct {
  int done, total;
} pass_progress;
static void show_pass(const char *pass, void *user);
static int count_passes(const char *pipeline);

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
  npuc_progress_init(o->progress);
  full.import.progress = npuc_progress_enabled();
  bool ok = prepare_config(&full, &scratch, &copy);
  if (ok)
    ok = o->onnx ? compile_parsed(&full, NULL, 0) == 0 : compile_text(&full);
  if (!ok && copy)
    fprintf(stderr,
            TOOL ": note: the passes read --target-config '%s' from a copy, "
                 "'%s'\n",
            o->compile.target_config, copy);
  remove_scratch(scratch, copy);
  npuc_progress_clear();
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
  pass_progress progress = {0, count_passes(pipeline)};
  npuc_pass_set_start_hook(show_pass, &progress);
  bool ok = npuc_pipeline_run(registry, m->op, pipeline, NULL);
  npuc_pass_set_start_hook(NULL, NULL);
  return ok;
}

/* The progress line while the pipeline runs: "compiling: pass 5 of 12:
 * tx8-move-constant". */
static void show_pass(const char *pass, void *user) {
  pass_progress *p = user;
  npuc_progress(true, "compiling: pass %d of %d: %s", ++p->done, p->total,
                pass);
}

/* The passes of a pipeline's text: its entries at the top level of the
 * anchor's parentheses, options' braces skipped. */
static int count_passes(const char *pipeline) {
  int depth = 0, n = 0;
  bool empty = true;
  for (const char *c = pipeline; *c; ++c) {
    if (*c == '(' || *c == '{')
      depth++;
    else if (*c == ')' || *c == '}')
      depth--;
    else if (*c == ',' && depth == 1)
      n++;
    else if (depth == 1 && *c != ' ')
      empty = false;
  }
  return empty ? 0 : n + 1;
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

enum {
  OPT_TARGET,
  OPT_OUTPUT,
  OPT_CONFIG,
  OPT_KERNEL,
  OPT_BLOCKIFY,
  OPT_BIND,
  OPT_FORMAT,
  OPT_ONNX,
  OPT_TX8_BARRIER,
  OPT_TX8_DDR,
  OPT_TX8_SVG,
  OPT_TX8_SEARCH_REPORT,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_HELP,
  OPT_VERSION,
};

static const npuc_cli_option specs[] = {
    {"target", NPUC_ARG_REQUIRED, OPT_TARGET, "--target=<target>",
     "The target (listed below)"},
    {"o", NPUC_ARG_REQUIRED, OPT_OUTPUT, "-o <dir>", "Output directory"},
    {"target-config", NPUC_ARG_REQUIRED, OPT_CONFIG, "--target-config=<file>",
     "Override the target description (YAML)"},
    {"kernel", NPUC_ARG_REQUIRED, OPT_KERNEL, "--kernel=<name>",
     "ascend-cmodel: emit only the func.func <name>,\n"
     "entry or not (default: every hacc.entry)"},
    {"enable-auto-blockify-loop", NPUC_ARG_NONE, OPT_BLOCKIFY,
     "--enable-auto-blockify-loop",
     "Run auto-blockify-parallel-loop: loop each kernel\n"
     "over its logical blocks on the physical cores\n"
     "(also on with TRITON_ALL_BLOCKS_PARALLEL=1)"},
    {"enable-auto-bind-sub-block", NPUC_ARG_NONE, OPT_BIND,
     "--enable-auto-bind-sub-block=<bool>",
     "Bind sub-blocks automatically (default: true)"},
    {"input-format", NPUC_ARG_REQUIRED, OPT_FORMAT, "--input-format=mlir|onnx",
     "The input's kind (default: by extension;\n"
     ".onnx is ONNX, anything else MLIR)"},
    {"input-shape", NPUC_ARG_REQUIRED, OPT_ONNX,
     "--input-shape=<name>:<DxDx...>",
     "ONNX: the static shape of a graph input"},
    {"tx8-dtype", NPUC_ARG_REQUIRED, OPT_ONNX, "--tx8-dtype=f32|f16|bf16",
     "ONNX: compute in this element type (default f32)"},
    {"tx8-opt-barrier", NPUC_ARG_NONE, OPT_TX8_BARRIER,
     "--tx8-opt-barrier=<bool>",
     "tx8: one barrier per level of independent groups\n"
     "(default: true; false: after every group)"},
    {"tx8-opt-ddr", NPUC_ARG_NONE, OPT_TX8_DDR, "--tx8-opt-ddr=<bool>",
     "tx8: DDR tensors on bank boundaries, reusing\n"
     "freed space (default: true; false: packed in order)"},
    {"tx8-search-report", NPUC_ARG_NONE, OPT_TX8_SEARCH_REPORT,
     "--tx8-search-report",
     "tx8: print each group's sharding/split candidates\n"
     "and their estimated cycles"},
    {"tx8-spm-svg", NPUC_ARG_NONE, OPT_TX8_SVG, "--tx8-spm-svg",
     "tx8: also write spm_group<N>.svg, each group's SPM\n"
     "buffers over its steps"},
    {"progress", NPUC_ARG_NONE, OPT_PROGRESS, "--progress",
     "A progress line on stderr (default: when it is\na terminal)"},
    {"no-progress", NPUC_ARG_NONE, OPT_NO_PROGRESS, "--no-progress",
     "No progress line"},
    NPUC_CLI_HELP_AND_VERSION(OPT_HELP, OPT_VERSION),
};

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag);
static int check_command_line(options *o);
static bool valid_target(const char *target);
static void list_targets(FILE *f);
static int finish_input_kind(options *o);

static const npuc_cli cli = {TOOL, specs, sizeof specs / sizeof specs[0],
                             apply_option, NULL};

static int parse_command_line(int argc, char **argv, options *o) {
  int status = npuc_cli_parse(&cli, argc, argv, o, &o->input);
  return status != CONTINUE ? status : check_command_line(o);
}

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag) {
  options *o = user;
  char err[300];
  if (spec->arg == NPUC_ARG_REQUIRED && !*value) {
    fprintf(stderr, TOOL ": error: option '--%s' needs a value\n", spec->name);
    return 1;
  }
  if (spec->id == OPT_TX8_BARRIER || spec->id == OPT_TX8_DDR ||
      spec->id == OPT_TX8_SVG || spec->id == OPT_TX8_SEARCH_REPORT)
    o->tx8_flag = spec->name;
  switch (spec->id) {
  case OPT_TARGET: o->target = value; break;
  case OPT_OUTPUT: o->output_dir = value; break;
  case OPT_CONFIG: o->compile.target_config = value; break;
  case OPT_KERNEL: o->compile.kernel = value; break;
  case OPT_BLOCKIFY: o->compile.auto_blockify_loop = flag; break;
  case OPT_BIND: o->compile.auto_bind_sub_block = flag; break;
  case OPT_FORMAT:
    if (strcmp(value, "mlir") && strcmp(value, "onnx")) {
      fprintf(stderr,
              TOOL ": error: --input-format takes mlir or onnx, not "
                   "'%s'\n",
              value);
      return 1;
    }
    o->input_format = value;
    break;
  case OPT_ONNX:
    if (!npuc_onnx_set_option(&o->import, o->shapes,
                              sizeof o->shapes / sizeof o->shapes[0],
                              spec->name, value, err, sizeof err)) {
      fprintf(stderr, TOOL ": error: %s\n", err);
      return 1;
    }
    break;
  case OPT_TX8_BARRIER: o->compile.tx8_opt_barrier_off = !flag; break;
  case OPT_TX8_DDR: o->compile.tx8_opt_ddr_off = !flag; break;
  case OPT_TX8_SVG: o->compile.tx8_spm_svg = flag; break;
  case OPT_TX8_SEARCH_REPORT: o->compile.tx8_search_report = flag; break;
  case OPT_PROGRESS:
  case OPT_NO_PROGRESS:
    o->progress = flag == (spec->id == OPT_PROGRESS) ? NPUC_PROGRESS_ON
                                                     : NPUC_PROGRESS_OFF;
    break;
  case OPT_HELP: print_help(); return 0;
  case OPT_VERSION: npuc_cli_print_version(TOOL, NPUC_VERSION); return 0;
  }
  return CONTINUE;
}

/* What the options must say together. */
static int check_command_line(options *o) {
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
  if (o->tx8_flag && strcmp(o->target, "tx8") != 0) {
    fprintf(stderr, TOOL ": error: --%s is an option of --target=tx8 only\n",
            o->tx8_flag);
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
  return CONTINUE;
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

static void print_help(void) {
  printf("OVERVIEW: npuc compiler driver: MLIR in, target artefacts out\n\n"
         "USAGE: " TOOL " --target=<target> -o <dir> [options] "
         "<input.mlir | model.onnx>\n\n"
         "OPTIONS:\n");
  npuc_cli_print_options(&cli, 34);
  printf("\nTARGETS:\n");
  for (size_t i = 0; i < npuc_num_targets(); i++)
    printf("  %-14s %s\n", npuc_target_at(i)->name, npuc_target_at(i)->summary);
}
