/* npuc-import: an ONNX model in, its tx8be graph out (docs/onnx.md), with
 * mlir-opt's conventions: one input ("-" is stdin), -o (default stdout,
 * written only when the whole import succeeded), --help. Weights of 16
 * elements or more go to dense_resource blobs, printed after the IR in
 * the file's resource section, or not at all with --elide-weights. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/CommandLine.h"
#include "npuc/IR.h"
#include "npuc/Onnx.h"
#include "npuc/Progress.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOOL "npuc-import"
#define MAX_SHAPES 64

typedef struct {
  const char *input;
  const char *output;
  bool elide_weights;
  bool generic;
  npuc_progress_mode progress; /* --progress / --no-progress */
  npuc_onnx_input_shape shapes[MAX_SHAPES];
  npuc_onnx_import_options import;
} options;

enum { CONTINUE = NPUC_CLI_CONTINUE };

static int parse_command_line(int argc, char **argv, options *o);
static int run(options *o);
static char *print_module(const npuc_op_registry *reg, MlirOperation module,
                          const options *o, size_t *len);
static void print_help(void);

int main(int argc, char **argv) {
  static options o;
  o.input = "-";
  int status = parse_command_line(argc, argv, &o);
  return status == CONTINUE ? run(&o) : status;
}

static int run(options *o) {
  npuc_keep_freed_memory();
  npuc_install_fatal_error_handler(TOOL);
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  if (!reg)
    return 1;
  o->import.input_shapes = o->shapes;
  o->import.resource_weights = true;
  npuc_progress_init(o->progress);
  o->import.progress = npuc_progress_enabled();
  MlirContext ctx = npuc_context_create();
  npuc_context_set_sink(ctx, NULL, NULL);
  MlirOperation module =
      npuc_onnx_import_file(ctx, reg, o->input, &o->import, NULL);
  bool ok = !mlirOperationIsNull(module);
  if (ok) {
    size_t len = 0;
    char *text = print_module(reg, module, o, &len);
    /* Exactly one newline at the end, as mlir-opt prints. */
    while (text && len > 0 && text[len - 1] == '\n')
      len--;
    npuc_output *out = text ? npuc_output_open(o->output, NULL) : NULL;
    ok = out && npuc_output_write(out, text, len) &&
         npuc_output_write(out, "\n", 1) && npuc_output_commit(out, NULL);
    free(text);
    mlirOperationDestroy(module);
  }
  npuc_context_destroy(ctx);
  npuc_progress_clear();
  return ok ? 0 : 1;
}

/* MLIR prints the module (resources after it, or elided), the syntax
 * engine turns our ops' generic form into their custom syntax. */
static char *print_module(const npuc_op_registry *reg, MlirOperation module,
                          const options *o, size_t *len) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (o->elide_weights) {
    mlirOpPrintingFlagsElideLargeElementsAttrs(flags, 16);
    mlirOpPrintingFlagsElideLargeResourceString(flags, 16);
  }
  npuc_sb b = {0};
  mlirOperationPrintWithFlags(module, flags, npuc_sb_append_mlir, &b);
  mlirOpPrintingFlagsDestroy(flags);
  npuc_sb_append(&b, "\n", 1);
  if (o->generic) {
    *len = b.len;
    return b.data;
  }
  npuc_source_form form = {0};
  char *text = npuc_syntax_from_mlir(reg, b.data, b.len, &form, len);
  free(b.data);
  return text;
}

/* ---- Command line ------------------------------------------------------ */

enum {
  OPT_OUTPUT,
  OPT_ONNX,
  OPT_ELIDE,
  OPT_GENERIC,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_HELP,
  OPT_VERSION,
};

static const npuc_cli_option specs[] = {
    {"o", NPUC_ARG_REQUIRED, OPT_OUTPUT, "-o <file>",
     "Output file (default: stdout; written only on success)"},
    {"input-shape", NPUC_ARG_REQUIRED, OPT_ONNX,
     "--input-shape=<name>:<DxDx...>",
     "The static shape of a graph input (repeatable)"},
    {"elide-weights", NPUC_ARG_NONE, OPT_ELIDE, "--elide-weights",
     "Print weights as __elided__ (inspection only)"},
    {"tx8-dtype", NPUC_ARG_REQUIRED, OPT_ONNX, "--tx8-dtype=f32|f16|bf16",
     "Compute in this element type (default: the model's, f32)"},
    {"mlir-print-op-generic", NPUC_ARG_NONE, OPT_GENERIC,
     "--mlir-print-op-generic", "Print every op in generic form"},
    {"progress", NPUC_ARG_NONE, OPT_PROGRESS, "--progress",
     "A progress line on stderr (default: when it is a terminal)"},
    {"no-progress", NPUC_ARG_NONE, OPT_NO_PROGRESS, "--no-progress",
     "No progress line"},
    NPUC_CLI_HELP_AND_VERSION(OPT_HELP, OPT_VERSION),
};

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag);

static const npuc_cli cli = {TOOL, specs, sizeof specs / sizeof specs[0],
                             apply_option, NULL};

static int parse_command_line(int argc, char **argv, options *o) {
  return npuc_cli_parse(&cli, argc, argv, o, &o->input);
}

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag) {
  options *o = user;
  char err[300];
  switch (spec->id) {
  case OPT_OUTPUT:
    if (!*value) {
      fprintf(stderr, TOOL ": error: option '-o' needs a value\n");
      return 1;
    }
    o->output = value;
    break;
  case OPT_ONNX:
    if (!npuc_onnx_set_option(&o->import, o->shapes, MAX_SHAPES, spec->name,
                              value, err, sizeof err)) {
      fprintf(stderr, TOOL ": error: %s\n", err);
      return 1;
    }
    break;
  case OPT_ELIDE: o->elide_weights = flag; break;
  case OPT_GENERIC: o->generic = flag; break;
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

static void print_help(void) {
  printf("OVERVIEW: npuc ONNX importer: an .onnx model in, its tx8be graph "
         "out\n\n"
         "USAGE: " TOOL " [options] <model.onnx | ->\n\n"
         "OPTIONS:\n");
  npuc_cli_print_options(&cli, 28);
}
