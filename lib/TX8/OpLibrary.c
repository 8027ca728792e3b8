/* The op library's per-op metadata (the seed's queryOpAttr) and inference
 * rules, read from the `library:` and `infer:` entries of the tx8be op
 * table. The op-table loader ignores these keys; this reads the same
 * embedded text. An entry takes each key from the op, else from its class
 * chain, else the seed's OpAttr default. */
#include "npuc/TX8.h"
#include "npuc/YamlDoc.h"

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

static void load_ops(npuc_yaml *y, yaml_node_t *root, npuc_tx8_op_library *lib);

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
  npuc_yaml y;
  yaml_document_t doc;
  if (!npuc_yaml_load_string(&y, &doc, yaml, len, filename, sink))
    return NULL;
  npuc_tx8_op_library *lib = calloc(1, sizeof *lib);
  load_ops(&y, yaml_document_get_root_node(&doc), lib);
  bool ok = y.ok;
  yaml_document_delete(&doc);
  if (!ok) {
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
  uint64_t mask = text ? strtoull(text, &end, 0) : 0;
  if (!text || !*text || *end || text[0] == '-')
    npuc_yaml_error(y, v, "'%s' must be a bit mask, not '%s'", key,
                    text ? text : "(not a scalar)");
  return mask;
}

static void apply_library_key(npuc_yaml *y, const char *key, yaml_node_t *v,
                              npuc_tx8_op_attr *a) {
  if (strcmp(key, "align_mode") == 0)
    a->align_mode = (npuc_tx8_align_mode)read_word(y, v, key, align_words);
  else if (strcmp(key, "default_layout") == 0)
    a->default_layout =
        (npuc_tx8_default_layout)read_word(y, v, key, layout_words);
  else if (strcmp(key, "need_preset_to_npu") == 0)
    a->need_preset_to_npu = read_word(y, v, key, bool_words);
  else if (strcmp(key, "engine") == 0)
    a->engine = (npuc_tx8_engine)read_word(y, v, key, engine_words);
  else if (strcmp(key, "mem_inplace") == 0)
    a->mem_inplace = read_word(y, v, key, bool_words);
  else if (strcmp(key, "need_load") == 0)
    a->need_load = read_mask(y, v, key);
  else if (strcmp(key, "need_store") == 0)
    a->need_store = read_mask(y, v, key);
  else if (strcmp(key, "parallel") == 0)
    a->parallel = read_word(y, v, key, bool_words);
  else if (strcmp(key, "align_cx") == 0)
    a->align_cx = read_word(y, v, key, bool_words);
  else
    npuc_yaml_error(y, v, "unknown library key '%s'", key);
}

static void apply_infer_key(npuc_yaml *y, const char *key, yaml_node_t *v,
                            npuc_tx8_op_attr *a) {
  if (strcmp(key, "shape") == 0)
    a->shape_rule = (npuc_tx8_shape_rule)read_word(y, v, key, shape_words);
  else if (strcmp(key, "layout") == 0)
    a->layout_rule =
        (npuc_tx8_layout_rule)read_word(y, v, key, layout_rule_words);
  else
    npuc_yaml_error(y, v, "unknown infer key '%s'", key);
}

/* ---- entries
 * ------------------------------------------------------------------- */

static void apply_spec(npuc_yaml *y, yaml_node_t *spec, npuc_tx8_op_attr *a) {
  yaml_node_t *library = npuc_yaml_get(y, spec, "library");
  for (size_t i = 0; i < npuc_yaml_pairs(library); ++i)
    apply_library_key(y, npuc_yaml_key(y, library, i),
                      npuc_yaml_value(y, library, i), a);
  yaml_node_t *infer = npuc_yaml_get(y, spec, "infer");
  for (size_t i = 0; i < npuc_yaml_pairs(infer); ++i)
    apply_infer_key(y, npuc_yaml_key(y, infer, i), npuc_yaml_value(y, infer, i),
                    a);
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

static void load_ops(npuc_yaml *y, yaml_node_t *root,
                     npuc_tx8_op_library *lib) {
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
