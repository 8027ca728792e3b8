/* Passes: every npuc pass is a C function registered once in the pass
 * registry (lib/Pass/PassRegistry.c) with its name, anchor op and options.
 * The registry wraps it as an MLIR external pass (mlirCreateExternalPass), so
 * it runs inside MLIR's pass manager next to upstream passes, from the flag
 * form (--name=opts) or from --pass-pipeline. */
#ifndef NPUC_PASS_H
#define NPUC_PASS_H

#include "npuc/Diagnostics.h"
#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  NPUC_OPT_BOOL, /* true|false|1|0 (also True/False) */
  NPUC_OPT_INT,  /* decimal, may be negative */
  NPUC_OPT_STRING,
  NPUC_OPT_ENUM, /* one of enum_values */
} npuc_opt_type;

/* One option of a pass. A pass declares its options as a struct, one field
 * each (bool for NPUC_OPT_BOOL, int64_t for NPUC_OPT_INT, const char * for
 * NPUC_OPT_STRING and NPUC_OPT_ENUM), and this table maps each name to its
 * field with designated initializers:
 *   {.name = "mode", .type = NPUC_OPT_ENUM, .field = offsetof(opts, mode),
 *    .default_value = "strided", .help = "...", .enum_values = modes}
 * so a misspelt field is a compile-time error; the pass reads the parsed
 * struct with npuc_pass_opts. */
typedef struct {
  const char *name;
  npuc_opt_type type;
  const char *default_value;
  const char *help;
  const char *const *enum_values; /* NULL-terminated, for NPUC_OPT_ENUM */
  size_t field;                   /* offsetof the field in the struct */
} npuc_pass_option_def;

/* Parsed option values of one pass instance. */
typedef struct npuc_pass_options npuc_pass_options;

/* Who verifies the op a pass ran on, after it. MLIR's pass manager does,
 * unless the pass preserved all analyses, which an external pass cannot
 * say through the C API: a pass that verified its own result
 * (hivm-bind-sub-block must, for its fallback) would be verified twice.
 * When a pipeline holds only npuc passes, npuc_pass_manager_verify_each
 * hands the check to the passes: each verifies its op after it runs,
 * unless it said it left it verified (npuc_pass_verified). Upstream passes
 * cannot do that, so with any of them the pass manager keeps the check. */
typedef struct {
  bool upstream_passes; /* set while passes are added */
  bool by_passes;       /* set by npuc_pass_manager_verify_each */
} npuc_verify_each;

typedef struct {
  const npuc_op_registry *registry;
  MlirContext context;
  /* NULL: the pass manager verifies after each pass. Must outlive the
   * pass manager. */
  npuc_verify_each *verify_each;
} npuc_pass_context;

typedef struct {
  const char *name;    /* "npuc-strip-annotations" */
  const char *summary; /* one line, shown by --help */
  const char *anchor;  /* "builtin.module", "func.func", or "any" */
  const npuc_pass_option_def *options;
  size_t num_options;
  /* Runs on one anchor op. Returns false to fail the pipeline; it must have
   * emitted an error (mlirEmitError) first. */
  bool (*run)(MlirOperation op, const npuc_pass_options *opts,
              const npuc_pass_context *ctx);
  size_t options_size; /* sizeof the pass's options struct */
} npuc_pass_def;

/* The pass's options struct, parsed (string fields live as long as
 * `o`). */
const void *npuc_pass_opts(const npuc_pass_options *o);
/* A pass's options, listed once: the list macro names, per option, its
 * C type, field, flag name, kind, default (NULL: none, or an enum's
 * first value), enum values (NULL) and help:
 *   #define BIND_OPTIONS(X, T)                                             \
 *     X(T, bool, strict_mode, "strict-mode", NPUC_OPT_BOOL, "false", NULL,  \
 *       "bubble slices only where the rewrite is exact")
 *   NPUC_PASS_OPTIONS(bind_options, BIND_OPTIONS);
 * declares `typedef struct {bool strict_mode;} bind_options` and the table
 * `bind_options_table` mapping each name to its field. */
#define NPUC_OPT_FIELD_(T, ctype_, field_, ...) ctype_ field_;
#define NPUC_OPT_DEF_(T, ctype_, field_, flag_, kind_, dflt_, values_, text_)  \
  {.name = flag_,                                                              \
   .type = kind_,                                                              \
   .default_value = dflt_,                                                     \
   .help = text_,                                                              \
   .enum_values = values_,                                                     \
   .field = offsetof(T, field_)},
#define NPUC_PASS_OPTIONS(type, list)                                          \
  typedef struct {                                                             \
    list(NPUC_OPT_FIELD_, type)                                                \
  } type;                                                                      \
  static const npuc_pass_option_def type##_table[] = {list(NPUC_OPT_DEF_, type)}
/* The npuc_pass_def fields of a pass with options of `type`. */
#define NPUC_PASS_OPTIONS_OF(type)                                             \
  .options = type##_table,                                                     \
  .num_options = sizeof type##_table / sizeof type##_table[0],                 \
  .options_size = sizeof(type)

/* One pass, in one statement: its symbol, flag, one-line summary, anchor
 * op, entry function (declared here: static, of npuc_pass_def.run's type)
 * and, for a pass with options, NPUC_PASS_OPTIONS_OF(its options type). */
#define NPUC_PASS_DEFINE(symbol, flag, what, anchor_op, entry, ...)            \
  static bool entry(MlirOperation, const npuc_pass_options *,                  \
                    const npuc_pass_context *);                                \
  const npuc_pass_def symbol = {.name = flag,                                  \
                                .summary = what,                               \
                                .anchor = anchor_op,                           \
                                .run = entry,                                  \
                                __VA_ARGS__}

/* The struct typed: NPUC_PASS_OPTS(blockify_options, opts)->mode. */
#define NPUC_PASS_OPTS(type, o) ((const type *)npuc_pass_opts(o))
/* Was the option of the field at `field` (offsetof) given explicitly,
 * not defaulted? */
bool npuc_pass_opt_given_field(const npuc_pass_options *o, size_t field);

/* The registry of npuc passes, in --help order: the tools fill it with
 * npuc_register_passes (npuc/Passes.h). False if the name is taken, the
 * registry full, or the pass has options but no options struct. */
bool npuc_pass_register(const npuc_pass_def *def);
size_t npuc_num_passes(void);
const npuc_pass_def *npuc_pass_at(size_t i);
const npuc_pass_def *npuc_pass_lookup(const char *name);

/* Appends the passes of a textual pipeline ("builtin.module(func.func(
 * cse,npuc-foo{opt=1}))") to `pm`: npuc passes by name, upstream passes
 * through mlirOpPassManagerAddPipeline. Errors go to the sink. */
bool npuc_pipeline_parse(MlirPassManager pm, const char *pipeline,
                         const npuc_pass_context *ctx,
                         const npuc_diag_sink *sink);
/* Appends one pass given in flag form: name plus option text
 * ("shift=0 zero-offset=4" or "{shift=0}"), npuc or upstream. */
bool npuc_pipeline_add_flag(MlirPassManager pm, const char *name,
                            const char *options, const npuc_pass_context *ctx,
                            const npuc_diag_sink *sink);
/* After the passes are added: with no upstream pass among them, turns the
 * pass manager's verifier off and has our passes verify instead. */
void npuc_pass_manager_verify_each(MlirPassManager pm, npuc_verify_each *v);
/* Called by a pass on the op it runs on: the op, as the pass leaves it,
 * has been verified (or is unchanged), so it need not be again. */
void npuc_pass_verified(MlirOperation op);
/* Parses `pipeline` and runs it on `root` the way the tools do: our
 * passes verify what they change, a failure without a reason is named,
 * and our ops are checked against their tables afterwards. Diagnostics go
 * to the context's sink (parse errors of the pipeline text to `sink`). */
bool npuc_pipeline_run(const npuc_op_registry *reg, MlirOperation root,
                       const char *pipeline, const npuc_diag_sink *sink);
/* After a pipeline ran on `root`: checks our ops against their tables
 * (the passes check only MLIR's verifier), and a failure, as the input
 * was checked when read, is a pass's fault: says so, as an internal
 * error. */
bool npuc_verify_after_passes(const npuc_op_registry *reg, MlirOperation root);
/* Runs an upstream pipeline ("canonicalize,cse") on `op` from inside one
 * of our passes, through its own pass manager anchored on the op's name, as
 * the anchor's passes run theirs. A failure is an error at `op`. */
bool npuc_run_upstream(MlirOperation op, const char *pipeline);
/* Is `name` a pass known to npuc or to upstream MLIR? */
bool npuc_pass_name_known(const char *name);
/* Up to `max` pass names (npuc and upstream) close to a misspelt `name`,
 * closest first, for "did you mean" messages. */
size_t npuc_pass_suggest(const char *name, const char **out, size_t max);

/* ---- Diagnostics of a running pass ----------------------------------
 * Every message a pass reports goes through these (chibicc's error_tok):
 * at the op's (or location's) file:line:col, to the sink the tools
 * installed (so --verify-diagnostics sees it), prefixed with the running
 * pass's name: "tx8-sharding: the group does not fit SPM". Outside a pass
 * (a target's emitter calling pass code) there is no prefix. An error
 * must be followed by the pass returning false. */
void npuc_pass_error(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_warning(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_remark(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_note(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_error_at(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_warning_at(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_remark_at(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_pass_diag_v(MlirLocation loc, npuc_severity sev, const char *fmt,
                      va_list ap);
/* The name of the pass running on this thread, or NULL. */
const char *npuc_pass_current(void);

/* Called as each npuc pass starts to run, with its flag name (npuc-compile
 * shows it on the progress line); NULL for none. Process-wide. */
typedef void (*npuc_pass_start_fn)(const char *pass, void *user);
void npuc_pass_set_start_hook(npuc_pass_start_fn fn, void *user);

/* Runs `pm` on `op`. A pass may fail without an error of its own (as
 * bishengir's do, and ours where they follow it: emit-remarks=true gives
 * the reason); unless `quiet` (--verify-diagnostics, where only the
 * passes' own diagnostics count, as in mlir-opt), such a failure is then
 * named in an error at the op the pass ran on, so no run ends in silence. */
bool npuc_pass_manager_run(MlirPassManager pm, MlirOperation op, bool quiet);

#endif
