/* Textual pass pipelines, as mlir-opt writes them:
 *   builtin.module(func.func(cse,npuc-foo{opt=1}),canonicalize)
 * MLIR's own pipeline parser only knows passes in MLIR's registry, and the
 * C API cannot add ours there. So we split the text ourselves: npuc passes
 * become MLIR external passes, runs of consecutive upstream passes go to
 * mlirOpPassManagerAddPipeline as one string, and op anchors become nested
 * pass managers. Like mlir-opt, a pass written at a level whose op it does
 * not run on (a func.func pass at module level) is nested under its op. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup, strndup */
#endif
#include "PassInternal.h"
#include "npuc/MlirSupport.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODULE_ANCHOR "builtin.module"
#define ANY_ANCHOR "any"

/* Consecutive upstream passes bound for the same place, collected into one
 * pipeline string: this level, or an implicit nest under op `nest`. */
typedef struct {
  bool active;
  const char *nest; /* NULL: this level; else borrowed, lives in a cache */
  npuc_sb text;
} upstream_group;

typedef struct {
  const npuc_pass_context *ctx;
  const npuc_diag_sink *sink;
} builder;

/* Where a pass goes, seen from a level of the pipeline. */
typedef enum { PLACE_HERE, PLACE_NESTED, PLACE_NOWHERE } placement;

static bool add_level(builder *b, MlirOpPassManager pm, const char *anchor,
                      const npuc_pipeline_elem *elems, size_t n);
static bool add_element(builder *b, MlirOpPassManager pm, const char *anchor,
                        const npuc_pipeline_elem *e, upstream_group *g);
static bool add_npuc_pass(builder *b, MlirOpPassManager pm, const char *anchor,
                          const npuc_pass_def *def, const npuc_pipeline_elem *e,
                          upstream_group *g);
static bool add_upstream_pass(builder *b, MlirOpPassManager pm,
                              const char *anchor, const npuc_pipeline_elem *e,
                              upstream_group *g);
static bool add_guard(builder *b, MlirOpPassManager pm,
                      const npuc_pipeline_elem *e, const char *nest,
                      upstream_group *g);
static placement place(const char *pass_anchor, const char *level);
static bool flush_group(builder *b, MlirOpPassManager pm, upstream_group *g);
static void report(builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void report_misplaced(builder *b, const char *name,
                             const char *pass_anchor, const char *level);
static void report_unknown_pass(builder *b, const char *name);
static bool is_unknown_pass_message(const char *mlir_message);

/* ---- Public entry points -------------------------------------------- */

bool npuc_pipeline_parse(MlirPassManager pm, const char *pipeline,
                         const npuc_pass_context *ctx,
                         const npuc_diag_sink *sink) {
  builder b = {ctx, sink};
  npuc_pipeline p;
  char *error = NULL;
  if (!npuc_pipeline_tokenize(pipeline, &p, &error)) {
    report(&b, "%s", error ? error : "invalid pass pipeline");
    free(error);
    return false;
  }
  /* mlir-opt wants the pipeline wrapped in the anchor, builtin.module(...);
   * we also accept the bare list of passes that goes inside it. */
  const npuc_pipeline_elem *elems = p.elems;
  size_t n = p.count;
  if (n == 1 && p.elems[0].nested &&
      strcmp(p.elems[0].name, MODULE_ANCHOR) == 0) {
    elems = p.elems[0].children;
    n = p.elems[0].num_children;
  }
  npuc_upstream_register();
  bool ok = add_level(&b, mlirPassManagerGetAsOpPassManager(pm), MODULE_ANCHOR,
                      elems, n);
  npuc_pipeline_free(&p);
  return ok;
}

bool npuc_pipeline_add_flag(MlirPassManager pm, const char *name,
                            const char *options, const npuc_pass_context *ctx,
                            const npuc_diag_sink *sink) {
  builder b = {ctx, sink};
  npuc_pipeline_elem e = {0};
  e.name = (char *)name;
  if (options && *options) {
    /* The flag form "--p=a=1 b=2" and the braced "--p={a=1 b=2}" mean the
     * same options. */
    size_t len = strlen(options);
    if (len >= 2 && options[0] == '{' && options[len - 1] == '}')
      e.options = strndup(options + 1, len - 2);
    else
      e.options = strdup(options);
    if (!e.options)
      return false;
  }
  npuc_upstream_register();
  bool ok = add_level(&b, mlirPassManagerGetAsOpPassManager(pm), MODULE_ANCHOR,
                      &e, 1);
  free(e.options);
  return ok;
}

bool npuc_pipeline_run(const npuc_op_registry *reg, MlirOperation root,
                       const char *pipeline, const npuc_diag_sink *sink) {
  npuc_verify_each verify_each = {false, false};
  npuc_pass_context pctx = {reg, mlirOperationGetContext(root), &verify_each};
  MlirPassManager pm = mlirPassManagerCreate(pctx.context);
  bool ok = npuc_pipeline_parse(pm, pipeline, &pctx, sink);
  if (ok)
    npuc_pass_manager_verify_each(pm, &verify_each);
  ok = ok && npuc_pass_manager_run(pm, root, false) &&
       npuc_verify_after_passes(reg, root);
  mlirPassManagerDestroy(pm);
  return ok;
}

bool npuc_pass_name_known(const char *name) {
  if (npuc_pass_lookup(name))
    return true;
  npuc_upstream_register();
  return npuc_upstream_check(name, NULL);
}

/* ---- Building pass managers ----------------------------------------- */

static bool add_level(builder *b, MlirOpPassManager pm, const char *anchor,
                      const npuc_pipeline_elem *elems, size_t n) {
  upstream_group g = {false, NULL, {NULL, 0, 0}};
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++)
    ok = add_element(b, pm, anchor, &elems[i], &g);
  if (ok)
    ok = flush_group(b, pm, &g);
  free(g.text.data);
  return ok;
}

static bool add_element(builder *b, MlirOpPassManager pm, const char *anchor,
                        const npuc_pipeline_elem *e, upstream_group *g) {
  if (e->nested) {
    if (!flush_group(b, pm, g))
      return false;
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(
        pm, mlirStringRefCreateFromCString(e->name));
    return add_level(b, nested, e->name, e->children, e->num_children);
  }
  const npuc_pass_def *def = npuc_pass_lookup(e->name);
  if (def)
    return add_npuc_pass(b, pm, anchor, def, e, g);
  return add_upstream_pass(b, pm, anchor, e, g);
}

static bool add_npuc_pass(builder *b, MlirOpPassManager pm, const char *anchor,
                          const npuc_pass_def *def, const npuc_pipeline_elem *e,
                          upstream_group *g) {
  placement where = place(def->anchor, anchor);
  if (where == PLACE_NOWHERE) {
    report_misplaced(b, def->name, def->anchor, anchor);
    return false;
  }
  char *error = NULL;
  npuc_pass_options *opts = npuc_pass_options_parse(def, e->options, &error);
  if (!opts) {
    report(b, "%s", error ? error : "out of memory");
    free(error);
    return false;
  }
  if (!flush_group(b, pm, g)) {
    npuc_pass_options_free(opts);
    return false;
  }
  MlirOpPassManager target =
      where == PLACE_NESTED
          ? mlirOpPassManagerGetNestedUnder(
                pm, mlirStringRefCreateFromCString(def->anchor))
          : pm;
  mlirOpPassManagerAddOwnedPass(target, npuc_pass_create(def, opts, b->ctx));
  return true;
}

static bool add_upstream_pass(builder *b, MlirOpPassManager pm,
                              const char *anchor, const npuc_pipeline_elem *e,
                              upstream_group *g) {
  char *text = npuc_pipeline_elem_text(e);
  char *error = NULL;
  if (!text)
    return false;
  if (b->ctx->verify_each) /* it cannot say it verified its result */
    b->ctx->verify_each->upstream_passes = true;
  bool ok = npuc_upstream_check(text, &error);
  if (!ok) {
    if (!error || is_unknown_pass_message(error))
      report_unknown_pass(b, e->name);
    else
      report(b, "invalid options for pass '%s': %s", e->name, error);
  }
  const char *pass_anchor = ok ? npuc_upstream_anchor_of(text) : NULL;
  placement where = ok ? place(pass_anchor, anchor) : PLACE_NOWHERE;
  if (ok && where == PLACE_NOWHERE) {
    report_misplaced(b, e->name, pass_anchor, anchor);
    ok = false;
  }
  const char *nest = where == PLACE_NESTED ? pass_anchor : NULL;
  bool same_place =
      g->nest == nest || (g->nest && nest && !strcmp(g->nest, nest));
  if (ok && g->active && !same_place)
    ok = flush_group(b, pm, g);
  if (ok)
    ok = add_guard(b, pm, e, nest, g);
  if (ok) {
    g->active = true;
    g->nest = nest;
    npuc_sb_printf(&g->text, "%s%s", g->text.len ? "," : "", text);
  }
  free(error);
  free(text);
  return ok;
}

/* An upstream pass known to crash on our ops gets a guard right before it,
 * where it will run (UpstreamGuard.c). */
static bool add_guard(builder *b, MlirOpPassManager pm,
                      const npuc_pipeline_elem *e, const char *nest,
                      upstream_group *g) {
  const void *hazard = npuc_upstream_hazard(e->name, e->options);
  if (!hazard)
    return true;
  if (!flush_group(b, pm, g))
    return false;
  MlirOpPassManager target = nest
                                 ? mlirOpPassManagerGetNestedUnder(
                                       pm, mlirStringRefCreateFromCString(nest))
                                 : pm;
  mlirOpPassManagerAddOwnedPass(target, npuc_upstream_guard_create(hazard));
  return true;
}

/* Passes for any op go anywhere, others where their op is; elsewhere they
 * are nested under their op, as mlir-opt nests implicitly, except that a
 * module pass below module level would silently run on nothing. An unknown
 * anchor (NULL) leaves the pass where it was written. */
static placement place(const char *pass_anchor, const char *level) {
  if (!pass_anchor || !*pass_anchor || !strcmp(pass_anchor, ANY_ANCHOR) ||
      !strcmp(level, ANY_ANCHOR) || !strcmp(pass_anchor, level))
    return PLACE_HERE;
  return strcmp(pass_anchor, MODULE_ANCHOR) == 0 ? PLACE_NOWHERE : PLACE_NESTED;
}

static bool flush_group(builder *b, MlirOpPassManager pm, upstream_group *g) {
  if (!g->active || g->text.len == 0) {
    g->active = false;
    return true;
  }
  MlirOpPassManager target =
      g->nest ? mlirOpPassManagerGetNestedUnder(
                    pm, mlirStringRefCreateFromCString(g->nest))
              : pm;
  npuc_sb msg = {0};
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(
      target, mlirStringRefCreate(g->text.data, g->text.len),
      npuc_sb_append_mlir, &msg);
  bool ok = mlirLogicalResultIsSuccess(r);
  if (!ok)
    report(b, "cannot add upstream passes '%s': %s", g->text.data,
           msg.data ? msg.data : "rejected by MLIR");
  free(msg.data);
  g->active = false;
  g->nest = NULL;
  g->text.len = 0;
  return ok;
}

/* ---- Errors --------------------------------------------------------- */

static void report(builder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_diag_vemit(b->sink, NPUC_SEV_ERROR, NULL, 0, 0, fmt, ap);
  va_end(ap);
}

static void report_misplaced(builder *b, const char *name,
                             const char *pass_anchor, const char *level) {
  report(b, "pass '%s' runs on '%s' ops and cannot be scheduled under '%s'",
         name, pass_anchor, level);
}

static void report_unknown_pass(builder *b, const char *name) {
  const char *close[3];
  size_t n = npuc_pass_suggest(name, close, 3);
  if (n == 0) {
    report(b, "unknown pass '%s' (see --help for the npuc passes)", name);
    return;
  }
  char list[512];
  size_t len = 0;
  for (size_t i = 0; i < n && len < sizeof list; i++)
    len +=
        (size_t)snprintf(list + len, sizeof list - len, "%s'%s'",
                         i == 0 ? "" : (i + 1 == n ? " or " : ", "), close[i]);
  report(b, "unknown pass '%s'; did you mean %s?", name, list);
}

static bool is_unknown_pass_message(const char *mlir_message) {
  return strstr(mlir_message, "does not refer to a registered pass") != NULL;
}

/* ---- Tokenizer ------------------------------------------------------ */

typedef struct {
  const char *text;
  const char *p;
  char *error;
} tokenizer;

static bool parse_list(tokenizer *t, npuc_pipeline *out, char close);
static bool parse_element(tokenizer *t, npuc_pipeline_elem *e);
static bool scan_braces(tokenizer *t, const char **start, size_t *len);
static bool fail_at(tokenizer *t, const char *where, const char *what);
static void skip_space(tokenizer *t);
static bool push_elem(npuc_pipeline *p, npuc_pipeline_elem *e);
static void free_elem(npuc_pipeline_elem *e);

bool npuc_pipeline_tokenize(const char *text, npuc_pipeline *out,
                            char **error) {
  tokenizer t = {text, text, NULL};
  out->elems = NULL;
  out->count = 0;
  *error = NULL;
  if (!parse_list(&t, out, '\0')) {
    npuc_pipeline_free(out);
    *error = t.error;
    return false;
  }
  return true;
}

void npuc_pipeline_free(npuc_pipeline *p) {
  for (size_t i = 0; i < p->count; i++)
    free_elem(&p->elems[i]);
  free(p->elems);
  p->elems = NULL;
  p->count = 0;
}

char *npuc_pipeline_elem_text(const npuc_pipeline_elem *e) {
  size_t need = strlen(e->name) + (e->options ? strlen(e->options) : 0) + 3;
  char *out = malloc(need);
  if (!out)
    return NULL;
  if (e->options)
    snprintf(out, need, "%s{%s}", e->name, e->options);
  else
    snprintf(out, need, "%s", e->name);
  return out;
}

/* element (',' element)* up to `close` (')' for nested lists, NUL at the
 * top). An empty list is valid: "func.func()" adds nothing. */
static bool parse_list(tokenizer *t, npuc_pipeline *out, char close) {
  skip_space(t);
  if (*t->p == close)
    return true;
  for (;;) {
    npuc_pipeline_elem e;
    if (!parse_element(t, &e))
      return false;
    if (!push_elem(out, &e)) {
      free_elem(&e);
      return fail_at(t, t->p, "out of memory");
    }
    skip_space(t);
    if (*t->p == ',') {
      t->p++;
      skip_space(t);
      continue;
    }
    if (*t->p == close)
      return true;
    if (*t->p == '\0')
      return fail_at(t, t->p, "expected ')' to close the nested pipeline");
    return fail_at(t, t->p,
                   close == ')' ? "expected ',' or ')'"
                                : "expected ',' between passes");
  }
}

static bool is_pass_name_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' ||
         c == '$';
}

static bool parse_element(tokenizer *t, npuc_pipeline_elem *e) {
  memset(e, 0, sizeof *e);
  const char *start = t->p;
  while (is_pass_name_char(*t->p))
    t->p++;
  if (t->p == start)
    return fail_at(t, t->p, "expected a pass or operation name");
  e->offset = (size_t)(start - t->text);
  e->name = strndup(start, (size_t)(t->p - start));
  if (!e->name)
    return fail_at(t, start, "out of memory");
  skip_space(t);
  if (*t->p == '{') {
    const char *opt = NULL;
    size_t len = 0;
    if (!scan_braces(t, &opt, &len)) {
      free_elem(e);
      return false;
    }
    e->options = strndup(opt, len);
    skip_space(t);
  }
  if (*t->p == '(') {
    if (e->options) {
      free_elem(e);
      return fail_at(t, t->p, "an operation anchor takes no options");
    }
    t->p++;
    e->nested = true;
    npuc_pipeline inner = {NULL, 0};
    bool ok = parse_list(t, &inner, ')');
    e->children = inner.elems;
    e->num_children = inner.count;
    if (!ok) {
      free_elem(e);
      return false;
    }
    t->p++; /* ')' */
  }
  return true;
}

/* "{...}" with nested braces and quoted strings; returns the inside. */
static bool scan_braces(tokenizer *t, const char **start, size_t *len) {
  const char *open = t->p;
  int depth = 0;
  char quote = 0;
  for (const char *p = t->p; *p; p++) {
    if (quote) {
      if (*p == quote)
        quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '{') {
      depth++;
    } else if (*p == '}' && --depth == 0) {
      *start = open + 1;
      *len = (size_t)(p - open - 1);
      t->p = p + 1;
      return true;
    }
  }
  return fail_at(t, open,
                 quote ? "unterminated string in pass options"
                       : "unbalanced '{' in pass options");
}

/* "invalid pass pipeline: <what>\n  <text>\n  <caret>" */
static bool fail_at(tokenizer *t, const char *where, const char *what) {
  size_t col = (size_t)(where - t->text);
  size_t text_len = strlen(t->text);
  size_t need = strlen(what) + 2 * text_len + col + 64;
  t->error = malloc(need);
  if (!t->error)
    return false;
  int n = snprintf(t->error, need, "invalid pass pipeline: %s\n  %s\n  ", what,
                   t->text);
  for (size_t i = 0; i < col; i++)
    t->error[n++] = ' ';
  t->error[n++] = '^';
  t->error[n] = '\0';
  return false;
}

static void skip_space(tokenizer *t) {
  while (isspace((unsigned char)*t->p))
    t->p++;
}

static bool push_elem(npuc_pipeline *p, npuc_pipeline_elem *e) {
  npuc_pipeline_elem *grown =
      realloc(p->elems, (p->count + 1) * sizeof *p->elems);
  if (!grown)
    return false;
  p->elems = grown;
  p->elems[p->count++] = *e;
  return true;
}

static void free_elem(npuc_pipeline_elem *e) {
  npuc_pipeline inner = {e->children, e->num_children};
  npuc_pipeline_free(&inner);
  free(e->name);
  free(e->options);
  e->name = e->options = NULL;
}
