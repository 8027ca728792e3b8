/* Internals of the pass infrastructure, shared by the files of lib/Pass and
 * the unit tests: option parsing, the pipeline tokenizer, the MLIR wrapping
 * of npuc passes and what we can learn about upstream passes through the C
 * API. */
#ifndef NPUC_PASS_INTERNAL_H
#define NPUC_PASS_INTERNAL_H

#include "npuc/Pass.h"
#include <stddef.h>

/* ---- Options (PassOptions.c) ---------------------------------------- */

/* Parses the option text of one pass instance. Accepts the pipeline form
 * "{a=1 b=2}" or "{a=1,b=2}" and the flag form "a=1 b=2" (values may be
 * quoted; a bare name sets a bool option to true). NULL or "" gives the
 * defaults. On error returns NULL and sets *error to a malloc'd message that
 * names the pass and the option and lists the valid options. */
npuc_pass_options *npuc_pass_options_parse(const npuc_pass_def *def,
                                           const char *text, char **error);
npuc_pass_options *npuc_pass_options_clone(const npuc_pass_options *o);
void npuc_pass_options_free(npuc_pass_options *o);
/* "keep=<string>, verbose=<bool>" or "(none)"; malloc'd. */
char *npuc_pass_options_describe(const npuc_pass_def *def);

/* ---- Pipeline text (PipelineParser.c) ------------------------------- */

/* One element of a textual pipeline: a pass with optional options, or an
 * op anchor with a nested pipeline ("func.func(cse)"). */
typedef struct npuc_pipeline_elem npuc_pipeline_elem;
struct npuc_pipeline_elem {
  char *name;    /* "cse", "func.func" */
  char *options; /* text between the braces, NULL when there were none */
  bool nested;   /* written as name(...) */
  npuc_pipeline_elem *children;
  size_t num_children;
  size_t offset; /* byte offset of the name in the pipeline text */
};

typedef struct {
  npuc_pipeline_elem *elems;
  size_t count;
} npuc_pipeline;

/* Splits pipeline text into its element tree. On error returns false and
 * sets *error to a malloc'd message that points at the offending byte. */
bool npuc_pipeline_tokenize(const char *text, npuc_pipeline *out, char **error);
void npuc_pipeline_free(npuc_pipeline *p);
/* "name{options}" as MLIR's pipeline parser expects it; malloc'd. */
char *npuc_pipeline_elem_text(const npuc_pipeline_elem *e);

/* ---- npuc passes as MLIR passes (PassRegistry.c) -------------------- */

/* A new MLIR pass running `def` with `opts` (ownership of opts moves to the
 * pass). */
MlirPass npuc_pass_create(const npuc_pass_def *def, npuc_pass_options *opts,
                          const npuc_pass_context *ctx);

/* ---- Upstream passes (UpstreamPasses.c) ----------------------------- */

/* Makes MLIR's upstream passes known (idempotent). */
void npuc_upstream_register(void);
/* Does MLIR accept this pipeline element ("cse", "canonicalize{x=1}")? On
 * failure *error (if non-NULL) receives MLIR's message, malloc'd. */
bool npuc_upstream_check(const char *element, char **error);
/* The op an upstream pass runs on ("func.func", "gpu.module"), "" when it
 * runs on any op, NULL when that could not be found out. Found without
 * running the pass (see UpstreamPasses.c) and cached per pass name. */
const char *npuc_upstream_anchor_of(const char *element);
/* Common upstream pass names, for suggestions. NULL-terminated. */
extern const char *const npuc_upstream_pass_names[];

/* ---- Guards for upstream passes (UpstreamGuard.c) ------------------- */

/* The hazard, if upstream pass `pass` with option text `options` (may be
 * NULL) is known to crash on ops MLIR does not know; NULL if not. */
const void *npuc_upstream_hazard(const char *pass, const char *options);
/* A pass to run right before that upstream pass: it fails with a located
 * error at the first op the upstream pass would crash on. */
MlirPass npuc_upstream_guard_create(const void *hazard);

/* Sets the name npuc_pass_error and friends put in front of messages on
 * this thread; returns the previous one. */
const char *npuc_pass_set_current(const char *name);

#endif
