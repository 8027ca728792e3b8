/* Checks the text of an attribute of our dialects, `#<ns>.<mnemonic>` or
 * `#<ns>.<mnemonic><params>`, against its dialect's `attrdefs:`
 * (docs/op-tables.md, "Dialect attributes"). Text only, no MLIR: the
 * reader checks each attribute where it is written (so an error points at
 * its line, as bishengir's parser reports it), the verifier the attributes
 * of ops built otherwise. On failure the message is written to `msg`. */
#include "OpTableInternal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* MLIR keeps an attribute's text as written, line breaks included. */
static bool blank(char c) { return c == ' ' || c == '\n' || c == '\t'; }
static bool check_params(const char *ns, const npuc_attr_spec *s,
                         const char *params, size_t len, char *msg, size_t cap);

const npuc_dialect_def *npuc_attr_dialect(const npuc_op_registry *reg,
                                          const char *ns, size_t len) {
  for (size_t i = 0; i < reg->num_dialects; ++i) {
    const npuc_dialect_def *d = reg->dialects[i];
    if (d->num_attr_specs && strlen(d->name) == len &&
        memcmp(d->name, ns, len) == 0)
      return d;
  }
  return NULL;
}

bool npuc_attr_check_text(const npuc_dialect_def *d, const char *data,
                          size_t len, char *msg, size_t cap) {
  size_t n = 0;
  while (n < len && data[n] != '<')
    ++n;
  const npuc_attr_spec *s = npuc_attr_spec_find(d, data, n);
  if (!s)
    return fail(msg, cap, "unknown attribute '#%s.%.*s'", d->name, (int)n,
                data);
  if (n < len && data[len - 1] != '>')
    return fail(msg, cap, "malformed attribute '#%s.%.*s'", d->name, (int)len,
                data);
  const char *params = n < len ? data + n + 1 : NULL;
  size_t plen = params ? len - n - 2 : 0;
  return check_params(d->name, s, params, plen, msg, cap);
}

static bool fail(char *msg, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return false;
}

static bool check_fields(const char *ns, const npuc_attr_spec *s, const char *p,
                         size_t len, char *msg, size_t cap);
static bool check_case_fields(const char *ns, const npuc_attr_spec *s,
                              const char *p, size_t len, char *msg, size_t cap);

static bool check_params(const char *ns, const npuc_attr_spec *s,
                         const char *params, size_t len, char *msg,
                         size_t cap) {
  if (!params) {
    if (s->params == NPUC_PARAMS_NONE || s->params_optional ||
        s->params == NPUC_PARAMS_ANY)
      return true;
    return fail(msg, cap, "attribute '#%s.%s' needs parameters <...>", ns,
                s->mnemonic);
  }
  while (len && blank(*params))
    ++params, --len;
  while (len && blank(params[len - 1]))
    --len;
  switch (s->params) {
  case NPUC_PARAMS_ANY: return true;
  case NPUC_PARAMS_NONE:
    return fail(msg, cap, "attribute '#%s.%s' takes no parameters", ns,
                s->mnemonic);
  case NPUC_PARAMS_ENUM:
    if (npuc_attr_spec_has_value(s, params, len))
      return true;
    return fail(msg, cap, "'%.*s' is not a case of '#%s.%s'", (int)len, params,
                ns, s->mnemonic);
  case NPUC_PARAMS_FIELDS: return check_fields(ns, s, params, len, msg, cap);
  case NPUC_PARAMS_CASE_FIELDS:
    return check_case_fields(ns, s, params, len, msg, cap);
  }
  return true;
}

/* The end of the entry starting at p[at]: the next ',' at nesting 0. */
static size_t entry_end(const char *p, size_t at, size_t len) {
  size_t depth = 0;
  while (at < len && (depth > 0 || p[at] != ',')) {
    depth += p[at] == '<' || p[at] == '[' || p[at] == '(' || p[at] == '{';
    depth -=
        depth && (p[at] == '>' || p[at] == ']' || p[at] == ')' || p[at] == '}');
    ++at;
  }
  return at;
}

static bool check_value(const char *ns, const npuc_attr_spec *s,
                        const npuc_attr_field *af, const char *v, size_t len,
                        char *msg, size_t cap);

/* `k = v, k2 = v2` at nesting depth 0: known names, each once; integer
 * fields are integers at least their minimum, bool fields true or false.
 * `seen` (num_fields entries) receives the fields given. */
static bool read_fields(const char *ns, const npuc_attr_spec *s, const char *p,
                        size_t len, bool *seen, char *msg, size_t cap) {
  size_t at = 0;
  while (at < len) {
    size_t start = at;
    at = entry_end(p, at, len);
    const char *item = p + start, *eq = memchr(item, '=', at - start);
    size_t nlen = eq ? (size_t)(eq - item) : at - start;
    while (nlen && blank(item[0]))
      ++item, --nlen;
    while (nlen && blank(item[nlen - 1]))
      --nlen;
    size_t f = 0;
    while (f < s->num_fields && (strlen(s->fields[f].name) != nlen ||
                                 memcmp(s->fields[f].name, item, nlen) != 0))
      ++f;
    if (f == s->num_fields || !eq)
      return fail(msg, cap, "'#%s.%s' has no field '%.*s'", ns, s->mnemonic,
                  (int)nlen, item);
    if (seen[f])
      return fail(msg, cap, "'#%s.%s': field '%s' given twice", ns, s->mnemonic,
                  s->fields[f].name);
    seen[f] = true;
    if (!check_value(ns, s, &s->fields[f], eq + 1, (size_t)(p + at - eq - 1),
                     msg, cap))
      return false;
    at += at < len; /* the comma */
  }
  return true;
}

static bool check_value(const char *ns, const npuc_attr_spec *s,
                        const npuc_attr_field *af, const char *v, size_t len,
                        char *msg, size_t cap) {
  while (len && blank(*v))
    ++v, --len;
  while (len && blank(v[len - 1]))
    --len;
  if (af->integer) {
    char *end;
    long long x = strtoll(v, &end, 10);
    bool is_int = end != v && end <= v + len;
    if (!is_int || (af->has_min && x < af->min))
      return fail(msg, cap, "'#%s.%s': field '%s' must be an integer >= %lld",
                  ns, s->mnemonic, af->name, af->min);
  }
  if (af->boolean && !(len == 4 && memcmp(v, "true", 4) == 0) &&
      !(len == 5 && memcmp(v, "false", 5) == 0))
    return fail(msg, cap, "'#%s.%s': field '%s' must be true or false", ns,
                s->mnemonic, af->name);
  return true;
}

static bool check_fields(const char *ns, const npuc_attr_spec *s, const char *p,
                         size_t len, char *msg, size_t cap) {
  bool *seen = calloc(s->num_fields + 1, sizeof *seen);
  bool ok = read_fields(ns, s, p, len, seen, msg, cap);
  free(seen);
  return ok;
}

static bool listed(char *const *list, const char *v, size_t len) {
  for (; list && *list; ++list)
    if (strlen(*list) == len && memcmp(*list, v, len) == 0)
      return true;
  return false;
}

/* `case, k = v, ...`: the case one of `values`, then the fields, each
 * required or allowed by the case as its `required_for` / `only_for`
 * say (bishengir's #hivm.data_layout and its `transpose`). */
static bool check_case_fields(const char *ns, const npuc_attr_spec *s,
                              const char *p, size_t len, char *msg,
                              size_t cap) {
  size_t n = entry_end(p, 0, len), clen = n;
  while (clen && blank(p[clen - 1]))
    --clen;
  if (!npuc_attr_spec_has_value(s, p, clen))
    return fail(msg, cap, "'%.*s' is not a case of '#%s.%s'", (int)clen, p, ns,
                s->mnemonic);
  bool *seen = calloc(s->num_fields + 1, sizeof *seen);
  size_t rest = n < len ? n + 1 : len;
  bool ok = read_fields(ns, s, p + rest, len - rest, seen, msg, cap);
  for (size_t f = 0; ok && f < s->num_fields; ++f) {
    const npuc_attr_field *af = &s->fields[f];
    if (!seen[f] && listed(af->required_for, p, clen))
      ok = fail(msg, cap, "%s", af->required_message);
    else if (seen[f] && af->only_for && !listed(af->only_for, p, clen))
      ok = fail(msg, cap, "%s", af->only_message);
  }
  free(seen);
  return ok;
}
