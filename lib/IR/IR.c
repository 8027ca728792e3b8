/* The MLIR context npuc works in, diagnostics routing, and module
 * parse/print through the syntax engine. */
#include "npuc/IR.h"
#include "npuc/Lexer.h"
#include "npuc/MlirSupport.h"
#include "npuc/ToolSupport.h"
#include "npuc/Verify.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/RegisterEverything.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mlirModuleCreateParse (which wraps several top-level ops in a module, as
 * mlir-opt does) names its buffer "-". Positions there are in rewritten
 * text and are mapped back through the source map; our explicit
 * loc("file":l:c) already name the user's file. Standard input is reported
 * as <stdin>, as mlir-opt does, so the two never mix. */
static const char kRewrittenName[] = "-";

typedef struct {
  MlirContext ctx;
  npuc_diag_sink sink;
  bool has_sink;
  const npuc_srcmap *map;
  char filename[1024]; /* of the text being parsed */
  const char *text; /* that text as MLIR reads it (NUL-ended), while parsing */
} context_state;

/* A handful of contexts at most live at once (one per tool run). */
static context_state *states[16];

static context_state *state_of(MlirContext ctx) {
  for (size_t i = 0; i < sizeof states / sizeof *states; ++i)
    if (states[i] && states[i]->ctx.ptr == ctx.ptr)
      return states[i];
  return NULL;
}

static MlirLogicalResult handle_diagnostic(MlirDiagnostic diag, void *user);

MlirContext npuc_context_create(void) {
  MlirContext ctx = npuc_context_create_lazy();
  npuc_context_load_all_dialects(ctx);
  return ctx;
}

void npuc_context_load_all_dialects(MlirContext ctx) {
  mlirContextLoadAllAvailableDialects(ctx);
}

MlirContext npuc_context_create_lazy(void) {
  MlirContext ctx = mlirContextCreateWithThreading(false);
  /* Creating it without threads leaves MLIR's uniquers thread-safe (a lock
   * and a thread-local cache per type, attribute and location made); this
   * turns them off too, as mlir-opt does while it parses. */
  mlirContextEnableMultithreading(ctx, false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextSetAllowUnregisteredDialects(ctx, true);
  context_state *st = calloc(1, sizeof *st);
  st->ctx = ctx;
  for (size_t i = 0; i < sizeof states / sizeof *states; ++i)
    if (!states[i]) {
      states[i] = st;
      break;
    }
  mlirContextAttachDiagnosticHandler(ctx, handle_diagnostic, st, NULL);
  return ctx;
}

void npuc_context_destroy(MlirContext ctx) {
  context_state *st = state_of(ctx);
  mlirContextDestroy(ctx);
  for (size_t i = 0; i < sizeof states / sizeof *states; ++i)
    if (states[i] == st)
      states[i] = NULL;
  free(st);
}

void npuc_context_set_sink(MlirContext ctx, const npuc_diag_sink *sink,
                           const npuc_srcmap *map) {
  context_state *st = state_of(ctx);
  if (!st)
    return;
  st->has_sink = sink != NULL;
  if (sink)
    st->sink = *sink;
  st->map = map;
}

/* ---- diagnostics -------------------------------------------------------- */

/* loc("file":3:5) and friends, printed by MLIR; we read the first
 * "file":line:col in the text, which is the innermost file position for
 * name, callsite and fused locations alike. */
static bool raw_file_line_col(MlirLocation loc, char *file, size_t file_cap,
                              int *line, int *col);

/* Positions in rewritten text (MLIR's buffer "-") are mapped back to the
 * file being parsed, through its source map. */
bool npuc_location_file_line_col(MlirLocation loc, char *file, size_t file_cap,
                                 int *line, int *col) {
  if (!raw_file_line_col(loc, file, file_cap, line, col))
    return false;
  context_state *st = state_of(mlirLocationGetContext(loc));
  if (st && st->filename[0] && strcmp(file, kRewrittenName) == 0) {
    snprintf(file, file_cap, "%s", st->filename);
    npuc_srcmap_lookup(st->map, *line, *col, line, col);
  }
  return true;
}

bool npuc_op_short_location(MlirOperation op, char *buf, size_t cap) {
  char file[512];
  int line = 0, col = 0;
  if (cap)
    buf[0] = 0;
  if (!npuc_location_file_line_col(mlirOperationGetLocation(op), file,
                                   sizeof file, &line, &col))
    return false;
  const char *base = strrchr(file, '/');
  snprintf(buf, cap, "%s:%d:%d", base ? base + 1 : file, line, col);
  return true;
}

static bool raw_file_line_col(MlirLocation loc, char *file, size_t file_cap,
                              int *line, int *col) {
  npuc_sb b = {0};
  mlirLocationPrint(loc, npuc_sb_append_mlir, &b);
  bool ok = false;
  const char *q = b.data ? strchr(b.data, '"') : NULL;
  while (q && !ok) {
    const char *e = q + 1;
    while (*e && *e != '"')
      e += (*e == '\\' && e[1]) ? 2 : 1;
    if (*e == '"' && e[1] == ':' && sscanf(e + 1, ":%d:%d", line, col) == 2) {
      size_t n = (size_t)(e - q - 1);
      if (n >= file_cap)
        n = file_cap - 1;
      memcpy(file, q + 1, n);
      file[n] = '\0';
      ok = true;
    } else {
      q = *e ? strchr(e + 1, '"') : NULL;
    }
  }
  free(b.data);
  return ok;
}

static npuc_severity severity_of(MlirDiagnostic d) {
  switch (mlirDiagnosticGetSeverity(d)) {
  case MlirDiagnosticWarning: return NPUC_SEV_WARNING;
  case MlirDiagnosticNote: return NPUC_SEV_NOTE;
  case MlirDiagnosticRemark: return NPUC_SEV_REMARK;
  default: return NPUC_SEV_ERROR;
  }
}

static void explain_unfound_callee(context_state *st, const char *msg,
                                   const char *file, int line, int col);

static void forward(context_state *st, MlirDiagnostic d) {
  char file[1024] = "";
  int line = 0, col = 0;
  bool has_pos = npuc_location_file_line_col(mlirDiagnosticGetLocation(d), file,
                                             sizeof file, &line, &col);
  const char *name = file;
  npuc_sb msg = {0};
  mlirDiagnosticPrint(d, npuc_sb_append_mlir, &msg);
  const npuc_diag_sink *sink = st->has_sink ? &st->sink : NULL;
  npuc_diag_emit(sink, severity_of(d), has_pos ? name : NULL, line, col, "%s",
                 msg.data ? msg.data : "");
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    forward(st, mlirDiagnosticGetNote(d, i));
  if (msg.data && has_pos)
    explain_unfound_callee(st, msg.data, name, line, col);
  free(msg.data);
}

static bool defines_function(const char *text, const char *name,
                             size_t name_len);

/* MLIR's symbol lookup stops at an unregistered op with one region (it
 * might be a symbol table), and npuc gives every op of its dialects to MLIR
 * unregistered: a func.call inside scope.scope cannot see the module's
 * functions. MLIR's error says only that the callee is not valid; when the
 * module does define it, a note names the real cause (docs/ascend-dialects.md,
 * "Unregistered-op semantics"). */
static void explain_unfound_callee(context_state *st, const char *msg,
                                   const char *file, int line, int col) {
  static const char tail[] = "' does not reference a valid function";
  const char *start = strstr(msg, "'func.call' op '");
  const char *end = strstr(msg, tail);
  if (!st->text || !start || !end || end[sizeof tail - 1] != '\0')
    return;
  start += strlen("'func.call' op '");
  if (end <= start || !defines_function(st->text, start, (size_t)(end - start)))
    return;
  npuc_diag_emit(st->has_sink ? &st->sink : NULL, NPUC_SEV_NOTE, file, line,
                 col,
                 "'%.*s' is defined in this module, but the call is inside an "
                 "op of npuc's dialects, which MLIR does not know; MLIR's "
                 "symbol lookup stops at such an op when it has one region "
                 "(it might be a symbol table)",
                 (int)(end - start), start);
}

/* `func.func [visibility] @name(` somewhere in the (NUL-terminated) text. */
static bool defines_function(const char *text, const char *name,
                             size_t name_len) {
  static const char kw[] = "func.func";
  for (const char *p = strstr(text, kw); p; p = strstr(p, kw)) {
    p += sizeof kw - 1;
    const char *q = p;
    while (*q && *q != '@' && *q != '\n' && *q != '(')
      ++q;
    if (*q == '@' && strncmp(q + 1, name, name_len) == 0 &&
        (q[1 + name_len] == '(' || q[1 + name_len] == ' '))
      return true;
  }
  return false;
}

void npuc_emit_diagnostic(MlirLocation loc, npuc_severity sev, const char *fmt,
                          ...) {
  char file[1024] = "";
  int line = 0, col = 0;
  bool has_pos =
      npuc_location_file_line_col(loc, file, sizeof file, &line, &col);
  context_state *st = state_of(mlirLocationGetContext(loc));
  va_list ap;
  va_start(ap, fmt);
  npuc_diag_vemit(st && st->has_sink ? &st->sink : NULL, sev,
                  has_pos ? file : NULL, line, col, fmt, ap);
  va_end(ap);
}

static MlirLogicalResult handle_diagnostic(MlirDiagnostic diag, void *user) {
  forward(user, diag);
  return mlirLogicalResultSuccess();
}

/* ---- parse -------------------------------------------------------------- */

/* Only whitespace and comments: mlir-opt makes that an empty module. */
static bool has_no_tokens(const char *text, size_t len) {
  npuc_lexer lx;
  npuc_lexer_init(&lx, text, len, 1);
  return npuc_lex(&lx).kind == NPUC_TOK_EOF;
}

/* Diagnostics while a text is tried alone are swallowed; any one (even a
 * warning) means the text is not to be parsed apart from its place. */
static MlirLogicalResult note_diagnostic(MlirDiagnostic diag, void *user) {
  (void)diag;
  *(bool *)user = true;
  return mlirLogicalResultSuccess();
}

/* npuc_syntax_options.parses_alone: MLIR parses `text` as a type or
 * attribute without a word. */
static bool parses_alone(void *user, const char *text, size_t len,
                         bool is_type) {
  MlirContext ctx = {user};
  bool diagnosed = false;
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(
      ctx, note_diagnostic, &diagnosed, NULL);
  MlirStringRef ref = mlirStringRefCreate(text, len);
  bool parsed = is_type ? !mlirTypeIsNull(mlirTypeParseGet(ctx, ref))
                        : !mlirAttributeIsNull(mlirAttributeParseGet(ctx, ref));
  mlirContextDetachDiagnosticHandler(ctx, id);
  return parsed && !diagnosed;
}

bool npuc_module_parse(MlirContext ctx, const npuc_op_registry *reg,
                       const char *text, size_t len, const char *filename,
                       int first_line, const npuc_diag_sink *sink,
                       npuc_module *out) {
  memset(out, 0, sizeof *out);
  if (!npuc_check_nesting(text, len, filename, first_line, sink))
    return false;
  npuc_syntax_options opts = {reg,  filename,     first_line,
                              sink, parses_alone, ctx.ptr};
  npuc_srcmap *map = NULL;
  char *rewritten = npuc_syntax_to_mlir(&opts, text, len, &out->form, &map);
  if (!rewritten)
    return false;
  /* Lines before first_line are padding so MLIR's lines are the file's. */
  size_t pad = first_line > 1 ? (size_t)first_line - 1 : 0;
  size_t n = strlen(rewritten);
  char *buffer = malloc(pad + n + 1);
  memset(buffer, '\n', pad);
  memcpy(buffer + pad, rewritten, n + 1);
  free(rewritten);
  context_state *st = state_of(ctx);
  const npuc_srcmap *previous_map = st ? st->map : NULL;
  npuc_context_set_sink(ctx, sink, map);
  if (st)
    snprintf(st->filename, sizeof st->filename, "%s", filename);
  MlirOperation op;
  if (has_no_tokens(buffer, pad + n)) {
    op =
        mlirModuleGetOperation(mlirModuleCreateEmpty(mlirLocationFileLineColGet(
            ctx, mlirStringRefCreateFromCString(filename),
            (unsigned)(first_line > 0 ? first_line : 1), 1)));
  } else {
    if (st)
      st->text = buffer;
    MlirModule m =
        mlirModuleCreateParse(ctx, mlirStringRefCreate(buffer, pad + n));
    if (st)
      st->text = NULL;
    op =
        mlirModuleIsNull(m) ? (MlirOperation){NULL} : mlirModuleGetOperation(m);
  }
  free(buffer);
  /* mlirModuleCreateParse has run MLIR's verifier; ours follows. */
  bool ok = !mlirOperationIsNull(op);
  if (ok && !npuc_verify_table_ops(reg, op))
    ok = false;
  if (!ok && !mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  if (ok) {
    out->op = op;
    out->map = map;
  } else {
    npuc_context_set_sink(ctx, sink, previous_map);
    npuc_srcmap_free(map);
  }
  return ok;
}

void npuc_module_destroy(npuc_module *m) {
  if (!mlirOperationIsNull(m->op)) {
    context_state *st = state_of(mlirOperationGetContext(m->op));
    if (st && st->map == m->map)
      st->map = NULL;
    mlirOperationDestroy(m->op);
  }
  npuc_srcmap_free(m->map);
  m->op.ptr = NULL;
  m->map = NULL;
}

/* ---- print -------------------------------------------------------------- */

char *npuc_op_print(const npuc_op_registry *reg, MlirOperation op,
                    const npuc_source_form *form,
                    const npuc_print_options *opts, size_t *out_len) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (opts && opts->debug_info)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  if (opts && opts->generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (opts && opts->assume_verified)
    mlirOpPrintingFlagsAssumeVerified(flags);
  npuc_sb b = {0};
  if (!npuc_module_print_buffered(op, flags, &b))
    mlirOperationPrintWithFlags(op, flags, npuc_sb_append_mlir, &b);
  mlirOpPrintingFlagsDestroy(flags);
  npuc_sb_append(&b, "\n", 1);
  if (opts && opts->debug_info) {
    /* Show the user's file name, not the internal buffer name, and the
     * column before the alias definitions moved the first line's text
     * (ToMLIR.c). */
    context_state *st = state_of(mlirOperationGetContext(op));
    const char *real = st && st->filename[0] ? st->filename : kRewrittenName;
    npuc_sb fixed = {0};
    for (const char *r = b.data; *r;) {
      const char *hit = strstr(r, "loc(\"-\":");
      size_t keep = hit ? (size_t)(hit - r) : strlen(r);
      npuc_sb_append(&fixed, r, keep);
      if (!hit)
        break;
      npuc_sb_printf(&fixed, "loc(\"%s\":", real);
      r = hit + strlen("loc(\"-\":");
      int line, col, used = 0;
      if (st && sscanf(r, "%d:%d%n", &line, &col, &used) == 2 && used > 0) {
        npuc_sb_printf(&fixed, "%d:%d", line,
                       npuc_srcmap_unprefixed_col(st->map, line, col));
        r += used;
      }
    }
    free(b.data);
    b = fixed;
  }
  if (opts && opts->generic) {
    if (out_len)
      *out_len = b.len;
    return b.data;
  }
  char *text = npuc_syntax_from_mlir(reg, b.data, b.len, form, out_len);
  free(b.data);
  return text;
}

char *npuc_module_print(const npuc_op_registry *reg, const npuc_module *m,
                        const npuc_print_options *opts, size_t *out_len) {
  return npuc_op_print(reg, m->op, &m->form, opts, out_len);
}
