/* npuc-opt: mlir-opt for the npuc dialects. Reads MLIR with our custom
 * syntax, runs a pass pipeline of npuc and upstream passes, prints the
 * result. Options keep mlir-opt's names and meanings. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/Alloc.h"
#include "npuc/CommandLine.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Passes.h"
#include "npuc/StringBuilder.h"
#include "npuc/ToolSupport.h"
#include "npuc/Verify.h"
#include "npuc/VerifyDiagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOOL "npuc-opt"
#define SPLIT_MARKER "// -----"

typedef struct {
  char *name;        /* without dashes */
  const char *value; /* option text (in argv, or `merged`), or NULL */
  char *merged;      /* with the global pass options put in front */
} pass_flag;

/* An option of a pass written as a tool flag, as aie-opt takes
 * -unaligned-loads-check=false next to --aie-vectorize: it sets the option
 * of that name on every pass given as a flag that has it. */
typedef struct {
  char *name;        /* without dashes */
  const char *value; /* in argv, or NULL (a bool switched on) */
  const char *arg;   /* as written, for errors */
} global_pass_option;

typedef struct {
  const char *input;
  const char *output; /* NULL: stdout */
  const char *pipeline;
  pass_flag *passes;
  size_t num_passes;
  global_pass_option *globals;
  size_t num_globals;
  const char *split_marker; /* NULL: no splitting */
  bool verify_diagnostics;
  bool print_ir_after_all;
  bool timing;
  bool print_generic;
  bool print_debuginfo;
  bool no_verify_each; /* --verify-each=false */
} options;

typedef struct {
  const options *opts;
  const char *filename; /* as diagnostics name it */
  const npuc_op_registry *registry;
  MlirContext context;
  MlirOpPrintingFlags ir_printing_flags;
  npuc_output *out;
  npuc_verify_each verify_each; /* of the pass manager being built or run */
  /* --mlir-timing: wall seconds spent reading and printing modules (what
   * mlir-opt reports as Parser and Output), over every chunk. */
  double parse_seconds, output_seconds;
} tool;

enum { CONTINUE = NPUC_CLI_CONTINUE };

static int parse_command_line(int argc, char **argv, options *o);
static int run(const options *o);
static bool pipeline_is_valid(tool *t);
static bool process_input(tool *t, const char *input, size_t len);
static bool process_chunk(tool *t, const npuc_chunk *chunk);
static double seconds(void);
static void print_io_timing(const tool *t);
static bool process_module(tool *t, const npuc_chunk *chunk,
                           const npuc_diag_sink *sink);
static bool run_and_print(tool *t, npuc_module *m, const npuc_diag_sink *sink);
static MlirPassManager build_pass_manager(tool *t, const npuc_diag_sink *sink,
                                          bool instrument);
static void print_help(void);

int main(int argc, char **argv) {
  options o = {0};
  o.input = "-";
  npuc_register_passes();
  int status = parse_command_line(argc, argv, &o);
  if (status == CONTINUE)
    status = run(&o);
  for (size_t i = 0; i < o.num_passes; i++) {
    free(o.passes[i].name);
    free(o.passes[i].merged);
  }
  free(o.passes);
  for (size_t i = 0; i < o.num_globals; i++)
    free(o.globals[i].name);
  free(o.globals);
  return status;
}

/* ---- The run -------------------------------------------------------- */

static int run(const options *o) {
  npuc_keep_freed_memory();
  npuc_install_fatal_error_handler(TOOL);
  size_t len;
  char *input = npuc_read_input(o->input, &len, NULL);
  if (!input)
    return 1;
  tool t = {o,
            npuc_input_display_name(o->input),
            NULL,
            {NULL},
            {NULL},
            NULL,
            {false, false},
            0,
            0};
  bool ok = npuc_check_text(input, len, t.filename, NULL) &&
            (t.registry = npuc_builtin_op_registry(NULL)) != NULL;
  if (ok) {
    /* Reading and printing load only the dialects the input uses, as
     * mlir-opt does; passes may create ops of any dialect. */
    t.context = npuc_context_create_lazy();
    if (o->num_passes > 0 || o->pipeline)
      npuc_context_load_all_dialects(t.context);
    t.ir_printing_flags = mlirOpPrintingFlagsCreate();
    if (o->print_generic)
      mlirOpPrintingFlagsPrintGenericOpForm(t.ir_printing_flags);
    if (o->print_debuginfo)
      mlirOpPrintingFlagsEnableDebugInfo(t.ir_printing_flags, true, false);
    ok = pipeline_is_valid(&t);
    if (ok) {
      ok = process_input(&t, input, len);
      if (o->timing)
        print_io_timing(&t);
    }
    mlirOpPrintingFlagsDestroy(t.ir_printing_flags);
    npuc_context_destroy(t.context);
  }
  free(input);
  return ok ? 0 : 1;
}

/* A bad pipeline is reported once, before any input is processed. */
static bool pipeline_is_valid(tool *t) {
  MlirPassManager pm = build_pass_manager(t, NULL, false);
  if (mlirPassManagerIsNull(pm))
    return false;
  mlirPassManagerDestroy(pm);
  return true;
}

/* Every chunk is processed even after one failed, as mlir-opt does; the
 * output file appears only if all succeeded. */
static bool process_input(tool *t, const char *input, size_t len) {
  if (!(t->out = npuc_output_open(t->opts->output, NULL)))
    return false;
  npuc_chunk whole = {input, len, 1}, *chunks = &whole;
  size_t n = 1;
  if (t->opts->split_marker)
    n = npuc_split_input(input, len, t->opts->split_marker, t->filename, NULL,
                         &chunks);
  bool ok = n > 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0)
      npuc_output_write(t->out, SPLIT_MARKER "\n", sizeof SPLIT_MARKER);
    ok &= process_chunk(t, &chunks[i]);
  }
  if (chunks != &whole)
    free(chunks);
  if (ok)
    return npuc_output_commit(t->out, NULL);
  npuc_output_discard(t->out);
  return false;
}

/* With --verify-diagnostics the chunk's result is the verifier's verdict,
 * whatever the pipeline did (as in mlir-opt). */
static bool process_chunk(tool *t, const npuc_chunk *chunk) {
  if (!t->opts->verify_diagnostics)
    return process_module(t, chunk, NULL);
  npuc_diag_verifier *v = npuc_diag_verifier_create(
      t->filename, chunk->text, chunk->len, chunk->first_line, NULL);
  if (!v)
    return false;
  (void)process_module(t, chunk, npuc_diag_verifier_sink(v));
  bool ok = npuc_diag_verifier_finish(v, NULL);
  npuc_diag_verifier_destroy(v);
  return ok;
}

/* Parse and verify, run the passes, verify our tables again, print. */
static bool process_module(tool *t, const npuc_chunk *chunk,
                           const npuc_diag_sink *sink) {
  npuc_module m;
  double start = seconds();
  bool parsed =
      npuc_module_parse(t->context, t->registry, chunk->text, chunk->len,
                        t->filename, chunk->first_line, sink, &m);
  t->parse_seconds += seconds() - start;
  bool ok = parsed && run_and_print(t, &m, sink);
  if (parsed)
    npuc_module_destroy(&m);
  /* `sink` may die with this chunk (--verify-diagnostics). */
  npuc_context_set_sink(t->context, NULL, NULL);
  return ok;
}

static bool run_and_print(tool *t, npuc_module *m, const npuc_diag_sink *sink) {
  /* Pass diagnostics may point into rewritten text: keep its source map. */
  npuc_context_set_sink(t->context, sink, m->map);
  bool ok = true;
  /* Parsing verified the module; only a pipeline can change it. */
  bool pipeline =
      t->opts->num_passes > 0 || t->opts->pipeline || t->opts->timing;
  if (pipeline) {
    MlirPassManager pm = build_pass_manager(t, sink, true);
    ok = !mlirPassManagerIsNull(pm) &&
         npuc_pass_manager_run(pm, m->op, sink != NULL) &&
         npuc_verify_after_passes(t->registry, m->op);
    if (!mlirPassManagerIsNull(pm))
      mlirPassManagerDestroy(pm); /* prints the --mlir-timing report */
  }
  if (ok) {
    /* Unchanged since parsing verified it, the module is not verified
     * again by MLIR's printer (mlir-opt verifies it twice). */
    npuc_print_options popts = {t->opts->print_generic,
                                t->opts->print_debuginfo, !pipeline};
    double start = seconds();
    size_t len = 0;
    char *text = npuc_module_print(t->registry, m, &popts, &len);
    ok = text != NULL;
    if (ok) {
      /* Exactly one newline after the module, as mlir-opt prints it. */
      while (len > 0 && text[len - 1] == '\n')
        len--;
      npuc_output_write(t->out, text, len);
      npuc_output_write(t->out, "\n", 1);
    }
    free(text);
    t->output_seconds += seconds() - start;
  }
  return ok;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* MLIR's report covers the pass pipeline only, and the C API cannot add
 * timers to it: reading and printing, which mlir-opt reports in it as
 * Parser and Output, follow in a report of the same form. */
static void print_io_timing(const tool *t) {
  double total = t->parse_seconds + t->output_seconds;
  double pct = total > 0 ? 100.0 / total : 0;
  fprintf(stderr,
          "\n===-----------------------------------------------------------"
          "--------------===\n"
          "                    ... Reading and printing time report ...\n"
          "===-------------------------------------------------------------"
          "------------===\n"
          "  Total Execution Time: %.4f seconds\n\n"
          "  ----Wall Time----  ----Name----\n"
          "    %.4f (%5.1f%%)  Parser\n"
          "    %.4f (%5.1f%%)  Output\n"
          "    %.4f (100.0%%)  Total\n\n",
          total, t->parse_seconds, t->parse_seconds * pct, t->output_seconds,
          t->output_seconds * pct, total);
}

/* `instrument`: with the timing and IR printing asked for (not for the
 * pass manager that only validates the pipeline). */
static MlirPassManager build_pass_manager(tool *t, const npuc_diag_sink *sink,
                                          bool instrument) {
  const options *o = t->opts;
  MlirPassManager pm = mlirPassManagerCreate(t->context);
  if (instrument && o->timing)
    mlirPassManagerEnableTiming(pm);
  if (instrument && o->print_ir_after_all)
    mlirPassManagerEnableIRPrinting(pm, false, true, false, false, false,
                                    t->ir_printing_flags,
                                    mlirStringRefCreate(NULL, 0));
  t->verify_each = (npuc_verify_each){false, false};
  npuc_pass_context pctx = {t->registry, t->context, &t->verify_each};
  bool ok = true;
  if (o->pipeline)
    ok = npuc_pipeline_parse(pm, o->pipeline, &pctx, sink);
  for (size_t i = 0; ok && i < o->num_passes; i++)
    ok = npuc_pipeline_add_flag(pm, o->passes[i].name, o->passes[i].value,
                                &pctx, sink);
  if (ok && o->no_verify_each)
    mlirPassManagerEnableVerifier(pm, false);
  else if (ok)
    npuc_pass_manager_verify_each(pm, &t->verify_each);
  if (!ok) {
    mlirPassManagerDestroy(pm);
    pm.ptr = NULL;
  }
  return pm;
}

/* ---- Command line --------------------------------------------------- */

enum {
  OPT_OUTPUT,
  OPT_PIPELINE,
  OPT_SPLIT,
  OPT_VERIFY,
  OPT_PRINT_AFTER_ALL,
  OPT_TIMING,
  OPT_VERIFY_EACH,
  OPT_GENERIC,
  OPT_DEBUGINFO,
  OPT_ALLOW_UNREGISTERED,
  OPT_HELP,
  OPT_VERSION,
};

static const npuc_cli_option specs[] = {
    {"o", NPUC_ARG_REQUIRED, OPT_OUTPUT, "-o <file>",
     "Output file; '-' or none is stdout. Written only on success."},
    {"pass-pipeline", NPUC_ARG_REQUIRED, OPT_PIPELINE, "--pass-pipeline=<text>",
     "Textual pipeline, e.g. 'builtin.module(func.func(cse),canonicalize)'"},
    {"split-input-file", NPUC_ARG_OPTIONAL, OPT_SPLIT,
     "--split-input-file[=<marker>]",
     "Process each '// -----' separated chunk on its own"},
    {"verify-diagnostics", NPUC_ARG_NONE, OPT_VERIFY, "--verify-diagnostics",
     "Check diagnostics against the input's expected-* comments"},
    {"mlir-print-ir-after-all", NPUC_ARG_NONE, OPT_PRINT_AFTER_ALL,
     "--mlir-print-ir-after-all",
     "Print the IR after every pass on stderr (MLIR's own printer)"},
    {"mlir-timing", NPUC_ARG_NONE, OPT_TIMING, "--mlir-timing",
     "Report the time each pass took on stderr"},
    {"verify-each", NPUC_ARG_NONE, OPT_VERIFY_EACH, "--verify-each[=false]",
     "Verify the IR after each pass (default); false: only the input and "
     "our op tables at the end"},
    {"mlir-print-op-generic", NPUC_ARG_NONE, OPT_GENERIC,
     "--mlir-print-op-generic", "Print every op in generic form"},
    {"mlir-print-debuginfo", NPUC_ARG_NONE, OPT_DEBUGINFO,
     "--mlir-print-debuginfo", "Print op locations"},
    {"allow-unregistered-dialect", NPUC_ARG_NONE, OPT_ALLOW_UNREGISTERED,
     "--allow-unregistered-dialect",
     "Accepted for mlir-opt compatibility; always on"},
    NPUC_CLI_HELP_AND_VERSION(OPT_HELP, OPT_VERSION),
};

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag);
static int pass_or_pass_option(void *user, const char *arg, const char *body,
                               size_t name_len, const char *value);
static bool add_pass_flag(options *o, const char *name, const char *value);
static bool is_pass_option_name(const char *name);
static bool pass_has_option(const npuc_pass_def *def, const char *name);
static bool add_global_pass_option(options *o, char *name, const char *value,
                                   const char *arg);
static bool apply_global_pass_options(options *o);
static void prepend_pass_option(pass_flag *p, const global_pass_option *opt);
static int unknown_option(const char *arg, const char *name);

static const npuc_cli cli = {TOOL, specs, sizeof specs / sizeof specs[0],
                             apply_option, pass_or_pass_option};

/* Returns CONTINUE to run, or the exit status (--help, errors). */
static int parse_command_line(int argc, char **argv, options *o) {
  int status = npuc_cli_parse(&cli, argc, argv, o, &o->input);
  if (status != CONTINUE)
    return status;
  if (o->pipeline && o->num_passes > 0) {
    fprintf(stderr,
            TOOL ": error: --pass-pipeline cannot be combined with "
                 "individual pass options (--%s)\n",
            o->passes[0].name);
    return 1;
  }
  return apply_global_pass_options(o) ? CONTINUE : 1;
}

/* What the option table does not name: a pass (npuc's or upstream's), or
 * an option of some pass given to all pass flags that have it. */
static int pass_or_pass_option(void *user, const char *arg, const char *body,
                               size_t name_len, const char *value) {
  options *o = user;
  char *name = npuc_xstrndup(body, name_len);
  bool added;
  if (npuc_pass_name_known(name)) {
    added = add_pass_flag(o, body, value);
  } else if (is_pass_option_name(name)) {
    added = add_global_pass_option(o, name, value, arg);
    name = NULL; /* kept */
  } else {
    int status = unknown_option(arg, name);
    free(name);
    return status;
  }
  free(name);
  return added ? CONTINUE : 1;
}

/* Does some npuc pass have an option of this name? */
static bool is_pass_option_name(const char *name) {
  for (size_t i = 0; i < npuc_num_passes(); i++)
    if (pass_has_option(npuc_pass_at(i), name))
      return true;
  return false;
}

static bool pass_has_option(const npuc_pass_def *def, const char *name) {
  for (size_t k = 0; def && k < def->num_options; k++)
    if (strcmp(def->options[k].name, name) == 0)
      return true;
  return false;
}

static bool add_global_pass_option(options *o, char *name, const char *value,
                                   const char *arg) {
  o->globals =
      npuc_xrealloc(o->globals, (o->num_globals + 1) * sizeof *o->globals);
  o->globals[o->num_globals++] = (global_pass_option){name, value, arg};
  return true;
}

/* Puts each global pass option in front of the option text of every pass
 * flag that has it (the pass's own text comes last and wins). An option
 * no such pass has is an error, as is any with --pass-pipeline. */
static bool apply_global_pass_options(options *o) {
  for (size_t g = 0; g < o->num_globals; g++) {
    const global_pass_option *opt = &o->globals[g];
    bool used = false;
    for (size_t i = 0; !o->pipeline && i < o->num_passes; i++) {
      pass_flag *p = &o->passes[i];
      if (!pass_has_option(npuc_pass_lookup(p->name), opt->name))
        continue;
      prepend_pass_option(p, opt);
      used = true;
    }
    if (!used) {
      fprintf(stderr,
              TOOL ": error: '%s' sets an option of a pass, but no pass "
                   "given as a flag has '%s'%s\n",
              opt->arg, opt->name,
              o->pipeline ? " (with --pass-pipeline, write it in the "
                            "pass's braces)"
                          : "");
      return false;
    }
  }
  return true;
}

static void prepend_pass_option(pass_flag *p, const global_pass_option *opt) {
  npuc_sb text = {0};
  const char *own = p->value ? p->value : "";
  size_t own_len = strlen(own);
  if (own_len >= 2 && own[0] == '{' && own[own_len - 1] == '}')
    own++, own_len -= 2;
  const char *value = opt->value ? opt->value : "true";
  bool quote = strpbrk(value, " ,{}") != NULL;
  npuc_sb_printf(&text, quote ? "%s=\"%s\" %.*s" : "%s=%s %.*s", opt->name,
                 value, (int)own_len, own);
  free(p->merged);
  p->merged = text.data;
  p->value = p->merged;
}

static int apply_option(void *user, const npuc_cli_option *spec,
                        const char *value, bool flag) {
  options *o = user;
  switch (spec->id) {
  case OPT_OUTPUT: o->output = value; break;
  case OPT_PIPELINE: o->pipeline = value; break;
  case OPT_SPLIT:
    o->split_marker = value && *value ? value : SPLIT_MARKER;
    break;
  case OPT_VERIFY: o->verify_diagnostics = flag; break;
  case OPT_PRINT_AFTER_ALL: o->print_ir_after_all = flag; break;
  case OPT_TIMING: o->timing = flag; break;
  case OPT_VERIFY_EACH: o->no_verify_each = !flag; break;
  case OPT_GENERIC: o->print_generic = flag; break;
  case OPT_DEBUGINFO: o->print_debuginfo = flag; break;
  case OPT_ALLOW_UNREGISTERED: break; /* our dialects need it: always on */
  case OPT_HELP: print_help(); return 0;
  case OPT_VERSION: npuc_cli_print_version(TOOL, NPUC_VERSION); return 0;
  }
  return CONTINUE;
}

/* `body` is "name" or "name=options"; it lives as long as argv. */
static bool add_pass_flag(options *o, const char *body, const char *value) {
  pass_flag *grown = realloc(o->passes, (o->num_passes + 1) * sizeof *grown);
  if (!grown)
    return false;
  o->passes = grown;
  size_t name_len = value ? (size_t)(value - 1 - body) : strlen(body);
  char *name = strndup(body, name_len);
  if (!name)
    return false;
  o->passes[o->num_passes++] = (pass_flag){name, value, NULL};
  return true;
}

/* The closest of our options and passes (npuc's and upstream's). */
static int unknown_option(const char *arg, const char *name) {
  const char *passes[2] = {NULL, NULL};
  npuc_pass_suggest(name, passes, 1);
  return npuc_cli_unknown_option(&cli, arg, name, "option or pass", passes);
}

/* ---- Help ----------------------------------------------------------- */

static void print_pass_help(const npuc_pass_def *def);

static void print_help(void) {
  printf("OVERVIEW: npuc modular optimizer driver: mlir-opt for the npuc "
         "dialects\n\n"
         "USAGE: " TOOL " [options] [input|-]\n\n"
         "OPTIONS:\n");
  npuc_cli_print_options(&cli, 32);
  printf("  %-32s %s\n", "-<pass option>=<value>",
         "Sets that option of every pass given as a flag, as aie-opt's "
         "global -unaligned-loads-check=false does");
  printf(
      "\nNPUC PASSES (as --<name>[=<options>] or inside --pass-pipeline):\n");
  for (size_t i = 0; i < npuc_num_passes(); i++)
    print_pass_help(npuc_pass_at(i));
  printf("\nUPSTREAM PASSES:\n"
         "  Every pass of upstream MLIR 22 is available the same way, e.g.\n"
         "  --canonicalize, --cse, --affine-super-vectorize=\"virtual-vector-"
         "size=16\";\n"
         "  `mlir-opt --help` lists them.\n");
}

static void print_pass_help(const npuc_pass_def *def) {
  printf("  --%-30s %s\n", def->name, def->summary);
  for (size_t k = 0; k < def->num_options; k++) {
    const npuc_pass_option_def *opt = &def->options[k];
    static const char *const type_names[] = {"bool", "int", "string", "enum"};
    char usage[128];
    snprintf(usage, sizeof usage, "%s=<%s>", opt->name, type_names[opt->type]);
    printf("      %-28s %s", usage, opt->help ? opt->help : "");
    if (opt->type == NPUC_OPT_ENUM && opt->enum_values) {
      printf(" (one of:");
      for (const char *const *v = opt->enum_values; *v; v++)
        printf(" %s", *v);
      printf(")");
    }
    if (opt->default_value && *opt->default_value)
      printf(" (default: %s)", opt->default_value);
    printf("\n");
  }
}
