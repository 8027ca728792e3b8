/* The TX8 target description: the built-in one and YAML overrides of it.
 * Keys are dotted paths into the document (chip.tiles.x); each maps to one
 * field of npuc_tx8_target. */
#include "npuc/Checked.h"
#include "npuc/TX8.h"
#include "npuc/YamlDoc.h"

#include "YamlParse.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { F_I32, F_I64, F_F64 } field_type;

static const struct {
  const char *path;
  field_type type;
  size_t offset;
} fields[] = {
    {"chips", F_I32, offsetof(npuc_tx8_target, chips)},
    {"chip.tiles.x", F_I32, offsetof(npuc_tx8_target, tiles_x)},
    {"chip.tiles.y", F_I32, offsetof(npuc_tx8_target, tiles_y)},
    {"chip.ddr_bytes", F_I64, offsetof(npuc_tx8_target, ddr_bytes)},
    {"chip.ddr_bank_bytes", F_I64, offsetof(npuc_tx8_target, ddr_bank_bytes)},
    {"chip.ddr_gbytes_per_s", F_F64,
     offsetof(npuc_tx8_target, ddr_gbytes_per_s)},
    {"tile.spm_bytes", F_I64, offsetof(npuc_tx8_target, spm_bytes)},
    {"tile.clock_ghz", F_F64, offsetof(npuc_tx8_target, clock_ghz)},
    {"tile.multi_buf", F_I32, offsetof(npuc_tx8_target, multi_buf)},
    {"engines.ne.instruction.m", F_I32, offsetof(npuc_tx8_target, ne_m)},
    {"engines.ne.instruction.k", F_I32, offsetof(npuc_tx8_target, ne_k)},
    {"engines.ne.instruction.n", F_I32, offsetof(npuc_tx8_target, ne_n)},
    {"engines.ne.tflops.int8", F_F64,
     offsetof(npuc_tx8_target, ne_tflops_int8)},
    {"engines.ne.tflops.fp16", F_F64,
     offsetof(npuc_tx8_target, ne_tflops_fp16)},
    {"engines.ne.tflops.bf16", F_F64,
     offsetof(npuc_tx8_target, ne_tflops_bf16)},
    {"engines.ne.tflops.fp32", F_F64,
     offsetof(npuc_tx8_target, ne_tflops_fp32)},
    {"engines.ct.bytes_per_cycle", F_I64,
     offsetof(npuc_tx8_target, ct_bytes_per_cycle)},
    {"engines.tdma.bytes_per_cycle", F_I64,
     offsetof(npuc_tx8_target, tdma_bytes_per_cycle)},
    {"engines.op_overhead_cycles", F_I64,
     offsetof(npuc_tx8_target, op_overhead_cycles)},
    {"chip.noc.link_bytes_per_cycle", F_I64,
     offsetof(npuc_tx8_target, noc_link_bytes_per_cycle)},
    {"chip.noc.hop_cycles", F_I64, offsetof(npuc_tx8_target, noc_hop_cycles)},
};

#define NUM_FIELDS (sizeof fields / sizeof *fields)

/* What a load updates, and where each key it set was (for the range
 * checks that relate keys). */
typedef struct {
  npuc_tx8_target *t;
  yaml_node_t *at[NUM_FIELDS];
} loading;

static void load_root(npuc_yaml *y, yaml_node_t *root, void *ctx);
static void load_mapping(npuc_yaml *y, yaml_node_t *map, const char *prefix,
                         loading *l);
static void check_ranges(npuc_yaml *y, yaml_node_t *root, const loading *l);

npuc_tx8_target npuc_tx8_target_builtin(void) {
  npuc_tx8_target t = NPUC_TX8_TARGET_DEFAULT;
  return t;
}

bool npuc_tx8_target_load_yaml(npuc_tx8_target *t, const char *yaml, size_t len,
                               const char *filename,
                               const npuc_diag_sink *sink) {
  npuc_tx8_target updated = *t;
  loading l = {&updated, {NULL}};
  bool ok = npuc_tx8_yaml_parse(yaml, len, filename, sink, load_root, &l);
  if (ok)
    *t = updated;
  return ok;
}

/* `ctx` is the loading state. */
static void load_root(npuc_yaml *y, yaml_node_t *root, void *ctx) {
  if (root && root->type != YAML_MAPPING_NODE)
    npuc_yaml_error(y, root, "a TX8 target description must be a mapping");
  else if (root) {
    load_mapping(y, root, "", ctx);
    if (y->ok)
      check_ranges(y, root, ctx);
  }
}

bool npuc_tx8_target_load_file(npuc_tx8_target *t, const char *path,
                               const npuc_diag_sink *sink) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, path, 0, 0, "cannot read: %s",
                   strerror(errno));
    return false;
  }
  char *text = NULL;
  size_t len = 0, cap = 0, got;
  do {
    if (len + 4096 > cap)
      text = realloc(text, cap = (len + 4096) * 2);
    got = fread(text + len, 1, cap - len, f);
    len += got;
  } while (got > 0);
  fclose(f);
  bool ok = npuc_tx8_target_load_yaml(t, text ? text : "", len, path, sink);
  free(text);
  return ok;
}

/* ---- keys ------------------------------------------------------------------
 */

static void set_field(npuc_yaml *y, yaml_node_t *node, const char *path,
                      loading *l);

static void load_mapping(npuc_yaml *y, yaml_node_t *map, const char *prefix,
                         loading *l) {
  for (size_t i = 0; i < npuc_yaml_pairs(map); ++i) {
    const char *key = npuc_yaml_key(y, map, i);
    yaml_node_t *value = npuc_yaml_value(y, map, i);
    char path[256];
    snprintf(path, sizeof path, "%s%s", prefix, key ? key : "?");
    if (value->type == YAML_MAPPING_NODE) {
      char nested[260];
      snprintf(nested, sizeof nested, "%s.", path);
      load_mapping(y, value, nested, l);
    } else {
      set_field(y, value, path, l);
    }
  }
}

static bool parse_positive(const char *text, field_type type, double *real,
                           long long *integer) {
  if (!text || !*text)
    return false;
  char *end = NULL;
  errno = 0;
  if (type == F_F64) {
    *real = strtod(text, &end);
    return !*end && errno == 0 && isfinite(*real) && *real > 0;
  }
  *integer = strtoll(text, &end, 0);
  long long max = type == F_I32 ? 2147483647LL : 9223372036854775807LL;
  return !*end && errno == 0 && *integer > 0 && *integer <= max;
}

/* A positive number that fits the field: sizes, counts and rates are
 * never zero, and a zero would divide the cycle model by zero. */
static void set_field(npuc_yaml *y, yaml_node_t *node, const char *path,
                      loading *l) {
  size_t f = 0;
  while (f < sizeof fields / sizeof *fields && strcmp(fields[f].path, path))
    ++f;
  if (f == sizeof fields / sizeof *fields) {
    npuc_yaml_error(y, node, "unknown TX8 target key '%s'", path);
    return;
  }
  const char *text = npuc_yaml_scalar(node);
  double real = 0;
  long long integer = 0;
  if (!parse_positive(text, fields[f].type, &real, &integer)) {
    npuc_yaml_error(y, node, "'%s' must be a positive %s, not '%s'", path,
                    fields[f].type == F_F64 ? "number" : "integer",
                    text ? text : "(a list)");
    return;
  }
  char *p = (char *)l->t + fields[f].offset;
  l->at[f] = node;
  if (fields[f].type == F_I32)
    *(int32_t *)p = (int32_t)integer;
  else if (fields[f].type == F_I64)
    *(int64_t *)p = (int64_t)integer;
  else
    *(double *)p = real;
}

/* ---- ranges ---------------------------------------------------------------
 * Each key is positive and fits its field (set_field); these bound what the
 * compiler and the C model compute from them, so that no product of a
 * tensor's bytes, the tiles and the DDR overflows int64 (tx8-layout-init
 * bounds every tensor by ddr_bytes) and the C model does not start
 * millions of tile threads. */

#define MAX_TILES 4096                 /* tiles_x * tiles_y */
#define MAX_DDR_BYTES (1ll << 44)      /* 16 TiB */
#define MAX_NE_DIM 65536               /* an NE instruction's m, k, n */
#define MAX_MULTI_BUF 3                /* tx8-spm-alloc's copies */
#define MAX_CYCLE_CONSTANT (1ll << 32) /* overheads and hop latencies */

static size_t field_index(const char *path) {
  size_t f = 0;
  while (f < NUM_FIELDS && strcmp(fields[f].path, path))
    ++f;
  return f;
}

/* Where a key was given (it may be the built-in value: then the root). */
static yaml_node_t *where(const loading *l, yaml_node_t *root,
                          const char *path) {
  size_t f = field_index(path);
  return f < NUM_FIELDS && l->at[f] ? l->at[f] : root;
}

static bool at_most(npuc_yaml *y, yaml_node_t *root, const loading *l,
                    const char *path, long long value, long long max,
                    const char *why) {
  if (value <= max)
    return true;
  npuc_yaml_error(y, where(l, root, path), "'%s' is %lld: at most %lld (%s)",
                  path, value, max, why);
  return false;
}

static void check_ranges(npuc_yaml *y, yaml_node_t *root, const loading *l) {
  const npuc_tx8_target *t = l->t;
  int64_t tiles;
  if (!npuc_checked_mul(t->tiles_x, t->tiles_y, &tiles) || tiles > MAX_TILES) {
    const char *key =
        l->at[field_index("chip.tiles.y")] ? "chip.tiles.y" : "chip.tiles.x";
    npuc_yaml_error(y, where(l, root, key),
                    "chip.tiles.x x chip.tiles.y is %lld tiles: at most %d",
                    (long long)t->tiles_x * t->tiles_y, MAX_TILES);
    return;
  }
  const struct {
    const char *path;
    long long value, max;
    const char *why;
  } bounds[] = {
      {"chip.ddr_bytes", t->ddr_bytes, MAX_DDR_BYTES, "16 TiB"},
      {"chip.ddr_bank_bytes", t->ddr_bank_bytes, t->ddr_bytes,
       "chip.ddr_bytes"},
      {"tile.spm_bytes", t->spm_bytes, MAX_DDR_BYTES, "16 TiB"},
      {"tile.multi_buf", t->multi_buf, MAX_MULTI_BUF, "copies"},
      {"engines.ne.instruction.m", t->ne_m, MAX_NE_DIM, "elements"},
      {"engines.ne.instruction.k", t->ne_k, MAX_NE_DIM, "elements"},
      {"engines.ne.instruction.n", t->ne_n, MAX_NE_DIM, "elements"},
      {"engines.op_overhead_cycles", t->op_overhead_cycles, MAX_CYCLE_CONSTANT,
       "2^32 cycles"},
      {"chip.noc.hop_cycles", t->noc_hop_cycles, MAX_CYCLE_CONSTANT,
       "2^32 cycles"},
  };
  for (size_t i = 0; i < sizeof bounds / sizeof *bounds; ++i)
    if (!at_most(y, root, l, bounds[i].path, bounds[i].value, bounds[i].max,
                 bounds[i].why))
      return;
}
