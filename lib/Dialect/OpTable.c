/* Loads the YAML op tables into npuc_op_def records and indexes them by
 * name. The schema is documented in docs/op-tables.md. */
#include "npuc/OpTable.h"
#include "OpTableInternal.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npuc/YamlDoc.h"

typedef npuc_yaml loader;

static bool load_document(npuc_op_registry *reg, loader *ld);
static npuc_dialect_def *add_dialect(npuc_op_registry *reg, const char *name);
static bool load_op_entry(npuc_op_registry *reg, loader *ld,
                          npuc_dialect_def *d, yaml_node_t *entry,
                          yaml_node_t *classes);
static bool fill_op(loader *ld, npuc_op_def *op, yaml_node_t *entry,
                    yaml_node_t *classes);
static void reindex_dialect(npuc_op_registry *reg, loader *ld,
                            npuc_dialect_def *d);
static void index_prefixes(npuc_op_registry *reg);
static void insert_op(npuc_op_registry *reg, npuc_dialect_def *d,
                      npuc_op_def *op);

/* The tables that map the words of the op tables to enum values. */
typedef struct {
  const char *name;
  int value;
} name_value;
#define TABLE_LEN(t) (sizeof(t) / sizeof *(t))
static bool value_of_name(const name_value *table, size_t n, const char *name,
                          int *value);

/* ---- public API -------------------------------------------------------- */

npuc_op_registry *npuc_op_registry_create(void) {
  npuc_op_registry *reg = calloc(1, sizeof *reg);
  reg->bucket_count = 1024;
  reg->buckets = calloc(reg->bucket_count, sizeof *reg->buckets);
  return reg;
}

bool npuc_op_registry_load_yaml(npuc_op_registry *reg, const char *yaml,
                                size_t len, const char *filename,
                                const npuc_diag_sink *sink) {
  /* Diagnostics of the registry outlive the call: keep the name. */
  char *file = strdup(filename);
  reg->files = realloc(reg->files, (reg->num_files + 1) * sizeof *reg->files);
  reg->files[reg->num_files++] = file;
  yaml_document_t doc;
  loader ld;
  if (!npuc_yaml_load_string(&ld, &doc, yaml, len, file, sink))
    return false;
  bool ok = load_document(reg, &ld);
  yaml_document_delete(&doc);
  return ok;
}

npuc_op_registry *npuc_op_registry_over(npuc_dialect_def **dialects,
                                        size_t count) {
  npuc_op_registry *reg = npuc_op_registry_create();
  reg->borrowed = true;
  reg->dialects = malloc((count ? count : 1) * sizeof *reg->dialects);
  memcpy(reg->dialects, dialects, count * sizeof *dialects);
  reg->num_dialects = count;
  for (size_t i = 0; i < count; ++i)
    for (size_t j = 0; j < dialects[i]->num_ops; ++j)
      insert_op(reg, dialects[i], &dialects[i]->ops[j]);
  index_prefixes(reg);
  return reg;
}

void npuc_op_registry_destroy(npuc_op_registry *reg) {
  if (!reg)
    return;
  for (size_t i = 0; i < reg->num_dialects && !reg->borrowed; ++i)
    npuc_dialect_free(reg->dialects[i]);
  free(reg->dialects);
  for (size_t i = 0; i < reg->num_files; ++i)
    free(reg->files[i]);
  free(reg->files);
  free(reg->prefixes);
  for (size_t i = 0; i < reg->bucket_count; ++i) {
    npuc_op_bucket *b = reg->buckets[i];
    while (b) {
      npuc_op_bucket *next = b->next;
      free(b);
      b = next;
    }
  }
  free(reg->buckets);
  free(reg);
}

static size_t hash_name(const char *s, size_t n) {
  size_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

const npuc_op_def *npuc_op_lookup(const npuc_op_registry *reg, const char *name,
                                  size_t len) {
  if (!reg)
    return NULL;
  size_t h = hash_name(name, len) & (reg->bucket_count - 1);
  for (npuc_op_bucket *b = reg->buckets[h]; b; b = b->next)
    if (b->name_len == len && memcmp(b->op->name, name, len) == 0)
      return b->op;
  return NULL;
}

const npuc_dialect_def *npuc_op_owner(const npuc_op_registry *reg,
                                      const char *name, size_t len) {
  if (!reg || !len)
    return NULL;
  /* Every statement asks: only the prefixes with its first byte. */
  unsigned char c = (unsigned char)name[0];
  for (size_t i = reg->by_first[c]; i < reg->by_first[c + 1]; ++i) {
    const npuc_op_prefix *p = &reg->prefixes[i];
    if (len >= p->len && memcmp(name, p->prefix, p->len) == 0)
      return p->dialect;
  }
  return NULL;
}

bool npuc_is_table_dialect(const npuc_op_registry *reg, const char *ns,
                           size_t len) {
  if (!reg)
    return false;
  for (size_t i = 0; i < reg->num_dialects; ++i) {
    const char *name = reg->dialects[i]->name;
    if (strlen(name) == len && memcmp(name, ns, len) == 0)
      return true;
  }
  return false;
}

size_t npuc_op_registry_num_dialects(const npuc_op_registry *reg) {
  return reg ? reg->num_dialects : 0;
}

const npuc_dialect_def *npuc_op_registry_dialect(const npuc_op_registry *reg,
                                                 size_t i) {
  return reg->dialects[i];
}

size_t npuc_op_suggest(const npuc_op_registry *reg, const char *name,
                       size_t len, const char **out, size_t max) {
  size_t best_dist[8];
  if (max > 8)
    max = 8;
  size_t count = 0;
  size_t limit = len / 3 + 2;
  for (size_t i = 0; reg && i < reg->num_dialects; ++i) {
    const npuc_dialect_def *d = reg->dialects[i];
    for (size_t j = 0; j < d->num_ops; ++j) {
      const char *cand = d->ops[j].name;
      size_t dist = npuc_edit_distance_n(name, len, cand, strlen(cand));
      if (dist > limit)
        continue;
      size_t pos = count;
      while (pos > 0 && best_dist[pos - 1] > dist)
        --pos;
      if (pos >= max)
        continue;
      size_t last = count < max ? count : max - 1;
      for (size_t k = last; k > pos; --k) {
        best_dist[k] = best_dist[k - 1];
        out[k] = out[k - 1];
      }
      best_dist[pos] = dist;
      out[pos] = cand;
      if (count < max)
        ++count;
    }
  }
  return count;
}

void npuc_op_suggest_hint(const npuc_op_registry *reg, const char *name,
                          size_t len, char *hint, size_t cap) {
  const char *near[3];
  size_t n = npuc_op_suggest(reg, name, len, near, 3);
  if (cap)
    hint[0] = '\0';
  for (size_t i = 0; i < n; ++i) {
    size_t used = strlen(hint);
    snprintf(hint + used, cap - used, "%s'%s'%s",
             i == 0 ? "; did you mean " : (i + 1 == n ? " or " : ", "), near[i],
             i + 1 == n ? "?" : "");
  }
}

int npuc_op_find_operand(const npuc_op_def *op, const char *name) {
  /* The verifier's rules look groups up by name on every op: the first
   * byte turns most names away without a call. */
  for (size_t i = 0; i < op->num_operands; ++i)
    if (op->operands[i].name[0] == name[0] &&
        strcmp(op->operands[i].name, name) == 0)
      return (int)i;
  return -1;
}

int npuc_op_find_attr(const npuc_op_def *op, const char *name) {
  for (size_t i = 0; i < op->num_attrs; ++i)
    if (strcmp(op->attrs[i].name, name) == 0)
      return (int)i;
  return -1;
}

bool npuc_op_has_trait(const npuc_op_def *op, unsigned trait) {
  return op && (op->traits & trait) == trait;
}

static const name_value trait_names[] = {
    {"elementwise", NPUC_TRAIT_ELEMENTWISE},
    {"broadcastable", NPUC_TRAIT_BROADCASTABLE},
    {"reduction", NPUC_TRAIT_REDUCTION},
    {"store-like", NPUC_TRAIT_STORE_LIKE},
    {"load-like", NPUC_TRAIT_LOAD_LIKE},
    {"has-side-effects", NPUC_TRAIT_SIDE_EFFECTS},
    {"destination-style", NPUC_TRAIT_DPS},
    {"block-dependent", NPUC_TRAIT_BLOCK_DEPENDENT},
    {"terminator", NPUC_TRAIT_TERMINATOR},
    {"transpose", NPUC_TRAIT_TRANSPOSE},
    {"cast", NPUC_TRAIT_CAST},
    {"sync", NPUC_TRAIT_SYNC},
};

unsigned npuc_trait_from_name(const char *name) {
  int bit = 0;
  value_of_name(trait_names, TABLE_LEN(trait_names), name, &bit);
  return (unsigned)bit;
}

static bool value_of_name(const name_value *table, size_t n, const char *name,
                          int *value) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(table[i].name, name) == 0) {
      *value = table[i].value;
      return true;
    }
  return false;
}

/* ---- YAML helpers ------------------------------------------------------ */

static const char *or_empty(const char *s) { return s ? s : ""; }

static bool truthy(const char *s) {
  return s && (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 ||
               strcmp(s, "yes") == 0);
}

/* Looks `key` up in the op entry, then in its class chain. */
static yaml_node_t *field(loader *ld, yaml_node_t *spec, yaml_node_t *classes,
                          const char *key) {
  for (int depth = 0; spec && depth < 8; ++depth) {
    yaml_node_t *v = npuc_yaml_get(ld, spec, key);
    if (v)
      return v;
    const char *cls = npuc_yaml_scalar(npuc_yaml_get(ld, spec, "class"));
    spec = cls ? npuc_yaml_get(ld, classes, cls) : NULL;
  }
  return NULL;
}

/* ---- document ---------------------------------------------------------- */

static bool load_document(npuc_op_registry *reg, loader *ld) {
  yaml_node_t *root = yaml_document_get_root_node(ld->doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    npuc_yaml_error(ld, root, "op table %s must be a mapping", ld->file);
    return false;
  }
  const char *name = npuc_yaml_scalar(npuc_yaml_get(ld, root, "dialect"));
  if (!name) {
    npuc_yaml_error(ld, root, "op table %s has no 'dialect' name", ld->file);
    return false;
  }
  npuc_dialect_def *d = add_dialect(reg, name);
  yaml_node_t *prefixes = npuc_yaml_get(ld, root, "op_prefixes");
  for (size_t i = 0; i < npuc_yaml_len(prefixes); ++i) {
    const char *p = npuc_yaml_scalar(npuc_yaml_at(ld, prefixes, i));
    if (p && !p[0])
      npuc_yaml_error(ld, npuc_yaml_at(ld, prefixes, i),
                      "an op prefix in %s is empty (it would own every op)",
                      ld->file);
    if (!p || !p[0])
      continue;
    d->op_prefixes =
        realloc(d->op_prefixes, (d->num_op_prefixes + 1) * sizeof(char *));
    d->op_prefixes[d->num_op_prefixes++] = strdup(p);
  }
  index_prefixes(reg);
  npuc_load_attr_specs(ld, d, npuc_yaml_get(ld, root, "attrdefs"));
  yaml_node_t *classes = npuc_yaml_get(ld, root, "classes");
  yaml_node_t *ops = npuc_yaml_get(ld, root, "ops");
  if (ops && ops->type != YAML_SEQUENCE_NODE)
    npuc_yaml_error(ld, ops, "'ops' in %s must be a list", ld->file);
  for (size_t i = 0; i < npuc_yaml_len(ops); ++i)
    load_op_entry(reg, ld, d, npuc_yaml_at(ld, ops, i), classes);
  reindex_dialect(reg, ld, d);
  return ld->ok;
}

static npuc_dialect_def *add_dialect(npuc_op_registry *reg, const char *name) {
  for (size_t i = 0; i < reg->num_dialects; ++i)
    if (strcmp(reg->dialects[i]->name, name) == 0)
      return reg->dialects[i];
  npuc_dialect_def *d = calloc(1, sizeof *d);
  d->name = strdup(name);
  reg->dialects =
      realloc(reg->dialects, (reg->num_dialects + 1) * sizeof *reg->dialects);
  reg->dialects[reg->num_dialects++] = d;
  return d;
}

/* The prefixes of every dialect, in dialect order (the first match owns a
 * name, as before). Rebuilt after each table: a table may add prefixes to
 * a dialect an earlier table declared. */
static void index_prefixes(npuc_op_registry *reg) {
  size_t n = 0;
  for (size_t i = 0; i < reg->num_dialects; ++i)
    n += reg->dialects[i]->num_op_prefixes;
  reg->prefixes = realloc(reg->prefixes, (n ? n : 1) * sizeof *reg->prefixes);
  reg->num_prefixes = 0;
  /* A counting sort by first byte, stable: the first match in a group is
   * the first in dialect order. (The loader refuses empty prefixes.) */
  memset(reg->by_first, 0, sizeof reg->by_first);
  for (size_t i = 0; i < reg->num_dialects; ++i)
    for (size_t j = 0; j < reg->dialects[i]->num_op_prefixes; ++j)
      reg->by_first[(unsigned char)reg->dialects[i]->op_prefixes[j][0] + 1]++;
  for (size_t c = 1; c < 257; ++c)
    reg->by_first[c] += reg->by_first[c - 1];
  size_t next[256];
  memcpy(next, reg->by_first, sizeof next);
  for (size_t i = 0; i < reg->num_dialects; ++i) {
    npuc_dialect_def *d = reg->dialects[i];
    for (size_t j = 0; j < d->num_op_prefixes; ++j) {
      npuc_op_prefix *p =
          &reg->prefixes[next[(unsigned char)d->op_prefixes[j][0]]++];
      p->prefix = d->op_prefixes[j];
      p->len = strlen(d->op_prefixes[j]);
      p->dialect = d;
      reg->num_prefixes++;
    }
  }
}

/* One entry declares one op (`name:`) or several alike (`names: [...]`). */
static bool load_op_entry(npuc_op_registry *reg, loader *ld,
                          npuc_dialect_def *d, yaml_node_t *entry,
                          yaml_node_t *classes) {
  (void)reg;
  yaml_node_t *names = npuc_yaml_get(ld, entry, "names");
  yaml_node_t *one = npuc_yaml_get(ld, entry, "name");
  size_t count = names ? npuc_yaml_len(names) : (one ? 1 : 0);
  if (count == 0) {
    npuc_yaml_error(ld, entry, "op entry in %s has no 'name' or 'names'",
                    ld->file);
    return false;
  }
  d->ops = realloc(d->ops, (d->num_ops + count) * sizeof *d->ops);
  for (size_t i = 0; i < count; ++i) {
    yaml_node_t *name_node = names ? npuc_yaml_at(ld, names, i) : one;
    const char *name = npuc_yaml_scalar(name_node);
    npuc_op_def *op = &d->ops[d->num_ops++];
    memset(op, 0, sizeof *op);
    op->name = strdup(name ? name : "");
    op->table = ld->file;
    op->table_line = (int)name_node->start_mark.line + 1;
    op->dps_inits = -1;
    fill_op(ld, op, entry, classes);
  }
  return ld->ok;
}

/* Ops live by value in d->ops, which realloc moves: index a dialect only
 * once its table is complete, dropping any stale entries first. */
static void reindex_dialect(npuc_op_registry *reg, loader *ld,
                            npuc_dialect_def *d) {
  for (size_t i = 0; i < reg->bucket_count; ++i) {
    npuc_op_bucket **link = &reg->buckets[i];
    while (*link) {
      npuc_op_bucket *b = *link;
      if (b->dialect == d) {
        *link = b->next;
        free(b);
      } else {
        link = &b->next;
      }
    }
  }
  for (size_t i = 0; i < d->num_ops; ++i) {
    npuc_op_def *op = &d->ops[i];
    if (npuc_op_lookup(reg, op->name, strlen(op->name))) {
      npuc_diag_emit(ld->sink, NPUC_SEV_ERROR, op->table, op->table_line, 1,
                     "op '%s' is declared twice", op->name);
      ld->ok = false;
      continue;
    }
    insert_op(reg, d, op);
  }
}

static void insert_op(npuc_op_registry *reg, npuc_dialect_def *d,
                      npuc_op_def *op) {
  size_t h = hash_name(op->name, strlen(op->name)) & (reg->bucket_count - 1);
  npuc_op_bucket *b = calloc(1, sizeof *b);
  b->op = op;
  b->name_len = strlen(op->name);
  b->dialect = d;
  b->next = reg->buckets[h];
  reg->buckets[h] = b;
}

/* ---- one op ------------------------------------------------------------ */

static const name_value value_kinds[] = {
    {"any", NPUC_VK_ANY},
    {"tensor", NPUC_VK_TENSOR},
    {"memref", NPUC_VK_MEMREF},
    {"shaped", NPUC_VK_SHAPED},
    {"scalar", NPUC_VK_SCALAR},
    {"integer", NPUC_VK_INTEGER},
    {"shaped-or-scalar", NPUC_VK_SHAPED_OR_SCALAR},
    {"tensor-or-scalar", NPUC_VK_TENSOR_OR_SCALAR},
    {"vector", NPUC_VK_VECTOR},
};

static const name_value attr_kinds[] = {
    {"any", NPUC_AK_ANY},
    {"unit", NPUC_AK_UNIT},
    {"bool", NPUC_AK_BOOL},
    {"int", NPUC_AK_INT},
    {"i64-array", NPUC_AK_I64_ARRAY},
    {"i32-array", NPUC_AK_I32_ARRAY},
    {"enum", NPUC_AK_ENUM},
    {"string", NPUC_AK_STRING},
    {"keyword", NPUC_AK_KEYWORD},
    {"symbol-name", NPUC_AK_SYMBOL_NAME},
};

static bool load_values(loader *ld, yaml_node_t *list, npuc_value_def **out,
                        size_t *count) {
  *count = npuc_yaml_len(list);
  *out = calloc(*count ? *count : 1, sizeof **out);
  for (size_t i = 0; i < *count; ++i) {
    yaml_node_t *v = npuc_yaml_at(ld, list, i);
    const char *name = npuc_yaml_scalar(npuc_yaml_get(ld, v, "name"));
    if (!name) {
      npuc_yaml_error(ld, v, "operand/result entry needs a 'name'%s", "");
      name = "?";
    }
    (*out)[i].name = strdup(name);
    const char *kind = npuc_yaml_scalar(npuc_yaml_get(ld, v, "kind"));
    (*out)[i].kind = NPUC_VK_ANY;
    int vk;
    if (kind && value_of_name(value_kinds, TABLE_LEN(value_kinds), kind, &vk))
      (*out)[i].kind = (npuc_value_kind)vk;
    else if (kind)
      npuc_yaml_error(ld, v, "unknown value kind '%s'", kind);
    (*out)[i].variadic =
        truthy(npuc_yaml_scalar(npuc_yaml_get(ld, v, "variadic")));
    (*out)[i].optional =
        truthy(npuc_yaml_scalar(npuc_yaml_get(ld, v, "optional")));
    const char *fixed = npuc_yaml_scalar(npuc_yaml_get(ld, v, "type"));
    (*out)[i].fixed_type = fixed ? strdup(fixed) : NULL;
    (*out)[i].type_of = -1;
    (*out)[i].same_as = -1;
    (*out)[i].same_type =
        truthy(npuc_yaml_scalar(npuc_yaml_get(ld, v, "same_type")));
  }
  return ld->ok;
}

/* `type_of: NAME` names another operand or result group whose type this
 * group takes; `same_as: NAME` one whose type it must equal. */
static int find_group(loader *ld, yaml_node_t *v, const npuc_op_def *op,
                      const char *key, bool *is_result) {
  const char *other = npuc_yaml_scalar(npuc_yaml_get(ld, v, key));
  if (!other)
    return -1;
  int k = npuc_op_find_operand(op, other);
  *is_result = k < 0;
  for (size_t r = 0; k < 0 && r < op->num_results; ++r)
    if (strcmp(op->results[r].name, other) == 0)
      k = (int)r;
  if (k < 0)
    npuc_yaml_error(ld, v, "'%s' names no operand or result: %s", key, other);
  return k;
}

static void resolve_type_of(loader *ld, yaml_node_t *list, npuc_value_def *defs,
                            size_t n, const npuc_op_def *op) {
  for (size_t i = 0; i < n; ++i) {
    yaml_node_t *v = npuc_yaml_at(ld, list, i);
    defs[i].type_of = find_group(ld, v, op, "type_of", &defs[i].type_of_result);
    defs[i].same_as = find_group(ld, v, op, "same_as", &defs[i].same_as_result);
  }
}

static bool load_attrs(loader *ld, yaml_node_t *list, npuc_op_def *op) {
  op->num_attrs = npuc_yaml_len(list);
  op->attrs = calloc(op->num_attrs ? op->num_attrs : 1, sizeof *op->attrs);
  for (size_t i = 0; i < op->num_attrs; ++i) {
    yaml_node_t *v = npuc_yaml_at(ld, list, i);
    npuc_attr_def *a = &op->attrs[i];
    const char *name = npuc_yaml_scalar(npuc_yaml_get(ld, v, "name"));
    if (!name) {
      npuc_yaml_error(ld, v, "attribute entry needs a 'name'%s", "");
      name = "?";
    }
    a->name = strdup(name);
    const char *kind = npuc_yaml_scalar(npuc_yaml_get(ld, v, "kind"));
    a->kind = NPUC_AK_ANY;
    int ak;
    if (kind && value_of_name(attr_kinds, TABLE_LEN(attr_kinds), kind, &ak))
      a->kind = (npuc_attr_kind)ak;
    else if (kind)
      npuc_yaml_error(ld, v, "unknown attribute kind '%s'", kind);
    const char *prefix = npuc_yaml_scalar(npuc_yaml_get(ld, v, "enum"));
    if (a->kind == NPUC_AK_ENUM && !prefix)
      npuc_yaml_error(ld, v, "enum attribute '%s' needs 'enum: #dialect.name'",
                      a->name);
    a->enum_prefix = prefix ? strdup(prefix) : NULL;
    const char *type = npuc_yaml_scalar(npuc_yaml_get(ld, v, "type"));
    a->int_type = strdup(type ? type : "i64");
    yaml_node_t *values = npuc_yaml_get(ld, v, "values");
    size_t n = npuc_yaml_len(values);
    if (n) {
      a->enum_values = calloc(n + 1, sizeof(char *));
      for (size_t k = 0; k < n; ++k)
        a->enum_values[k] =
            strdup(or_empty(npuc_yaml_scalar(npuc_yaml_at(ld, values, k))));
    }
    a->optional = truthy(npuc_yaml_scalar(npuc_yaml_get(ld, v, "optional"))) ||
                  a->kind == NPUC_AK_UNIT;
    const char *dflt = npuc_yaml_scalar(npuc_yaml_get(ld, v, "default"));
    a->default_text = dflt ? strdup(dflt) : NULL;
    if (dflt && !a->optional)
      npuc_yaml_error(ld, v, "attribute '%s' has a default but is not optional",
                      a->name);
  }
  return ld->ok;
}

/* `signatures:` a list of maps from a group or attribute name to the types
 * or values it may take (docs/op-tables.md). */
static void load_signatures(loader *ld, yaml_node_t *list, npuc_op_def *op) {
  op->num_signatures = npuc_yaml_len(list);
  op->signatures = calloc(op->num_signatures ? op->num_signatures : 1,
                          sizeof *op->signatures);
  for (size_t i = 0; i < op->num_signatures; ++i) {
    yaml_node_t *m = npuc_yaml_at(ld, list, i);
    npuc_signature *s = &op->signatures[i];
    s->num_keys = npuc_yaml_pairs(m);
    s->keys = calloc(s->num_keys ? s->num_keys : 1, sizeof *s->keys);
    for (size_t k = 0; k < s->num_keys; ++k) {
      npuc_sig_key *key = &s->keys[k];
      key->name = strdup(or_empty(npuc_yaml_key(ld, m, k)));
      key->var_class = NPUC_VAR_OPERAND;
      key->index = npuc_op_find_operand(op, key->name);
      for (size_t r = 0; key->index < 0 && r < op->num_results; ++r)
        if (strcmp(op->results[r].name, key->name) == 0) {
          key->var_class = NPUC_VAR_RESULT;
          key->index = (int)r;
        }
      if (key->index < 0 &&
          (key->index = npuc_op_find_attr(op, key->name)) >= 0)
        key->var_class = NPUC_VAR_ATTR;
      if (key->index < 0)
        npuc_yaml_error(ld, m,
                        "signature key '%s' names no operand, result "
                        "or attribute",
                        key->name);
      yaml_node_t *vals = npuc_yaml_value(ld, m, k);
      key->num_values = npuc_yaml_len(vals);
      key->values =
          calloc(key->num_values ? key->num_values : 1, sizeof(char *));
      for (size_t v = 0; v < key->num_values; ++v)
        key->values[v] =
            strdup(or_empty(npuc_yaml_scalar(npuc_yaml_at(ld, vals, v))));
    }
  }
}

static bool fill_op(loader *ld, npuc_op_def *op, yaml_node_t *entry,
                    yaml_node_t *classes) {
  const char *cls = npuc_yaml_scalar(npuc_yaml_get(ld, entry, "class"));
  if (cls && !npuc_yaml_get(ld, classes, cls))
    npuc_yaml_error(ld, entry, "unknown class '%s'", cls);
  op->summary = npuc_yaml_scalar(field(ld, entry, classes, "summary"));
  op->summary = op->summary ? strdup(op->summary) : NULL;
  yaml_node_t *traits = field(ld, entry, classes, "traits");
  for (size_t i = 0; i < npuc_yaml_len(traits); ++i) {
    const char *t = npuc_yaml_scalar(npuc_yaml_at(ld, traits, i));
    unsigned bit = t ? npuc_trait_from_name(t) : 0;
    if (!bit)
      npuc_yaml_error(ld, npuc_yaml_at(ld, traits, i), "unknown trait '%s'",
                      or_empty(t));
    op->traits |= bit;
  }
  load_values(ld, field(ld, entry, classes, "operands"), &op->operands,
              &op->num_operands);
  load_values(ld, field(ld, entry, classes, "results"), &op->results,
              &op->num_results);
  resolve_type_of(ld, field(ld, entry, classes, "operands"), op->operands,
                  op->num_operands, op);
  resolve_type_of(ld, field(ld, entry, classes, "results"), op->results,
                  op->num_results, op);
  load_attrs(ld, field(ld, entry, classes, "attributes"), op);
  load_signatures(ld, field(ld, entry, classes, "signatures"), op);
  yaml_node_t *regions = field(ld, entry, classes, "regions");
  op->num_regions = npuc_yaml_len(regions);
  op->regions = calloc(op->num_regions ? op->num_regions : 1, sizeof(char *));
  for (size_t i = 0; i < op->num_regions; ++i)
    op->regions[i] =
        strdup(or_empty(npuc_yaml_scalar(npuc_yaml_at(ld, regions, i))));
  const char *inits = npuc_yaml_scalar(field(ld, entry, classes, "inits"));
  if (inits) {
    op->dps_inits = npuc_op_find_operand(op, inits);
    if (op->dps_inits < 0)
      npuc_yaml_error(ld, entry, "'inits' names no operand: %s", inits);
  }
  size_t groups = 0;
  for (size_t i = 0; i < op->num_operands; ++i)
    groups += op->operands[i].variadic || op->operands[i].optional;
  op->uses_segments = groups > 1;
  npuc_load_verify_rules(ld, op, field(ld, entry, classes, "verify"));
  yaml_node_t *fmt = field(ld, entry, classes, "format");
  const char *format = npuc_yaml_scalar(fmt);
  if (!format) {
    npuc_yaml_error(ld, entry, "op '%s' has no 'format'", op->name);
    return false;
  }
  op->format_text = strdup(format);
  return npuc_format_compile(
      op, ld->file, fmt ? (int)fmt->start_mark.line + 1 : op->table_line,
      ld->sink);
}
