/* MLIR's printout -> custom syntax.
 *
 * MLIR prints our (unregistered) ops generically:
 *   %0 = "hivm.hir.vadd"(%a, %b, %c) {attrs} : (T, T, T) -> T
 * Each such op is re-rendered with its table's format; regions are
 * converted recursively. Legacy forms are restored when the input had them.
 * An op whose operands do not fit its table stays generic, so printing
 * never loses information. */
#define _GNU_SOURCE /* memmem */
#include "SyntaxInternal.h"
#include "npuc/Alloc.h"
#include "npuc/PtrSet.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const npuc_op_registry *reg;
  const npuc_source_form *form;
  npuc_source_form form_copy; /* npuc_rewrite_span wants a mutable form */
  npuc_textbuf *out;
  npuc_lexer lx;
  const char *copy;
  /* The '}' closing each '{' of the whole text, found in one scan the
   * first time one of our ops has a region: a region's end is looked up,
   * not scanned for, at every nesting level (MLIR indents nested regions,
   * so rescanning would be cubic). */
  struct brace_table *braces;
  bool any_legacy_op; /* the input used an upstream op MLIR 22 dropped */
  npuc_legacy_aliases *aliases;
  /* Per nesting depth of our ops (regions are rendered while their op is
   * open), the buffers of the op being read, kept from one op to the next
   * (see take_scratch). */
  struct generic_scratch *scratch;
  size_t scratch_depth, num_scratch;
} from_mlir;

struct brace_table {
  const char *text;
  size_t len;
  bool built;
  npuc_ptr_map ends;
};

typedef struct {
  const char *s, *e;
} span;

typedef struct {
  span *items;
  size_t len, cap;
} span_list;

typedef struct {
  span name;  /* without quotes for strings */
  span value; /* empty for unit attributes */
  span whole;
  bool used;
  bool at_default; /* equal to the table's default: printed nowhere */
} dict_entry;

typedef struct {
  const npuc_op_def *def;
  span_list operands, operand_types, result_types;
  span_list regions; /* each from '{' to '}' inclusive */
  dict_entry *attrs;
  size_t num_attrs, cap_attrs;
  span loc;
  /* region-args printed region `args_region`'s entry label: its body is
   * rendered from `args_body` on (-1: none). */
  int args_region;
  const char *args_body;
  size_t *group_first, *group_count;
  size_t *result_first, *result_count;
} generic_op;

struct generic_scratch {
  generic_op g; /* its buffers; group_first holds all four group arrays */
  size_t cap_groups;
};

typedef enum { LAST_WORD, LAST_OPEN, LAST_VALUE, LAST_OTHER } last_kind;

typedef struct {
  from_mlir *st;
  generic_op *g;
  npuc_textbuf *out;
  last_kind last;
} renderer;

static void convert_lines(from_mlir *st, const char *start, const char *end);
static const char *statement_name(const char *p, const char *line_end);
static bool try_render_op(from_mlir *st, npuc_token name);
static void find_brace_ends(const char *text, size_t len, npuc_ptr_map *ends);
static npuc_token skip_region(const from_mlir *st, npuc_lexer *lx,
                              npuc_token open);
static bool strip_legacy_to_tensor(from_mlir *st, npuc_token name);
static bool restore_legacy_op(from_mlir *st, npuc_token name);
static size_t rename_forall_mappings(char *text, size_t len);
static void free_scratch(from_mlir *st);

char *npuc_syntax_from_mlir(const npuc_op_registry *registry, const char *text,
                            size_t len, const npuc_source_form *form,
                            size_t *out_len) {
  npuc_textbuf out;
  npuc_tb_init(&out, len + 64, 1, NULL);
  from_mlir st;
  memset(&st, 0, sizeof st);
  st.reg = registry;
  st.form = form;
  if (form)
    st.form_copy = *form;
  st.out = &out;
  struct brace_table braces = {text, len, false, {0}};
  st.braces = &braces;
  st.any_legacy_op =
      form && (form->legacy_elemwise || form->legacy_matmul_transpose ||
               form->legacy_to_memref || form->legacy_vector);
  if (st.any_legacy_op)
    st.aliases = npuc_legacy_aliases_new(text, len);
  convert_lines(&st, text, text + len);
  npuc_ptr_map_free(&braces.ends);
  free_scratch(&st);
  size_t n;
  char *result = npuc_tb_take(&out, &n);
  if (npuc_legacy_aliases_dropped(st.aliases))
    n = npuc_legacy_drop_unused_aliases(st.aliases, result, n);
  npuc_legacy_aliases_free(st.aliases);
  if (form && form->forall_mapping)
    n = rename_forall_mappings(result, n);
  if (out_len)
    *out_len = n;
  return result;
}

/* `npuc.forall_mapping = ` (ToMLIR.c's stand-in for an scf.forall mapping
 * of our attributes) -> `mapping = `, in place. */
static size_t rename_forall_mappings(char *text, size_t len) {
  static const char standin[] = "npuc.forall_mapping = ";
  const size_t sn = sizeof standin - 1, drop = sizeof "npuc.forall_" - 1;
  char *w = text;
  const char *r = text, *end = text + len;
  for (const char *hit; (hit = memmem(r, (size_t)(end - r), standin, sn));) {
    memmove(w, r, (size_t)(hit - r));
    w += hit - r;
    r = hit + drop;
  }
  memmove(w, r, (size_t)(end - r));
  w += end - r;
  *w = '\0';
  return (size_t)(w - text);
}

/* Pairs every '{' with its '}' as npuc_skip_balanced would: strings and
 * `//` comments skipped. Unbalanced braces are left out (their regions
 * are then scanned for, as before). */
static void find_brace_ends(const char *text, size_t len, npuc_ptr_map *ends) {
  size_t cap = 64, depth = 0;
  const char **open = npuc_xmalloc(cap * sizeof *open);
  for (const char *p = text, *end = text + len; p < end; p++) {
    if (*p == '"') {
      for (p++; p < end && *p != '"' && *p != '\n'; p++)
        p += *p == '\\' && p + 1 < end;
    } else if (*p == '/' && p + 1 < end && p[1] == '/') {
      while (p + 1 < end && p[1] != '\n')
        p++;
    } else if (*p == '{') {
      if (depth == cap)
        open = npuc_xreallocarray(open, cap *= 2, sizeof *open);
      open[depth++] = p;
    } else if (*p == '}' && depth) {
      npuc_ptr_map_put(ends, open[--depth], (uintptr_t)p);
    }
  }
  free(open);
}

/* Skips the region body opening at `open` (already lexed), as
 * npuc_skip_balanced does, through the table when it knows the brace. */
static npuc_token skip_region(const from_mlir *st, npuc_lexer *lx,
                              npuc_token open) {
  struct brace_table *b = st->braces;
  if (!b->built) {
    find_brace_ends(b->text, b->len, &b->ends);
    b->built = true;
  }
  uintptr_t close;
  if (!npuc_ptr_map_get(&b->ends, open.start, &close))
    return npuc_skip_balanced(lx, '{');
  /* Line numbers are left behind: printing never reads them past a
   * region (convert_lines starts a fresh lexer at every op). */
  lx->cur = (const char *)close;
  lx->peeked = false;
  return npuc_lex(lx);
}

static void flush(from_mlir *st, const char *upto) {
  if (upto > st->copy)
    npuc_rewrite_span(st->out, st->copy, upto, 1, 1, NPUC_FROM_MLIR, st->reg,
                      &st->form_copy);
  if (upto > st->copy)
    st->copy = upto;
}

/* MLIR's printer starts every op on a line of its own, so a statement is
 * the start of a line, after its result names. Only lines that hold one of
 * our ops (or a legacy to_tensor) are lexed; everything else is copied. */
static void convert_lines(from_mlir *st, const char *start, const char *end) {
  st->copy = start;
  const char *p = start;
  while (p < end) {
    const char *line_end = memchr(p, '\n', (size_t)(end - p));
    if (!line_end)
      line_end = end;
    const char *name = statement_name(p, line_end);
    if (name && (*name == '"' ||
                 (st->form && st->form->legacy_to_tensor && *name == 'b') ||
                 (st->any_legacy_op &&
                  (*name == 'l' || *name == 'b' || *name == 'v')))) {
      npuc_lexer_init(&st->lx, name, (size_t)(end - name), 1);
      npuc_token tok = npuc_lex(&st->lx);
      bool done =
          tok.kind == NPUC_TOK_STRING
              ? try_render_op(st, tok)
              : strip_legacy_to_tensor(st, tok) || restore_legacy_op(st, tok);
      if (done) {
        /* Whatever follows the op on its last line is not a statement. */
        const char *rest = memchr(st->copy, '\n', (size_t)(end - st->copy));
        p = rest ? rest + 1 : end;
        continue;
      }
    }
    p = line_end + 1;
  }
  flush(st, end);
}

/* Where the op name of the statement on [p, line_end) starts, past
 * indentation and `%a, %b:2 = `; NULL if the line starts no op. */
static const char *statement_name(const char *p, const char *line_end) {
  while (p < line_end && (*p == ' ' || *p == '\t'))
    ++p;
  if (p >= line_end || *p != '%')
    return p < line_end ? p : NULL;
  for (;;) {
    ++p; /* '%' */
    while (p < line_end && (isalnum((unsigned char)*p) || *p == '_' ||
                            *p == '$' || *p == '.' || *p == '-' || *p == '#'))
      ++p;
    if (p < line_end && *p == ':')
      for (++p; p < line_end && isdigit((unsigned char)*p);)
        ++p;
    if (p + 2 < line_end && p[0] == ',' && p[1] == ' ' && p[2] == '%') {
      p += 2;
      continue;
    }
    if (line_end - p > 3 && memcmp(p, " = ", 3) == 0)
      return p + 3;
    return NULL;
  }
}

/* `: memref<..> to tensor<..>` -> `: memref<..>` when the input was old. */
static bool strip_legacy_to_tensor(from_mlir *st, npuc_token name) {
  if (!st->form || !st->form->legacy_to_tensor ||
      !npuc_tok_keyword(name, "bufferization.to_tensor"))
    return false;
  npuc_lexer lx = st->lx;
  for (;;) {
    npuc_token t = npuc_lex(&lx);
    if (t.kind == NPUC_TOK_EOF || t.line != name.line)
      return false;
    if (npuc_tok_punct(t, '{') &&
        !npuc_tok_punct(npuc_skip_balanced(&lx, '{'), '}'))
      return false;
    if (npuc_tok_punct(t, ':'))
      break;
  }
  const char *ts, *te;
  if (!npuc_skip_type(&lx, &ts, &te) || !npuc_tok_keyword(npuc_peek(&lx), "to"))
    return false;
  npuc_lex(&lx);
  const char *rs, *re;
  if (!npuc_skip_type(&lx, &rs, &re))
    return false;
  flush(st, te);
  st->copy = re;
  st->lx = lx;
  return true;
}

/* An MLIR 22 op that stands for an older upstream op the input used
 * (LegacyOps.c) is printed back in the old form. */
static bool restore_legacy_op(from_mlir *st, npuc_token name) {
  if (!st->any_legacy_op || name.kind != NPUC_TOK_BARE_ID ||
      !npuc_legacy_printed_name(name.start, name.len))
    return false;
  npuc_sb repl = {0};
  npuc_lexer lx = st->lx;
  bool ok = npuc_legacy_restore(name, &lx, st->form, st->aliases, &repl);
  if (ok) {
    flush(st, name.start);
    npuc_tb_append(st->out, repl.data, repl.len);
    st->copy = lx.cur;
    st->lx = lx;
  }
  npuc_sb_free(&repl);
  return ok;
}

/* ---- parsing the generic form ------------------------------------------- */

static void sl_push(span_list *l, const char *s, const char *e) {
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    l->items = realloc(l->items, l->cap * sizeof *l->items);
  }
  l->items[l->len++] = (span){s, e};
}

/* An empty op for `def` in this depth's buffers; the caller gives them
 * back with give_back_scratch. */
static void take_scratch(from_mlir *st, generic_op *g, const npuc_op_def *def) {
  if (st->scratch_depth == st->num_scratch) {
    st->scratch = npuc_xreallocarray(st->scratch, st->num_scratch + 1,
                                     sizeof *st->scratch);
    memset(&st->scratch[st->num_scratch++], 0, sizeof *st->scratch);
  }
  struct generic_scratch *sc = &st->scratch[st->scratch_depth++];
  size_t groups = 2 * (def->num_operands + 1) + 2 * (def->num_results + 1);
  if (sc->cap_groups < groups) {
    sc->g.group_first =
        npuc_xreallocarray(sc->g.group_first, groups, sizeof(size_t));
    sc->cap_groups = groups;
  }
  memset(sc->g.group_first, 0, groups * sizeof(size_t));
  memset(g, 0, sizeof *g);
  g->def = def;
  g->args_region = -1;
  g->operands = sc->g.operands;
  g->operand_types = sc->g.operand_types;
  g->result_types = sc->g.result_types;
  g->regions = sc->g.regions;
  g->operands.len = g->operand_types.len = g->result_types.len =
      g->regions.len = 0;
  g->attrs = sc->g.attrs;
  g->cap_attrs = sc->g.cap_attrs;
  g->group_first = sc->g.group_first;
  g->group_count = g->group_first + def->num_operands + 1;
  g->result_first = g->group_count + def->num_operands + 1;
  g->result_count = g->result_first + def->num_results + 1;
}

/* Nested ops may have grown the array of depths: found again by index. */
static void give_back_scratch(from_mlir *st, const generic_op *g) {
  struct generic_scratch *sc = &st->scratch[--st->scratch_depth];
  sc->g.operands = g->operands;
  sc->g.operand_types = g->operand_types;
  sc->g.result_types = g->result_types;
  sc->g.regions = g->regions;
  sc->g.attrs = g->attrs;
  sc->g.cap_attrs = g->cap_attrs;
}

static void free_scratch(from_mlir *st) {
  for (size_t d = 0; d < st->num_scratch; ++d) {
    generic_op *g = &st->scratch[d].g;
    free(g->operands.items);
    free(g->operand_types.items);
    free(g->result_types.items);
    free(g->regions.items);
    free(g->attrs);
    free(g->group_first);
  }
  free(st->scratch);
}

static bool parse_type_list(npuc_lexer *lx, span_list *out, char close) {
  if (npuc_tok_punct(npuc_peek(lx), close)) {
    npuc_lex(lx);
    return true;
  }
  for (;;) {
    const char *s, *e;
    if (!npuc_skip_type(lx, &s, &e))
      return false;
    sl_push(out, s, e);
    npuc_token t = npuc_lex(lx);
    if (npuc_tok_punct(t, close))
      return true;
    if (!npuc_tok_punct(t, ','))
      return false;
  }
}

static bool parse_dict(npuc_lexer *lx, generic_op *g) {
  if (npuc_tok_punct(npuc_peek(lx), '}')) {
    npuc_lex(lx);
    return true;
  }
  for (;;) {
    npuc_token key = npuc_lex(lx);
    if (key.kind != NPUC_TOK_BARE_ID && key.kind != NPUC_TOK_STRING)
      return false;
    dict_entry d = {0};
    d.name = key.kind == NPUC_TOK_STRING
                 ? (span){key.start + 1, key.start + key.len - 1}
                 : (span){key.start, key.start + key.len};
    d.whole.s = key.start;
    d.whole.e = key.start + key.len;
    if (npuc_tok_punct(npuc_peek(lx), '=')) {
      npuc_lex(lx);
      if (!npuc_skip_attr_value(lx, &d.value.s, &d.value.e, false))
        return false;
      d.whole.e = d.value.e;
    }
    if (g->num_attrs == g->cap_attrs) {
      g->cap_attrs = g->cap_attrs ? g->cap_attrs * 2 : 8;
      g->attrs = npuc_xreallocarray(g->attrs, g->cap_attrs, sizeof *g->attrs);
    }
    g->attrs[g->num_attrs++] = d;
    npuc_token t = npuc_lex(lx);
    if (npuc_tok_punct(t, '}'))
      return true;
    if (!npuc_tok_punct(t, ','))
      return false;
  }
}

static bool parse_generic(const from_mlir *st, npuc_lexer *lx, generic_op *g) {
  if (!npuc_tok_punct(npuc_lex(lx), '('))
    return false;
  if (!npuc_tok_punct(npuc_peek(lx), ')')) {
    for (;;) {
      npuc_token v = npuc_lex(lx);
      if (v.kind != NPUC_TOK_PERCENT_ID)
        return false;
      sl_push(&g->operands, v.start, v.start + v.len);
      npuc_token t = npuc_peek(lx);
      if (!npuc_tok_punct(t, ','))
        break;
      npuc_lex(lx);
    }
  }
  if (!npuc_tok_punct(npuc_lex(lx), ')'))
    return false;
  if (npuc_tok_punct(npuc_peek(lx), '(') &&
      npuc_tok_punct(npuc_peek2(lx), '{')) {
    npuc_lex(lx);
    for (;;) {
      npuc_token open = npuc_lex(lx);
      if (!npuc_tok_punct(open, '{'))
        return false;
      npuc_token close = skip_region(st, lx, open);
      if (!npuc_tok_punct(close, '}'))
        return false;
      sl_push(&g->regions, open.start, close.start + 1);
      npuc_token t = npuc_lex(lx);
      if (npuc_tok_punct(t, ')'))
        break;
      if (!npuc_tok_punct(t, ','))
        return false;
    }
  }
  if (npuc_tok_punct(npuc_peek(lx), '{')) {
    npuc_lex(lx);
    if (!parse_dict(lx, g))
      return false;
  }
  if (!npuc_tok_punct(npuc_lex(lx), ':') ||
      !npuc_tok_punct(npuc_lex(lx), '(') ||
      !parse_type_list(lx, &g->operand_types, ')') ||
      npuc_lex(lx).kind != NPUC_TOK_ARROW)
    return false;
  if (npuc_tok_punct(npuc_peek(lx), '(')) {
    npuc_lex(lx);
    if (!parse_type_list(lx, &g->result_types, ')'))
      return false;
  } else {
    const char *s, *e;
    if (!npuc_skip_type(lx, &s, &e))
      return false;
    sl_push(&g->result_types, s, e);
  }
  if (npuc_tok_keyword(npuc_peek(lx), "loc") &&
      npuc_tok_punct(npuc_peek2(lx), '(')) {
    npuc_token l = npuc_lex(lx);
    npuc_lex(lx);
    npuc_token close = npuc_skip_balanced(lx, '(');
    if (!npuc_tok_punct(close, ')'))
      return false;
    g->loc = (span){l.start, close.start + 1};
  }
  return g->operands.len == g->operand_types.len;
}

static dict_entry *find_attr(generic_op *g, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i < g->num_attrs; ++i)
    if ((size_t)(g->attrs[i].name.e - g->attrs[i].name.s) == n &&
        memcmp(g->attrs[i].name.s, name, n) == 0)
      return &g->attrs[i];
  return NULL;
}

/* Splits operands (and results) into the table's groups: first[] and
 * count[] (ndefs each) are filled. */
static bool assign_groups(const npuc_value_def *defs, size_t ndefs,
                          size_t total, dict_entry *segments, size_t *first,
                          size_t *count) {
  if (segments) {
    /* array<i32: 2, 1> */
    const char *p = segments->value.s, *e = segments->value.e;
    if (!p || p >= e) /* a segment attribute without a value */
      return false;
    const char *colon = memchr(p, ':', (size_t)(e - p));
    size_t at = 0, g = 0;
    p = colon ? colon + 1 : e;
    while (p < e && g < ndefs) {
      while (p < e && (*p == ' ' || *p == ','))
        ++p;
      if (p >= e || *p < '0' || *p > '9')
        break;
      size_t n = 0;
      for (; p < e && *p >= '0' && *p <= '9'; ++p) {
        if (n > total) /* more than there are: no fit, and no overflow */
          return false;
        n = n * 10 + (size_t)(*p - '0');
      }
      first[g] = at;
      count[g] = n;
      at += n;
      ++g;
    }
    return g == ndefs && at == total;
  }
  size_t fixed = 0, flexible = 0;
  for (size_t i = 0; i < ndefs; ++i) {
    if (defs[i].variadic || defs[i].optional)
      ++flexible;
    else
      ++fixed;
  }
  if (flexible > 1 || total < fixed || (flexible == 0 && total != fixed))
    return false;
  size_t at = 0;
  for (size_t i = 0; i < ndefs; ++i) {
    size_t n = (defs[i].variadic || defs[i].optional) ? total - fixed : 1;
    if (defs[i].optional && !defs[i].variadic && n > 1)
      return false;
    first[i] = at;
    count[i] = n;
    at += n;
  }
  return true;
}

/* ---- rendering ---------------------------------------------------------- */

static bool render_elems(renderer *r, const npuc_fmt_elem *e, size_t n);

static void put(renderer *r, const char *s, size_t n) {
  npuc_tb_append(r->out, s, n);
}

/* Types and attribute values go through the same rewrites as the rest of
 * the printout (memory spaces, legacy DLTI). */
static void put_span(renderer *r, span s) {
  npuc_rewrite_span(r->out, s.s, s.e, 1, 1, NPUC_FROM_MLIR, r->st->reg,
                    &r->st->form_copy);
}

/* Spacing follows ODS, as bishengir and mlir-aie print: `ins(`, `ctrl[`,
 * `sync_block_set[`, `%m[` but `= [`, `: (`; nothing before `)` `]` `>`
 * `,`. */
static void space_for_literal(renderer *r, const char *lit) {
  char c = lit[0];
  bool single = lit[1] == '\0';
  if (single && (c == ')' || c == ']' || c == '>' || c == ','))
    return;
  if (single && (c == '(' || c == '[' || c == '<')) {
    if (r->last == LAST_OTHER)
      put(r, " ", 1);
    return;
  }
  if (r->last != LAST_OPEN)
    put(r, " ", 1);
}

static void emit_literal(renderer *r, const char *lit) {
  char c = lit[0];
  bool single = c && lit[1] == '\0';
  if (single && c == ' ') { /* ODS's ` `: one space, and no other */
    put(r, " ", 1);
    r->last = LAST_OPEN;
    return;
  }
  if (!c) { /* ``: nothing, and no space before the next element */
    r->last = LAST_OPEN;
    return;
  }
  space_for_literal(r, lit);
  put(r, lit, single ? 1 : strlen(lit));
  bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  r->last = word                                             ? LAST_WORD
            : (single && (c == '(' || c == '[' || c == '<')) ? LAST_OPEN
                                                             : LAST_OTHER;
}

static void space_for_value(renderer *r) {
  if (r->last != LAST_OPEN)
    put(r, " ", 1);
  r->last = LAST_VALUE;
}

static bool var_present(renderer *r, const npuc_fmt_elem *e) {
  generic_op *g = r->g;
  switch (e->kind) {
  case NPUC_FMT_VAR:
  case NPUC_FMT_TYPE:
    switch (e->var_class) {
    case NPUC_VAR_OPERAND: return g->group_count[e->var_index] > 0;
    case NPUC_VAR_RESULT: return g->result_count[e->var_index] > 0;
    case NPUC_VAR_ATTR: {
      const dict_entry *d = find_attr(g, g->def->attrs[e->var_index].name);
      return d && !d->at_default;
    }
    case NPUC_VAR_REGION: return (size_t)e->var_index < g->regions.len;
    }
    return false;
  case NPUC_FMT_REGION_ARGS: return (size_t)e->var_index < g->regions.len;
  case NPUC_FMT_ATTR_DICT:
  case NPUC_FMT_ATTR_DICT_KW:
    for (size_t i = 0; i < g->num_attrs; ++i)
      if (!g->attrs[i].used)
        return true;
    return false;
  case NPUC_FMT_OPTIONAL:
  case NPUC_FMT_ALTERNATIVES:
    for (size_t i = 0; i < e->num_children; ++i)
      if (var_present(r, &e->children[i]))
        return true;
    return false;
  case NPUC_FMT_LITERAL: return false;
  case NPUC_FMT_DYN_INDEX_LIST:
    return find_attr(g, g->def->attrs[e->attr_index].name) != NULL;
  }
  return false;
}

/* An optional group prints when its anchor (or, without one, any of its
 * variables) is present. */
static bool group_present(renderer *r, const npuc_fmt_elem *e) {
  for (size_t i = 0; i < e->num_children; ++i)
    if (e->children[i].anchor)
      return var_present(r, &e->children[i]);
  for (size_t i = 0; i < e->num_children; ++i)
    if (e->children[i].kind != NPUC_FMT_LITERAL &&
        var_present(r, &e->children[i]))
      return true;
  return false;
}

static bool branch_present(renderer *r, const npuc_fmt_elem *e, size_t begin,
                           size_t end) {
  bool any_var = false;
  for (size_t i = begin; i < end; ++i) {
    const npuc_fmt_elem *c = &e->children[i];
    if (c->kind == NPUC_FMT_LITERAL || c->kind == NPUC_FMT_OPTIONAL)
      continue;
    any_var = true;
    if (!var_present(r, c))
      return false;
  }
  return any_var;
}

static void render_list(renderer *r, span_list *l, size_t first, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (i)
      put(r, ", ", 2);
    put_span(r, l->items[first + i]);
  }
}

/* "name" -> @name, or @"any text" when the name is no bare identifier. */
static void render_symbol_name(renderer *r, span v) {
  size_t n = (size_t)(v.e - v.s);
  bool bare = n > 2 && v.s[0] == '"' && v.s[n - 1] == '"' &&
              (isalpha((unsigned char)v.s[1]) || v.s[1] == '_');
  for (size_t i = 1; bare && i + 1 < n; ++i)
    bare = isalnum((unsigned char)v.s[i]) || strchr("_$.-", v.s[i]);
  put(r, "@", 1);
  if (bare)
    put(r, v.s + 1, n - 2);
  else
    put_span(r, v);
}

/* Generic attribute text -> custom form, by kind. */
static void render_attr_value(renderer *r, const npuc_attr_def *a, span v) {
  size_t n = (size_t)(v.e - v.s);
  switch (a->kind) {
  case NPUC_AK_INT: {
    const char *colon = memchr(v.s, ':', n);
    const char *end = colon ? colon : v.e;
    while (end > v.s && end[-1] == ' ')
      --end;
    /* `1 : i16` keeps a type other than the table's */
    const char *ty = colon ? colon + 1 : v.e;
    while (ty < v.e && *ty == ' ')
      ++ty;
    size_t nt = (size_t)(v.e - ty);
    bool own =
        nt && (strlen(a->int_type) != nt || memcmp(a->int_type, ty, nt) != 0);
    put(r, v.s, (size_t)((own ? v.e : end) - v.s));
    return;
  }
  case NPUC_AK_I64_ARRAY:
  case NPUC_AK_I32_ARRAY: {
    const char *colon = memchr(v.s, ':', n);
    put(r, "[", 1);
    if (colon) {
      const char *s = colon + 1;
      while (s < v.e && *s == ' ')
        ++s;
      put(r, s, (size_t)(v.e - 1 - s)); /* drop the closing '>' */
    }
    put(r, "]", 1);
    return;
  }
  case NPUC_AK_KEYWORD:
    if (n >= 2 && v.s[0] == '"') { /* "t16_4x8" -> t16_4x8 */
      put(r, v.s + 1, n - 2);
      return;
    }
    put_span(r, v);
    return;
  case NPUC_AK_SYMBOL_NAME: render_symbol_name(r, v); return;
  case NPUC_AK_ENUM: {
    size_t plen = strlen(a->enum_prefix);
    if (n > plen && memcmp(v.s, a->enum_prefix, plen) == 0 &&
        v.s[plen] == '<') {
      put(r, v.s + plen, n - plen);
      return;
    }
    put_span(r, v);
    return;
  }
  default: put_span(r, v);
  }
}

static void render_attr_dict(renderer *r, bool keyword) {
  generic_op *g = r->g;
  bool any = false;
  for (size_t i = 0; i < g->num_attrs; ++i)
    any |= !g->attrs[i].used;
  if (!any)
    return;
  space_for_value(r);
  if (keyword)
    put(r, "attributes ", 11);
  put(r, "{", 1);
  bool first = true;
  for (size_t i = 0; i < g->num_attrs; ++i) {
    if (g->attrs[i].used)
      continue;
    if (!first)
      put(r, ", ", 2);
    put_span(r, g->attrs[i].whole);
    first = false;
  }
  put(r, "}", 1);
}

static void render_region(renderer *r, span region, bool args_printed) {
  space_for_value(r);
  from_mlir sub = *r->st;
  sub.out = r->out;
  if (args_printed) { /* the entry label went to region-args */
    put(r, "{", 1);
    region.s = r->g->args_body;
  }
  convert_lines(&sub, region.s, region.e);
  /* The region's ops may have grown the scratch: it is shared. */
  r->st->scratch = sub.scratch;
  r->st->num_scratch = sub.num_scratch;
}

/* region-args($r): MLIR labels an entry block with arguments
 * `^bb0(%arg0: i32, %arg1: memref<i32>):`; that list is printed here as
 * `(%arg0: i32, %arg1: memref<i32>)` (`()` for none) and the label left out
 * of the region. False (the op stays generic) for a label it cannot read. */
static bool render_region_args(renderer *r, const npuc_fmt_elem *e) {
  generic_op *g = r->g;
  span region = g->regions.items[e->var_index];
  const char *p = region.s + 1;
  while (p < region.e && isspace((unsigned char)*p))
    ++p;
  emit_literal(r, "(");
  if (p < region.e && *p == '^') {
    npuc_lexer lx;
    npuc_lexer_init(&lx, p, (size_t)(region.e - p), 1);
    npuc_lex(&lx); /* ^bb0 */
    npuc_token open = npuc_lex(&lx);
    if (!npuc_tok_punct(open, '('))
      return false;
    npuc_token close = npuc_skip_balanced(&lx, '(');
    if (!npuc_tok_punct(close, ')') || !npuc_tok_punct(npuc_lex(&lx), ':'))
      return false;
    put_span(r, (span){open.start + 1, close.start});
    g->args_region = e->var_index;
    g->args_body = lx.cur;
  }
  emit_literal(r, ")");
  return true;
}

/* The next top-level entry of a list `a, {b, c}, [d]` from *p (before
 * end): its span, trimmed; *p moves past its comma. False at the end. */
static bool next_entry(const char **p, const char *end, span *out) {
  const char *q = *p;
  while (q < end && (*q == ' ' || *q == ','))
    ++q;
  if (q >= end)
    return false;
  const char *start = q;
  int depth = 0;
  bool quoted = false;
  for (; q < end && (quoted || depth > 0 || *q != ','); ++q) {
    if (quoted) {
      quoted = *q != '"' || q[-1] == '\\';
      continue;
    }
    quoted = *q == '"';
    depth += *q == '{' || *q == '[' || *q == '(' || *q == '<';
    depth -= *q == '}' || *q == ']' || *q == ')' || *q == '>';
  }
  const char *stop = q;
  while (stop > start && stop[-1] == ' ')
    --stop;
  *out = (span){start, stop};
  *p = q;
  return true;
}

/* type($group, $attr): true when $attr is an array of exactly one
 * dictionary per value of the group, each put in dicts[] (at most 64):
 * then the types print as `T {k = v}, U` (empty dictionaries not written)
 * and the attribute is not in attr-dict; else types alone. */
static bool type_attrs_fit(renderer *r, const npuc_fmt_elem *e, span *dicts) {
  generic_op *g = r->g;
  size_t n = g->group_count[e->var_index];
  dict_entry *d = find_attr(g, g->def->attrs[e->attr_index].name);
  if (!d || n == 0 || n > 64 || d->value.e - d->value.s < 2 ||
      d->value.s[0] != '[' || d->value.e[-1] != ']')
    return false;
  size_t count = 0;
  const char *p = d->value.s + 1;
  for (span one; count <= n && next_entry(&p, d->value.e - 1, &one);) {
    if (one.e - one.s < 2 || one.s[0] != '{' || count == n)
      return false;
    dicts[count++] = one;
  }
  return count == n;
}

static void render_types_with_attrs(renderer *r, const npuc_fmt_elem *e,
                                    const span *dicts) {
  generic_op *g = r->g;
  size_t first = g->group_first[e->var_index];
  space_for_value(r);
  for (size_t i = 0; i < g->group_count[e->var_index]; ++i) {
    if (i)
      put(r, ", ", 2);
    put_span(r, g->operand_types.items[first + i]);
    if (dicts[i].e - dicts[i].s > 2) {
      put(r, " ", 1);
      put_span(r, dicts[i]);
    }
  }
}

/* array<i64: 4, INT64_MIN, 8> and operands (%n) -> `[4, %n, 8]`. False
 * (the op stays generic) when the attribute and the group disagree. */
static bool render_dyn_index_list(renderer *r, const npuc_fmt_elem *e) {
  generic_op *g = r->g;
  dict_entry *d = find_attr(g, g->def->attrs[e->attr_index].name);
  if (!d)
    return false;
  d->used = true;
  const char *p = memchr(d->value.s, ':', (size_t)(d->value.e - d->value.s));
  p = p ? p + 1 : d->value.e - 1;
  size_t next = g->group_first[e->var_index];
  size_t left = g->group_count[e->var_index];
  space_for_value(r);
  put(r, "[", 1);
  bool first = true;
  while (p < d->value.e - 1) { /* before the closing '>' */
    while (*p == ' ' || *p == ',')
      ++p;
    const char *q = p;
    while (q < d->value.e - 1 && *q != ',')
      ++q;
    const char *end = q;
    while (end > p && end[-1] == ' ')
      --end;
    if (end == p)
      break;
    if (!first)
      put(r, ", ", 2);
    first = false;
    static const char dyn[] = "-9223372036854775808";
    if ((size_t)(end - p) == sizeof dyn - 1 &&
        !memcmp(p, dyn, sizeof dyn - 1)) {
      if (!left--)
        return false;
      put_span(r, g->operands.items[next++]);
    } else {
      put(r, p, (size_t)(end - p));
    }
    p = q;
  }
  put(r, "]", 1);
  r->last = LAST_OTHER;
  return left == 0;
}

/* stripped-type($name, `prefix`) in a module that wrote it stripped: the
 * type without its prefix (`<1>`; nothing for the bare prefix). False
 * when the type has another spelling: it prints whole. */
static bool render_stripped_type(renderer *r, span type, const char *prefix) {
  size_t n = strlen(prefix);
  if ((size_t)(type.e - type.s) < n || memcmp(type.s, prefix, n) != 0 ||
      (type.s + n < type.e && type.s[n] != '<'))
    return false;
  space_for_value(r);
  if (type.s + n < type.e)
    put_span(r, (span){type.s + n, type.e});
  return true;
}

static bool render_elem(renderer *r, const npuc_fmt_elem *e) {
  generic_op *g = r->g;
  switch (e->kind) {
  case NPUC_FMT_LITERAL: emit_literal(r, e->text); return true;
  case NPUC_FMT_VAR:
    if (e->var_class == NPUC_VAR_OPERAND) {
      size_t n = g->group_count[e->var_index];
      if (n) {
        space_for_value(r);
        render_list(r, &g->operands, g->group_first[e->var_index], n);
      }
      return true;
    }
    if (e->var_class == NPUC_VAR_REGION) {
      if ((size_t)e->var_index < g->regions.len)
        render_region(r, g->regions.items[e->var_index],
                      g->args_region == e->var_index);
      return true;
    }
    if (e->var_class == NPUC_VAR_ATTR) {
      const npuc_attr_def *a = &g->def->attrs[e->var_index];
      dict_entry *d = find_attr(g, a->name);
      if (!d)
        return a->optional;
      d->used = true;
      if (a->kind != NPUC_AK_UNIT) {
        space_for_value(r);
        render_attr_value(r, a, d->value);
      }
      return true;
    }
    return false;
  case NPUC_FMT_TYPE: {
    bool res = e->var_class == NPUC_VAR_RESULT;
    size_t first =
        res ? g->result_first[e->var_index] : g->group_first[e->var_index];
    size_t n =
        res ? g->result_count[e->var_index] : g->group_count[e->var_index];
    const npuc_value_def *v =
        res ? &g->def->results[e->var_index] : &g->def->operands[e->var_index];
    bool parens = e->function_results && n != 1;
    if (e->type_prefix && n == 1 && r->st->form &&
        r->st->form->stripped_types &&
        render_stripped_type(
            r, (res ? &g->result_types : &g->operand_types)->items[first],
            e->type_prefix))
      return true;
    span dicts[64];
    if (e->attr_index >= 0 && type_attrs_fit(r, e, dicts)) {
      render_types_with_attrs(r, e, dicts);
      return true;
    }
    if (n || parens) {
      space_for_value(r);
      if (parens)
        put(r, "(", 1);
      render_list(r, res ? &g->result_types : &g->operand_types, first,
                  v->same_type ? 1 : n);
      if (parens)
        put(r, ")", 1);
    }
    return true;
  }
  case NPUC_FMT_ATTR_DICT:
  case NPUC_FMT_ATTR_DICT_KW:
    render_attr_dict(r, e->kind == NPUC_FMT_ATTR_DICT_KW);
    return true;
  case NPUC_FMT_DYN_INDEX_LIST: return render_dyn_index_list(r, e);
  case NPUC_FMT_REGION_ARGS:
    return (size_t)e->var_index < g->regions.len && render_region_args(r, e);
  case NPUC_FMT_OPTIONAL:
    if (!group_present(r, e))
      return true;
    return render_elems(r, e->children, e->num_children);
  case NPUC_FMT_ALTERNATIVES: {
    size_t begin = 0;
    for (size_t b = 0; b < e->num_branches; ++b) {
      size_t end = e->branch_ends[b];
      if (branch_present(r, e, begin, end))
        return render_elems(r, &e->children[begin], end - begin);
      begin = end;
    }
    return false;
  }
  }
  return false;
}

static bool render_elems(renderer *r, const npuc_fmt_elem *e, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!render_elem(r, &e[i]))
      return false;
  return true;
}

/* The attr-dict may come before the format's attributes (`attr-dict ins(..)
 * cast = <..>`), so decide first, with the same group choices rendering
 * makes, which attributes the format prints: the dict shows the rest. */
static void mark_format_attrs(renderer *r, const npuc_fmt_elem *e, size_t n) {
  generic_op *g = r->g;
  for (size_t i = 0; i < n; ++i) {
    const npuc_fmt_elem *el = &e[i];
    if (el->kind == NPUC_FMT_DYN_INDEX_LIST ||
        (el->kind == NPUC_FMT_VAR && el->var_class == NPUC_VAR_ATTR)) {
      int a = el->kind == NPUC_FMT_VAR ? el->var_index : el->attr_index;
      dict_entry *d = find_attr(g, g->def->attrs[a].name);
      if (d)
        d->used = true;
    } else if (el->kind == NPUC_FMT_TYPE && el->attr_index >= 0) {
      span dicts[64];
      dict_entry *d = find_attr(g, g->def->attrs[el->attr_index].name);
      if (d && type_attrs_fit(r, el, dicts))
        d->used = true;
    } else if (el->kind == NPUC_FMT_OPTIONAL && group_present(r, el)) {
      mark_format_attrs(r, el->children, el->num_children);
    } else if (el->kind == NPUC_FMT_ALTERNATIVES) {
      size_t begin = 0;
      for (size_t b = 0; b < el->num_branches; ++b) {
        size_t end = el->branch_ends[b];
        if (branch_present(r, el, begin, end)) {
          mark_format_attrs(r, &el->children[begin], end - begin);
          break;
        }
        begin = end;
      }
    }
  }
}

/* ODS prints a default-valued attribute equal to its default neither in
 * its optional group nor in attr-dict: marked used, and absent for the
 * group's anchor. */
static void elide_defaults(generic_op *g) {
  for (size_t i = 0; i < g->num_attrs; ++i)
    g->attrs[i].at_default = false;
  for (size_t i = 0; i < g->def->num_attrs; ++i) {
    const char *dflt = g->def->attrs[i].default_text;
    dict_entry *d = dflt ? find_attr(g, g->def->attrs[i].name) : NULL;
    if (d && (size_t)(d->value.e - d->value.s) == strlen(dflt) &&
        memcmp(d->value.s, dflt, strlen(dflt)) == 0) {
      d->at_default = true;
      d->used = true;
    }
  }
}

static bool try_render_op(from_mlir *st, npuc_token name) {
  if (name.len < 3)
    return false;
  const npuc_op_def *def =
      npuc_op_lookup(st->reg, name.start + 1, name.len - 2);
  if (!def)
    return false;
  generic_op g;
  take_scratch(st, &g, def);
  npuc_lexer lx = st->lx;
  bool ok = parse_generic(st, &lx, &g);
  dict_entry *seg = ok ? find_attr(&g, "operandSegmentSizes") : NULL;
  if (seg)
    seg->used = true;
  if (ok)
    elide_defaults(&g);
  ok = ok &&
       assign_groups(def->operands, def->num_operands, g.operands.len, seg,
                     g.group_first, g.group_count) &&
       assign_groups(def->results, def->num_results, g.result_types.len, NULL,
                     g.result_first, g.result_count) &&
       g.regions.len == def->num_regions;
  if (ok) {
    /* Rendered straight into the output (its regions too, recursively),
     * and cut back if the op turns out not to fit its format: a copy per
     * nesting level would make deep nesting quadratic. */
    flush(st, name.start);
    size_t mark = st->out->len;
    renderer r = {st, &g, st->out, LAST_WORD};
    mark_format_attrs(&r, def->format, def->format_len);
    put(&r, name.start + 1, name.len - 2);
    ok = render_elems(&r, def->format, def->format_len);
    if (ok && g.loc.s) {
      put(&r, " ", 1);
      put_span(&r, g.loc);
    }
    if (ok) {
      st->copy = lx.cur;
      st->lx = lx;
    } else {
      st->out->len = mark;
      st->out->data[mark] = '\0';
    }
  }
  give_back_scratch(st, &g);
  return ok;
}
