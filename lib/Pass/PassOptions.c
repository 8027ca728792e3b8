/* Option values of npuc pass instances: parsing "{a=1 b=2}", "{a=1,b=2}" or
 * the flag form "a=1 b=2" against the pass's option table, and the typed
 * accessors the passes read them with. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup */
#endif
#include "PassInternal.h"
#include "npuc/Alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *text; /* the value as given, or the default */
  bool given;
} option_value;

struct npuc_pass_options {
  const npuc_pass_def *def;
  option_value *values; /* parallel to def->options */
  void *fields;         /* the pass's options struct, filled from values */
};

static npuc_pass_options *options_with_defaults(const npuc_pass_def *def);
static void fill_fields(npuc_pass_options *o);
static bool parse_text(npuc_pass_options *o, const char *text, char **error);
static bool text_is_true(const char *t);
static bool parse_items(npuc_pass_options *o, const char *s, size_t len,
                        char **error);
static bool set_option(npuc_pass_options *o, const char *name, size_t name_len,
                       const char *value, char **error);
static bool check_value(const npuc_pass_def *def,
                        const npuc_pass_option_def *opt, const char *value,
                        char **error);
static const char *default_text(const npuc_pass_option_def *opt);
static int find_option(const npuc_pass_def *def, const char *name, size_t len);
static char *format_error(const npuc_pass_def *def, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- Public entry points -------------------------------------------- */

npuc_pass_options *npuc_pass_options_parse(const npuc_pass_def *def,
                                           const char *text, char **error) {
  *error = NULL;
  npuc_pass_options *o = options_with_defaults(def);
  if (!o)
    return NULL;
  if (text && !parse_text(o, text, error)) {
    npuc_pass_options_free(o);
    return NULL;
  }
  fill_fields(o);
  return o;
}

/* "{a=1 b=2}", "{a=1,b=2}" or "a=1 b=2", surrounding blanks allowed. */
static bool parse_text(npuc_pass_options *o, const char *text, char **error) {
  size_t len = strlen(text);
  while (len && isspace((unsigned char)text[0]))
    text++, len--;
  while (len && isspace((unsigned char)text[len - 1]))
    len--;
  /* The pipeline form carries its braces; the flag form usually not. */
  if (len >= 2 && text[0] == '{' && text[len - 1] == '}')
    text++, len -= 2;
  return parse_items(o, text, len, error);
}

npuc_pass_options *npuc_pass_options_clone(const npuc_pass_options *src) {
  npuc_pass_options *o = options_with_defaults(src->def);
  if (!o)
    return NULL;
  for (size_t i = 0; i < src->def->num_options; i++) {
    char *copy = strdup(src->values[i].text);
    if (!copy) {
      npuc_pass_options_free(o);
      return NULL;
    }
    free(o->values[i].text);
    o->values[i].text = copy;
    o->values[i].given = src->values[i].given;
  }
  fill_fields(o);
  return o;
}

void npuc_pass_options_free(npuc_pass_options *o) {
  if (!o)
    return;
  for (size_t i = 0; i < o->def->num_options; i++)
    free(o->values[i].text);
  free(o->values);
  free(o->fields);
  free(o);
}

char *npuc_pass_options_describe(const npuc_pass_def *def) {
  if (def->num_options == 0)
    return strdup("(none)");
  size_t cap = 64, len = 0;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  out[0] = '\0';
  for (size_t i = 0; i < def->num_options; i++) {
    const npuc_pass_option_def *opt = &def->options[i];
    char kind[256];
    switch (opt->type) {
    case NPUC_OPT_BOOL: snprintf(kind, sizeof kind, "bool"); break;
    case NPUC_OPT_INT: snprintf(kind, sizeof kind, "int"); break;
    case NPUC_OPT_STRING: snprintf(kind, sizeof kind, "string"); break;
    case NPUC_OPT_ENUM: {
      size_t k = 0;
      kind[0] = '\0';
      for (const char *const *v = opt->enum_values; v && *v; v++)
        k += (size_t)snprintf(kind + k, k < sizeof kind ? sizeof kind - k : 0,
                              "%s%s", v == opt->enum_values ? "" : "|", *v);
      break;
    }
    }
    size_t need = len + strlen(opt->name) + strlen(kind) + 8;
    if (need > cap) {
      cap = need * 2;
      char *grown = realloc(out, cap);
      if (!grown) {
        free(out);
        return NULL;
      }
      out = grown;
    }
    len +=
        (size_t)sprintf(out + len, "%s%s=<%s>", i ? ", " : "", opt->name, kind);
  }
  return out;
}

/* ---- Accessors ------------------------------------------------------ */

static bool text_is_true(const char *t) {
  return strcmp(t, "true") == 0 || strcmp(t, "True") == 0 ||
         strcmp(t, "1") == 0;
}

const void *npuc_pass_opts(const npuc_pass_options *o) {
  if (!o->fields) {
    fprintf(stderr,
            "npuc: internal error: pass '%s' declares no options "
            "struct\n",
            o->def->name);
    abort();
  }
  return o->fields;
}

bool npuc_pass_opt_given_field(const npuc_pass_options *o, size_t field) {
  for (size_t i = 0; i < o->def->num_options; i++)
    if (o->def->options[i].field == field)
      return o->values[i].given;
  fprintf(stderr,
          "npuc: internal error: pass '%s' has no option at offset "
          "%zu\n",
          o->def->name, field);
  abort();
}

/* The typed struct from the (checked) texts; the strings are borrowed. */
static void fill_fields(npuc_pass_options *o) {
  const npuc_pass_def *def = o->def;
  if (!def->options_size)
    return;
  free(o->fields);
  o->fields = npuc_xcalloc(1, def->options_size);
  for (size_t i = 0; i < def->num_options; i++) {
    char *at = (char *)o->fields + def->options[i].field;
    const char *text = o->values[i].text;
    switch (def->options[i].type) {
    case NPUC_OPT_BOOL: *(bool *)at = text_is_true(text); break;
    case NPUC_OPT_INT: *(int64_t *)at = strtoll(text, NULL, 10); break;
    case NPUC_OPT_STRING:
    case NPUC_OPT_ENUM: *(const char **)at = text; break;
    }
  }
}

/* ---- Parsing -------------------------------------------------------- */

static npuc_pass_options *options_with_defaults(const npuc_pass_def *def) {
  npuc_pass_options *o = calloc(1, sizeof *o);
  if (!o)
    return NULL;
  o->def = def;
  o->values =
      calloc(def->num_options ? def->num_options : 1, sizeof *o->values);
  if (!o->values) {
    free(o);
    return NULL;
  }
  for (size_t i = 0; i < def->num_options; i++) {
    o->values[i].text = strdup(default_text(&def->options[i]));
    if (!o->values[i].text) {
      npuc_pass_options_free(o);
      return NULL;
    }
  }
  return o;
}

static bool is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* A comma separates two options only when an option follows it
 * ("a=1,b=2"); otherwise it belongs to the value ("keep=x,y"). */
static bool comma_starts_option(const npuc_pass_def *def, const char *p,
                                const char *end) {
  while (p < end && isspace((unsigned char)*p))
    p++;
  const char *name = p;
  while (p < end && is_name_char(*p))
    p++;
  if (p == name)
    return false;
  if (p < end && *p == '=')
    return true;
  bool at_item_end = p == end || isspace((unsigned char)*p) || *p == ',';
  return at_item_end && find_option(def, name, (size_t)(p - name)) >= 0;
}

/* Reads one value: quotes group (and are dropped), braces nest (and are
 * kept), whitespace or an option-separating comma ends it. */
static char *read_value(const npuc_pass_def *def, const char **pp,
                        const char *end) {
  const char *p = *pp;
  char *out = malloc((size_t)(end - p) + 1);
  if (!out)
    return NULL;
  size_t n = 0;
  int depth = 0;
  char quote = 0;
  for (; p < end; p++) {
    char c = *p;
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        out[n++] = c;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (depth == 0 && isspace((unsigned char)c))
      break;
    if (depth == 0 && c == ',' && comma_starts_option(def, p + 1, end))
      break;
    if (c == '{')
      depth++;
    else if (c == '}' && depth > 0)
      depth--;
    out[n++] = c;
  }
  out[n] = '\0';
  *pp = p;
  return out;
}

static bool parse_items(npuc_pass_options *o, const char *s, size_t len,
                        char **error) {
  const char *p = s, *end = s + len;
  for (;;) {
    while (p < end && (isspace((unsigned char)*p) || *p == ','))
      p++;
    if (p == end)
      return true;
    const char *name = p;
    while (p < end && is_name_char(*p))
      p++;
    size_t name_len = (size_t)(p - name);
    if (name_len == 0) {
      *error = format_error(o->def, "unexpected '%c' in options '%.*s'", *p,
                            (int)len, s);
      return false;
    }
    char *value = NULL;
    if (p < end && *p == '=') {
      p++;
      value = read_value(o->def, &p, end);
      if (!value) {
        *error = strdup("out of memory");
        return false;
      }
    }
    bool ok = set_option(o, name, name_len, value, error);
    free(value);
    if (!ok)
      return false;
    if (p < end && !isspace((unsigned char)*p) && *p != ',') {
      *error = format_error(o->def, "unexpected '%c' after option '%.*s'", *p,
                            (int)name_len, name);
      return false;
    }
  }
}

static bool set_option(npuc_pass_options *o, const char *name, size_t name_len,
                       const char *value, char **error) {
  int i = find_option(o->def, name, name_len);
  if (i < 0) {
    *error = format_error(o->def, "unknown option '%.*s'", (int)name_len, name);
    return false;
  }
  const npuc_pass_option_def *opt = &o->def->options[i];
  if (!value) {
    if (opt->type != NPUC_OPT_BOOL) {
      *error = format_error(o->def, "option '%s' needs a value (%s=...)",
                            opt->name, opt->name);
      return false;
    }
    value = "true"; /* a bare bool option switches it on, as in MLIR */
  }
  if (!check_value(o->def, opt, value, error))
    return false;
  char *copy = strdup(value);
  if (!copy) {
    *error = strdup("out of memory");
    return false;
  }
  free(o->values[i].text);
  o->values[i].text = copy;
  o->values[i].given = true;
  return true;
}

static bool is_bool_text(const char *v) {
  static const char *const accepted[] = {"true", "false", "1", "0",
                                         "True", "False", NULL};
  for (const char *const *a = accepted; *a; a++)
    if (strcmp(v, *a) == 0)
      return true;
  return false;
}

static bool is_int_text(const char *v) {
  char *end;
  errno = 0;
  (void)strtoll(v, &end, 10);
  return *v && !isspace((unsigned char)*v) && *end == '\0' && errno == 0;
}

static bool check_value(const npuc_pass_def *def,
                        const npuc_pass_option_def *opt, const char *value,
                        char **error) {
  switch (opt->type) {
  case NPUC_OPT_BOOL:
    if (is_bool_text(value))
      return true;
    *error = format_error(def, "option '%s' expects true or false, got '%s'",
                          opt->name, value);
    return false;
  case NPUC_OPT_INT:
    if (is_int_text(value))
      return true;
    *error = format_error(def, "option '%s' expects an integer, got '%s'",
                          opt->name, value);
    return false;
  case NPUC_OPT_STRING: return true;
  case NPUC_OPT_ENUM:
    for (const char *const *v = opt->enum_values; v && *v; v++)
      if (strcmp(value, *v) == 0)
        return true;
    *error =
        format_error(def, "option '%s' does not accept '%s'", opt->name, value);
    return false;
  }
  return false;
}

static const char *default_text(const npuc_pass_option_def *opt) {
  if (opt->default_value)
    return opt->default_value;
  switch (opt->type) {
  case NPUC_OPT_BOOL: return "false";
  case NPUC_OPT_INT: return "0";
  case NPUC_OPT_STRING: return "";
  case NPUC_OPT_ENUM:
    return opt->enum_values && opt->enum_values[0] ? opt->enum_values[0] : "";
  }
  return "";
}

static int find_option(const npuc_pass_def *def, const char *name, size_t len) {
  for (size_t i = 0; i < def->num_options; i++)
    if (strlen(def->options[i].name) == len &&
        memcmp(def->options[i].name, name, len) == 0)
      return (int)i;
  return -1;
}

/* "pass 'P': <message>; valid options: a=<int>, b=<bool>" */
static char *format_error(const npuc_pass_def *def, const char *fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  char *valid = npuc_pass_options_describe(def);
  size_t need =
      strlen(def->name) + strlen(message) + (valid ? strlen(valid) : 0) + 64;
  char *out = malloc(need);
  if (out)
    snprintf(out, need, "pass '%s': %s; valid options: %s", def->name, message,
             valid ? valid : "(unknown)");
  free(valid);
  return out;
}
