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
#include "npuc/IR.h"
#include "npuc/ToolSupport.h"
#include "npuc/Translation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NPUC_VERSION
#define NPUC_VERSION "0.0.0"
#endif

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

enum { CONTINUE = -1 };

static int parse_command_line(int argc, char **argv, options *o);
static int run(const options *o);
static bool translate_chunk(const options *o, MlirContext ctx,
                            const npuc_op_registry *reg, const char *filename,
                            const npuc_chunk *chunk, npuc_output *out);

int main(int argc, char **argv) {
  options o = {0};
  o.input = "-";
  o.output_split_marker = "";
  int status = parse_command_line(argc, argv, &o);
  return status == CONTINUE ? run(&o) : status;
}

/* ---- The run -------------------------------------------------------- */

/* Every chunk is translated even after one failed, as mlir-translate does;
 * the output appears only if all succeeded. */
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
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && *o->output_split_marker) {
        npuc_output_write(out, o->output_split_marker,
                          strlen(o->output_split_marker));
        npuc_output_write(out, "\n", 1);
      }
      ok &= translate_chunk(o, ctx, reg, filename, &chunks[i], out);
    }
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
                            const npuc_chunk *chunk, npuc_output *out) {
  npuc_module m;
  if (!npuc_module_parse(ctx, reg, chunk->text, chunk->len, filename,
                         chunk->first_line, NULL, &m))
    return false;
  /* Errors point into the source, through the reader's position map. */
  npuc_context_set_sink(ctx, NULL, m.map);
  npuc_sb text = {0};
  bool ok = o->translation->run(m.op, &o->topts, &text);
  if (ok && text.data)
    npuc_output_write(out, text.data, strlen(text.data));
  npuc_sb_free(&text);
  npuc_context_set_sink(ctx, NULL, NULL);
  npuc_module_destroy(&m);
  return ok;
}

/* ---- Command line --------------------------------------------------- */

typedef enum {
  OPT_OUTPUT,
  OPT_SPLIT,
  OPT_OUTPUT_SPLIT,
  OPT_AIE2,
  OPT_ALLOW_UNREGISTERED,
  OPT_HELP,
  OPT_VERSION,
} option_id;

typedef struct {
  const char *name;
  bool takes_value; /* "-o x", "-o=x" */
  option_id id;
  const char *usage;
  const char *help;
} option_spec;

static const option_spec specs[] = {
    {"o", true, OPT_OUTPUT, "-o <file>",
     "Output file; '-' or none is stdout. Written only on success."},
    {"split-input-file", false, OPT_SPLIT, "--split-input-file[=<marker>]",
     "Translate each '// -----' separated chunk on its own"},
    {"output-split-marker", true, OPT_OUTPUT_SPLIT,
     "--output-split-marker=<text>",
     "Written between the chunks' translations (default: nothing)"},
    {"aie2", false, OPT_AIE2, "--aie2",
     "The device is AIE-ML (AIE2): its intrinsics and accumulator types"},
    {"aieml", false, OPT_AIE2, "--aieml", "Same as --aie2"},
    {"allow-unregistered-dialect", false, OPT_ALLOW_UNREGISTERED,
     "--allow-unregistered-dialect",
     "Accepted for mlir-translate compatibility; always on"},
    {"help", false, OPT_HELP, "--help, -h", "Show this help"},
    {"h", false, OPT_HELP, NULL, NULL},
    {"version", false, OPT_VERSION, "--version", "Show the version"},
};

#define NUM_SPECS (sizeof specs / sizeof specs[0])

static void print_help(void);

static const option_spec *find_spec(const char *name, size_t len) {
  for (size_t i = 0; i < NUM_SPECS; i++)
    if (strlen(specs[i].name) == len && memcmp(specs[i].name, name, len) == 0)
      return &specs[i];
  return NULL;
}

static int apply_option(const option_spec *spec, const char *value,
                        options *o) {
  switch (spec->id) {
  case OPT_OUTPUT: o->output = value; break;
  case OPT_SPLIT:
    o->split_marker = value && *value ? value : SPLIT_MARKER;
    break;
  case OPT_OUTPUT_SPLIT: o->output_split_marker = value; break;
  case OPT_AIE2: o->topts.aie2 = true; break;
  case OPT_ALLOW_UNREGISTERED: break; /* our dialects need it: always on */
  case OPT_HELP: print_help(); return 0;
  case OPT_VERSION:
    printf(TOOL " version " NPUC_VERSION " (MLIR 22)\n");
    return 0;
  }
  return CONTINUE;
}

/* A translation's option: exactly one per run. */
static int choose_translation(const char *arg, const char *name, size_t len,
                              options *o) {
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)(len < 127 ? len : 127), name);
  const npuc_translation_def *t = npuc_translation_lookup(buf);
  if (!t) {
    fprintf(stderr,
            TOOL ": error: unknown option '%s' (see '" TOOL " --help')\n", arg);
    return 1;
  }
  if (o->translation && o->translation != t) {
    fprintf(stderr,
            TOOL ": error: only one translation per run (--%s and --%s)\n",
            o->translation->name, t->name);
    return 1;
  }
  o->translation = t;
  return CONTINUE;
}

static int parse_option(int argc, char **argv, int *i, options *o) {
  const char *arg = argv[*i];
  /* -x and --x are the same; a value follows '=' or is the next word. */
  const char *body = arg + (arg[1] == '-' ? 2 : 1);
  const char *eq = strchr(body, '=');
  size_t name_len = eq ? (size_t)(eq - body) : strlen(body);
  const char *value = eq ? eq + 1 : NULL;
  const option_spec *spec = find_spec(body, name_len);
  if (!spec)
    return choose_translation(arg, body, name_len, o);
  if (spec->takes_value && !value) {
    if (*i + 1 >= argc) {
      fprintf(stderr, TOOL ": error: option '%s' needs a value\n", arg);
      return 1;
    }
    value = argv[++*i];
  }
  return apply_option(spec, value, o);
}

/* Returns CONTINUE to run, or the exit status (--help, errors). */
static int parse_command_line(int argc, char **argv, options *o) {
  bool have_input = false, only_positional = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_positional || arg[0] != '-' || arg[1] == '\0') {
      if (have_input) {
        fprintf(stderr,
                TOOL ": error: more than one input file ('%s' and '%s')\n",
                o->input, arg);
        return 1;
      }
      o->input = arg;
      have_input = true;
    } else if (strcmp(arg, "--") == 0) {
      only_positional = true;
    } else {
      int status = parse_option(argc, argv, &i, o);
      if (status != CONTINUE)
        return status;
    }
  }
  if (!o->translation) {
    fprintf(stderr, TOOL ": error: no translation given (one of the "
                         "translations '" TOOL " --help' lists)\n");
    return 1;
  }
  return CONTINUE;
}

static void print_help(void) {
  printf("OVERVIEW: npuc translation driver: mlir-translate for the npuc "
         "dialects\n\n"
         "USAGE: " TOOL " --<translation> [options] [input|-]\n\n"
         "OPTIONS:\n");
  for (size_t i = 0; i < NUM_SPECS; i++)
    if (specs[i].usage)
      printf("  %-32s %s\n", specs[i].usage, specs[i].help);
  printf("\nTRANSLATIONS (exactly one):\n");
  for (size_t i = 0; i < npuc_num_translations(); i++) {
    const npuc_translation_def *t = npuc_translation_at(i);
    printf("  --%-30s %s\n", t->name, t->summary);
  }
}
