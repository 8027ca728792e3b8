/* IR: the MLIR context npuc works in, and module parse/print through the
 * syntax engine. Every tool goes through these; nothing else calls
 * mlirOperationCreateParse or prints a module. */
#ifndef NPUC_IR_H
#define NPUC_IR_H

#include "npuc/Diagnostics.h"
#include "npuc/MlirSupport.h"
#include "npuc/OpTable.h"
#include "npuc/Syntax.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

/* A context with every upstream dialect loaded and unregistered dialects
 * allowed (our dialects are unregistered for MLIR). MLIR diagnostics are
 * routed to the sink installed with npuc_context_set_sink. */
MlirContext npuc_context_create(void);
/* The same context with every upstream dialect registered but none loaded:
 * MLIR's parser loads the dialects a file uses as it reads them, as
 * mlir-opt does (loading all of them costs about 22M instructions at
 * start-up). Fit for parsing, verifying and printing; before anything
 * creates ops of a dialect the input may not use (passes, builders), call
 * npuc_context_load_all_dialects. */
MlirContext npuc_context_create_lazy(void);
void npuc_context_load_all_dialects(MlirContext ctx);
void npuc_context_destroy(MlirContext ctx);
/* Where MLIR diagnostics go from now on; `map` (may be NULL) remaps columns
 * of positions inside rewritten text. Returns the previous sink. */
void npuc_context_set_sink(MlirContext ctx, const npuc_diag_sink *sink,
                           const npuc_srcmap *map);

typedef struct {
  MlirOperation op; /* the top-level op (builtin.module); null on failure */
  npuc_source_form form;
  npuc_srcmap *map; /* rewritten-text positions -> source positions */
} npuc_module;

/* Parses `text` (custom syntax allowed) and verifies it: MLIR's verifier,
 * then our tables'. On failure, returns false with diagnostics reported and
 * out->op null. `first_line` is the file line of text[0] (split inputs). */
bool npuc_module_parse(MlirContext ctx, const npuc_op_registry *reg,
                       const char *text, size_t len, const char *filename,
                       int first_line, const npuc_diag_sink *sink,
                       npuc_module *out);

typedef struct {
  bool generic;    /* --mlir-print-op-generic: no custom syntax at all */
  bool debug_info; /* --mlir-print-debuginfo */
  /* The op is known valid (verified since its last change): MLIR's printer
   * need not verify it again to choose between custom and generic form. */
  bool assume_verified;
} npuc_print_options;

/* The module as text in custom syntax (malloc'd, NUL-terminated). */
char *npuc_module_print(const npuc_op_registry *reg, const npuc_module *m,
                        const npuc_print_options *opts, size_t *out_len);
/* Any op (e.g. for --mlir-print-ir-after-all), same rendering. */
char *npuc_op_print(const npuc_op_registry *reg, MlirOperation op,
                    const npuc_source_form *form,
                    const npuc_print_options *opts, size_t *out_len);

/* Prints a top-level builtin.module with `flags` into *out (NUL-terminated)
 * through MLIR's buffered file printer (lib/IR/BufferedPrint.c); false,
 * with *out untouched, for any other op or when that fails. */
bool npuc_module_print_buffered(MlirOperation module, MlirOpPrintingFlags flags,
                                npuc_sb *out);

void npuc_module_destroy(npuc_module *m);

/* MLIR's C API can emit errors only (mlirEmitError). Passes report
 * warnings, remarks and notes (and errors alike) here: the location is
 * resolved to the user's file:line:col and the message goes to the sink
 * installed on the op's context (so --verify-diagnostics sees it). */
void npuc_emit_diagnostic(MlirLocation loc, npuc_severity sev, const char *fmt,
                          ...) __attribute__((format(printf, 3, 4)));

/* Location helpers: file/line/col of a FileLineColLoc (looking through
 * name/callsite/fused locations); false for unknown locations. */
bool npuc_location_file_line_col(MlirLocation loc, char *file, size_t file_cap,
                                 int *line, int *col);

/* "base:line:col" of an op's location (the file name without its
 * directories, as reports and generated comments show it) into buf;
 * false, and buf empty, for an unknown location. */
bool npuc_op_short_location(MlirOperation op, char *buf, size_t cap);

#endif
