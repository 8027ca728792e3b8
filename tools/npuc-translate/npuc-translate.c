/* npuc-translate: mlir-translate for the npuc dialects. Reads MLIR with our
 * custom syntax and writes it in another toolchain's language through one
 * translation chosen by its option (--aievec-to-cpp: the C++ source
 * aie-translate writes for the AIE compiler). Options keep
 * mlir-translate's names and meanings: input file or '-', -o,
 * --split-input-file; the output is written only when every chunk
 * translated. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/CommandLine.h"
#include "npuc/IR.h"
#include "npuc/StringBuilder.h"
#include "npuc/ToolSupport.h"
#include "npuc/Translation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "npuc-translate"
#define SPLIT_MARKER "// -----"

typedef struct {
  const char *input;
  const char *output;       /* NULL: stdout */
  const char *split_marker; /* NULL: no splitting */
  const char *output_split_marker;
  const npuc_translation_def *translation;
  npuc_translate_options topts;
} options;

enum { CONTINUE = NPUC_CLI_CONTINUE };

static int parse_command_line(int argc, char **argv, options *o);
static int run(const options *o);
static bool translate_chunk(const options *o, MlirContext ctx,
                            const npuc_op_registry *reg, const char *filename,
                            const npuc_chunk *chunk, npuc_sb *text);

int main(int argc, char **argv) {
  options o = {0};
  o.input = "-";
  o.output_split_marker = "";
  int status = parse_command_line(argc, argv, &o);
  return status == CONTINUE ? run(&o) : status;
}

/* ---- The run -------------------------------------------------------- */

/* Every chunk is translated even after one failed, as mlir-translate does;
 * the output appears only if all succeeded: the text is gathered first, as
 * standard output (unlike a file) cannot be taken back. */
static int run(const options *o) {
  npuc_keep_freed_memory();
  npuc_install_fatal_error_handler(TOOL);
  size_t len;
  char *input = npuc_read_input(o->input, &len, NULL);
  if (!input)
    return 1;
  const char *filename = npuc_input_display_name(o->input);
  const npuc_op_registry *reg = NULL;
  bool ok = npuc_check_text(input, len, filename, NULL) &&
            (reg = npuc_builtin_op_registry(NULL)) != NULL;
  npuc_output *out = ok ? npuc_output_open(o->output, NULL) : NULL;
  ok = out != NULL;
  if (ok) {
    MlirContext ctx = npuc_context_create();
    npuc_chunk whole = {input, len, 1}, *chunks = &whole;
    size_t n = 1;
    if (o->split_marker)
      n = npuc_split_input(input, len, o->split_marker, filename, NULL,
                           &chunks);
    ok = n > 0;
    npuc_sb text = {0};
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && *o->output_split_marker)
        npuc_sb_printf(&text, "%s\n", o->output_split_marker);
      ok &= translate_chunk(o, ctx, reg, filename, &chunks[i], &text);
    }
    if (ok && text.data)
      npuc_output_write(out, text.data, text.len);
    npuc_sb_free(&text);
    if (chunks != &whole)
      free(chunks);
    npuc_context_destroy(ctx);
    if (ok)
      ok = npuc_output_commit(out, NULL);
    else
      npuc_output_discard(out);
  }
  free(input);
  return ok ? 0 : 1;
}

static bool translate_chunk(const options *o, MlirContext ctx,
                            const npuc_op_registry *reg, const char *filename,
                            const npuc_chunk *chunk, npuc_sb *out) {
  npuc_module m;
  if (!npuc_module_parse(ctx, reg, chunk->text, chunk->len, filename,
                         chunk->first_line, NULL, &m))
    return false;
  /* Errors point into the source, through the reader's position map. */
  npuc_context_set_sink(ctx, NULL, m.map);
  npuc_sb text = {0};
  bool ok = o->translation->run(m.op, &o->topts, &text);
  if (ok && text.data)
    npuc_sb_append(out, text.data, text.len);
  npuc_sb_free(&text);
  npuc_context_set_sink(ctx, NULL, NULL);
  npuc_module_destroy(&m);
  return ok;
}

/* ---- Command line --------------------------------------------------- */

enum {
  OPT_OUTPUT,
  OPT_SPLIT,
  OPT_OUTPUT_SPLIT,
  OPT_AIE2,
  OPT_ALLOW_UNREGISTERED,
  OPT_HELP,
  OPT_VERSION,
};

static const npuc_cli_option specs[] = {
    {"o", NPUC_ARG_REQUIRED, OPT_OUTPUT, "-o <file>",
     "Output file; '-' or none is stdout. Written only on success."},
    {"split-input-file", NPUC_ARG_OPTIONAL, OPT_SPLIT,
     "--split-input-file[=<marker>]",
     "Translate each '// -----' separated chunk on its own"},
    {"output-split-marker", NPUC_ARG_REQUIRED, OPT_OUTPUT_SPLIT,
     "--output-split-marker=<text>",
     "Written between the chunks' translations (default: nothing)"},
    {"aie2", NPUC_ARG_NONE, OPT_AIE2, "--aie2",
     "The device is AIE-ML (AIE2): its intrinsics and accumulator types"},
    {"aieml", NPUC_ARG_NONE, OPT_AIE2, "--aieml", "Same as --aie2"},
    {"allow-unregistered-dialect", NPUC_ARG_NONE, OPT_ALLOW_UNREGISTERED,
     "--allow-unregistered-dialect",
     "Accepted for mlir-translate compatibility; always on"},
    NPUC_CLI_HELP_AND_VERSION(OPT_HELP, OPT_VERSION),
};

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag);
static int choose_translation(void *user, const char *arg, const char *name,
                              size_t len, const char *value);
static void print_help(void);

static const npuc_cli cli = {TOOL, specs, sizeof specs / sizeof specs[0],
                             apply_option, choose_translation};

/* Returns CONTINUE to run, or the exit status (--help, errors). */
static int parse_command_line(int argc, char **argv, options *o) {
  int status = npuc_cli_parse(&cli, argc, argv, o, &o->input);
  if (status != CONTINUE)
    return status;
  if (!o->translation) {
    fprintf(stderr, TOOL ": error: no translation given (one of the "
                         "translations '" TOOL " --help' lists)\n");
    return 1;
  }
  return CONTINUE;
}

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag) {
  options *o = user;
  switch (spec->id) {
  case OPT_OUTPUT: o->output = value; break;
  case OPT_SPLIT:
    o->split_marker = value && *value ? value : SPLIT_MARKER;
    break;
  case OPT_OUTPUT_SPLIT: o->output_split_marker = value; break;
  case OPT_AIE2: o->topts.aie2 = flag; break;
  case OPT_ALLOW_UNREGISTERED: break; /* our dialects need it: always on */
  case OPT_HELP: print_help(); return 0;
  case OPT_VERSION: npuc_cli_print_version(TOOL, NPUC_VERSION); return 0;
  }
  return CONTINUE;
}

/* A translation's option: exactly one per run. */
static int choose_translation(void *user, const char *arg, const char *name,
                              size_t len, const char *value) {
  (void)value;
  options *o = user;
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)(len < 127 ? len : 127), name);
  const npuc_translation_def *t = npuc_translation_lookup(buf);
  if (!t)
    return npuc_cli_unknown_option(&cli, arg, buf, "option", NULL);
  if (o->translation && o->translation != t) {
    fprintf(stderr,
            TOOL ": error: only one translation per run (--%s and --%s)\n",
            o->translation->name, t->name);
    return 1;
  }
  o->translation = t;
  return CONTINUE;
}

static void print_help(void) {
  printf("OVERVIEW: npuc translation driver: mlir-translate for the npuc "
         "dialects\n\n"
         "USAGE: " TOOL " --<translation> [options] [input|-]\n\n"
         "OPTIONS:\n");
  npuc_cli_print_options(&cli, 32);
  printf("\nTRANSLATIONS (exactly one):\n");
  for (size_t i = 0; i < npuc_num_translations(); i++) {
    const npuc_translation_def *t = npuc_translation_at(i);
    printf("  --%-30s %s\n", t->name, t->summary);
  }
}
