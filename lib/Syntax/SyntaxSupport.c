/* Text buffers with source maps, balanced scanning, bracket contexts, and
 * the type/attribute rewrites both directions of the engine share. */
/* memmem */
#define _GNU_SOURCE
#include "SyntaxInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- text buffer ------------------------------------------------------- */

void npuc_tb_init(npuc_textbuf *tb, size_t reserve, int first_line,
                  npuc_srcmap *map) {
  tb->cap = reserve ? reserve : 64;
  tb->data = malloc(tb->cap);
  tb->data[0] = '\0';
  tb->len = 0;
  tb->line = first_line > 0 ? first_line : 1;
  tb->col = 1;
  tb->map = map;
}

static void grow(npuc_textbuf *tb, size_t extra) {
  if (tb->len + extra + 1 <= tb->cap)
    return;
  while (tb->len + extra + 1 > tb->cap)
    tb->cap *= 2;
  tb->data = realloc(tb->data, tb->cap);
}

/* Most appends are a token or two: those that fit are copied a byte at a
 * time with their newlines counted in the same pass (cheaper than the
 * calls of memcpy and memchr below 16 bytes). */
static bool append_short(npuc_textbuf *tb, const char *s, size_t n) {
  if (n > 16 || tb->len + n >= tb->cap)
    return false;
  char *d = tb->data + tb->len;
  if (!tb->map) { /* positions are not read: nothing to count */
    for (size_t i = 0; i < n; ++i)
      d[i] = s[i];
    d[n] = '\0';
    tb->len += n;
    return true;
  }
  int lines = 0;
  size_t after = 0; /* bytes before the last newline, and it */
  for (size_t i = 0; i < n; ++i) {
    d[i] = s[i];
    if (s[i] == '\n') {
      ++lines;
      after = i + 1;
    }
  }
  d[n] = '\0';
  tb->len += n;
  if (lines) {
    tb->line += lines;
    tb->col = 1 + (int)(n - after);
  } else {
    tb->col += (int)n;
  }
  return true;
}

void npuc_tb_append(npuc_textbuf *tb, const char *s, size_t n) {
  if (!n || append_short(tb, s, n))
    return;
  grow(tb, n);
  memcpy(tb->data + tb->len, s, n);
  tb->len += n;
  tb->data[tb->len] = '\0';
  if (!tb->map)
    return; /* positions matter only where a source map records them */
  const char *p = s, *end = s + n, *nl;
  while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
    tb->line++;
    tb->col = 1;
    p = nl + 1;
  }
  tb->col += (int)(end - p);
}

void npuc_tb_putc(npuc_textbuf *tb, char c) {
  if (tb->len + 1 < tb->cap) {
    tb->data[tb->len++] = c;
    tb->data[tb->len] = '\0';
    if (c == '\n') {
      tb->line++;
      tb->col = 1;
    } else {
      tb->col++;
    }
    return;
  }
  npuc_tb_append(tb, &c, 1);
}

void npuc_tb_anchor(npuc_textbuf *tb, int orig_line, int orig_col) {
  npuc_srcmap *m = tb->map;
  if (!m)
    return;
  int mapped_line = tb->line, mapped_col = tb->col;
  if (m->len && m->anchors[m->len - 1].gen_line == tb->line) {
    const npuc_anchor *a = &m->anchors[m->len - 1];
    mapped_line = a->orig_line;
    mapped_col = a->orig_col + (tb->col - a->gen_col);
  }
  if (mapped_line == orig_line && mapped_col == orig_col)
    return;
  if (m->len == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 64;
    m->anchors = realloc(m->anchors, m->cap * sizeof *m->anchors);
  }
  m->anchors[m->len++] = (npuc_anchor){tb->line, tb->col, orig_line, orig_col};
}

char *npuc_tb_take(npuc_textbuf *tb, size_t *len) {
  char *d = tb->data;
  if (len)
    *len = tb->len;
  tb->data = NULL;
  tb->len = tb->cap = 0;
  return d;
}

void npuc_tb_free(npuc_textbuf *tb) {
  free(tb->data);
  tb->data = NULL;
}

void npuc_srcmap_lookup(const npuc_srcmap *map, int line, int col,
                        int *orig_line, int *orig_col) {
  *orig_line = line;
  *orig_col = col;
  if (!map || !map->len)
    return;
  size_t lo = 0, hi = map->len; /* first anchor after (line, col) */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const npuc_anchor *a = &map->anchors[mid];
    if (a->gen_line < line || (a->gen_line == line && a->gen_col <= col))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || map->anchors[lo - 1].gen_line != line)
    return;
  const npuc_anchor *a = &map->anchors[lo - 1];
  *orig_line = a->orig_line;
  *orig_col = a->orig_col + (col - a->gen_col);
}

int npuc_srcmap_unprefixed_col(const npuc_srcmap *map, int line, int col) {
  return map && map->prefix_cols && line == map->prefix_line &&
                 col > map->prefix_cols
             ? col - map->prefix_cols
             : col;
}

void npuc_srcmap_free(npuc_srcmap *map) {
  if (!map)
    return;
  free(map->anchors);
  free(map);
}

int npuc_count_lines(const char *start, const char *end) {
  int n = 0;
  const char *nl;
  while (start < end && (nl = memchr(start, '\n', (size_t)(end - start)))) {
    ++n;
    start = nl + 1;
  }
  return n;
}

/* ---- scanning ---------------------------------------------------------- */

static int bracket_delta(npuc_token t) {
  if (t.kind == NPUC_TOK_META_BEGIN)
    return 1;
  if (t.kind == NPUC_TOK_META_END)
    return -1;
  if (t.kind != NPUC_TOK_PUNCT)
    return 0;
  switch (t.start[0]) {
  case '(':
  case '[':
  case '{':
  case '<': return 1;
  case ')':
  case ']':
  case '}':
  case '>': return -1;
  default: return 0;
  }
}

static npuc_token char_token(npuc_lexer *lx, npuc_tok_kind kind, const char *p,
                             size_t len) {
  npuc_token t = {kind, p, len, lx->line, (int)(p - lx->line_begin) + 1, false};
  lx->cur = p + len;
  lx->peeked = false;
  return t;
}

/* A character scan, not a token one: types and attribute bodies are most of
 * the text, and only their brackets matter here. Strings and comments are
 * skipped; `->` and `>=` are not brackets. */
npuc_token npuc_skip_balanced(npuc_lexer *lx, char open) {
  /* The bytes the switch below acts on; runs of others (names, digits,
   * `x` of shapes) are stepped over a table lookup at a time. */
  static const bool acts[256] = {
      ['\n'] = true, ['"'] = true, ['/'] = true, ['-'] = true,
      ['('] = true,  ['['] = true, ['{'] = true, ['<'] = true,
      ['>'] = true,  [')'] = true, [']'] = true, ['}'] = true,
  };
  (void)open;
  int depth = 1;
  const char *p = lx->cur, *end = lx->end;
  lx->peeked = false;
  while (p < end) {
    if (!acts[(unsigned char)*p]) {
      ++p;
      continue;
    }
    switch (*p) {
    case '\n':
      lx->line++;
      lx->line_begin = ++p;
      continue;
    case '"': {
      const char *q = p + 1;
      while (q < end && *q != '"' && *q != '\n')
        q += (*q == '\\' && q + 1 < end) ? 2 : 1;
      if (q >= end || *q != '"')
        return char_token(lx, NPUC_TOK_ERROR, p, 1);
      p = q + 1;
      continue;
    }
    case '/':
      if (p + 1 < end && p[1] == '/')
        while (p < end && *p != '\n')
          ++p;
      else
        ++p;
      continue;
    case '-': p += (p + 1 < end && p[1] == '>') ? 2 : 1; continue;
    case '(':
    case '[':
    case '{':
    case '<':
      ++depth;
      ++p;
      continue;
    case '>':
      if (p + 1 < end && p[1] == '=') {
        p += 2;
        continue;
      }
      /* fall through */
    case ')':
    case ']':
    case '}':
      if (--depth == 0)
        return char_token(lx, NPUC_TOK_PUNCT, p, 1);
      ++p;
      continue;
    default: ++p;
    }
  }
  return char_token(lx, NPUC_TOK_EOF, end, 0);
}

/* Is `tok` immediately followed by '<' (no space), as in `memref<`? */
static bool npuc_next_is_angle(const npuc_lexer *lx, npuc_token tok) {
  return lx->cur < lx->end && *lx->cur == '<' && lx->cur == tok.start + tok.len;
}

bool npuc_skip_type(npuc_lexer *lx, const char **start, const char **end) {
  npuc_token t = npuc_peek(lx);
  *start = t.start;
  if (npuc_tok_punct(t, '(')) {
    npuc_lex(lx);
    npuc_token close = npuc_skip_balanced(lx, '(');
    if (!npuc_tok_punct(close, ')'))
      return false;
    *end = close.start + 1;
    if (npuc_peek(lx).kind == NPUC_TOK_ARROW) {
      npuc_lex(lx);
      const char *s2;
      return npuc_skip_type(lx, &s2, end);
    }
    return true;
  }
  if (t.kind != NPUC_TOK_BARE_ID && t.kind != NPUC_TOK_BANG_ID)
    return false;
  npuc_lex(lx);
  *end = t.start + t.len;
  if (npuc_next_is_angle(lx, t)) {
    lx->cur++; /* the '<', one byte right after the name: no need to lex */
    npuc_token close = npuc_skip_balanced(lx, '<');
    if (!npuc_tok_punct(close, '>'))
      return false;
    *end = close.start + 1;
  }
  return true;
}

static bool skip_attr_value_fast(npuc_lexer *lx, const char **start,
                                 const char **end, bool stop_at_colon);

bool npuc_skip_attr_value(npuc_lexer *lx, const char **start, const char **end,
                          bool stop_at_colon) {
  if (skip_attr_value_fast(lx, start, end, stop_at_colon))
    return true;
  int depth = 0;
  bool any = false;
  *start = *end = lx->cur;
  for (;;) {
    npuc_token t = npuc_peek(lx);
    if (t.kind == NPUC_TOK_EOF || t.kind == NPUC_TOK_ERROR)
      return any && depth == 0;
    if (depth == 0 && t.kind == NPUC_TOK_PUNCT &&
        (strchr(",)]}>", t.start[0]) || (stop_at_colon && t.start[0] == ':')))
      return any;
    npuc_lex(lx);
    if (!any)
      *start = t.start;
    any = true;
    depth += bracket_delta(t);
    *end = t.start + t.len;
    if (depth < 0)
      return false;
  }
}

static bool is_digit_char(char c) { return c >= '0' && c <= '9'; }

/* Bytes of names and numbers the fast scan below takes in one run. '$'
 * is left out: the lexer rejects it where a token would start (after
 * `%0` or `1.`), so a run holding one is the token loop's to read. */
static bool is_run_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit_char(c) ||
         c == '_' || c == '.';
}

/* npuc_skip_attr_value's loop, a byte at a time instead of a token at a
 * time: attribute values are most of the text it reads. It takes only
 * the plain cases, where it ends where the token loop would (brackets,
 * `->` and `>=`, strings, names, numbers, spaces and newlines), and returns
 * false, having changed nothing, on anything else (comments, `{-#`, a
 * byte the lexer rejects, the end of the text, an empty value), which the
 * token loop then reads. */
static bool skip_attr_value_fast(npuc_lexer *lx, const char **start,
                                 const char **end, bool stop_at_colon) {
  /* A peeked token has not moved the lexer: start where it starts. */
  const char *p = lx->cur, *e = lx->end, *first = NULL, *last = NULL;
  const char *line_begin = lx->line_begin, *last_line_begin = lx->line_begin;
  int depth = 0, lines = 0, last_lines = 0;
  while (p < e) {
    const char *tok = p;
    switch (*p) {
    case '\n':
      ++lines;
      line_begin = ++p;
      continue;
    case ' ':
    case '\t':
    case '\r': ++p; continue;
    case '"':
      for (++p; p < e && *p != '"' && *p != '\n';)
        p += *p == '\\' ? 2 : 1;
      if (p >= e || *p != '"')
        return false;
      ++p;
      break;
    case '-': p += p + 1 < e && p[1] == '>' ? 2 : 1; break;
    case '{':
      if (p + 1 < e && p[1] == '-')
        return false; /* {-# */
      /* fall through */
    case '(':
    case '[':
    case '<':
      ++depth;
      ++p;
      break;
    case '>':
      if (p + 1 < e && p[1] == '=') {
        p += 2;
        break;
      }
      /* fall through */
    case ')':
    case ']':
    case '}':
    case ',':
    case ':':
      if (depth == 0 && (*p != ':' || stop_at_colon)) {
        if (!first)
          return false;
        *start = first;
        *end = last;
        lx->cur = last;
        lx->peeked = false;
        lx->line += last_lines;
        lx->line_begin = last_line_begin;
        return true;
      }
      depth -= *p != ',' && *p != ':';
      ++p;
      break;
    case '=':
    case '?':
    case '*':
    case '+':
    case '|': ++p; break;
    case '%':
    case '#':
    case '!':
    case '^':
    case '@':
      /* a name (%0 is digits only); #-}, @"..", %x#1 and names with '-'
       * are the loop's */
      if (p + 1 >= e || !is_run_char(p[1]))
        return false;
      if (is_digit_char(p[1]))
        for (p += 2; p < e && is_digit_char(*p);)
          ++p;
      else
        for (p += 2; p < e && is_run_char(*p);)
          ++p;
      if (p < e && (*p == '-' || *p == '#' || *p == '$'))
        return false;
      break;
    default:
      /* a bare name or a number (a float's exponent sign is the '-' case:
       * no bracket either way) */
      if (!is_run_char(*p) || *p == '.')
        return false;
      while (p < e && is_run_char(*p))
        ++p;
      break;
    }
    if (!first)
      first = tok;
    last = p;
    last_lines = lines;
    last_line_begin = line_begin;
  }
  return false; /* the end of the text: the token loop decides */
}

bool npuc_is_table_op_name(const npuc_op_registry *reg, npuc_token tok) {
  return tok.kind == NPUC_TOK_BARE_ID &&
         npuc_op_owner(reg, tok.start, tok.len) != NULL;
}

bool npuc_brace_opens_region(const npuc_lexer *lx,
                             const npuc_op_registry *reg) {
  npuc_token a = npuc_peek(lx);
  if (npuc_tok_punct(a, '}'))
    return false;
  if (a.kind != NPUC_TOK_BARE_ID && a.kind != NPUC_TOK_STRING)
    return true;
  npuc_token b = npuc_peek2(lx);
  bool dict_like = npuc_tok_punct(b, '=') || npuc_tok_punct(b, ',') ||
                   npuc_tok_punct(b, '}');
  if (!dict_like)
    return true;
  /* `{ hivm.hir.set_mask_norm }` is a region holding one op; `{
   * hfusion.bind_sub_block }` (no such op) a unit attribute. */
  return a.kind == NPUC_TOK_BARE_ID && !npuc_tok_punct(b, '=') &&
         npuc_is_table_op_name(reg, a) &&
         npuc_op_lookup(reg, a.start, a.len) != NULL;
}

/* ---- contexts ---------------------------------------------------------- */

void npuc_ctx_push(npuc_ctx_stack *s, char kind) {
  if (s->len == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 32;
    s->kinds = realloc(s->kinds, s->cap);
  }
  s->kinds[s->len++] = kind;
}

char npuc_ctx_top(const npuc_ctx_stack *s) {
  return s->len ? s->kinds[s->len - 1] : 'r';
}

void npuc_ctx_pop(npuc_ctx_stack *s) {
  if (s->len)
    s->len--;
}

void npuc_ctx_free(npuc_ctx_stack *s) {
  free(s->kinds);
  s->kinds = NULL;
  s->len = s->cap = 0;
}

/* ---- type/attribute rewrites ------------------------------------------- */

typedef struct {
  npuc_textbuf *out;
  npuc_lexer lx;
  const char *copy; /* start of text not yet copied */
  int line0, col0;  /* source position of the span's first byte */
  npuc_direction dir;
  const npuc_op_registry *reg;
  npuc_source_form *form;
} span_rewriter;

static void flush_to(span_rewriter *r, const char *upto) {
  if (upto > r->copy)
    npuc_tb_append(r->out, r->copy, (size_t)(upto - r->copy));
  r->copy = upto;
}

static int orig_col(span_rewriter *r, npuc_token t) {
  return t.line == r->line0 ? t.col + r->col0 - 1 : t.col;
}

/* Re-synchronises the source map after replaced text: the next byte
 * copied is the one right after `last` (a single-line token or span). */
static void resync(span_rewriter *r, npuc_token last, size_t span_len) {
  npuc_tb_anchor(r->out, last.line, orig_col(r, last) + (int)span_len);
}

static bool ours_hash(const npuc_op_registry *reg, const char *s, size_t n) {
  /* "#hivm.address_space" -> namespace "hivm" */
  if (n < 2 || s[0] != '#')
    return false;
  const char *dot = memchr(s + 1, '.', n - 1);
  return dot && npuc_is_table_dialect(reg, s + 1, (size_t)(dot - s - 1));
}

static void rewrite_memref(span_rewriter *r);
static void rewrite_system_spec(span_rewriter *r, npuc_token head);

void npuc_rewrite_span(npuc_textbuf *out, const char *start, const char *end,
                       int line, int col, npuc_direction dir,
                       const npuc_op_registry *reg, npuc_source_form *form) {
  /* Most text has nothing to rewrite: copy it without lexing. Most spans
   * (SSA names, tensor types) lack an 'm' or a '#': two memchr cost less
   * than the memmem they spare. */
  size_t n = (size_t)(end - start);
  if (n < 7) { /* shorter than "memref<": an SSA name, a small type */
    npuc_tb_append(out, start, n);
    return;
  }
  if ((!memchr(start, 'm', n) || !memmem(start, n, "memref<", 7)) &&
      (!memchr(start, '#', n) ||
       !memmem(start, n, "#dlti.target_system_spec", 24))) {
    npuc_tb_append(out, start, n);
    return;
  }
  span_rewriter r = {out, {0}, start, line, col, dir, reg, form};
  npuc_lexer_init(&r.lx, start, n, line);
  for (;;) {
    npuc_token t = npuc_lex(&r.lx);
    if (t.kind == NPUC_TOK_EOF)
      break;
    if (npuc_tok_keyword(t, "memref") && npuc_next_is_angle(&r.lx, t))
      rewrite_memref(&r);
    else if (npuc_tok_is(t, NPUC_TOK_HASH_ID, "#dlti.target_system_spec") &&
             npuc_next_is_angle(&r.lx, t))
      rewrite_system_spec(&r, t);
  }
  flush_to(&r, end);
}

/* memref<4xf32, #hivm.address_space<ub>> <-> memref<4xf32,
 * "#hivm.address_space<ub>">: MLIR 22 rejects memory spaces of unregistered
 * dialects, but takes a string. */
static void rewrite_memref(span_rewriter *r) {
  npuc_lex(&r->lx); /* '<' */
  for (;;) {
    npuc_token first = npuc_peek(&r->lx);
    const char *ps, *pe;
    if (!npuc_skip_attr_value(&r->lx, &ps, &pe, false))
      return;
    bool quote = r->dir == NPUC_TO_MLIR && first.kind == NPUC_TOK_HASH_ID &&
                 ours_hash(r->reg, first.start, first.len) &&
                 !memchr(ps, '"', (size_t)(pe - ps)) &&
                 !memchr(ps, '\n', (size_t)(pe - ps));
    bool unquote = r->dir == NPUC_FROM_MLIR && first.kind == NPUC_TOK_STRING &&
                   pe == first.start + first.len &&
                   ours_hash(r->reg, first.start + 1, first.len - 2) &&
                   !memchr(first.start + 1, '\\', first.len - 2);
    if (quote || unquote) {
      flush_to(r, ps);
      if (quote) {
        npuc_tb_putc(r->out, '"');
        npuc_tb_append(r->out, ps, (size_t)(pe - ps));
        npuc_tb_putc(r->out, '"');
      } else {
        npuc_tb_append(r->out, ps + 1, (size_t)(pe - ps - 2));
      }
      r->copy = pe;
      resync(r, first, (size_t)(pe - ps));
    }
    npuc_token sep = npuc_lex(&r->lx);
    if (!npuc_tok_punct(sep, ','))
      return;
  }
}

typedef struct {
  const char *key_s, *key_e;
  const char *val_s, *val_e;
} spec_entry;

/* Reads `K sep V (, K sep V)*` up to the closing '>', where sep is ':' or
 * '=' (old and new DLTI), or `#dlti.dl_entry<K, V>` items. */
static size_t read_entries(npuc_lexer *lx, spec_entry *out, size_t max,
                           bool *legacy, npuc_token *close) {
  size_t n = 0;
  for (;;) {
    npuc_token t = npuc_peek(lx);
    if (npuc_tok_punct(t, '>')) {
      *close = npuc_lex(lx);
      return n;
    }
    spec_entry e = {0};
    if (npuc_tok_is(t, NPUC_TOK_HASH_ID, "#dlti.dl_entry")) {
      npuc_lex(lx);
      *legacy = true;
      if (!npuc_tok_punct(npuc_lex(lx), '<') ||
          !npuc_skip_attr_value(lx, &e.key_s, &e.key_e, false) ||
          !npuc_tok_punct(npuc_lex(lx), ',') ||
          !npuc_skip_attr_value(lx, &e.val_s, &e.val_e, false) ||
          !npuc_tok_punct(npuc_lex(lx), '>'))
        return (size_t)-1;
    } else if (t.kind == NPUC_TOK_STRING || t.kind == NPUC_TOK_BARE_ID) {
      /* The key is one token: "K" = 20 : i32 has a ':' in its value. */
      npuc_lex(lx);
      e.key_s = t.start;
      e.key_e = t.start + t.len;
      npuc_token sep = npuc_lex(lx);
      if (npuc_tok_punct(sep, ':'))
        *legacy = true;
      else if (!npuc_tok_punct(sep, '='))
        return (size_t)-1;
      if (!npuc_skip_attr_value(lx, &e.val_s, &e.val_e, false))
        return (size_t)-1;
    } else {
      return (size_t)-1;
    }
    if (n < max)
      out[n] = e;
    ++n;
    npuc_token sep = npuc_peek(lx);
    if (npuc_tok_punct(sep, ','))
      npuc_lex(lx);
    else if (!npuc_tok_punct(sep, '>'))
      return (size_t)-1;
  }
}

static void put_span(npuc_textbuf *tb, const char *s, const char *e) {
  npuc_tb_append(tb, s, (size_t)(e - s));
}

/* Emits one device spec value in the requested dialect form. */
static void emit_device_spec(span_rewriter *r, const char *vs, const char *ve) {
  npuc_lexer lx;
  npuc_lexer_init(&lx, vs, (size_t)(ve - vs), 1);
  npuc_token head = npuc_lex(&lx);
  bool is_spec =
      (npuc_tok_is(head, NPUC_TOK_HASH_ID, "#hacc.target_device_spec") ||
       npuc_tok_is(head, NPUC_TOK_HASH_ID, "#dlti.target_device_spec")) &&
      npuc_tok_punct(npuc_lex(&lx), '<');
  spec_entry items[256];
  bool legacy = false;
  npuc_token close;
  size_t n = is_spec ? read_entries(&lx, items, 256, &legacy, &close) : 0;
  if (!is_spec || n > 256) {
    put_span(r->out, vs, ve);
    return;
  }
  bool to_old = r->dir == NPUC_FROM_MLIR;
  npuc_tb_puts(r->out, to_old ? "#hacc.target_device_spec<"
                              : "#dlti.target_device_spec<");
  for (size_t i = 0; i < n; ++i) {
    if (i)
      npuc_tb_puts(r->out, ", ");
    if (to_old) {
      npuc_tb_puts(r->out, "#dlti.dl_entry<");
      put_span(r->out, items[i].key_s, items[i].key_e);
      npuc_tb_puts(r->out, ", ");
      put_span(r->out, items[i].val_s, items[i].val_e);
      npuc_tb_puts(r->out, ">");
    } else {
      put_span(r->out, items[i].key_s, items[i].key_e);
      npuc_tb_puts(r->out, " = ");
      put_span(r->out, items[i].val_s, items[i].val_e);
    }
  }
  npuc_tb_puts(r->out, ">");
}

/* #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<
 *     #dlti.dl_entry<"K", V>, ...>>   (older MLIR, as bishengir prints)
 * <-> #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"K" = V>> */
static void rewrite_system_spec(span_rewriter *r, npuc_token head) {
  npuc_lexer save = r->lx;
  npuc_lex(&r->lx); /* '<' */
  spec_entry devs[64];
  bool legacy = false;
  npuc_token close;
  size_t n = read_entries(&r->lx, devs, 64, &legacy, &close);
  bool convert = n <= 64 && (r->dir == NPUC_TO_MLIR
                                 ? legacy
                                 : r->form && r->form->legacy_target_spec);
  if (!convert) {
    r->lx = save;
    return;
  }
  if (r->dir == NPUC_TO_MLIR && r->form)
    r->form->legacy_target_spec = true;
  flush_to(r, head.start);
  npuc_tb_puts(r->out, "#dlti.target_system_spec<");
  for (size_t i = 0; i < n; ++i) {
    if (i)
      npuc_tb_puts(r->out, ", ");
    put_span(r->out, devs[i].key_s, devs[i].key_e);
    npuc_tb_puts(r->out, r->dir == NPUC_TO_MLIR ? " = " : " : ");
    emit_device_spec(r, devs[i].val_s, devs[i].val_e);
  }
  npuc_tb_puts(r->out, ">");
  r->copy = close.start + 1;
  resync(r, close, 1);
}
