/* npuc-import: an ONNX model in, its tx8be graph out (docs/onnx.md), with
 * mlir-opt's conventions: one input ("-" is stdin), -o (default stdout,
 * written only when the whole import succeeded), --help. Weights of 16
 * elements or more go to dense_resource blobs, printed after the IR in
 * the file's resource section, or not at all with --elide-weights. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/IR.h"
#include "npuc/Onnx.h"
#include "npuc/Progress.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NPUC_VERSION
#define NPUC_VERSION "0.0.0"
#endif

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

enum { CONTINUE = -1 };

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

static int add_shape(options *o, const char *value) {
  if (o->import.num_input_shapes == MAX_SHAPES) {
    fprintf(stderr, TOOL ": error: more than %d --input-shape options\n",
            MAX_SHAPES);
    return 1;
  }
  char err[256];
  if (!npuc_onnx_parse_input_shape(
          value, &o->shapes[o->import.num_input_shapes], err, sizeof err)) {
    fprintf(stderr, TOOL ": error: --input-shape: %s\n", err);
    return 1;
  }
  o->import.num_input_shapes++;
  return CONTINUE;
}

static int parse_dtype(const char *value, npuc_onnx_dtype *out) {
  if (!strcmp(value, "f32"))
    *out = NPUC_ONNX_DTYPE_MODEL;
  else if (!strcmp(value, "f16"))
    *out = NPUC_ONNX_DTYPE_F16;
  else if (!strcmp(value, "bf16"))
    *out = NPUC_ONNX_DTYPE_BF16;
  else {
    fprintf(stderr,
            TOOL ": error: --tx8-dtype takes f32, f16 or bf16, not "
                 "'%s'\n",
            value);
    return 1;
  }
  return CONTINUE;
}

static int parse_command_line(int argc, char **argv, options *o) {
  bool have_input = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == '\0') {
      if (have_input) {
        fprintf(stderr,
                TOOL ": error: more than one input file ('%s' and '%s')\n",
                o->input, arg);
        return 1;
      }
      o->input = arg, have_input = true;
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
    if (IS("progress") || IS("no-progress")) {
      o->progress = IS("progress") ? NPUC_PROGRESS_ON : NPUC_PROGRESS_OFF;
      continue;
    }
    if (IS("elide-weights") || IS("mlir-print-op-generic")) {
      *(IS("elide-weights") ? &o->elide_weights : &o->generic) = true;
      continue;
    }
    if (!IS("o") && !IS("input-shape") && !IS("tx8-dtype")) {
      fprintf(stderr,
              TOOL ": error: unknown option '%s' (see '" TOOL " --help')\n",
              arg);
      return 1;
    }
    if (!value && i + 1 < argc)
      value = argv[++i];
    if (!value || !*value) {
      fprintf(stderr, TOOL ": error: option '%s' needs a value\n", arg);
      return 1;
    }
    int status = CONTINUE;
    if (IS("o"))
      o->output = value;
    else if (IS("input-shape"))
      status = add_shape(o, value);
    else
      status = parse_dtype(value, &o->import.dtype);
    if (status != CONTINUE)
      return status;
#undef IS
  }
  return CONTINUE;
}

static void print_help(void) {
  printf("OVERVIEW: npuc ONNX importer: an .onnx model in, its tx8be graph "
         "out\n\n"
         "USAGE: " TOOL " [options] <model.onnx | ->\n\n"
         "OPTIONS:\n"
         "  -o <file>                   Output file (default: stdout; "
         "written only on success)\n"
         "  --input-shape=<name>:<DxDx...>\n"
         "                              The static shape of a graph input "
         "(repeatable)\n"
         "  --elide-weights             Print weights as __elided__ "
         "(inspection only)\n"
         "  --tx8-dtype=f32|f16|bf16    Compute in this element type "
         "(default: the model's, f32)\n"
         "  --mlir-print-op-generic     Print every op in generic form\n"
         "  --progress, --no-progress   A progress line on stderr (default: "
         "when it is a\n"
         "                              terminal)\n"
         "  --help, -h                  Show this help\n"
         "  --version                   Show the version\n");
}
