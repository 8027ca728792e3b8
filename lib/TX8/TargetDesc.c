/* The TX8 target description: the built-in one and YAML overrides of it.
 * Keys are dotted paths into the document (chip.tiles.x); each maps to one
 * field of npuc_tx8_target. */
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

static void load_root(npuc_yaml *y, yaml_node_t *root, void *ctx);
static void load_mapping(npuc_yaml *y, yaml_node_t *map, const char *prefix,
                         npuc_tx8_target *t);

npuc_tx8_target npuc_tx8_target_builtin(void) {
  npuc_tx8_target t = NPUC_TX8_TARGET_DEFAULT;
  return t;
}

bool npuc_tx8_target_load_yaml(npuc_tx8_target *t, const char *yaml, size_t len,
                               const char *filename,
                               const npuc_diag_sink *sink) {
  npuc_tx8_target updated = *t;
  bool ok = npuc_tx8_yaml_parse(yaml, len, filename, sink, load_root, &updated);
  if (ok)
    *t = updated;
  return ok;
}

/* `ctx` is the npuc_tx8_target being updated. */
static void load_root(npuc_yaml *y, yaml_node_t *root, void *ctx) {
  if (root && root->type != YAML_MAPPING_NODE)
    npuc_yaml_error(y, root, "a TX8 target description must be a mapping");
  else if (root)
    load_mapping(y, root, "", ctx);
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
                      npuc_tx8_target *t);

static void load_mapping(npuc_yaml *y, yaml_node_t *map, const char *prefix,
                         npuc_tx8_target *t) {
  for (size_t i = 0; i < npuc_yaml_pairs(map); ++i) {
    const char *key = npuc_yaml_key(y, map, i);
    yaml_node_t *value = npuc_yaml_value(y, map, i);
    char path[256];
    snprintf(path, sizeof path, "%s%s", prefix, key ? key : "?");
    if (value->type == YAML_MAPPING_NODE) {
      char nested[260];
      snprintf(nested, sizeof nested, "%s.", path);
      load_mapping(y, value, nested, t);
    } else {
      set_field(y, value, path, t);
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
                      npuc_tx8_target *t) {
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
  char *p = (char *)t + fields[f].offset;
  if (fields[f].type == F_I32)
    *(int32_t *)p = (int32_t)integer;
  else if (fields[f].type == F_I64)
    *(int64_t *)p = (int64_t)integer;
  else
    *(double *)p = real;
}
