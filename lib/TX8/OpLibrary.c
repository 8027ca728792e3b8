/* The op library's per-op metadata (the seed's queryOpAttr) and inference
 * rules, read from the `library:` and `infer:` entries of the tx8be op
 * table. The op-table loader ignores these keys; this reads the same
 * embedded text. An entry takes each key from the op, else from its class
 * chain, else the seed's OpAttr default. */
#include "npuc/TX8.h"
#include "npuc/YamlDoc.h"

#include "YamlParse.h"

#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

struct npuc_embedded_table {
  const char *name;
  const char *text;
  size_t len;
};
extern const struct npuc_embedded_table npuc_embedded_tables[];

typedef struct {
  char *name;
  npuc_tx8_op_attr attr;
} lib_entry;

struct npuc_tx8_op_library {
  lib_entry *entries;
  size_t len;
};

static void load_ops(npuc_yaml *y, yaml_node_t *root, void *lib);

/* The seed's struct OpAttr initializers. */
static npuc_tx8_op_attr default_attr(void) {
  npuc_tx8_op_attr a = {0};
  a.align_mode = NPUC_TX8_ALIGN_UNKNOWN;
  a.default_layout = NPUC_TX8_DEFAULT_TENSOR;
  a.engine = NPUC_TX8_ENGINE_CT;
  a.need_load = a.need_store = ~(uint64_t)0;
  a.parallel = a.align_cx = true;
  a.shape_rule = NPUC_TX8_SHAPE_GIVEN;
  a.layout_rule = NPUC_TX8_LAYOUT_NONE;
  return a;
}

/* ---- public API ------------------------------------------------------------
 */

static npuc_tx8_op_library *builtin;

static void load_builtin(void) {
  for (const struct npuc_embedded_table *t = npuc_embedded_tables; t->name; ++t)
    if (strcmp(t->name, "tx8be.yaml") == 0)
      builtin = npuc_tx8_op_library_load(t->text, t->len, t->name, NULL);
}

/* Once, even when passes on several threads ask first (MLIR runs
 * function passes in parallel). */
npuc_tx8_op_attr npuc_tx8_query_op_attr(const char *name) {
  static once_flag loaded = ONCE_FLAG_INIT;
  call_once(&loaded, load_builtin);
  return npuc_tx8_op_library_query(builtin, name);
}

npuc_tx8_layout_mode npuc_tx8_default_layout_of(const npuc_tx8_op_attr *a,
                                                int64_t batch) {
  switch (a->default_layout) {
  case NPUC_TX8_DEFAULT_NTENSOR: return NPUC_TX8_NTENSOR;
  case NPUC_TX8_DEFAULT_BY_BATCH:
    return batch == 1 ? NPUC_TX8_TENSOR : NPUC_TX8_NTENSOR;
  default: return NPUC_TX8_TENSOR;
  }
}

npuc_tx8_op_library *npuc_tx8_op_library_load(const char *yaml, size_t len,
                                              const char *filename,
                                              const npuc_diag_sink *sink) {
  npuc_tx8_op_library *lib = calloc(1, sizeof *lib);
  if (!npuc_tx8_yaml_parse(yaml, len, filename, sink, load_ops, lib)) {
    npuc_tx8_op_library_destroy(lib);
    return NULL;
  }
  return lib;
}

npuc_tx8_op_attr npuc_tx8_op_library_query(const npuc_tx8_op_library *lib,
                                           const char *name) {
  for (size_t i = 0; lib && i < lib->len; ++i)
    if (strcmp(lib->entries[i].name, name) == 0)
      return lib->entries[i].attr;
  return default_attr();
}

size_t npuc_tx8_op_library_size(const npuc_tx8_op_library *lib) {
  return lib ? lib->len : 0;
}

void npuc_tx8_op_library_destroy(npuc_tx8_op_library *lib) {
  if (!lib)
    return;
  for (size_t i = 0; i < lib->len; ++i)
    free(lib->entries[i].name);
  free(lib->entries);
  free(lib);
}

/* ---- keys and values
 * ------------------------------------------------------------- */

typedef struct {
  const char *text;
  int value;
} word;

static const word align_words[] = {{"unknown", NPUC_TX8_ALIGN_UNKNOWN},
                                   {"compact", NPUC_TX8_ALIGN_COMPACT},
                                   {"aligned", NPUC_TX8_ALIGN_ALIGNED},
                                   {"both", NPUC_TX8_ALIGN_BOTH},
                                   {NULL, 0}};
static const word layout_words[] = {{"Tensor", NPUC_TX8_DEFAULT_TENSOR},
                                    {"NTensor", NPUC_TX8_DEFAULT_NTENSOR},
                                    {"batch", NPUC_TX8_DEFAULT_BY_BATCH},
                                    {NULL, 0}};
static const word engine_words[] = {{"ct", NPUC_TX8_ENGINE_CT},
                                    {"ne", NPUC_TX8_ENGINE_NE},
                                    {"load", NPUC_TX8_ENGINE_LOAD},
                                    {"store", NPUC_TX8_ENGINE_STORE},
                                    {"tdma", NPUC_TX8_ENGINE_TDMA},
                                    {"none", NPUC_TX8_ENGINE_NONE},
                                    {NULL, 0}};
static const word shape_words[] = {{"same", NPUC_TX8_SHAPE_SAME},
                                   {"broadcast", NPUC_TX8_SHAPE_BROADCAST},
                                   {"gemm", NPUC_TX8_SHAPE_GEMM},
                                   {"conv", NPUC_TX8_SHAPE_CONV},
                                   {"transpose", NPUC_TX8_SHAPE_TRANSPOSE},
                                   {"given", NPUC_TX8_SHAPE_GIVEN},
                                   {"tuple", NPUC_TX8_SHAPE_TUPLE},
                                   {"none", NPUC_TX8_SHAPE_NONE},
                                   {NULL, 0}};
static const word layout_rule_words[] = {
    {"same", NPUC_TX8_LAYOUT_SAME}, {"source", NPUC_TX8_LAYOUT_SOURCE},
    {"stop", NPUC_TX8_LAYOUT_STOP}, {"permute", NPUC_TX8_LAYOUT_PERMUTE},
    {"none", NPUC_TX8_LAYOUT_NONE}, {NULL, 0}};
static const word bool_words[] = {{"true", 1}, {"false", 0}, {NULL, 0}};

static int read_word(npuc_yaml *y, yaml_node_t *v, const char *key,
                     const word *words) {
  const char *text = npuc_yaml_scalar(v);
  for (const word *w = words; text && w->text; ++w)
    if (strcmp(w->text, text) == 0)
      return w->value;
  npuc_yaml_error(y, v, "'%s' is not a valid value of '%s'",
                  text ? text : "(not a scalar)", key);
  return words[0].value;
}

static uint64_t read_mask(npuc_yaml *y, yaml_node_t *v, const char *key) {
  const char *text = npuc_yaml_scalar(v);
  char *end = NULL;
  errno = 0;
  uint64_t mask = text ? strtoull(text, &end, 0) : 0;
  if (!text || !*text || *end || text[0] == '-' || errno == ERANGE)
    npuc_yaml_error(y, v, "'%s' must be a bit mask, not '%s'", key,
                    text ? text : "(not a scalar)");
  return mask;
}

/* Each key of an entry's `library:` and `infer:` mappings and the field
 * it sets: from a word of `words`, or a bit mask when `words` is NULL. */
typedef struct {
  const char *section, *key;
  size_t offset, size;
  const word *words;
} key_def;

#define KEY(section, key, member, words)                                       \
  {                                                                            \
    section, key, offsetof(npuc_tx8_op_attr, member),                          \
        sizeof(((npuc_tx8_op_attr *)0)->member), words                         \
  }
static const key_def keys[] = {
    KEY("library", "align_mode", align_mode, align_words),
    KEY("library", "default_layout", default_layout, layout_words),
    KEY("library", "need_preset_to_npu", need_preset_to_npu, bool_words),
    KEY("library", "engine", engine, engine_words),
    KEY("library", "mem_inplace", mem_inplace, bool_words),
    KEY("library", "need_load", need_load, NULL),
    KEY("library", "need_store", need_store, NULL),
    KEY("library", "parallel", parallel, bool_words),
    KEY("library", "align_cx", align_cx, bool_words),
    KEY("infer", "shape", shape_rule, shape_words),
    KEY("infer", "layout", layout_rule, layout_rule_words),
};

/* Fields are bool, an enum (int) or a mask (uint64_t). */
static void store_field(void *field, size_t size, uint64_t v) {
  bool b = v != 0;
  int i = (int)v;
  memcpy(field,
         size == sizeof b   ? (void *)&b
         : size == sizeof i ? (void *)&i
                            : (void *)&v,
         size);
}

static void apply_key(npuc_yaml *y, const char *section, const char *key,
                      yaml_node_t *v, npuc_tx8_op_attr *a) {
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    const key_def *k = &keys[i];
    if (strcmp(k->section, section) != 0 || strcmp(k->key, key) != 0)
      continue;
    uint64_t value = k->words ? (uint64_t)read_word(y, v, key, k->words)
                              : read_mask(y, v, key);
    store_field((char *)a + k->offset, k->size, value);
    return;
  }
  npuc_yaml_error(y, v, "unknown %s key '%s'", section, key);
}

/* ---- entries
 * ------------------------------------------------------------------- */

static void apply_spec(npuc_yaml *y, yaml_node_t *spec, npuc_tx8_op_attr *a) {
  static const char *const sections[] = {"library", "infer"};
  for (size_t s = 0; s < 2; ++s) {
    yaml_node_t *m = npuc_yaml_get(y, spec, sections[s]);
    for (size_t i = 0; i < npuc_yaml_pairs(m); ++i)
      apply_key(y, sections[s], npuc_yaml_key(y, m, i),
                npuc_yaml_value(y, m, i), a);
  }
}

/* The class chain outermost first, so nearer definitions win. */
static void apply_chain(npuc_yaml *y, yaml_node_t *spec, yaml_node_t *classes,
                        int depth, npuc_tx8_op_attr *a) {
  const char *cls = npuc_yaml_scalar(npuc_yaml_get(y, spec, "class"));
  yaml_node_t *parent = cls ? npuc_yaml_get(y, classes, cls) : NULL;
  if (parent && depth < 8)
    apply_chain(y, parent, classes, depth + 1, a);
  apply_spec(y, spec, a);
}

static void add_entry(npuc_tx8_op_library *lib, const char *name,
                      const npuc_tx8_op_attr *a) {
  lib->entries = realloc(lib->entries, (lib->len + 1) * sizeof *lib->entries);
  lib->entries[lib->len].name = strdup(name);
  lib->entries[lib->len].attr = *a;
  ++lib->len;
}

/* `ctx` is the npuc_tx8_op_library being filled. */
static void load_ops(npuc_yaml *y, yaml_node_t *root, void *ctx) {
  npuc_tx8_op_library *lib = ctx;
  yaml_node_t *classes = npuc_yaml_get(y, root, "classes");
  yaml_node_t *ops = npuc_yaml_get(y, root, "ops");
  for (size_t i = 0; i < npuc_yaml_len(ops); ++i) {
    yaml_node_t *entry = npuc_yaml_at(y, ops, i);
    npuc_tx8_op_attr a = default_attr();
    apply_chain(y, entry, classes, 0, &a);
    a.known = true;
    yaml_node_t *names = npuc_yaml_get(y, entry, "names");
    for (size_t k = 0; k < npuc_yaml_len(names); ++k) {
      const char *n = npuc_yaml_scalar(npuc_yaml_at(y, names, k));
      if (n)
        add_entry(lib, n, &a);
    }
    const char *one = npuc_yaml_scalar(npuc_yaml_get(y, entry, "name"));
    if (one)
      add_entry(lib, one, &a);
  }
}
