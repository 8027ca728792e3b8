/* The structured tx8be attributes (#tx8be.parallel_attr, #tx8be.dev_attr,
 * #tx8be.region_attr): MLIR keeps them as opaque attributes of the
 * unregistered dialect, so passes read and write their text through
 * these. One table-driven reader and printer serve all three; each
 * attribute is a schema of named fields. */
#include "npuc/TX8.h"
#include "npuc/Lexer.h"
#include "npuc/StringBuilder.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { K_BOOL, K_I32, K_I64, K_U64, K_LIST, K_LAYOUT, K_PARMODE } kind;

typedef struct {
  const char *name;
  kind k;
  size_t offset;
} field;

typedef struct {
  const char *mnemonic; /* "#tx8be.dev_attr" */
  const field *fields;
  size_t num_fields;
} schema;

#define PF(name, k, member)                                                    \
  { name, k, offsetof(npuc_tx8_parallel_attr, member) }
static const field parallel_fields[] = {
    PF("parallel", K_PARMODE, parallel),
    PF("is_dp_inner", K_BOOL, is_dp_inner),
    PF("dp_dim_x", K_I32, dp_dim[0]),
    PF("dp_dim_y", K_I32, dp_dim[1]),
    PF("dp_dim_z", K_I32, dp_dim[2]),
    PF("tp_dim_x", K_I32, tp_dim[0]),
    PF("tp_dim_y", K_I32, tp_dim[1]),
    PF("tp_dim_z", K_I32, tp_dim[2]),
    PF("sharding_is_given", K_BOOL, sharding_is_given),
    PF("shape_spatial_sharding", K_LIST, shape_spatial_sharding),
};
#define DF(name, k, member)                                                    \
  { name, k, offsetof(npuc_tx8_dev_attr, member) }
static const field dev_fields[] = {
    DF("imm_size", K_U64, imm_size),
    DF("mem_layout", K_LAYOUT, mem_layout),
    DF("multi_buf_en", K_BOOL, multi_buf_en),
    DF("multi_buf_num", K_I32, multi_buf_num),
    DF("out_shape_buf_idx", K_LIST, out_shape_buf_idx),
    DF("temporal_mem_slice", K_LIST, temporal_mem_slice),
    DF("source_type", K_I32, source_type),
    DF("imm_addr", K_I64, imm_addr),
    DF("mem_addr", K_LIST, mem_addr),
};
#define RF(name, k, member)                                                    \
  { name, k, offsetof(npuc_tx8_region_attr, member) }
static const field region_fields[] = {
    RF("tile_dx", K_I32, tile_dx),
    RF("tile_dy", K_I32, tile_dy),
};

static const schema parallel_schema = {"#tx8be.parallel_attr", parallel_fields,
                                       sizeof parallel_fields / sizeof(field)};
static const schema dev_schema = {"#tx8be.dev_attr", dev_fields,
                                  sizeof dev_fields / sizeof(field)};
static const schema region_schema = {"#tx8be.region_attr", region_fields,
                                     sizeof region_fields / sizeof(field)};

static const char *const parmode_words[] = {"none", "dp", "tp", "dp_tp", NULL};
static const char *const layout_words[] = {"Tensor", "NTensor", "Cx", "NCx",
                                           NULL};

static bool parse(const schema *s, const char *text, size_t len, void *out,
                  char *err, size_t cap);
static size_t print(const schema *s, const void *in, char *buf, size_t cap);

bool npuc_tx8_parse_parallel_attr(const char *text, size_t len,
                                  npuc_tx8_parallel_attr *out, char *err,
                                  size_t err_cap) {
  return parse(&parallel_schema, text, len, out, err, err_cap);
}

bool npuc_tx8_parse_dev_attr(const char *text, size_t len,
                             npuc_tx8_dev_attr *out, char *err,
                             size_t err_cap) {
  return parse(&dev_schema, text, len, out, err, err_cap);
}

bool npuc_tx8_parse_region_attr(const char *text, size_t len,
                                npuc_tx8_region_attr *out, char *err,
                                size_t err_cap) {
  return parse(&region_schema, text, len, out, err, err_cap);
}

size_t npuc_tx8_print_parallel_attr(const npuc_tx8_parallel_attr *a, char *buf,
                                    size_t cap) {
  return print(&parallel_schema, a, buf, cap);
}

size_t npuc_tx8_print_dev_attr(const npuc_tx8_dev_attr *a, char *buf,
                               size_t cap) {
  return print(&dev_schema, a, buf, cap);
}

size_t npuc_tx8_print_region_attr(const npuc_tx8_region_attr *a, char *buf,
                                  size_t cap) {
  return print(&region_schema, a, buf, cap);
}

/* ---- reading
 * ------------------------------------------------------------------- */

typedef struct {
  npuc_lexer lx;
  const schema *s;
  char *err;
  size_t cap;
} reader;

static bool fail(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool parse_field(reader *r, void *out, uint32_t *seen);

static bool fail(reader *r, const char *fmt, ...) {
  if (r->err && r->cap) {
    int n = snprintf(r->err, r->cap, "%s: ", r->s->mnemonic);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->cap)
      vsnprintf(r->err + n, r->cap - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return false;
}

static bool parse(const schema *s, const char *text, size_t len, void *out,
                  char *err, size_t cap) {
  reader r = {{0}, s, err, cap};
  npuc_lexer_init(&r.lx, text, len, 1);
  if (npuc_peek(&r.lx).kind == NPUC_TOK_HASH_ID &&
      !npuc_tok_is(npuc_lex(&r.lx), NPUC_TOK_HASH_ID, s->mnemonic))
    return fail(&r, "not this attribute");
  if (!npuc_tok_punct(npuc_lex(&r.lx), '<'))
    return fail(&r, "expected '<'");
  uint32_t seen = 0;
  for (;;) {
    if (!parse_field(&r, out, &seen))
      return false;
    npuc_token sep = npuc_lex(&r.lx);
    if (npuc_tok_punct(sep, '>'))
      break;
    if (!npuc_tok_punct(sep, ','))
      return fail(&r, "expected ',' or '>' after a field");
  }
  if (npuc_lex(&r.lx).kind != NPUC_TOK_EOF)
    return fail(&r, "unexpected text after '>'");
  for (size_t i = 0; i < s->num_fields; ++i)
    if (!(seen & (1u << i)))
      return fail(&r, "missing field '%s'", s->fields[i].name);
  return true;
}

static bool parse_int(reader *r, int64_t lo, int64_t hi, int64_t *v) {
  npuc_token t = npuc_lex(&r->lx);
  bool neg = npuc_tok_punct(t, '-');
  if (neg)
    t = npuc_lex(&r->lx);
  if (t.kind != NPUC_TOK_INTEGER)
    return false;
  char num[32];
  if (t.len >= sizeof num)
    return false;
  memcpy(num, t.start, t.len);
  num[t.len] = '\0';
  errno = 0;
  long long x = strtoll(num, NULL, 0);
  if (errno)
    return false;
  *v = neg ? -x : x;
  return *v >= lo && *v <= hi;
}

static bool parse_list(reader *r, npuc_tx8_list *l) {
  l->len = 0;
  if (!npuc_tok_punct(npuc_lex(&r->lx), '['))
    return false;
  if (npuc_tok_punct(npuc_peek(&r->lx), ']')) {
    npuc_lex(&r->lx);
    return true;
  }
  for (;;) {
    if (l->len == NPUC_TX8_MAX_LIST ||
        !parse_int(r, INT64_MIN + 1, INT64_MAX, &l->v[l->len++]))
      return false;
    npuc_token sep = npuc_lex(&r->lx);
    if (npuc_tok_punct(sep, ']'))
      return true;
    if (!npuc_tok_punct(sep, ','))
      return false;
  }
}

static bool parse_word(reader *r, const char *const *words, int *v) {
  npuc_token t = npuc_lex(&r->lx);
  for (int i = 0; words[i]; ++i)
    if (npuc_tok_keyword(t, words[i])) {
      *v = i;
      return true;
    }
  return false;
}

static bool parse_value(reader *r, const field *f, char *p) {
  int64_t v = 0;
  int w = 0;
  switch (f->k) {
  case K_BOOL: {
    npuc_token t = npuc_lex(&r->lx);
    *(bool *)p = npuc_tok_keyword(t, "true");
    return npuc_tok_keyword(t, "true") || npuc_tok_keyword(t, "false");
  }
  case K_I32:
    if (!parse_int(r, INT32_MIN, INT32_MAX, &v))
      return false;
    *(int32_t *)p = (int32_t)v;
    return true;
  case K_I64: return parse_int(r, INT64_MIN + 1, INT64_MAX, (int64_t *)p);
  case K_U64:
    if (!parse_int(r, 0, INT64_MAX, &v))
      return false;
    *(uint64_t *)p = (uint64_t)v;
    return true;
  case K_LIST: return parse_list(r, (npuc_tx8_list *)p);
  case K_LAYOUT:
    if (!parse_word(r, layout_words, &w))
      return false;
    *(npuc_tx8_layout_mode *)p = (npuc_tx8_layout_mode)w;
    return true;
  case K_PARMODE:
    if (!parse_word(r, parmode_words, &w))
      return false;
    *(npuc_tx8_parallel_mode *)p = (npuc_tx8_parallel_mode)w;
    return true;
  }
  return false;
}

static bool parse_field(reader *r, void *out, uint32_t *seen) {
  npuc_token name = npuc_lex(&r->lx);
  size_t i = 0;
  while (i < r->s->num_fields && !npuc_tok_keyword(name, r->s->fields[i].name))
    ++i;
  if (name.kind != NPUC_TOK_BARE_ID)
    return fail(r, "expected a field name");
  if (i == r->s->num_fields)
    return fail(r, "unknown field '%.*s'", (int)name.len, name.start);
  if (*seen & (1u << i))
    return fail(r, "field '%s' given twice", r->s->fields[i].name);
  *seen |= 1u << i;
  if (!npuc_tok_punct(npuc_lex(&r->lx), '='))
    return fail(r, "expected '=' after '%s'", r->s->fields[i].name);
  if (!parse_value(r, &r->s->fields[i], (char *)out + r->s->fields[i].offset))
    return fail(r, "malformed value of '%s'", r->s->fields[i].name);
  return true;
}

/* ---- printing
 * ------------------------------------------------------------------ */

static void put_value(npuc_sb *w, const field *f, const char *p) {
  switch (f->k) {
  case K_BOOL:
    npuc_sb_printf(w, "%s", *(const bool *)p ? "true" : "false");
    return;
  case K_I32: npuc_sb_printf(w, "%" PRId32, *(const int32_t *)p); return;
  case K_I64: npuc_sb_printf(w, "%" PRId64, *(const int64_t *)p); return;
  case K_U64: npuc_sb_printf(w, "%" PRIu64, *(const uint64_t *)p); return;
  case K_LAYOUT: { /* not npuc_tx8_layout_name: out of range is Tensor */
    int m = (int)*(const npuc_tx8_layout_mode *)p;
    npuc_sb_printf(w, "%s",
                   m >= 0 && m <= NPUC_TX8_NCX ? layout_words[m] : "Tensor");
    return;
  }
  case K_PARMODE: {
    int m = (int)*(const npuc_tx8_parallel_mode *)p;
    npuc_sb_printf(
        w, "%s", m >= 0 && m <= NPUC_TX8_PAR_DP_TP ? parmode_words[m] : "none");
    return;
  }
  case K_LIST: {
    const npuc_tx8_list *l = (const npuc_tx8_list *)p;
    npuc_sb_printf(w, "[");
    for (int32_t i = 0; i < l->len && i < NPUC_TX8_MAX_LIST; ++i)
      npuc_sb_printf(w, "%s%" PRId64, i ? ", " : "", l->v[i]);
    npuc_sb_printf(w, "]");
    return;
  }
  }
}

/* The text in buf, truncated to cap - 1 bytes as snprintf does; returns
 * the whole text's length. */
static size_t print(const schema *s, const void *in, char *buf, size_t cap) {
  npuc_sb w = {0};
  npuc_sb_printf(&w, "%s<", s->mnemonic);
  for (size_t i = 0; i < s->num_fields; ++i) {
    npuc_sb_printf(&w, "%s%s = ", i ? ", " : "", s->fields[i].name);
    put_value(&w, &s->fields[i], (const char *)in + s->fields[i].offset);
  }
  npuc_sb_printf(&w, ">");
  size_t len = w.len;
  if (cap)
    snprintf(buf, cap, "%s", w.data);
  npuc_sb_free(&w);
  return len;
}
