/* The group pattern trie of tx8-group-pattern; see Tx8Pattern.h. Nodes
 * are (symbol, starred) pairs: `X*` is a node of its own with a
 * self-loop, so `X X` and `X*` share no node and matching follows every
 * node a symbol reaches (a small NFA; the matcher memoises per node). */
#include "npuc/Tx8Pattern.h"
#include "npuc/Alloc.h"
#include "npuc/TX8.h"
#include "npuc/ToolSupport.h"
#include "npuc/YamlDoc.h"

#include "YamlParse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int32_t symbol; /* -1 at the root */
  bool star;      /* one or more: a self-loop */
  int64_t priority;
  int32_t *children;
  size_t num_children, cap_children;
} trie_node;

struct npuc_tx8_patterns {
  char **symbols; /* "tx8be.add", "ELEMENTWISE" */
  size_t num_symbols, cap_symbols;
  trie_node *nodes;
  size_t num_nodes, cap_nodes;
  size_t count; /* alternatives inserted */
};

typedef struct {
  char name[NPUC_TX8_PATTERN_NAME_MAX + 8];
  bool star;
} token;

static int32_t new_node(npuc_tx8_patterns *t, int32_t symbol, bool star) {
  if (t->num_nodes == t->cap_nodes) {
    t->cap_nodes = t->cap_nodes ? 2 * t->cap_nodes : 16;
    t->nodes = npuc_xrealloc(t->nodes, t->cap_nodes * sizeof *t->nodes);
  }
  trie_node *n = &t->nodes[t->num_nodes];
  memset(n, 0, sizeof *n);
  n->symbol = symbol;
  n->star = star;
  n->priority = -1;
  return (int32_t)t->num_nodes++;
}

npuc_tx8_patterns *npuc_tx8_patterns_new(void) {
  npuc_tx8_patterns *t = npuc_xcalloc(1, sizeof *t);
  new_node(t, -1, false);
  return t;
}

void npuc_tx8_patterns_free(npuc_tx8_patterns *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->num_symbols; i++)
    free(t->symbols[i]);
  for (size_t i = 0; i < t->num_nodes; i++)
    free(t->nodes[i].children);
  free(t->symbols);
  free(t->nodes);
  free(t);
}

int32_t npuc_tx8_patterns_symbol(const npuc_tx8_patterns *t, const char *name,
                                 size_t len) {
  for (size_t i = 0; i < t->num_symbols; i++)
    if (strlen(t->symbols[i]) == len && memcmp(t->symbols[i], name, len) == 0)
      return (int32_t)i;
  return -1;
}

static int32_t intern(npuc_tx8_patterns *t, const char *name) {
  int32_t s = npuc_tx8_patterns_symbol(t, name, strlen(name));
  if (s >= 0)
    return s;
  if (t->num_symbols == t->cap_symbols) {
    t->cap_symbols = t->cap_symbols ? 2 * t->cap_symbols : 16;
    t->symbols = npuc_xrealloc(t->symbols, t->cap_symbols * sizeof *t->symbols);
  }
  t->symbols[t->num_symbols] = npuc_xstrdup(name);
  return (int32_t)t->num_symbols++;
}

/* The child of `node` for (symbol, star), made if missing. */
static int32_t child(npuc_tx8_patterns *t, int32_t node, int32_t symbol,
                     bool star) {
  trie_node *n = &t->nodes[node];
  for (size_t i = 0; i < n->num_children; i++) {
    const trie_node *c = &t->nodes[n->children[i]];
    if (c->symbol == symbol && c->star == star)
      return n->children[i];
  }
  int32_t made = new_node(t, symbol, star);
  n = &t->nodes[node]; /* new_node may have moved the array */
  if (n->num_children == n->cap_children) {
    n->cap_children = n->cap_children ? 2 * n->cap_children : 4;
    n->children =
        npuc_xrealloc(n->children, n->cap_children * sizeof *n->children);
  }
  n->children[n->num_children++] = made;
  return made;
}

static void insert(npuc_tx8_patterns *t, const token *toks, size_t n,
                   int64_t priority) {
  int32_t node = NPUC_TX8_PATTERN_ROOT;
  for (size_t i = 0; i < n; i++)
    node = child(t, node, intern(t, toks[i].name), toks[i].star);
  if (t->nodes[node].priority < priority)
    t->nodes[node].priority = priority;
  t->count++;
}

size_t npuc_tx8_patterns_step(const npuc_tx8_patterns *t, int32_t node,
                              int32_t symbol, int32_t *out, size_t max) {
  size_t k = 0;
  const trie_node *n = &t->nodes[node];
  if (n->star && n->symbol == symbol && k < max)
    out[k++] = node;
  for (size_t i = 0; i < n->num_children && k < max; i++)
    if (t->nodes[n->children[i]].symbol == symbol)
      out[k++] = n->children[i];
  return k;
}

int64_t npuc_tx8_patterns_priority(const npuc_tx8_patterns *t, int32_t node) {
  return t->nodes[node].priority;
}

size_t npuc_tx8_patterns_nodes(const npuc_tx8_patterns *t) {
  return t->num_nodes;
}

size_t npuc_tx8_patterns_count(const npuc_tx8_patterns *t) { return t->count; }

bool npuc_tx8_pattern_is_elementwise(const char *name) {
  /* Tx8Ops.def's elementwise rows, and clip (its own row: it has
   * attributes, but is elementwise all the same). */
  static const char *const ops[] = {
#define TX8_UNARY(op, ENUM, PASSES) "tx8be." #op,
#define TX8_BINARY(op, ENUM, PASSES) "tx8be." #op,
#include "npuc/Tx8Ops.def"
      "tx8be.clip",
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(ops[i], name) == 0)
      return true;
  return false;
}

/* ---- parsing one pattern ---------------------------------------------------
 */

typedef struct {
  token toks[NPUC_TX8_PATTERN_MAX_TOKENS];
  size_t n;
} alternative;

static bool parse_word(const char *w, size_t len, bool check_ops, token *out,
                       char *err, size_t errlen);

/* Splits `text` into alternatives (at most `max`); false with err set. */
static size_t parse_pattern(const char *text, bool check_ops, alternative *alts,
                            size_t max, char *err, size_t errlen) {
  size_t count = 1;
  alts[0].n = 0;
  for (const char *p = text;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      break;
    const char *w = p;
    while (*p && !isspace((unsigned char)*p))
      p++;
    size_t len = (size_t)(p - w);
    alternative *a = &alts[count - 1];
    if (len == 2 && memcmp(w, "OR", 2) == 0) {
      if (a->n == 0) {
        snprintf(err, errlen, "'OR' with no op before it");
        return 0;
      }
      if (count == max) {
        snprintf(err, errlen, "more than %zu alternatives", max);
        return 0;
      }
      alts[count++].n = 0;
      continue;
    }
    if (len == 1 && *w == '*') {
      if (a->n == 0 || a->toks[a->n - 1].star) {
        snprintf(err, errlen, "'*' repeats no op: write it after an op name");
        return 0;
      }
      a->toks[a->n - 1].star = true;
      continue;
    }
    if (a->n == NPUC_TX8_PATTERN_MAX_TOKENS) {
      snprintf(err, errlen, "more than %d ops in one alternative",
               NPUC_TX8_PATTERN_MAX_TOKENS);
      return 0;
    }
    if (!parse_word(w, len, check_ops, &a->toks[a->n], err, errlen))
      return 0;
    a->n++;
  }
  if (alts[count - 1].n == 0) {
    snprintf(err, errlen,
             count == 1 ? "empty pattern" : "'OR' with no op after it");
    return 0;
  }
  return count;
}

/* An op name, maybe with `*` attached: `conv`, `tx8be.conv*`. */
static bool parse_word(const char *w, size_t len, bool check_ops, token *out,
                       char *err, size_t errlen) {
  out->star = len > 1 && w[len - 1] == '*';
  if (out->star)
    len--;
  bool ok = len > 0 && len <= NPUC_TX8_PATTERN_NAME_MAX;
  for (size_t i = 0; ok && i < len; i++)
    ok = isalnum((unsigned char)w[i]) || w[i] == '_' || w[i] == '.';
  if (!ok) {
    snprintf(err, errlen, "'%.*s' is not an op name",
             (int)(len > 80 ? 80 : len), w);
    return false;
  }
  bool class_name = len == strlen(NPUC_TX8_PATTERN_ELEMENTWISE) &&
                    memcmp(w, NPUC_TX8_PATTERN_ELEMENTWISE, len) == 0;
  bool dotted = memchr(w, '.', len) != NULL;
  snprintf(out->name, sizeof out->name, "%s%.*s",
           class_name || dotted ? "" : "tx8be.", (int)len, w);
  if (check_ops && !class_name && !npuc_tx8_query_op_attr(out->name).known) {
    snprintf(err, errlen, "unknown op '%s'", out->name);
    return false;
  }
  return true;
}

bool npuc_tx8_patterns_add(npuc_tx8_patterns *t, const char *text,
                           int64_t priority, bool check_ops, char *err,
                           size_t errlen) {
  enum { MAX_ALTS = 256 };
  if (priority < 0 || priority > NPUC_TX8_PATTERN_MAX_PRIORITY) {
    snprintf(err, errlen, "priority %lld is outside [0, %d]",
             (long long)priority, NPUC_TX8_PATTERN_MAX_PRIORITY);
    return false;
  }
  alternative *alts = npuc_xmalloc(MAX_ALTS * sizeof *alts);
  size_t n = parse_pattern(text, check_ops, alts, MAX_ALTS, err, errlen);
  bool ok = n > 0;
  if (ok && t->count + n > NPUC_TX8_PATTERN_MAX_COUNT) {
    snprintf(err, errlen, "more than %d patterns", NPUC_TX8_PATTERN_MAX_COUNT);
    ok = false;
  }
  for (size_t i = 0; ok && i < n; i++)
    insert(t, alts[i].toks, alts[i].n, priority);
  free(alts);
  return ok;
}

/* ---- pattern files ---------------------------------------------------------
 */

/* The `ops` of one entry as one string: a scalar, or a sequence of
 * scalars joined by blanks. NULL (reported) for anything else. */
static char *ops_text(npuc_yaml *y, const yaml_node_t *ops) {
  if (ops->type == YAML_SCALAR_NODE)
    return npuc_xstrdup(npuc_yaml_scalar(ops));
  if (ops->type != YAML_SEQUENCE_NODE || npuc_yaml_len(ops) == 0) {
    npuc_yaml_error(y, ops, "'ops' must be a string or a list of op names");
    return NULL;
  }
  size_t len = 1;
  for (size_t i = 0; i < npuc_yaml_len(ops); i++) {
    const char *s = npuc_yaml_scalar(npuc_yaml_at(y, ops, i));
    if (!s) {
      npuc_yaml_error(y, npuc_yaml_at(y, ops, i),
                      "an op name must be a string");
      return NULL;
    }
    len += strlen(s) + 1;
  }
  char *text = npuc_xmalloc(len);
  text[0] = '\0';
  for (size_t i = 0; i < npuc_yaml_len(ops); i++) {
    strcat(text, npuc_yaml_scalar(npuc_yaml_at(y, ops, i)));
    strcat(text, " ");
  }
  return text;
}

static bool read_priority(npuc_yaml *y, const yaml_node_t *n, int64_t *out) {
  const char *s = npuc_yaml_scalar(n);
  char *end = NULL;
  errno = 0;
  long long v = s ? strtoll(s, &end, 10) : 0;
  if (!s || !*s || *end || errno || v < 0 ||
      v > NPUC_TX8_PATTERN_MAX_PRIORITY) {
    npuc_yaml_error(y, n, "'priority' must be an integer in [0, %d]",
                    NPUC_TX8_PATTERN_MAX_PRIORITY);
    return false;
  }
  *out = v;
  return true;
}

/* One `{ops: ..., priority: N}` entry. */
static void load_entry(npuc_yaml *y, npuc_tx8_patterns *t,
                       const yaml_node_t *e) {
  if (e->type != YAML_MAPPING_NODE) {
    npuc_yaml_error(y, e,
                    "a pattern must be a mapping with 'ops' and "
                    "'priority'");
    return;
  }
  for (size_t i = 0; i < npuc_yaml_pairs(e); i++) {
    const char *key = npuc_yaml_key(y, e, i);
    if (!key || (strcmp(key, "ops") != 0 && strcmp(key, "priority") != 0))
      npuc_yaml_error(y, npuc_yaml_value(y, e, i), "unknown key '%s'",
                      key ? key : "?");
  }
  yaml_node_t *ops = npuc_yaml_get(y, e, "ops");
  yaml_node_t *prio = npuc_yaml_get(y, e, "priority");
  int64_t priority = 0;
  if (!ops) {
    npuc_yaml_error(y, e, "a pattern needs 'ops'");
    return;
  }
  if (prio && !read_priority(y, prio, &priority))
    return;
  char *text = ops_text(y, ops);
  char err[256];
  if (text && !npuc_tx8_patterns_add(t, text, priority, true, err, sizeof err))
    npuc_yaml_error(y, ops, "%s", err);
  free(text);
}

/* `ctx` is the npuc_tx8_patterns being filled. */
static void load_patterns(npuc_yaml *y, yaml_node_t *root, void *ctx) {
  npuc_tx8_patterns *t = ctx;
  yaml_node_t *list = root ? npuc_yaml_get(y, root, "patterns") : NULL;
  if (!list || list->type != YAML_SEQUENCE_NODE)
    npuc_yaml_error(y, root,
                    "a pattern file is a mapping with a "
                    "'patterns' list");
  for (size_t i = 0; list && i < npuc_yaml_len(list); i++) {
    if (t->count >= NPUC_TX8_PATTERN_MAX_COUNT) {
      npuc_yaml_error(y, npuc_yaml_at(y, list, i), "more than %d patterns",
                      NPUC_TX8_PATTERN_MAX_COUNT);
      break; /* once, not once per entry left */
    }
    load_entry(y, t, npuc_yaml_at(y, list, i));
  }
}

bool npuc_tx8_patterns_load_yaml(npuc_tx8_patterns *t, const char *text,
                                 size_t len, const char *file,
                                 const npuc_diag_sink *sink) {
  return npuc_tx8_yaml_parse(text, len, file, sink, load_patterns, t);
}

bool npuc_tx8_patterns_load_file(npuc_tx8_patterns *t, const char *path,
                                 const npuc_diag_sink *sink) {
  size_t len = 0;
  char *text =
      npuc_read_input_limited(path, NPUC_TX8_PATTERN_MAX_FILE, &len, sink);
  if (!text)
    return false;
  bool ok = npuc_tx8_patterns_load_yaml(t, text, len, path, sink);
  free(text);
  return ok;
}

/* ---- built-in sets
 * ----------------------------------------------------------- */

typedef struct {
  const char *ops;
  int64_t priority;
  unsigned sets; /* bit s: in set s */
} builtin_pattern;

#define CNN (1u << 1 | 1u << 2)
#define TRANSFORMER (1u << 1 | 1u << 3)
#define CHAINS (1u << 1 | 1u << 2 | 1u << 3 | 1u << 4)

/* conv(-batchnorm)(-relu)(-add)(-relu) with every part optional, then the
 * general "an op and the elementwise chain after it" at a lower priority
 * (longest match still decides first). Ops this build's library does not
 * have (softmax, layernorm, reductions) are named all the same: they
 * match once the op exists. */
static const builtin_pattern builtin[] = {
    {"conv batchnorm_inference relu add relu OR conv batchnorm_inference "
     "relu add OR conv batchnorm_inference add relu OR conv "
     "batchnorm_inference "
     "add OR conv batchnorm_inference relu OR conv batchnorm_inference OR "
     "conv relu add relu OR conv relu add OR conv add relu OR conv add OR "
     "conv relu",
     30, CNN},
    /* two conv(-batchnorm)-relu stages in one group: the ResNet basic
     * block (the second's add of the shortcut before its relu) and the
     * depthwise-separable block; the first conv's rows are kept in SPM
     * (its halo recomputed per slice) instead of a DDR round trip */
    {"conv batchnorm_inference relu conv batchnorm_inference add relu OR "
     "conv batchnorm_inference relu conv batchnorm_inference relu OR "
     "conv batchnorm_inference relu conv batchnorm_inference add OR "
     "conv relu conv add relu OR conv relu conv relu",
     35, CNN},
    /* three convs in one group: the bottleneck 1x1-3x3-1x1 (ResNet-50)
     * and MobileNetV2's inverted residual (expand, depthwise, project;
     * relu6 is a clip), with or without the shortcut's add; a 1x1's
     * output rows are cheap to recompute for the 3x3's halo */
    {"conv batchnorm_inference relu conv batchnorm_inference relu conv "
     "batchnorm_inference add relu OR conv batchnorm_inference relu conv "
     "batchnorm_inference relu conv batchnorm_inference add OR conv "
     "batchnorm_inference relu conv batchnorm_inference relu conv "
     "batchnorm_inference OR conv relu conv relu conv add relu OR conv relu "
     "conv relu conv add OR conv relu conv relu conv OR conv clip conv clip "
     "conv add OR conv clip conv clip conv OR conv clip conv clip OR conv "
     "clip conv add OR conv clip conv",
     36, CNN},
    {"conv ELEMENTWISE* OR conv batchnorm_inference ELEMENTWISE* OR "
     "batchnorm_inference ELEMENTWISE*",
     20, CNN},
    {"gemm add OR gemm mul OR gemm add relu OR gemm add gelu OR gemm add "
     "sigmoid OR gemm add tanh OR gemm add silu OR gemm add clip OR gemm relu "
     "OR gemm gelu OR gemm sigmoid OR gemm tanh OR gemm silu OR gemm clip",
     30, CNN | TRANSFORMER},
    {"gemm ELEMENTWISE*", 20, CNN | TRANSFORMER},
    /* attention scores: Q K^T, scale, softmax, times V */
    {"gemm mul softmax gemm OR gemm div softmax gemm OR gemm softmax gemm OR "
     "gemm mul add softmax gemm OR gemm mul softmax OR gemm div softmax OR "
     "gemm softmax",
     40, TRANSFORMER},
    {"add layernorm OR layernorm ELEMENTWISE* OR add layernorm ELEMENTWISE* "
     "OR layernorm gemm",
     30, TRANSFORMER},
    /* reductions, the broadcast of their result and the chain after */
    {"reduce_sum broadcast ELEMENTWISE* OR reduce_max broadcast ELEMENTWISE* "
     "OR reduce_min broadcast ELEMENTWISE* OR reduce_mean broadcast "
     "ELEMENTWISE* OR reduce_sum broadcast OR reduce_max broadcast OR "
     "reduce_min broadcast OR reduce_mean broadcast OR ELEMENTWISE* "
     "reduce_sum OR ELEMENTWISE* reduce_max OR ELEMENTWISE* reduce_min OR "
     "ELEMENTWISE* reduce_mean OR broadcast ELEMENTWISE*",
     25, CNN | TRANSFORMER},
    {"ELEMENTWISE ELEMENTWISE*", 10, CHAINS},
};

bool npuc_tx8_patterns_builtin(npuc_tx8_patterns *t, int64_t set) {
  if (set < 0 || set >= NPUC_TX8_PATTERN_SETS)
    return false;
  for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
    char err[256];
    if ((builtin[i].sets >> set & 1u) &&
        !npuc_tx8_patterns_add(t, builtin[i].ops, builtin[i].priority, false,
                               err, sizeof err))
      return false; /* the table is fixed: a unit test reads every set */
  }
  return true;
}
