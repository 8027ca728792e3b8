/* Custom syntax -> what MLIR 22 parses.
 *
 * Scans the whole text once, statement by statement. Ops of our tables are
 * parsed with their table's format and re-emitted in MLIR's generic form on
 * the line where they started, with loc("file":line:col) so MLIR reports
 * them at the user's position; padding newlines keep every later line where
 * it was. Legacy upstream forms (to_tensor without `to`, DLTI specs of the
 * hacc dialect, memory spaces of our dialects) are modernised on the way. */
#define _GNU_SOURCE /* memmem */
#include "SyntaxInternal.h"
#include "npuc/Alloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

/* What an scf.forall's `mapping` of our attributes is called inside. */
#define FORALL_MAPPING_STANDIN "npuc.forall_mapping"

typedef struct {
  const char *s;
  size_t n;
  int line, col;
} piece;

typedef struct {
  piece *items;
  size_t len, cap;
} piece_list;

/* A distinct type or attribute text written for MLIR (see aliasing below). */
typedef struct {
  char *key; /* a copy; NULL: an empty slot */
  size_t n;
  size_t hash;
  bool is_type;
  int number; /* of its alias; -1: written out at every use */
} alias_entry;

typedef struct {
  bool enabled;
  alias_entry *slots;
  size_t mask, count;
  int next;             /* the next alias number */
  npuc_textbuf defs;    /* `!__npuc_0 = T #__npuc_1 = A ` */
  npuc_textbuf scratch; /* an attribute being built */
} alias_table;

typedef struct {
  const npuc_syntax_options *opts;
  const npuc_op_registry *reg;
  npuc_textbuf out;
  int first_line;
  alias_table aliases;
  npuc_lexer lx;
  const char *copy; /* first byte not yet emitted */
  int copy_line, copy_col;
  npuc_source_form *form;
  bool failed;
  /* `mapping` keys of scf.forall ops to rename as they are copied, in text
   * order from `next_rename` on (see note_forall_mapping). */
  struct rename {
    const char *pos;
    int line, col;
  } * renames;
  size_t num_renames, cap_renames, next_rename;
  /* Per nesting depth of our ops (an op's regions hold ops converted while
   * it is open), the lists and attribute slots of the op being converted,
   * kept with their buffers from one op to the next. */
  struct op_scratch {
    piece_list *lists;
    size_t num_lists;
    char **attrs;
    size_t num_attrs;
  } * scratch;
  size_t scratch_depth, num_scratch;
} to_mlir;

typedef struct {
  const npuc_op_def *def;
  npuc_token stmt, name;
  piece_list *operands; /* per operand group */
  piece_list *otypes;   /* per operand group */
  piece_list *rtypes;   /* per result group */
  char **attrs;         /* per attribute: generic value text, or NULL */
  piece dict;           /* the user's attr-dict, inside the braces */
  piece loc;            /* a trailing loc(...) written by the user */
  bool header_done;
  bool needs_loc; /* MLIR would not place the op where the user did */
  /* region-args($r): region `args_region` opens with a block taking
   * these arguments (-1: none). */
  int args_region;
  piece_list arg_names, arg_types;
  /* Types stripped-type read without their prefix, written out whole. */
  char **whole_types;
  size_t num_whole_types;
} parsed_op;

static bool convert_block_list(to_mlir *st, bool nested, npuc_token *closing);
static void skip_to(to_mlir *st, const char *pos, int line, int col);
static void flush(to_mlir *st, const char *upto, int line, int col);
static void note_forall_mapping(to_mlir *st, npuc_lexer after);
static const char *scan_char(to_mlir *st, npuc_ctx_stack *ctx, const char *p,
                             bool *region_start);
static int try_statement(to_mlir *st, const char *p);
static bool scan_results(npuc_lexer *lx, npuc_token *name);
static bool handle_statement(to_mlir *st, npuc_token stmt, npuc_token name,
                             npuc_lexer after_name);
static bool convert_op(to_mlir *st, npuc_token stmt, npuc_token name,
                       const npuc_op_def *def);
static bool convert_legacy_to_tensor(to_mlir *st, npuc_lexer after);
static bool convert_legacy_op(to_mlir *st, npuc_token name, npuc_lexer after);
static void report_unknown_op(to_mlir *st, npuc_token name);
static void check_elementwise(to_mlir *st, npuc_token name, npuc_lexer after);
static void free_scratch(to_mlir *st);
static void aliases_init(to_mlir *st, const char *text, size_t len);
static void aliases_free(alias_table *t);
static void prepend_alias_defs(to_mlir *st);

/* ---- entry ------------------------------------------------------------- */

char *npuc_syntax_to_mlir(const npuc_syntax_options *opts, const char *text,
                          size_t len, npuc_source_form *form,
                          npuc_srcmap **map) {
  npuc_source_form local_form = {0};
  to_mlir st;
  memset(&st, 0, sizeof st);
  st.opts = opts;
  st.reg = opts->registry;
  st.form = form ? form : &local_form;
  memset(st.form, 0, sizeof *st.form);
  npuc_srcmap *m = npuc_xcalloc(1, sizeof *m);
  int first = opts->first_line > 0 ? opts->first_line : 1;
  npuc_tb_init(&st.out, len + len / 4 + 64, first, m);
  st.first_line = first;
  aliases_init(&st, text, len);
  npuc_lexer_init(&st.lx, text, len, first);
  st.copy = text;
  st.copy_line = first;
  st.copy_col = 1;
  npuc_token closing;
  bool ok = convert_block_list(&st, false, &closing) && !st.failed &&
            npuc_syntax_check_attrs(opts, text, len);
  if (ok) /* the rest of the text; its end position is not needed */
    flush(&st, text + len, st.copy_line, st.copy_col);
  if (ok)
    prepend_alias_defs(&st);
  aliases_free(&st.aliases);
  if (!ok) {
    free(st.renames);
    free_scratch(&st);
    npuc_tb_free(&st.out);
    npuc_srcmap_free(m);
    return NULL;
  }
  free(st.renames);
  free_scratch(&st);
  if (map)
    *map = m;
  else
    npuc_srcmap_free(m);
  return npuc_tb_take(&st.out, NULL);
}

/* ---- emission helpers -------------------------------------------------- */

/* Emits pending source text up to `upto` (a token start or end whose source
 * position is line:col), applying the type/attribute rewrites. */
static void flush(to_mlir *st, const char *upto, int line, int col) {
  while (st->next_rename < st->num_renames &&
         st->renames[st->next_rename].pos < upto) {
    struct rename r = st->renames[st->next_rename++];
    if (r.pos < st->copy)
      continue;
    flush(st, r.pos, r.line, r.col);
    npuc_tb_puts(&st->out, FORALL_MAPPING_STANDIN);
    npuc_tb_anchor(&st->out, r.line, r.col + 7);
    skip_to(st, r.pos + 7, r.line, r.col + 7);
  }
  if (upto > st->copy) {
    npuc_tb_anchor(&st->out, st->copy_line, st->copy_col);
    npuc_rewrite_span(&st->out, st->copy, upto, st->copy_line, st->copy_col,
                      NPUC_TO_MLIR, st->reg, st->form);
  }
  st->copy = upto;
  st->copy_line = line;
  st->copy_col = col;
}

static void skip_to(to_mlir *st, const char *pos, int line, int col) {
  st->copy = pos;
  st->copy_line = line;
  st->copy_col = col;
}

static void emit_piece(to_mlir *st, piece p) {
  npuc_tb_anchor(&st->out, p.line, p.col);
  npuc_rewrite_span(&st->out, p.s, p.s + p.n, p.line, p.col, NPUC_TO_MLIR,
                    st->reg, st->form);
}

/* ---- aliases -----------------------------------------------------------
 * MLIR parses a type such as tensor<16x16xf32> or an attribute such as
 * array<i32: 1, 1, 0> anew at every op that writes it (a few thousand
 * instructions each, most of reading a module). The types and attributes
 * with parameters that our ops' generic form writes are therefore defined
 * once as aliases (`!__npuc_0 = tensor<16x16xf32>`), before the text of
 * the first line, and each op names them. MLIR resolves an alias to the
 * very type or attribute the text would have given (the context uniques
 * them), and prints the IR without it. Only texts that parse on their own
 * without a diagnostic become aliases (the caller's parses_alone), so an
 * invalid or alias-dependent one is still read, and reported, where the
 * user wrote it. */

#define ALIAS_PREFIX "__npuc_"

static void aliases_init(to_mlir *st, const char *text, size_t len) {
  alias_table *t = &st->aliases;
  memset(t, 0, sizeof *t);
  /* An input naming our prefix could define the same alias. */
  t->enabled = st->opts->parses_alone &&
               !memmem(text, len, ALIAS_PREFIX, sizeof ALIAS_PREFIX - 1);
  npuc_tb_init(&t->defs, 256, 1, NULL);
  npuc_tb_init(&t->scratch, 64, 1, NULL);
}

static void aliases_free(alias_table *t) {
  for (size_t i = 0; t->slots && i <= t->mask; ++i)
    free(t->slots[i].key);
  free(t->slots);
  npuc_tb_free(&t->defs);
  npuc_tb_free(&t->scratch);
}

/* Eight bytes a step: every type and attribute our ops write is hashed. */
static size_t text_hash(const char *s, size_t n, bool is_type) {
  uint64_t h = (is_type ? 0x9e3779b97f4a7c15u : 0xcbf29ce484222325u) ^ n;
  for (; n >= 8; s += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * 0x100000001b3u;
    h ^= h >> 29;
  }
  uint64_t w = 0;
  memcpy(&w, s, n);
  h = (h ^ w) * 0x100000001b3u;
  return (size_t)(h ^ h >> 32);
}

static alias_entry *alias_slot(alias_table *t, const char *s, size_t n,
                               size_t h, bool is_type) {
  for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
    alias_entry *e = &t->slots[i];
    if (!e->key || (e->hash == h && e->n == n && e->is_type == is_type &&
                    memcmp(e->key, s, n) == 0))
      return e;
  }
}

static void aliases_grow(alias_table *t) {
  size_t old_size = t->slots ? t->mask + 1 : 0,
         size = old_size ? old_size * 2 : 64;
  alias_entry *old = t->slots;
  t->slots = npuc_xcalloc(size, sizeof *t->slots);
  t->mask = size - 1;
  for (size_t i = 0; i < old_size; ++i)
    if (old[i].key)
      *alias_slot(t, old[i].key, old[i].n, old[i].hash, old[i].is_type) =
          old[i];
  free(old);
}

static void tb_put_uint(npuc_textbuf *tb, unsigned long long v);

static void put_alias_name(npuc_textbuf *tb, bool is_type, int number) {
  npuc_tb_puts(tb, is_type ? "!" ALIAS_PREFIX : "#" ALIAS_PREFIX);
  tb_put_uint(tb, (unsigned)number);
}

/* Whether a text new to the table may become an alias at all. */
static bool may_alias(const char *s, size_t n, bool is_type) {
  return n >= 4 && memchr(s, '<', n) && !memchr(s, '\n', n) &&
         /* its rewrite notes a source form */
         !(is_type && memchr(s, '#', n) && memmem(s, n, "#dlti", 5));
}

/* The alias number of a type (`is_type`) or attribute text, defining it on
 * first sight (through the memory-space rewrites when `rewrite`); -1 when
 * it is to be written out. */
static int alias_number(to_mlir *st, const char *s, size_t n, bool is_type,
                        bool rewrite) {
  alias_table *t = &st->aliases;
  if (!t->enabled)
    return -1;
  if (2 * (t->count + 1) > (t->slots ? t->mask + 1 : 0))
    aliases_grow(t);
  size_t h = text_hash(s, n, is_type);
  alias_entry *e = alias_slot(t, s, n, h, is_type);
  if (e->key)
    return e->number;
  e->key = npuc_xmalloc(n);
  memcpy(e->key, s, n);
  e->n = n;
  e->hash = h;
  e->is_type = is_type;
  e->number = -1;
  t->count++;
  if (!may_alias(s, n, is_type))
    return -1;
  npuc_textbuf text = {0};
  if (rewrite) {
    npuc_tb_init(&text, n + 16, 1, NULL);
    npuc_rewrite_span(&text, s, s + n, 1, 1, NPUC_TO_MLIR, st->reg, st->form);
    s = text.data;
    n = text.len;
  }
  if (st->opts->parses_alone(st->opts->parses_alone_user, s, n, is_type)) {
    e->number = t->next++;
    put_alias_name(&t->defs, is_type, e->number);
    npuc_tb_puts(&t->defs, " = ");
    npuc_tb_append(&t->defs, s, n);
    npuc_tb_putc(&t->defs, ' ');
  }
  if (rewrite)
    npuc_tb_free(&text);
  return e->number;
}

/* A type piece, by its alias when it has one. */
static void emit_type_piece(to_mlir *st, piece p) {
  int number = alias_number(st, p.s, p.n, true, true);
  if (number < 0) {
    emit_piece(st, p);
    return;
  }
  npuc_tb_anchor(&st->out, p.line, p.col);
  put_alias_name(&st->out, true, number);
}

/* An attribute value the engine built, by its alias when it has one. */
static void emit_attr_text(to_mlir *st, const char *s, size_t n) {
  int number = alias_number(st, s, n, false, false);
  if (number < 0)
    npuc_tb_append(&st->out, s, n);
  else
    put_alias_name(&st->out, false, number);
}

/* The definitions go before the first line's text: every line keeps its
 * number; the first line's positions move right, and its anchors with
 * them (an op there carries an explicit loc, see convert_op). */
static void prepend_alias_defs(to_mlir *st) {
  alias_table *t = &st->aliases;
  if (!t->enabled || !t->defs.len)
    return;
  size_t k = t->defs.len;
  npuc_textbuf *out = &st->out;
  /* The definitions, then the text, become the output's buffer; the
   * table frees the text's old one. */
  npuc_tb_append(&t->defs, out->data, out->len);
  char *old = out->data;
  out->data = t->defs.data;
  out->len = t->defs.len;
  out->cap = t->defs.cap;
  t->defs.data = old;
  npuc_srcmap *m = out->map;
  for (size_t i = 0; i < m->len && m->anchors[i].gen_line == st->first_line;
       ++i)
    m->anchors[i].gen_col += (int)k;
  if (m->len == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 64;
    m->anchors = npuc_xreallocarray(m->anchors, m->cap, sizeof *m->anchors);
  }
  memmove(m->anchors + 1, m->anchors, m->len * sizeof *m->anchors);
  m->anchors[0] = (npuc_anchor){st->first_line, 1 + (int)k, st->first_line, 1};
  m->len++;
  m->prefix_line = st->first_line;
  m->prefix_cols = (int)k;
}

static piece tok_piece(npuc_token t) {
  return (piece){t.start, t.len, t.line, t.col};
}

static void pl_push(piece_list *l, piece p) {
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 4;
    l->items = realloc(l->items, l->cap * sizeof *l->items);
  }
  l->items[l->len++] = p;
}

static const char *describe(npuc_token t, char *buf, size_t cap) {
  if (t.kind == NPUC_TOK_EOF)
    return "end of input";
  size_t n = t.len < 40 ? t.len : 40;
  snprintf(buf, cap, "'%.*s'", (int)n, t.start);
  return buf;
}

static void error_at(to_mlir *st, npuc_token t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(to_mlir *st, npuc_token t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_diag_vemit(st->opts->sink, NPUC_SEV_ERROR, st->opts->filename, t.line,
                  t.col, fmt, ap);
  va_end(ap);
  st->failed = true;
}

/* ---- statements -------------------------------------------------------- */

/* After `%a, %b:2 =` comes the op name; returns false if `t` does not start
 * a results list. */
static bool scan_results(npuc_lexer *lx, npuc_token *name) {
  for (;;) {
    npuc_token t = npuc_lex(lx);
    if (npuc_tok_punct(t, ':')) {
      if (npuc_lex(lx).kind != NPUC_TOK_INTEGER)
        return false;
      t = npuc_lex(lx);
    }
    if (npuc_tok_punct(t, '=')) {
      *name = npuc_lex(lx);
      return true;
    }
    if (!npuc_tok_punct(t, ','))
      return false;
    if (npuc_lex(lx).kind != NPUC_TOK_PERCENT_ID)
      return false;
  }
}

/* The text is scanned a character at a time, tracking brackets (to know
 * regions from dictionaries and lists) and skipping strings and comments;
 * only a statement that names one of our ops, or a to_tensor, is handed to
 * the token-level parser. `st->lx` gives the start; on return it is past
 * the region's closing brace (nested) or at the end. */
static bool convert_block_list(to_mlir *st, bool nested, npuc_token *closing) {
  npuc_ctx_stack ctx = {0};
  npuc_lexer *lx = &st->lx;
  const char *p = lx->cur, *end = lx->end;
  bool line_start = true, region_start = nested;
  for (const char *q = lx->line_begin; q < p; ++q)
    line_start &= *q == ' ' || *q == '\t';
  bool ok = true;
  while (p < end && ok) {
    char c = *p;
    if (c == '\n') {
      lx->line++;
      lx->line_begin = ++p;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n')
        ++p;
      continue;
    }
    if ((line_start || region_start) && npuc_ctx_top(&ctx) == 'r') {
      int handled = try_statement(st, p);
      if (handled < 0) {
        ok = false;
        break;
      }
      if (handled) {
        p = lx->cur;
        line_start = region_start = false;
        continue;
      }
    }
    line_start = region_start = false;
    p = scan_char(st, &ctx, p, &region_start);
    if (!p) { /* the region's closing brace */
      p = lx->cur;
      closing->kind = NPUC_TOK_PUNCT;
      closing->start = p - 1;
      closing->len = 1;
      closing->line = lx->line;
      closing->col = (int)(p - 1 - lx->line_begin) + 1;
      npuc_ctx_free(&ctx);
      return !st->failed;
    }
  }
  npuc_ctx_free(&ctx);
  lx->cur = end;
  lx->peeked = false;
  if (nested)
    closing->kind = NPUC_TOK_EOF; /* unbalanced: MLIR reports it */
  return ok && !st->failed;
}

/* Steps over one significant character (or string, arrow, identifier),
 * maintaining the bracket stack. Returns NULL at a nested region's closing
 * brace, with st->lx just past it. */
static const char *scan_char(to_mlir *st, npuc_ctx_stack *ctx, const char *p,
                             bool *region_start) {
  const char *end = st->lx.end;
  switch (*p) {
  case '"':
    for (++p; p < end && *p != '"' && *p != '\n'; ++p)
      if (*p == '\\' && p + 1 < end)
        ++p;
    return p < end && *p == '"' ? p + 1 : p;
  case '{':
    if (p + 2 < end && p[1] == '-' && p[2] == '#') {
      npuc_ctx_push(ctx, 'm');
      return p + 3;
    } else {
      npuc_lexer look = st->lx;
      look.cur = p + 1;
      look.peeked = false;
      bool region = npuc_brace_opens_region(&look, st->reg);
      npuc_ctx_push(ctx, region ? 'r' : 'd');
      *region_start = region;
      return p + 1;
    }
  case '(':
  case '[':
  case '<': npuc_ctx_push(ctx, *p); return p + 1;
  case '}':
    if (ctx->len == 0) {
      st->lx.cur = p + 1;
      st->lx.peeked = false;
      return NULL;
    }
    npuc_ctx_pop(ctx);
    return p + 1;
  case ')':
  case ']': npuc_ctx_pop(ctx); return p + 1;
  case '>':
    if (p + 1 < end && p[1] == '=')
      return p + 2; /* >= in affine sets */
    npuc_ctx_pop(ctx);
    return p + 1;
  case '-': return p + 1 < end && p[1] == '>' ? p + 2 : p + 1;
  case '#':
    if (p + 2 < end && p[1] == '-' && p[2] == '}') {
      npuc_ctx_pop(ctx);
      return p + 3;
    }
    break;
  default: break;
  }
  /* Identifiers, numbers, SSA names: one run at a time. */
  const char *q = p + 1;
  while (q < end &&
         (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '$'))
    ++q;
  return q;
}

/* If the statement at p names one of our ops (or is a to_tensor), converts
 * it: 1 when converted, 0 when not ours, -1 after an error. Cheap for
 * statements that are not ours: no lexing. */
static int try_statement(to_mlir *st, const char *p) {
  const char *name = p;
  const char *end = st->lx.end;
  if (*p == '%') {
    /* `%a, %b:2 = name`: find the name on this line; lex otherwise. */
    const char *eq = p;
    while (eq < end && *eq != '=' && *eq != '\n' && *eq != '(' && *eq != '{')
      ++eq;
    if (eq >= end || *eq != '=')
      return 0;
    name = eq + 1;
    while (name < end && (*name == ' ' || *name == '\t'))
      ++name;
    if (name >= end || *name == '\n')
      name = NULL; /* the name is on a later line: let the lexer find it */
  }
  if (name) {
    const char *e = name;
    while (e < end &&
           (isalnum((unsigned char)*e) || *e == '_' || *e == '.' || *e == '$'))
      ++e;
    size_t n = (size_t)(e - name);
    bool maybe =
        n > 0 &&
        (npuc_op_owner(st->reg, name, n) ||
         (n == 23 && memcmp(name, "bufferization.to_tensor", 23) == 0) ||
         (n == 10 && memcmp(name, "scf.forall", 10) == 0) ||
         (n == 18 && memcmp(name, "linalg.elementwise", 18) == 0) ||
         npuc_legacy_op_name(name, n));
    if (!maybe)
      return 0;
  }
  npuc_lexer *lx = &st->lx;
  lx->cur = p;
  lx->peeked = false;
  npuc_token t = npuc_lex(lx);
  npuc_lexer after = *lx;
  npuc_token name_tok = t;
  bool has_name =
      t.kind == NPUC_TOK_BARE_ID ||
      (t.kind == NPUC_TOK_PERCENT_ID && scan_results(&after, &name_tok));
  if (!has_name || name_tok.kind != NPUC_TOK_BARE_ID) {
    lx->cur = p;
    lx->peeked = false;
    return 0;
  }
  if (handle_statement(st, t, name_tok, after))
    return 1;
  lx->cur = p; /* not ours after all: the scanner goes on from here */
  lx->line = t.line;
  lx->line_begin = p - (t.col - 1);
  lx->peeked = false;
  return st->failed ? -1 : 0;
}

static bool handle_statement(to_mlir *st, npuc_token stmt, npuc_token name,
                             npuc_lexer after_name) {
  npuc_token next = npuc_peek(&after_name);
  if (npuc_tok_punct(next, '=') || npuc_tok_punct(next, ','))
    return false; /* an attribute name at the start of a line */
  if (npuc_tok_keyword(name, "bufferization.to_tensor"))
    return convert_legacy_to_tensor(st, after_name);
  if (npuc_legacy_op_name(name.start, name.len))
    return convert_legacy_op(st, name, after_name);
  if (npuc_tok_keyword(name, "scf.forall")) {
    note_forall_mapping(st, after_name);
    return false; /* the op itself is MLIR's to read */
  }
  if (npuc_tok_keyword(name, "linalg.elementwise")) {
    check_elementwise(st, name, after_name);
    return false; /* MLIR's to read, unless it would crash on it */
  }
  if (!npuc_is_table_op_name(st->reg, name))
    return false;
  const npuc_op_def *def = npuc_op_lookup(st->reg, name.start, name.len);
  if (!def) {
    report_unknown_op(st, name);
    return false;
  }
  st->lx = after_name;
  return convert_op(st, stmt, name, def);
}

static void check_elementwise(to_mlir *st, npuc_token name, npuc_lexer after) {
  npuc_sb why = {0};
  if (!npuc_legacy_check_elementwise(&after, &why))
    error_at(st, name, "%s", why.data);
  npuc_sb_free(&why);
}

static void report_unknown_op(to_mlir *st, npuc_token name) {
  const npuc_dialect_def *d = npuc_op_owner(st->reg, name.start, name.len);
  char hint[256];
  npuc_op_suggest_hint(st->reg, name.start, name.len, hint, sizeof hint);
  error_at(st, name, "unknown op '%.*s' in dialect '%s'%s", (int)name.len,
           name.start, d ? d->name : "?", hint);
}

/* bufferization.to_tensor %m [restrict] [writable] [{..}] : memref<..>
 * as older MLIR prints it: add ` to tensor<..>` for MLIR 22. */
static bool convert_legacy_to_tensor(to_mlir *st, npuc_lexer after) {
  npuc_lexer lx = after;
  if (npuc_lex(&lx).kind != NPUC_TOK_PERCENT_ID)
    return false;
  while (npuc_tok_keyword(npuc_peek(&lx), "restrict") ||
         npuc_tok_keyword(npuc_peek(&lx), "writable"))
    npuc_lex(&lx);
  if (npuc_tok_punct(npuc_peek(&lx), '{')) {
    npuc_lex(&lx);
    if (!npuc_tok_punct(npuc_skip_balanced(&lx, '{'), '}'))
      return false;
  }
  if (!npuc_tok_punct(npuc_lex(&lx), ':'))
    return false;
  npuc_token type_tok = npuc_peek(&lx);
  const char *ts, *te;
  if (!npuc_tok_keyword(type_tok, "memref") || !npuc_skip_type(&lx, &ts, &te) ||
      (size_t)(te - ts) <= strlen("memref<") || ts[6] != '<')
    return false; /* a bare `memref` is MLIR's error to report */
  if (npuc_tok_keyword(npuc_peek(&lx), "to"))
    return false; /* already MLIR 22 syntax */
  /* memref<SHAPExELT, layout, space> -> tensor<SHAPExELT> */
  npuc_lexer inner;
  npuc_lexer_init(&inner, ts + strlen("memref<"),
                  (size_t)(te - ts) - strlen("memref<"), 1);
  const char *ss, *se;
  if (!npuc_skip_attr_value(&inner, &ss, &se, false))
    return false;
  int end_line = type_tok.line + npuc_count_lines(ts, te);
  const char *nl = te;
  while (nl > ts && nl[-1] != '\n')
    --nl;
  int end_col = nl == ts ? type_tok.col + (int)(te - ts) : (int)(te - nl) + 1;
  flush(st, te, end_line, end_col);
  npuc_tb_puts(&st->out, " to tensor<");
  npuc_tb_append(&st->out, ss, (size_t)(se - ss));
  npuc_tb_putc(&st->out, '>');
  npuc_tb_anchor(&st->out, end_line, end_col);
  st->form->legacy_to_tensor = true;
  st->lx = lx;
  return true;
}

/* An upstream op MLIR 22 dropped (LegacyOps.c): its span is replaced by
 * the MLIR 22 text, followed by as many newlines as it spanned so later
 * lines keep their numbers. */
static bool convert_legacy_op(to_mlir *st, npuc_token name, npuc_lexer after) {
  npuc_sb repl = {0};
  npuc_lexer lx = after;
  if (!npuc_legacy_modernise(name, &lx, &repl, st->form)) {
    if (repl.len)
      error_at(st, name, "%s", repl.data);
    npuc_sb_free(&repl);
    return false;
  }
  const char *e = lx.cur;
  int lines = npuc_count_lines(name.start, e);
  const char *nl = e;
  while (nl > name.start && nl[-1] != '\n')
    --nl;
  int col =
      nl == name.start ? name.col + (int)(e - name.start) : (int)(e - nl) + 1;
  flush(st, name.start, name.line, name.col);
  npuc_tb_append(&st->out, repl.data, repl.len);
  for (int i = 0; i < lines; ++i)
    npuc_tb_putc(&st->out, '\n');
  npuc_tb_anchor(&st->out, name.line + lines, col);
  skip_to(st, e, name.line + lines, col);
  st->lx = lx;
  npuc_sb_free(&repl);
  return true;
}

/* scf.forall (..) { region } {mapping = [#hivm.block]}: MLIR 22 wants each
 * mapping attribute to implement DeviceMappingAttrInterface, which one of
 * an unregistered dialect cannot. A `mapping` whose first attribute is of
 * one of our dialects is renamed to the discardable
 * FORALL_MAPPING_STANDIN when its text is copied; printing renames it
 * back. Looks past the region once (nested foralls: once per level). */
static void note_forall_mapping(to_mlir *st, npuc_lexer lx) {
  npuc_token t;
  do
    t = npuc_lex(&lx);
  while (t.kind != NPUC_TOK_EOF && !npuc_tok_punct(t, '{'));
  if (!npuc_tok_punct(t, '{') ||
      !npuc_tok_punct(npuc_skip_balanced(&lx, '{'), '}') ||
      !npuc_tok_punct(npuc_peek(&lx), '{'))
    return;
  npuc_lex(&lx);
  for (t = npuc_lex(&lx); t.kind != NPUC_TOK_EOF && !npuc_tok_punct(t, '}');
       t = npuc_lex(&lx)) {
    if (!npuc_tok_keyword(t, "mapping") || !npuc_tok_punct(npuc_peek(&lx), '='))
      continue;
    npuc_lex(&lx);
    npuc_token open = npuc_lex(&lx), first = npuc_lex(&lx);
    const char *dot = first.kind == NPUC_TOK_HASH_ID
                          ? memchr(first.start, '.', first.len)
                          : NULL;
    if (!npuc_tok_punct(open, '[') || !dot ||
        !npuc_is_table_dialect(st->reg, first.start + 1,
                               (size_t)(dot - first.start - 1)))
      return;
    if (st->num_renames == st->cap_renames)
      st->renames = npuc_xreallocarray(
          st->renames, st->cap_renames = st->cap_renames * 2 + 4,
          sizeof *st->renames);
    /* Keep text order: an inner forall's dict comes before an outer's. */
    size_t i = st->num_renames++;
    while (i > st->next_rename && st->renames[i - 1].pos > t.start) {
      st->renames[i] = st->renames[i - 1];
      --i;
    }
    st->renames[i] = (struct rename){t.start, t.line, t.col};
    st->form->forall_mapping = true;
    return;
  }
}

/* ---- our ops ----------------------------------------------------------- */

static bool parse_elems(to_mlir *st, parsed_op *p, const npuc_fmt_elem *e,
                        size_t n);
static void emit_header(to_mlir *st, parsed_op *p);
static void emit_tail(to_mlir *st, parsed_op *p);
static bool check_groups(to_mlir *st, parsed_op *p);
static struct op_scratch *enter_scratch(to_mlir *st, size_t lists,
                                        size_t attrs);
static void free_parsed(parsed_op *p);

static bool convert_op(to_mlir *st, npuc_token stmt, npuc_token name,
                       const npuc_op_def *def) {
  parsed_op p;
  memset(&p, 0, sizeof p);
  p.def = def;
  p.stmt = stmt;
  p.name = name;
  /* The three per-group lists, one block of this depth's scratch. */
  struct op_scratch *scratch = enter_scratch(
      st, 2 * (def->num_operands + 1) + def->num_results + 1, def->num_attrs);
  p.operands = scratch->lists;
  p.otypes = p.operands + def->num_operands + 1;
  p.rtypes = p.otypes + def->num_operands + 1;
  p.attrs = scratch->attrs;
  p.args_region = -1;
  flush(st, name.start, name.line, name.col);
  /* MLIR locates an op at its name: where the user wrote it whenever no
   * rewrite earlier on the line shifted it. Only otherwise does the op need
   * an explicit loc (most ops do not, and MLIR then parses less). */
  p.needs_loc = st->out.line != name.line || st->out.col != name.col ||
                (st->aliases.enabled && st->out.line == st->first_line);
  bool ok = parse_elems(st, &p, def->format, def->format_len);
  if (ok && npuc_tok_keyword(npuc_peek(&st->lx), "loc") &&
      npuc_tok_punct(npuc_peek2(&st->lx), '(')) {
    npuc_token l = npuc_lex(&st->lx);
    npuc_lex(&st->lx);
    npuc_token close = npuc_skip_balanced(&st->lx, '(');
    if (npuc_tok_punct(close, ')')) {
      p.loc =
          (piece){l.start, (size_t)(close.start + 1 - l.start), l.line, l.col};
    } else {
      error_at(st, l, "expected ')' to close the op's loc(");
      ok = false;
    }
  }
  ok = ok && check_groups(st, &p);
  if (ok) {
    if (!p.header_done)
      emit_header(st, &p);
    emit_tail(st, &p);
    /* Where the op's text ended: the lexer stopped right after it. */
    const char *end = st->lx.cur;
    int end_line = st->lx.line;
    int end_col = (int)(end - st->lx.line_begin) + 1;
    while (st->out.line < end_line)
      npuc_tb_putc(&st->out, '\n');
    npuc_tb_anchor(&st->out, end_line, end_col);
    skip_to(st, end, end_line, end_col);
  }
  free_parsed(&p);
  st->scratch_depth--;
  return ok;
}

/* This depth's scratch with `lists` empty lists and `attrs` + 1 null
 * attribute slots; the caller leaves it by decrementing scratch_depth. */
static struct op_scratch *enter_scratch(to_mlir *st, size_t lists,
                                        size_t attrs) {
  if (st->scratch_depth == st->num_scratch) {
    st->scratch = npuc_xreallocarray(st->scratch, st->num_scratch + 1,
                                     sizeof *st->scratch);
    memset(&st->scratch[st->num_scratch++], 0, sizeof *st->scratch);
  }
  struct op_scratch *sc = &st->scratch[st->scratch_depth++];
  if (sc->num_lists < lists) {
    sc->lists = npuc_xreallocarray(sc->lists, lists, sizeof *sc->lists);
    memset(sc->lists + sc->num_lists, 0,
           (lists - sc->num_lists) * sizeof *sc->lists);
    sc->num_lists = lists;
  }
  for (size_t i = 0; i < lists; ++i)
    sc->lists[i].len = 0;
  if (sc->num_attrs < attrs + 1) {
    sc->attrs = npuc_xreallocarray(sc->attrs, attrs + 1, sizeof *sc->attrs);
    sc->num_attrs = attrs + 1;
  }
  memset(sc->attrs, 0, (attrs + 1) * sizeof *sc->attrs);
  return sc;
}

static void free_scratch(to_mlir *st) {
  for (size_t d = 0; d < st->num_scratch; ++d) {
    for (size_t i = 0; i < st->scratch[d].num_lists; ++i)
      free(st->scratch[d].lists[i].items);
    free(st->scratch[d].lists);
    free(st->scratch[d].attrs);
  }
  free(st->scratch);
}

/* The lists stay with the scratch; what the op owns alone is freed. */
static void free_parsed(parsed_op *p) {
  for (size_t i = 0; i < p->def->num_attrs; ++i)
    free(p->attrs[i]);
  free(p->arg_names.items);
  free(p->arg_types.items);
  for (size_t i = 0; i < p->num_whole_types; ++i)
    free(p->whole_types[i]);
  free(p->whole_types);
}

/* ---- matching the next token against a format element ------------------ */

/* ` ` and `` only space the printout: nothing to read. */
static bool literal_is_spacing(const char *lit) {
  return !lit[0] || (lit[0] == ' ' && !lit[1]);
}

static bool literal_matches(npuc_token t, const char *lit) {
  char c = lit[0];
  if (literal_is_spacing(lit))
    return true;
  if (c == '-' && lit[1] == '>' && !lit[2])
    return t.kind == NPUC_TOK_ARROW;
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
    return npuc_tok_keyword(t, lit);
  return t.kind == NPUC_TOK_PUNCT && t.len == 1 && t.start[0] == c &&
         lit[1] == '\0';
}

static bool attr_starts(const npuc_attr_def *a, npuc_token t) {
  switch (a->kind) {
  case NPUC_AK_UNIT: return false;
  case NPUC_AK_BOOL:
    return npuc_tok_keyword(t, "true") || npuc_tok_keyword(t, "false");
  case NPUC_AK_INT: return t.kind == NPUC_TOK_INTEGER || npuc_tok_punct(t, '-');
  case NPUC_AK_I64_ARRAY:
  case NPUC_AK_I32_ARRAY: return npuc_tok_punct(t, '[');
  case NPUC_AK_ENUM:
    return npuc_tok_punct(t, '<') || t.kind == NPUC_TOK_HASH_ID;
  case NPUC_AK_STRING: return t.kind == NPUC_TOK_STRING;
  case NPUC_AK_KEYWORD: return t.kind == NPUC_TOK_BARE_ID;
  case NPUC_AK_SYMBOL_NAME: return t.kind == NPUC_TOK_AT_ID;
  case NPUC_AK_ANY:
    return t.kind == NPUC_TOK_HASH_ID || t.kind == NPUC_TOK_STRING ||
           t.kind == NPUC_TOK_INTEGER || t.kind == NPUC_TOK_FLOAT ||
           t.kind == NPUC_TOK_BARE_ID || npuc_tok_punct(t, '[') ||
           npuc_tok_punct(t, '-') || t.kind == NPUC_TOK_AT_ID;
  }
  return false;
}

static bool elem_matches(to_mlir *st, const npuc_op_def *def,
                         const npuc_fmt_elem *e) {
  npuc_token t = npuc_peek(&st->lx);
  switch (e->kind) {
  case NPUC_FMT_LITERAL: return literal_matches(t, e->text);
  case NPUC_FMT_VAR:
    switch (e->var_class) {
    case NPUC_VAR_OPERAND: return t.kind == NPUC_TOK_PERCENT_ID;
    case NPUC_VAR_ATTR: return attr_starts(&def->attrs[e->var_index], t);
    case NPUC_VAR_REGION: return npuc_tok_punct(t, '{');
    default: return false;
    }
  case NPUC_FMT_TYPE:
    return t.kind == NPUC_TOK_BARE_ID || t.kind == NPUC_TOK_BANG_ID ||
           npuc_tok_punct(t, '(') || (e->type_prefix && npuc_tok_punct(t, '<'));
  case NPUC_FMT_ATTR_DICT: return npuc_tok_punct(t, '{');
  case NPUC_FMT_ATTR_DICT_KW: return npuc_tok_keyword(t, "attributes");
  case NPUC_FMT_DYN_INDEX_LIST: return npuc_tok_punct(t, '[');
  case NPUC_FMT_REGION_ARGS: return npuc_tok_punct(t, '(');
  case NPUC_FMT_OPTIONAL:
    return e->num_children && elem_matches(st, def, &e->children[0]);
  case NPUC_FMT_ALTERNATIVES: {
    size_t begin = 0;
    for (size_t b = 0; b < e->num_branches; ++b) {
      if (e->branch_ends[b] > begin &&
          elem_matches(st, def, &e->children[begin]))
        return true;
      begin = e->branch_ends[b];
    }
    return false;
  }
  }
  return false;
}

/* ---- parsing elements --------------------------------------------------- */

static bool parse_elem(to_mlir *st, parsed_op *p, const npuc_fmt_elem *e);

static bool parse_clauses_any_order(to_mlir *st, parsed_op *p,
                                    const npuc_fmt_elem *e, size_t n);

/* An optional group led by a keyword (`(`round_mode` `=` $r^)?`): a clause. */
static bool is_clause(const npuc_fmt_elem *e) {
  if (e->kind != NPUC_FMT_OPTIONAL || !e->num_children ||
      e->children[0].kind != NPUC_FMT_LITERAL)
    return false;
  char c = e->children[0].text[0];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool parse_elems(to_mlir *st, parsed_op *p, const npuc_fmt_elem *e,
                        size_t n) {
  for (size_t i = 0; i < n; ++i) {
    size_t run = 0;
    while (i + run < n && run < 64 && is_clause(&e[i + run]))
      ++run;
    if (run > 1) {
      if (!parse_clauses_any_order(st, p, &e[i], run))
        return false;
      i += run - 1;
      continue;
    }
    if (!parse_elem(st, p, &e[i]))
      return false;
  }
  return true;
}

/* Consecutive clauses are read in any order (printing keeps the table's):
 * producers disagree on the order (bishengir's vcast writes round_mode
 * before cast), and keywords make the reading unambiguous. Each clause is
 * read at most once; at most 64 in a run. */
static bool parse_clauses_any_order(to_mlir *st, parsed_op *p,
                                    const npuc_fmt_elem *e, size_t n) {
  uint64_t done = 0;
  for (;;) {
    size_t k = 0;
    while (k < n &&
           ((done >> k & 1) || !elem_matches(st, p->def, &e[k].children[0])))
      ++k;
    if (k == n)
      return true;
    done |= (uint64_t)1 << k;
    if (!parse_elems(st, p, e[k].children, e[k].num_children))
      return false;
  }
}

static bool expect_literal(to_mlir *st, parsed_op *p, const char *lit) {
  if (literal_is_spacing(lit))
    return true;
  npuc_token t = npuc_peek(&st->lx);
  if (literal_matches(t, lit)) {
    npuc_lex(&st->lx);
    return true;
  }
  char buf[64];
  error_at(st, t, "expected '%s' in custom syntax of '%s', found %s", lit,
           p->def->name, describe(t, buf, sizeof buf));
  return false;
}

static bool parse_operands(to_mlir *st, parsed_op *p, int group) {
  const npuc_value_def *v = &p->def->operands[group];
  piece_list *out = &p->operands[group];
  npuc_token t = npuc_peek(&st->lx);
  if (t.kind != NPUC_TOK_PERCENT_ID) {
    if (v->variadic || v->optional)
      return true;
    char buf[64];
    error_at(st, t, "expected SSA operand '%s' of '%s', found %s", v->name,
             p->def->name, describe(t, buf, sizeof buf));
    return false;
  }
  pl_push(out, tok_piece(npuc_lex(&st->lx)));
  while (v->variadic && npuc_tok_punct(npuc_peek(&st->lx), ',') &&
         npuc_peek2(&st->lx).kind == NPUC_TOK_PERCENT_ID) {
    npuc_lex(&st->lx);
    pl_push(out, tok_piece(npuc_lex(&st->lx)));
  }
  return true;
}

static bool parse_one_type(to_mlir *st, parsed_op *p, piece_list *out,
                           const char *what) {
  npuc_token t = npuc_peek(&st->lx);
  const char *s, *e;
  if (!npuc_skip_type(&st->lx, &s, &e)) {
    char buf[64];
    error_at(st, t, "expected a type for '%s' of '%s', found %s", what,
             p->def->name, describe(t, buf, sizeof buf));
    return false;
  }
  pl_push(out, (piece){s, (size_t)(e - s), t.line, t.col});
  return true;
}

static bool parse_types_with_attrs(to_mlir *st, parsed_op *p,
                                   const npuc_fmt_elem *e, size_t want);

static char *concat3(const char *a, size_t na, const char *b, size_t nb,
                     const char *c, size_t nc);

/* stripped-type($name, `!llvm.ptr`): a whole type, or what follows the
 * prefix: `<1>`, or nothing (ODS prints `!llvm.ptr` stripped as nothing).
 * The module then prints the stripped form back (npuc_source_form). */
static bool parse_stripped_type(to_mlir *st, parsed_op *p, piece_list *out,
                                const char *what, const char *prefix) {
  npuc_token t = npuc_peek(&st->lx);
  if (t.kind == NPUC_TOK_BANG_ID || t.kind == NPUC_TOK_BARE_ID ||
      npuc_tok_punct(t, '('))
    return parse_one_type(st, p, out, what);
  size_t n = 0;
  if (npuc_tok_punct(t, '<')) {
    npuc_lex(&st->lx);
    npuc_token close = npuc_skip_balanced(&st->lx, '<');
    if (!npuc_tok_punct(close, '>')) {
      error_at(st, t, "unterminated '<' in the type of '%s' of '%s'", what,
               p->def->name);
      return false;
    }
    n = (size_t)(close.start + 1 - t.start);
  }
  size_t np = strlen(prefix);
  char *whole = concat3(prefix, np, t.start, n, "", 0);
  p->whole_types = npuc_xreallocarray(p->whole_types, p->num_whole_types + 1,
                                      sizeof *p->whole_types);
  p->whole_types[p->num_whole_types++] = whole;
  pl_push(out, (piece){whole, np + n, t.line, t.col});
  st->form->stripped_types = true;
  return true;
}

static bool parse_types(to_mlir *st, parsed_op *p, const npuc_fmt_elem *e) {
  bool is_result = e->var_class == NPUC_VAR_RESULT;
  const npuc_value_def *v = is_result ? &p->def->results[e->var_index]
                                      : &p->def->operands[e->var_index];
  piece_list *out =
      is_result ? &p->rtypes[e->var_index] : &p->otypes[e->var_index];
  /* Operand groups know how many types they need; a variadic result group
   * takes the list, any other result one type. */
  size_t want = is_result ? (v->variadic ? (size_t)-1 : 1)
                          : p->operands[e->var_index].len;
  if (want == 0)
    return true;
  if (e->attr_index >= 0)
    return parse_types_with_attrs(st, p, e, want);
  if (e->type_prefix)
    return parse_stripped_type(st, p, out, v->name, e->type_prefix);
  if (!parse_one_type(st, p, out, v->name))
    return false;
  if (v->same_type) { /* one type, printed once, for the whole group */
    for (size_t k = 1; !is_result && k < want; ++k)
      pl_push(out, out->items[0]);
    return true;
  }
  while (out->len < want && v->variadic &&
         npuc_tok_punct(npuc_peek(&st->lx), ',')) {
    npuc_lexer save = st->lx;
    npuc_lex(&st->lx);
    npuc_token next = npuc_peek(&st->lx);
    if (next.kind != NPUC_TOK_BARE_ID && next.kind != NPUC_TOK_BANG_ID &&
        !npuc_tok_punct(next, '(')) {
      st->lx = save;
      break;
    }
    if (!parse_one_type(st, p, out, v->name))
      return false;
  }
  return true;
}

/* type($group, $attr): `T {k = v}, U`: each type of the operand group,
 * each optionally followed by an attribute dictionary; when any is, the
 * array attribute $attr gets one dictionary per value (`{}` for none). */
static bool parse_types_with_attrs(to_mlir *st, parsed_op *p,
                                   const npuc_fmt_elem *e, size_t want) {
  const npuc_value_def *v = &p->def->operands[e->var_index];
  piece_list *out = &p->otypes[e->var_index];
  npuc_textbuf tb;
  npuc_tb_init(&tb, 32, 1, NULL);
  npuc_tb_putc(&tb, '[');
  bool any = false, ok = true;
  for (size_t k = 0; ok && k < want; ++k) {
    ok = (k == 0 || expect_literal(st, p, ",")) &&
         parse_one_type(st, p, out, v->name);
    npuc_token open = npuc_peek(&st->lx);
    npuc_tb_puts(&tb, k ? ", " : "");
    if (!ok || !npuc_tok_punct(open, '{')) {
      npuc_tb_puts(&tb, "{}");
      continue;
    }
    npuc_lex(&st->lx);
    npuc_token close = npuc_skip_balanced(&st->lx, '{');
    if (!npuc_tok_punct(close, '}')) {
      error_at(st, open, "unterminated attribute dictionary of '%s'",
               p->def->name);
      ok = false;
      continue;
    }
    npuc_tb_append(&tb, open.start, (size_t)(close.start + 1 - open.start));
    any = true;
  }
  npuc_tb_putc(&tb, ']');
  char *attr = npuc_tb_take(&tb, NULL);
  if (ok && any) {
    free(p->attrs[e->attr_index]);
    p->attrs[e->attr_index] = attr;
  } else {
    free(attr);
  }
  return ok;
}

static char *parse_int_array(to_mlir *st, parsed_op *p, const char *elt) {
  npuc_textbuf tb;
  npuc_tb_init(&tb, 32, 1, NULL);
  npuc_tb_puts(&tb, "array<");
  npuc_tb_puts(&tb, elt);
  npuc_lex(&st->lx); /* '[' */
  bool first = true;
  for (;;) {
    npuc_token t = npuc_lex(&st->lx);
    if (npuc_tok_punct(t, ']'))
      break;
    bool neg = npuc_tok_punct(t, '-');
    if (neg)
      t = npuc_lex(&st->lx);
    if (t.kind != NPUC_TOK_INTEGER) {
      char buf[64];
      error_at(st, t, "expected an integer in array of '%s', found %s",
               p->def->name, describe(t, buf, sizeof buf));
      npuc_tb_free(&tb);
      return NULL;
    }
    npuc_tb_puts(&tb, first ? ": " : ", ");
    if (neg)
      npuc_tb_putc(&tb, '-');
    npuc_tb_append(&tb, t.start, t.len);
    first = false;
    npuc_token sep = npuc_peek(&st->lx);
    if (npuc_tok_punct(sep, ','))
      npuc_lex(&st->lx);
    else if (!npuc_tok_punct(sep, ']')) {
      char buf[64];
      error_at(st, sep, "expected ',' or ']' in array of '%s', found %s",
               p->def->name, describe(sep, buf, sizeof buf));
      npuc_tb_free(&tb);
      return NULL;
    }
  }
  npuc_tb_putc(&tb, '>');
  return npuc_tb_take(&tb, NULL);
}

static char *span_dup(const char *s, const char *e) {
  return strndup(s, (size_t)(e - s));
}

/* a + b + c as one malloc'd string. Attribute values are built by hand:
 * snprintf cost more than the rest of reading them. */
static char *concat3(const char *a, size_t na, const char *b, size_t nb,
                     const char *c, size_t nc) {
  char *s = npuc_xmalloc(na + nb + nc + 1);
  memcpy(s, a, na);
  memcpy(s + na, b, nb);
  memcpy(s + na + nb, c, nc);
  s[na + nb + nc] = '\0';
  return s;
}

/* Appends the decimal digits of v. */
static void tb_put_uint(npuc_textbuf *tb, unsigned long long v) {
  char digits[24];
  size_t n = 0;
  do
    digits[sizeof digits - ++n] = (char)('0' + v % 10);
  while ((v /= 10) && n < sizeof digits);
  npuc_tb_append(tb, digits + sizeof digits - n, n);
}

/* One attribute value and no more: `[..]`, `{..}`, `#dialect.name<..>`,
 * `memref<..>`, a number, a string. A clause that follows (`pad_mode =
 * #hivm.padmode<PadValue> pad_value = %v`, `keys = ["k"] values = [..]`) is
 * not part of it; a `: type` suffix is not read either. */
static bool skip_attr_term(npuc_lexer *lx, const char **s, const char **e) {
  npuc_token t = npuc_lex(lx);
  *s = t.start;
  *e = t.start + t.len;
  if (npuc_tok_punct(t, '-')) {
    t = npuc_lex(lx);
    *e = t.start + t.len;
    return t.kind == NPUC_TOK_INTEGER || t.kind == NPUC_TOK_FLOAT;
  }
  char open = t.kind == NPUC_TOK_PUNCT && t.len == 1 ? t.start[0] : 0;
  bool named = t.kind == NPUC_TOK_HASH_ID || t.kind == NPUC_TOK_BARE_ID ||
               t.kind == NPUC_TOK_BANG_ID;
  if (named) {
    npuc_token next = npuc_peek(lx);
    if (!npuc_tok_punct(next, '<') || next.start != *e)
      return true;
    npuc_lex(lx);
    open = '<';
  } else if (open != '[' && open != '{' && open != '(') {
    return t.kind != NPUC_TOK_EOF && t.kind != NPUC_TOK_ERROR &&
           t.kind != NPUC_TOK_PUNCT;
  }
  npuc_token close = npuc_skip_balanced(lx, open);
  if (close.kind != NPUC_TOK_PUNCT)
    return false;
  *e = close.start + 1;
  return true;
}

/* The full form of an enum: #hivm.round_mode<rint>. */
static char *parse_full_enum(to_mlir *st, parsed_op *p,
                             const npuc_attr_def *a) {
  npuc_token t = npuc_peek(&st->lx);
  const char *s, *e;
  if (!skip_attr_term(&st->lx, &s, &e)) {
    error_at(st, t, "malformed value of '%s' in '%s'", a->name, p->def->name);
    return NULL;
  }
  return span_dup(s, e);
}

static char *parse_enum(to_mlir *st, parsed_op *p, const npuc_attr_def *a) {
  npuc_token t = npuc_peek(&st->lx);
  if (t.kind == NPUC_TOK_HASH_ID) /* the full form: #hivm.round_mode<rint> */
    return parse_full_enum(st, p, a);
  npuc_lex(&st->lx); /* '<' */
  npuc_token v = npuc_lex(&st->lx);
  npuc_token close = npuc_lex(&st->lx);
  char buf[64];
  if (v.kind != NPUC_TOK_BARE_ID && v.kind != NPUC_TOK_INTEGER) {
    error_at(st, v, "expected a value of '%s' in '%s', found %s", a->name,
             p->def->name, describe(v, buf, sizeof buf));
    return NULL;
  }
  if (!npuc_tok_punct(close, '>')) {
    error_at(st, close, "expected '>' after %.*s in '%s', found %s", (int)v.len,
             v.start, p->def->name, describe(close, buf, sizeof buf));
    return NULL;
  }
  if (a->enum_values) {
    bool known = false;
    for (char **ev = a->enum_values; *ev && !known; ++ev)
      known = strlen(*ev) == v.len && memcmp(*ev, v.start, v.len) == 0;
    if (!known) {
      error_at(st, v, "'%.*s' is not a valid %s of '%s'", (int)v.len, v.start,
               a->name, p->def->name);
      return NULL;
    }
  }
  size_t np = strlen(a->enum_prefix);
  char *s = npuc_xmalloc(np + v.len + 3);
  memcpy(s, a->enum_prefix, np);
  s[np] = '<';
  memcpy(s + np + 1, v.start, v.len);
  memcpy(s + np + 1 + v.len, ">", 2);
  return s;
}

/* A bare word (aievec.shuffle's `t16_4x8`), checked against the listed
 * values and kept as the string "t16_4x8". */
static char *parse_keyword(to_mlir *st, parsed_op *p, const npuc_attr_def *a) {
  npuc_token v = npuc_lex(&st->lx);
  bool known = !a->enum_values;
  for (char **ev = a->enum_values; ev && *ev && !known; ++ev)
    known = strlen(*ev) == v.len && memcmp(*ev, v.start, v.len) == 0;
  if (!known) {
    error_at(st, v, "'%.*s' is not a valid %s of '%s'", (int)v.len, v.start,
             a->name, p->def->name);
    return NULL;
  }
  return concat3("\"", 1, v.start, v.len, "\"", 1);
}

static char *parse_attr_value(to_mlir *st, parsed_op *p,
                              const npuc_attr_def *a) {
  npuc_token t = npuc_peek(&st->lx);
  char buf[64];
  if (a->kind != NPUC_AK_UNIT && !attr_starts(a, t)) {
    static const char *const what[] = {"an attribute",
                                       "",
                                       "true or false",
                                       "an integer",
                                       "an integer list [..]",
                                       "an integer list [..]",
                                       "an enum value <..>",
                                       "a string",
                                       "a keyword",
                                       "a symbol name @.."};
    error_at(st, t, "expected %s for '%s' of '%s', found %s", what[a->kind],
             a->name, p->def->name, describe(t, buf, sizeof buf));
    return NULL;
  }
  switch (a->kind) {
  case NPUC_AK_UNIT: return strdup("");
  case NPUC_AK_BOOL:
  case NPUC_AK_STRING:
    npuc_lex(&st->lx);
    return span_dup(t.start, t.start + t.len);
  case NPUC_AK_INT: {
    npuc_lex(&st->lx);
    bool neg = npuc_tok_punct(t, '-');
    npuc_token v = neg ? npuc_lex(&st->lx) : t;
    if (v.kind != NPUC_TOK_INTEGER) {
      error_at(st, v, "expected an integer for '%s' of '%s', found %s", a->name,
               p->def->name, describe(v, buf, sizeof buf));
      return NULL;
    }
    /* [-]V : TYPE; the text may give its own integer type (`1 : i16`,
     * as bishengir prints a Builtin_IntegerAttr) */
    const char *type = a->int_type;
    size_t nt = strlen(type);
    npuc_token ty = npuc_peek2(&st->lx);
    if (npuc_tok_punct(npuc_peek(&st->lx), ':') &&
        ty.kind == NPUC_TOK_BARE_ID && ty.len > 1 && ty.start[0] == 'i' &&
        strspn(ty.start + 1, "0123456789") == ty.len - 1) {
      npuc_lex(&st->lx);
      npuc_lex(&st->lx);
      type = ty.start;
      nt = ty.len;
    }
    char *s = npuc_xmalloc((size_t)neg + v.len + 3 + nt + 1), *o = s;
    if (neg)
      *o++ = '-';
    memcpy(o, v.start, v.len);
    memcpy(o + v.len, " : ", 3);
    memcpy(o + v.len + 3, type, nt);
    o[v.len + 3 + nt] = '\0';
    return s;
  }
  case NPUC_AK_I64_ARRAY: return parse_int_array(st, p, "i64");
  case NPUC_AK_I32_ARRAY: return parse_int_array(st, p, "i32");
  case NPUC_AK_ENUM: return parse_enum(st, p, a);
  case NPUC_AK_KEYWORD: return parse_keyword(st, p, a);
  case NPUC_AK_SYMBOL_NAME: {
    /* @name -> "name"; @"any text" keeps its quotes */
    npuc_lex(&st->lx);
    if (t.len > 1 && t.start[1] == '"')
      return span_dup(t.start + 1, t.start + t.len);
    char *s = npuc_xmalloc(t.len + 2);
    snprintf(s, t.len + 2, "\"%.*s\"", (int)t.len - 1, t.start + 1);
    return s;
  }
  case NPUC_AK_ANY: {
    const char *s, *e;
    if (!skip_attr_term(&st->lx, &s, &e)) {
      error_at(st, t, "malformed attribute '%s' of '%s'", a->name,
               p->def->name);
      return NULL;
    }
    return span_dup(s, e);
  }
  }
  return NULL;
}

/* A block argument's `loc(...)` (printed with debug info) stays with its
 * type: the piece grows to its closing parenthesis. */
static bool take_arg_loc(to_mlir *st, piece *type) {
  if (!npuc_tok_keyword(npuc_peek(&st->lx), "loc") ||
      !npuc_tok_punct(npuc_peek2(&st->lx), '('))
    return true;
  npuc_token l = npuc_lex(&st->lx);
  npuc_lex(&st->lx);
  npuc_token close = npuc_skip_balanced(&st->lx, '(');
  if (!npuc_tok_punct(close, ')')) {
    error_at(st, l, "expected ')' to close the block argument's loc(");
    return false;
  }
  type->n = (size_t)(close.start + 1 - type->s);
  return true;
}

/* region-args($r): `(%a : T, %b : U)`, kept for parse_region. */
static bool parse_region_args(to_mlir *st, parsed_op *p,
                              const npuc_fmt_elem *e) {
  if (!expect_literal(st, p, "("))
    return false;
  p->args_region = e->var_index;
  bool more = false; /* after a comma, an argument must follow */
  while (more || !npuc_tok_punct(npuc_peek(&st->lx), ')')) {
    npuc_token v = npuc_lex(&st->lx);
    if (v.kind != NPUC_TOK_PERCENT_ID) {
      char buf[64];
      error_at(st, v, "expected a block argument '%%name' of '%s', found %s",
               p->def->name, describe(v, buf, sizeof buf));
      return false;
    }
    pl_push(&p->arg_names, tok_piece(v));
    if (!expect_literal(st, p, ":") ||
        !parse_one_type(st, p, &p->arg_types, "a block argument") ||
        !take_arg_loc(st, &p->arg_types.items[p->arg_types.len - 1]))
      return false;
    npuc_token next = npuc_peek(&st->lx);
    more = npuc_tok_punct(next, ',');
    if (more) {
      npuc_lex(&st->lx);
    } else if (!npuc_tok_punct(next, ')')) {
      char buf[64];
      error_at(st, next,
               "expected ',' or ')' after a block argument of '%s', "
               "found %s",
               p->def->name, describe(next, buf, sizeof buf));
      return false;
    }
  }
  npuc_lex(&st->lx); /* ')' */
  return true;
}

/* The entry block's label with the arguments region-args read. */
static void emit_region_args(to_mlir *st, parsed_op *p) {
  npuc_tb_puts(&st->out, "^bb0(");
  for (size_t i = 0; i < p->arg_names.len; ++i) {
    if (i)
      npuc_tb_puts(&st->out, ", ");
    emit_piece(st, p->arg_names.items[i]);
    npuc_tb_puts(&st->out, ": ");
    emit_piece(st, p->arg_types.items[i]);
  }
  npuc_tb_puts(&st->out, "):");
}

static bool parse_region(to_mlir *st, parsed_op *p, int index) {
  npuc_token open = npuc_peek(&st->lx);
  if (!npuc_tok_punct(open, '{')) {
    char buf[64];
    error_at(st, open, "expected '{' to start the region of '%s', found %s",
             p->def->name, describe(open, buf, sizeof buf));
    return false;
  }
  if (!p->header_done) {
    emit_header(st, p);
    npuc_tb_puts(&st->out, " (");
  } else {
    npuc_tb_puts(&st->out, ", ");
  }
  npuc_lex(&st->lx);
  skip_to(st, open.start, open.line, open.col);
  if (index == p->args_region && p->arg_names.len) {
    flush(st, open.start + 1, open.line, open.col + 1);
    emit_region_args(st, p);
  }
  npuc_token closing;
  if (!convert_block_list(st, true, &closing))
    return false;
  if (closing.kind == NPUC_TOK_EOF) {
    error_at(st, open, "unterminated region of '%s'", p->def->name);
    return false;
  }
  flush(st, closing.start + 1, closing.line, closing.col + 1);
  npuc_tb_putc(&st->out, ')');
  return true;
}

static bool parse_alternatives(to_mlir *st, parsed_op *p,
                               const npuc_fmt_elem *e) {
  size_t begin = 0;
  for (size_t b = 0; b < e->num_branches; ++b) {
    size_t end = e->branch_ends[b];
    if (end > begin && elem_matches(st, p->def, &e->children[begin]))
      return parse_elems(st, p, &e->children[begin], end - begin);
    begin = end;
  }
  npuc_token t = npuc_peek(&st->lx);
  char buf[64];
  error_at(st, t, "unexpected %s in custom syntax of '%s'",
           describe(t, buf, sizeof buf), p->def->name);
  return false;
}

static bool parse_attr_dict(to_mlir *st, parsed_op *p, bool keyword) {
  if (keyword) {
    if (!npuc_tok_keyword(npuc_peek(&st->lx), "attributes"))
      return true;
    npuc_lex(&st->lx);
  }
  npuc_token open = npuc_peek(&st->lx);
  if (!npuc_tok_punct(open, '{'))
    return true;
  npuc_lex(&st->lx);
  npuc_token close = npuc_skip_balanced(&st->lx, '{');
  if (!npuc_tok_punct(close, '}')) {
    error_at(st, open, "unterminated attribute dictionary of '%s'",
             p->def->name);
    return false;
  }
  p->dict = (piece){open.start + 1, (size_t)(close.start - open.start - 1),
                    open.line, open.col + 1};
  return true;
}

/* `[4, %n, 8]`: %n joins the operand group, the attribute gets
 * array<i64: 4, INT64_MIN, 8> (MLIR's kDynamic marks an SSA entry). */
static bool parse_dyn_index_list(to_mlir *st, parsed_op *p,
                                 const npuc_fmt_elem *e) {
  if (!expect_literal(st, p, "["))
    return false;
  npuc_textbuf tb;
  npuc_tb_init(&tb, 32, 1, NULL);
  npuc_tb_puts(&tb, "array<i64");
  bool first = true, ok = true;
  while (ok && !npuc_tok_punct(npuc_peek(&st->lx), ']')) {
    npuc_tb_puts(&tb, first ? ": " : ", ");
    npuc_token t = npuc_lex(&st->lx);
    bool neg = npuc_tok_punct(t, '-');
    npuc_token v = neg ? npuc_lex(&st->lx) : t;
    if (t.kind == NPUC_TOK_PERCENT_ID) {
      pl_push(&p->operands[e->var_index], tok_piece(t));
      npuc_tb_puts(&tb, "-9223372036854775808");
    } else if (v.kind == NPUC_TOK_INTEGER) {
      if (neg)
        npuc_tb_putc(&tb, '-');
      npuc_tb_append(&tb, v.start, v.len);
    } else {
      char buf[64];
      error_at(st, v, "expected an integer or SSA value in '%s', found %s",
               p->def->name, describe(v, buf, sizeof buf));
      ok = false;
    }
    first = false;
    if (ok && npuc_tok_punct(npuc_peek(&st->lx), ','))
      npuc_lex(&st->lx);
    else if (ok && !npuc_tok_punct(npuc_peek(&st->lx), ']'))
      ok = expect_literal(st, p, "]");
  }
  if (ok)
    npuc_lex(&st->lx); /* ']' */
  npuc_tb_putc(&tb, '>');
  char *attr = npuc_tb_take(&tb, NULL);
  if (!ok) {
    free(attr);
    return false;
  }
  free(p->attrs[e->attr_index]);
  p->attrs[e->attr_index] = attr;
  return true;
}

static bool parse_elem(to_mlir *st, parsed_op *p, const npuc_fmt_elem *e) {
  switch (e->kind) {
  case NPUC_FMT_LITERAL: return expect_literal(st, p, e->text);
  case NPUC_FMT_VAR:
    if (e->var_class == NPUC_VAR_OPERAND)
      return parse_operands(st, p, e->var_index);
    if (e->var_class == NPUC_VAR_REGION)
      return parse_region(st, p, e->var_index);
    free(p->attrs[e->var_index]);
    p->attrs[e->var_index] =
        parse_attr_value(st, p, &p->def->attrs[e->var_index]);
    return p->attrs[e->var_index] != NULL;
  case NPUC_FMT_TYPE: return parse_types(st, p, e);
  case NPUC_FMT_ATTR_DICT:
  case NPUC_FMT_ATTR_DICT_KW:
    return parse_attr_dict(st, p, e->kind == NPUC_FMT_ATTR_DICT_KW);
  case NPUC_FMT_OPTIONAL:
    if (!elem_matches(st, p->def, &e->children[0]))
      return true;
    return parse_elems(st, p, e->children, e->num_children);
  case NPUC_FMT_ALTERNATIVES: return parse_alternatives(st, p, e);
  case NPUC_FMT_DYN_INDEX_LIST: return parse_dyn_index_list(st, p, e);
  case NPUC_FMT_REGION_ARGS: return parse_region_args(st, p, e);
  }
  return false;
}

/* ---- checks and generic emission ---------------------------------------- */

/* Groups whose type is another group's take its types. */
static void fill_implied_types(parsed_op *p) {
  const npuc_op_def *def = p->def;
  for (size_t g = 0; g < def->num_operands + def->num_results; ++g) {
    bool res = g >= def->num_operands;
    const npuc_value_def *v =
        res ? &def->results[g - def->num_operands] : &def->operands[g];
    if (v->type_of < 0)
      continue;
    piece_list *dst = res ? &p->rtypes[g - def->num_operands] : &p->otypes[g];
    const piece_list *src =
        v->type_of_result ? &p->rtypes[v->type_of] : &p->otypes[v->type_of];
    size_t n = res ? src->len : p->operands[g].len;
    for (size_t k = 0; k < n && src->len; ++k)
      pl_push(dst, src->items[k < src->len ? k : 0]);
  }
}

static bool check_groups(to_mlir *st, parsed_op *p) {
  const npuc_op_def *def = p->def;
  fill_implied_types(p);
  for (size_t i = 0; i < def->num_operands; ++i) {
    const npuc_value_def *v = &def->operands[i];
    if (v->fixed_type)
      for (size_t k = 0; k < p->operands[i].len; ++k)
        pl_push(&p->otypes[i], (piece){v->fixed_type, strlen(v->fixed_type),
                                       p->operands[i].items[k].line,
                                       p->operands[i].items[k].col});
    size_t n = p->operands[i].len, nt = p->otypes[i].len;
    npuc_token at = p->name;
    if (n == 0 && !v->variadic && !v->optional) {
      error_at(st, at, "'%s' needs operand '%s'", def->name, v->name);
      return false;
    }
    if (n != nt) {
      piece where = nt ? p->otypes[i].items[0]
                       : (n ? p->operands[i].items[0] : tok_piece(at));
      at.line = where.line;
      at.col = where.col;
      error_at(st, at, "'%s' has %zu operand%s in '%s' but %zu type%s",
               def->name, n, n == 1 ? "" : "s", v->name, nt,
               nt == 1 ? "" : "s");
      return false;
    }
  }
  /* A result of fixed type (`type: i32` in the table) is never written. */
  for (size_t i = 0; i < def->num_results; ++i)
    if (def->results[i].fixed_type && !def->results[i].variadic &&
        p->rtypes[i].len == 0)
      pl_push(&p->rtypes[i], (piece){def->results[i].fixed_type,
                                     strlen(def->results[i].fixed_type),
                                     p->name.line, p->name.col});
  /* Attributes outside the format live in attr-dict: the verifier checks
   * those. */
  for (size_t i = 0; i < def->num_attrs; ++i)
    if (!p->attrs[i] && !def->attrs[i].optional && def->attrs[i].in_format) {
      error_at(st, p->name, "'%s' needs attribute '%s'", def->name,
               def->attrs[i].name);
      return false;
    }
  return true;
}

static void emit_header(to_mlir *st, parsed_op *p) {
  npuc_tb_anchor(&st->out, p->name.line, p->name.col);
  npuc_tb_putc(&st->out, '"');
  npuc_tb_append(&st->out, p->name.start, p->name.len);
  npuc_tb_puts(&st->out, "\"(");
  bool first = true;
  for (size_t g = 0; g < p->def->num_operands; ++g)
    for (size_t i = 0; i < p->operands[g].len; ++i) {
      if (!first)
        npuc_tb_puts(&st->out, ", ");
      emit_piece(st, p->operands[g].items[i]);
      first = false;
    }
  npuc_tb_putc(&st->out, ')');
  p->header_done = true;
}

static void emit_attr_dict(to_mlir *st, parsed_op *p) {
  const npuc_op_def *def = p->def;
  bool any = p->dict.s && p->dict.n;
  for (size_t i = 0; i < def->num_attrs && !any; ++i)
    any = p->attrs[i] != NULL;
  if (!any && !def->uses_segments)
    return;
  npuc_tb_puts(&st->out, " {");
  bool first = true;
  if (p->dict.s) {
    /* Skip an empty {} the user wrote. */
    const char *s = p->dict.s, *e = p->dict.s + p->dict.n;
    while (s < e && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
      ++s;
    if (s < e) {
      emit_piece(st, p->dict);
      first = false;
    }
  }
  for (size_t i = 0; i < def->num_attrs; ++i) {
    if (!p->attrs[i])
      continue;
    npuc_tb_puts(&st->out, first ? "" : ", ");
    npuc_tb_puts(&st->out, def->attrs[i].name);
    if (def->attrs[i].kind != NPUC_AK_UNIT) {
      npuc_tb_puts(&st->out, " = ");
      emit_attr_text(st, p->attrs[i], strlen(p->attrs[i]));
    }
    first = false;
  }
  /* bishengir sometimes prints the sizes in the dictionary itself. */
  bool user_segments =
      p->dict.s && memmem(p->dict.s, p->dict.n, "operandSegmentSizes", 19);
  if (def->uses_segments && !user_segments) {
    npuc_tb_puts(&st->out,
                 first ? "operandSegmentSizes = " : ", operandSegmentSizes = ");
    npuc_textbuf *sizes = &st->aliases.scratch;
    sizes->len = 0;
    npuc_tb_puts(sizes, "array<i32: ");
    for (size_t g = 0; g < def->num_operands; ++g) {
      if (g)
        npuc_tb_append(sizes, ", ", 2);
      tb_put_uint(sizes, p->operands[g].len);
    }
    npuc_tb_putc(sizes, '>');
    emit_attr_text(st, sizes->data, sizes->len);
  }
  npuc_tb_putc(&st->out, '}');
}

static void emit_type_list(to_mlir *st, piece_list *groups, size_t n,
                           bool *first) {
  for (size_t g = 0; g < n; ++g)
    for (size_t i = 0; i < groups[g].len; ++i) {
      if (!*first)
        npuc_tb_puts(&st->out, ", ");
      emit_type_piece(st, groups[g].items[i]);
      *first = false;
    }
}

static void emit_loc(to_mlir *st, parsed_op *p) {
  if (p->loc.s) {
    npuc_tb_putc(&st->out, ' ');
    emit_piece(st, p->loc);
    return;
  }
  if (!p->needs_loc)
    return;
  npuc_tb_puts(&st->out, " loc(\"");
  for (const char *f = st->opts->filename ? st->opts->filename : "-"; *f; ++f) {
    if (*f == '"' || *f == '\\')
      npuc_tb_putc(&st->out, '\\');
    npuc_tb_putc(&st->out, *f);
  }
  npuc_tb_append(&st->out, "\":", 2);
  tb_put_uint(&st->out, (unsigned)p->name.line);
  npuc_tb_putc(&st->out, ':');
  tb_put_uint(&st->out, (unsigned)p->name.col);
  npuc_tb_putc(&st->out, ')');
}

/* The types of `groups`, rewritten, into `tb`; false for one whose
 * rewrite would note a source form (emit_piece writes those). */
static bool put_type_list(to_mlir *st, npuc_textbuf *tb, piece_list *groups,
                          size_t n, bool *first) {
  for (size_t g = 0; g < n; ++g)
    for (size_t i = 0; i < groups[g].len; ++i) {
      piece p = groups[g].items[i];
      if (memchr(p.s, '#', p.n) && memmem(p.s, p.n, "#dlti", 5))
        return false;
      if (!*first)
        npuc_tb_puts(tb, ", ");
      npuc_rewrite_span(tb, p.s, p.s + p.n, 1, 1, NPUC_TO_MLIR, st->reg,
                        st->form);
      *first = false;
    }
  return true;
}

/* ` : (T, U) -> V` by one alias of the whole function type (MLIR reads
 * the generic form's `: type` as any type, then wants a function type):
 * false when it has none. */
static bool emit_signature_alias(to_mlir *st, parsed_op *p, size_t nres) {
  const npuc_op_def *def = p->def;
  npuc_textbuf *sig = &st->aliases.scratch;
  if (!st->aliases.enabled)
    return false;
  sig->len = 0;
  npuc_tb_putc(sig, '(');
  bool first = true;
  if (!put_type_list(st, sig, p->otypes, def->num_operands, &first))
    return false;
  npuc_tb_puts(sig, nres != 1 ? ") -> (" : ") -> ");
  first = true;
  if (!put_type_list(st, sig, p->rtypes, def->num_results, &first))
    return false;
  if (nres != 1)
    npuc_tb_putc(sig, ')');
  int number = alias_number(st, sig->data, sig->len, true, false);
  if (number < 0)
    return false;
  npuc_tb_puts(&st->out, " : ");
  put_alias_name(&st->out, true, number);
  return true;
}

static void emit_tail(to_mlir *st, parsed_op *p) {
  const npuc_op_def *def = p->def;
  emit_attr_dict(st, p);
  size_t nres = 0;
  for (size_t g = 0; g < def->num_results; ++g)
    nres += p->rtypes[g].len;
  if (emit_signature_alias(st, p, nres)) {
    emit_loc(st, p);
    return;
  }
  npuc_tb_puts(&st->out, " : (");
  bool first = true;
  emit_type_list(st, p->otypes, def->num_operands, &first);
  npuc_tb_puts(&st->out, ") -> ");
  if (nres != 1)
    npuc_tb_putc(&st->out, '(');
  first = true;
  emit_type_list(st, p->rtypes, def->num_results, &first);
  if (nres != 1)
    npuc_tb_putc(&st->out, ')');
  emit_loc(st, p);
}
