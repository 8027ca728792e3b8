/* Loads the verifier's data from the op tables: an op's `verify:` rules and
 * a dialect's `attrdefs:` (docs/op-tables.md, "Verifier rules"). Needs no
 * MLIR; Verify.c applies them. Every name a rule uses is resolved here, so
 * a rule naming no operand or attribute of its op is a table error. */
#include "OpTableInternal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What a check reads: ATTR, an `attr`; GROUPS, `operands` (at least
 * `min_groups` of them). */
enum { ATTR = 1, GROUPS = 2 };

static const struct {
  const char *name;
  npuc_rule_kind kind;
  unsigned needs;
  unsigned min_groups;
} rule_kinds[] = {
    {"same-element-type", NPUC_RULE_SAME_ELEMENT_TYPE, GROUPS, 1},
    {"same-rank", NPUC_RULE_SAME_RANK, GROUPS, 1},
    {"same-shape", NPUC_RULE_SAME_SHAPE, GROUPS, 1},
    {"rank", NPUC_RULE_RANK, GROUPS, 1},
    {"permutation", NPUC_RULE_PERMUTATION, ATTR, 0},
    {"dims-in-rank", NPUC_RULE_DIMS_IN_RANK, ATTR, 0},
    {"unique", NPUC_RULE_UNIQUE, ATTR, 0},
    {"nonempty", NPUC_RULE_NONEMPTY, ATTR, 0},
    {"min", NPUC_RULE_MIN, ATTR, 0},
    {"length-is-rank", NPUC_RULE_LENGTH_IS_RANK, ATTR, 0},
    {"required", NPUC_RULE_REQUIRED, 0, 0},
    {"absent", NPUC_RULE_ABSENT, 0, 0},
    {"memory-space", NPUC_RULE_MEMORY_SPACE, GROUPS, 1},
    {"parent", NPUC_RULE_PARENT, 0, 0},
    {"region-blocks", NPUC_RULE_REGION_BLOCKS, 0, 0},
    {"yield-types", NPUC_RULE_YIELD_TYPES, 0, 0},
    {"shaped", NPUC_RULE_SHAPED, GROUPS, 1},
    {"count", NPUC_RULE_COUNT, GROUPS, 1},
    {"type", NPUC_RULE_TYPE, GROUPS, 1},
    {"same-container", NPUC_RULE_SAME_CONTAINER, GROUPS, 1},
    {"static-shape", NPUC_RULE_STATIC_SHAPE, GROUPS, 1},
    {"dynamic-dims", NPUC_RULE_DYNAMIC_DIMS, GROUPS, 1},
    {"length-at-most-rank", NPUC_RULE_AT_MOST_RANK, ATTR, 0},
    {"dims-of-size-one", NPUC_RULE_DIMS_UNIT, ATTR, 0},
    {"swaps", NPUC_RULE_SWAPS, ATTR, 0},
    {"same-element-count", NPUC_RULE_SAME_ELEMENT_COUNT, GROUPS, 2},
    {"divides", NPUC_RULE_DIVIDES, ATTR | GROUPS, 1},
    {"symbol", NPUC_RULE_SYMBOL, ATTR, 0},
    {"dim-size", NPUC_RULE_DIM_SIZE, GROUPS, 1},
    {"same-length", NPUC_RULE_SAME_LENGTH, ATTR, 0},
    {"operand-map", NPUC_RULE_OPERAND_MAP, ATTR | GROUPS, 1},
    {"is-shape", NPUC_RULE_IS_SHAPE, ATTR, 0},
    {"in-bounds", NPUC_RULE_IN_BOUNDS, ATTR, 0},
};

static bool load_rule(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                      npuc_verify_rule *r);
static bool rule_is_for(const npuc_verify_rule *r, const char *op_name);
static void free_rule(npuc_verify_rule *r);
static char **string_list(npuc_yaml *ld, yaml_node_t *seq);
static char *dup_or_null(const char *s);
static bool parse_ll(const char *s, long long *out);
static void free_list(char **list);

bool npuc_load_verify_rules(npuc_yaml *ld, npuc_op_def *op, yaml_node_t *list) {
  size_t n = npuc_yaml_len(list);
  if (list && list->type != YAML_SEQUENCE_NODE) {
    npuc_yaml_error(ld, list, "'verify' of %s must be a list", op->name);
    return false;
  }
  op->rules = calloc(n ? n : 1, sizeof *op->rules);
  for (size_t i = 0; i < n; ++i) {
    yaml_node_t *item = npuc_yaml_at(ld, list, i);
    if (!item || item->type != YAML_MAPPING_NODE) {
      npuc_yaml_error(ld, item ? item : list,
                      "a verify rule of %s must be a mapping {check: ...}",
                      op->name);
      continue;
    }
    npuc_verify_rule *r = &op->rules[op->num_rules];
    bool loaded = load_rule(ld, op, item, r);
    if (loaded && rule_is_for(r, op->name))
      ++op->num_rules;
    else
      free_rule(r);
  }
  return ld->ok;
}

static bool is_group(const npuc_op_def *op, const char *name) {
  if (npuc_op_find_operand(op, name) >= 0)
    return true;
  for (size_t i = 0; i < op->num_results; ++i)
    if (strcmp(op->results[i].name, name) == 0)
      return true;
  return false;
}

static bool names_ok(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *at,
                     char **operands, const char *attr, const char *of) {
  for (char **o = operands; o && *o; ++o)
    if (!is_group(op, *o)) {
      npuc_yaml_error(ld, at, "verify rule of %s names no operand '%s'",
                      op->name, *o);
      return false;
    }
  if (of && !is_group(op, of)) {
    npuc_yaml_error(ld, at, "verify rule of %s: 'of' names no operand '%s'",
                    op->name, of);
    return false;
  }
  if (attr && npuc_op_find_attr(op, attr) < 0 && !is_group(op, attr)) {
    npuc_yaml_error(ld, at, "verify rule of %s names no attribute '%s'",
                    op->name, attr);
    return false;
  }
  return true;
}

/* operand-map needs `field`, `of` and what it requires. */
static bool operand_map_ok(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                           const npuc_verify_rule *r) {
  static const char *const requires[] = {"in-range", "unique", "same-type",
                                         "same-value"};
  bool known = false;
  for (size_t i = 0; r->require && i < 4; ++i)
    known |= strcmp(r->require, requires[i]) == 0;
  if (r->field && r->of && known)
    return true;
  npuc_yaml_error(ld, n,
                  "verify check 'operand-map' of %s needs 'field', 'of' and "
                  "'require' (in-range, unique, same-type or same-value)",
                  op->name);
  return false;
}

/* is-shape needs `of`; in-bounds `with` (the strides), `of` (what is
 * read) and `into` (the window's shape). */
static bool window_keys_ok(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                           const npuc_verify_rule *r) {
  if (r->kind == NPUC_RULE_IS_SHAPE && !r->of) {
    npuc_yaml_error(ld, n, "verify check 'is-shape' of %s needs 'of'",
                    op->name);
    return false;
  }
  if (r->kind == NPUC_RULE_IN_BOUNDS && (!r->with || !r->of || !r->into)) {
    npuc_yaml_error(ld, n,
                    "verify check 'in-bounds' of %s needs 'with' (the "
                    "strides), 'of' and 'into'",
                    op->name);
    return false;
  }
  return true;
}

/* `key: [0, 1, 3]` of a unique check: parameter positions 0..63. */
static bool key_ok(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                   npuc_verify_rule *r) {
  yaml_node_t *key = npuc_yaml_get(ld, n, "key");
  if (!key)
    return true;
  r->key = string_list(ld, key);
  bool valid = r->kind == NPUC_RULE_UNIQUE && r->key && r->key[0];
  long long pos;
  for (char **k = r->key; valid && *k; ++k)
    valid = parse_ll(*k, &pos) && pos >= 0 && pos <= 63;
  if (valid)
    return true;
  npuc_yaml_error(ld, n,
                  "verify rule of %s: 'key' belongs to a unique check and "
                  "lists parameter positions 0..63",
                  op->name);
  return false;
}

/* An optional dimension key (`dim`, `of_dim`): 0..64, -1 when absent. */
static bool dim_key(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                    const char *key, int *out) {
  long long dim = -1;
  const char *text = npuc_yaml_scalar(npuc_yaml_get(ld, n, key));
  if (text && (!parse_ll(text, &dim) || dim < 0 || dim > 64)) {
    npuc_yaml_error(ld, n, "verify rule of %s: %s must be 0..64", op->name,
                    key);
    return false;
  }
  *out = (int)dim;
  return true;
}

static bool load_rule(npuc_yaml *ld, const npuc_op_def *op, yaml_node_t *n,
                      npuc_verify_rule *r) {
  const char *check = npuc_yaml_scalar(npuc_yaml_get(ld, n, "check"));
  size_t k = 0;
  while (k < sizeof rule_kinds / sizeof *rule_kinds &&
         (!check || strcmp(rule_kinds[k].name, check) != 0))
    ++k;
  if (k == sizeof rule_kinds / sizeof *rule_kinds) {
    npuc_yaml_error(ld, n, "unknown verify check '%s' in %s",
                    check ? check : "", op->name);
    return false;
  }
  r->kind = rule_kinds[k].kind;
  r->line = (int)n->start_mark.line + 1;
  r->operands = string_list(ld, npuc_yaml_get(ld, n, "operands"));
  r->attr = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "attr")));
  size_t groups = 0;
  for (char **g = r->operands; g && *g; ++g)
    ++groups;
  if (((rule_kinds[k].needs & ATTR) && !r->attr) ||
      ((rule_kinds[k].needs & GROUPS) && groups < rule_kinds[k].min_groups)) {
    npuc_yaml_error(
        ld, n, "verify check '%s' of %s needs %s%s%s", check, op->name,
        rule_kinds[k].needs & ATTR ? "'attr'" : "",
        rule_kinds[k].needs == (ATTR | GROUPS) ? " and " : "",
        rule_kinds[k].needs & GROUPS
            ? (rule_kinds[k].min_groups > 1 ? "two 'operands'" : "'operands'")
            : "");
    return false;
  }
  r->of = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "of")));
  r->into = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "into")));
  r->with = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "with")));
  r->field = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "field")));
  r->require = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "require")));
  yaml_node_t *in = npuc_yaml_get(ld, n, "in");
  yaml_node_t *not_in = npuc_yaml_get(ld, n, "not_in");
  r->negate = in == NULL && not_in != NULL;
  r->values = string_list(ld, in ? in : not_in);
  r->min = 0;
  r->max = -1; /* no bound */
  const char *min = npuc_yaml_scalar(npuc_yaml_get(ld, n, "min"));
  const char *max = npuc_yaml_scalar(npuc_yaml_get(ld, n, "max"));
  if ((min && !parse_ll(min, &r->min)) || (max && !parse_ll(max, &r->max))) {
    npuc_yaml_error(ld, n, "verify rule of %s: min/max must be integers",
                    op->name);
    return false;
  }
  r->when_attr = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "when")));
  r->when_values = string_list(ld, npuc_yaml_get(ld, n, "is"));
  r->unless_attr =
      dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "unless")));
  r->message = dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "message")));
  r->when_shaped =
      dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "when_shaped")));
  r->when_scalar =
      dup_or_null(npuc_yaml_scalar(npuc_yaml_get(ld, n, "when_scalar")));
  r->only_ops = string_list(ld, npuc_yaml_get(ld, n, "ops"));
  r->except_ops = string_list(ld, npuc_yaml_get(ld, n, "except"));
  if (!rule_is_for(r, op->name))
    return true; /* a class's rule for other ops: their names may differ */
  long long index = -1;
  const char *idx = npuc_yaml_scalar(npuc_yaml_get(ld, n, "index"));
  if (idx && (!parse_ll(idx, &index) || index < 0 || index > 1000)) {
    npuc_yaml_error(ld, n, "verify rule of %s: index must be 0..1000",
                    op->name);
    return false;
  }
  r->index = (int)index;
  if (!dim_key(ld, op, n, "dim", &r->dim) ||
      !dim_key(ld, op, n, "of_dim", &r->of_dim))
    return false;
  if (r->into && !is_group(op, r->into)) {
    npuc_yaml_error(ld, n, "verify rule of %s: 'into' names no operand '%s'",
                    op->name, r->into);
    return false;
  }
  if (r->kind == NPUC_RULE_OPERAND_MAP && !operand_map_ok(ld, op, n, r))
    return false;
  if (!window_keys_ok(ld, op, n, r))
    return false;
  if (!key_ok(ld, op, n, r))
    return false;
  if (r->with && !is_group(op, r->with) && npuc_op_find_attr(op, r->with) < 0) {
    npuc_yaml_error(ld, n,
                    "verify rule of %s: 'with' names no operand or "
                    "attribute '%s'",
                    op->name, r->with);
    return false;
  }
  return names_ok(ld, op, n, r->operands, r->attr, r->of) &&
         names_ok(ld, op, n, NULL, r->when_attr, NULL) &&
         names_ok(ld, op, n, NULL, r->unless_attr, NULL) &&
         names_ok(ld, op, n, NULL, NULL, r->when_shaped) &&
         names_ok(ld, op, n, NULL, NULL, r->when_scalar);
}

/* ---- attrdefs ------------------------------------------------------------ */

static bool load_fields(npuc_yaml *ld, npuc_attr_spec *s, yaml_node_t *list);

/* attrdefs: {mnemonic: {params: none|any|fields, values: [..],
 *            optional: true, fields: [{name, kind: int|bool, min,
 *            required_for, required_message, only_for, only_message}]}}
 * (values and fields together: a case, then the fields) */
bool npuc_load_attr_specs(npuc_yaml *ld, npuc_dialect_def *d,
                          yaml_node_t *map) {
  size_t n = npuc_yaml_pairs(map);
  if (map && map->type != YAML_MAPPING_NODE) {
    npuc_yaml_error(ld, map, "'attrdefs' of %s must be a mapping", d->name);
    return false;
  }
  d->attr_specs = realloc(d->attr_specs,
                          (d->num_attr_specs + n + 1) * sizeof *d->attr_specs);
  for (size_t i = 0; i < n; ++i) {
    yaml_node_t *v = npuc_yaml_value(ld, map, i);
    npuc_attr_spec *s = &d->attr_specs[d->num_attr_specs++];
    memset(s, 0, sizeof *s);
    s->mnemonic = strdup(npuc_yaml_key(ld, map, i));
    const char *params = npuc_yaml_scalar(npuc_yaml_get(ld, v, "params"));
    yaml_node_t *values = npuc_yaml_get(ld, v, "values");
    yaml_node_t *fields = npuc_yaml_get(ld, v, "fields");
    s->params_optional =
        npuc_yaml_scalar(npuc_yaml_get(ld, v, "optional")) &&
        strcmp(npuc_yaml_scalar(npuc_yaml_get(ld, v, "optional")), "true") == 0;
    if (values && fields) {
      s->params = NPUC_PARAMS_CASE_FIELDS;
      s->values = string_list(ld, values);
      load_fields(ld, s, fields);
    } else if (values) {
      s->params = NPUC_PARAMS_ENUM;
      s->values = string_list(ld, values);
    } else if (fields) {
      s->params = NPUC_PARAMS_FIELDS;
      load_fields(ld, s, fields);
    } else if (params && strcmp(params, "any") == 0) {
      s->params = NPUC_PARAMS_ANY;
    } else if (!params || strcmp(params, "none") == 0) {
      s->params = NPUC_PARAMS_NONE;
    } else {
      npuc_yaml_error(ld, v, "attrdef '%s': params must be none or any",
                      s->mnemonic);
    }
  }
  return ld->ok;
}

/* required_for / only_for: cases of the attribute's `values`, each with
 * the message reported when the field is missing / given. */
static void load_field_cases(npuc_yaml *ld, const npuc_attr_spec *s,
                             yaml_node_t *f, npuc_attr_field *af) {
  yaml_node_t *req = npuc_yaml_get(ld, f, "required_for");
  yaml_node_t *only = npuc_yaml_get(ld, f, "only_for");
  const char *req_msg =
      npuc_yaml_scalar(npuc_yaml_get(ld, f, "required_message"));
  const char *only_msg = npuc_yaml_scalar(npuc_yaml_get(ld, f, "only_message"));
  if (!req && !only)
    return;
  if (!s->values || (req && !req_msg) || (only && !only_msg)) {
    npuc_yaml_error(ld, f,
                    "attrdef '%s': required_for/only_for need the "
                    "attribute's values and a message each",
                    s->mnemonic);
    return;
  }
  af->required_for = string_list(ld, req);
  af->only_for = string_list(ld, only);
  af->required_message = req_msg ? strdup(req_msg) : NULL;
  af->only_message = only_msg ? strdup(only_msg) : NULL;
  for (char **l = af->required_for; l && *l; ++l)
    if (!npuc_attr_spec_has_value(s, *l, strlen(*l)))
      npuc_yaml_error(ld, f, "attrdef '%s': '%s' is not one of its values",
                      s->mnemonic, *l);
  for (char **l = af->only_for; l && *l; ++l)
    if (!npuc_attr_spec_has_value(s, *l, strlen(*l)))
      npuc_yaml_error(ld, f, "attrdef '%s': '%s' is not one of its values",
                      s->mnemonic, *l);
}

static bool load_fields(npuc_yaml *ld, npuc_attr_spec *s, yaml_node_t *list) {
  s->num_fields = npuc_yaml_len(list);
  s->fields = calloc(s->num_fields ? s->num_fields : 1, sizeof *s->fields);
  for (size_t i = 0; i < s->num_fields; ++i) {
    yaml_node_t *f = npuc_yaml_at(ld, list, i);
    npuc_attr_field *af = &s->fields[i];
    const char *name = npuc_yaml_scalar(npuc_yaml_get(ld, f, "name"));
    const char *kind = npuc_yaml_scalar(npuc_yaml_get(ld, f, "kind"));
    const char *min = npuc_yaml_scalar(npuc_yaml_get(ld, f, "min"));
    af->name = strdup(name ? name : "?");
    af->integer = kind && strcmp(kind, "int") == 0;
    af->boolean = kind && strcmp(kind, "bool") == 0;
    af->has_min = min != NULL;
    if (!name || (min && !parse_ll(min, &af->min)))
      npuc_yaml_error(ld, f,
                      "attrdef '%s': a field needs a name and an "
                      "integer min",
                      s->mnemonic);
    load_field_cases(ld, s, f, af);
  }
  return ld->ok;
}

bool npuc_attr_spec_has_value(const npuc_attr_spec *s, const char *v,
                              size_t len) {
  for (char **p = s->values; p && *p; ++p)
    if (strlen(*p) == len && memcmp(*p, v, len) == 0)
      return true;
  return false;
}

const npuc_attr_spec *npuc_attr_spec_find(const npuc_dialect_def *d,
                                          const char *mnemonic, size_t len) {
  for (size_t i = 0; d && i < d->num_attr_specs; ++i)
    if (strlen(d->attr_specs[i].mnemonic) == len &&
        memcmp(d->attr_specs[i].mnemonic, mnemonic, len) == 0)
      return &d->attr_specs[i];
  return NULL;
}

/* ---- freeing ------------------------------------------------------------- */

void npuc_verify_rules_free(npuc_op_def *op) {
  for (size_t i = 0; i < op->num_rules; ++i)
    free_rule(&op->rules[i]);
  free(op->rules);
}

/* A rule of a class holds for the ops its `ops:` / `except:` allow. */
static bool rule_is_for(const npuc_verify_rule *r, const char *op_name) {
  bool listed = false;
  for (char **p = r->only_ops; p && *p && !listed; ++p)
    listed = strcmp(*p, op_name) == 0;
  if (r->only_ops && !listed)
    return false;
  for (char **p = r->except_ops; p && *p; ++p)
    if (strcmp(*p, op_name) == 0)
      return false;
  return true;
}

static void free_rule(npuc_verify_rule *r) {
  free_list(r->operands);
  free_list(r->values);
  free_list(r->when_values);
  free_list(r->only_ops);
  free_list(r->except_ops);
  free_list(r->key);
  free(r->attr);
  free(r->of);
  free(r->into);
  free(r->with);
  free(r->field);
  free(r->require);
  free(r->when_attr);
  free(r->unless_attr);
  free(r->when_shaped);
  free(r->when_scalar);
  free(r->message);
  memset(r, 0, sizeof *r);
}

void npuc_attr_specs_free(npuc_dialect_def *d) {
  for (size_t i = 0; i < d->num_attr_specs; ++i) {
    npuc_attr_spec *s = &d->attr_specs[i];
    free(s->mnemonic);
    free_list(s->values);
    for (size_t k = 0; k < s->num_fields; ++k) {
      free(s->fields[k].name);
      free_list(s->fields[k].required_for);
      free_list(s->fields[k].only_for);
      free(s->fields[k].required_message);
      free(s->fields[k].only_message);
    }
    free(s->fields);
  }
  free(d->attr_specs);
}

/* ---- helpers ------------------------------------------------------------- */

static char **string_list(npuc_yaml *ld, yaml_node_t *seq) {
  if (!seq)
    return NULL;
  if (seq->type == YAML_SCALAR_NODE) { /* one name without brackets */
    char **out = calloc(2, sizeof *out);
    out[0] = strdup(npuc_yaml_scalar(seq));
    return out;
  }
  size_t n = npuc_yaml_len(seq);
  char **out = calloc(n + 1, sizeof *out);
  for (size_t i = 0; i < n; ++i) {
    const char *s = npuc_yaml_scalar(npuc_yaml_at(ld, seq, i));
    out[i] = strdup(s ? s : "");
  }
  return out;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static bool parse_ll(const char *s, long long *out) {
  char *end;
  errno = 0;
  *out = strtoll(s, &end, 10);
  return errno == 0 && end != s && *end == '\0';
}

static void free_list(char **list) {
  for (char **p = list; p && *p; ++p)
    free(*p);
  free(list);
}
