/* --target-config for aie1-cmodel: a YAML mapping, every key optional.
 *
 *   vectorize: true            # false: hand-vectorized kernels (see Target.c)
 *   virtual-vector-size: 16    # affine-super-vectorize; default by element
 *   shift: 0                   # aie-vectorize options, passed through
 *   zero-offset: 4             # also: the host zeroes every 4th element
 *   filter-arg: 1              #   (k % 4 == 3) of this argument (default 1)
 *   filter-period: 16          # or, explicitly: elements k % 16 >= 6 are 0,
 *   filter-used: 6             #   the others come in equal pairs
 *   filter-dup: 2
 *   dup-factor: 2
 *   unaligned-loads-check: false
 *   aieml: true                # AIE-ML: aie-vectorize's aieml, the emulator's
 *                              #   AIE-ML core (docs/aie1-cmodel.md)
 *   dynamic-size: 16           # the host's size of every `?` dimension
 *   slack: 256                 # elements after each buffer (vector overreads)
 *   seed: 1                    # the host's random inputs
 *   f32-ulps: 0                # allowed f32 difference (default exact)
 *
 * Unknown keys and malformed values are errors at their line
 * (cfg.yaml:LINE:COL); the file is read with NPUC_CONFIG_LIMIT. */
#include "Aie1Internal.h"
#include "npuc/ToolSupport.h"
#include "npuc/YamlDoc.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static bool read_key(npuc_yaml *y, const char *key, yaml_node_t *value,
                     aie1_config *cfg);
static void default_filter_layout(aie1_config *cfg);

bool aie1_config_read(const npuc_compile_options *o, aie1_config *cfg) {
  *cfg = (aie1_config){.vectorize = true,
                       .aieml = false,
                       .virtual_vector_size = 0,
                       .shift = -1,
                       .zero_offset = -1,
                       .dup_factor = -1,
                       .unaligned_loads_check = -1,
                       .filter_arg = 1,
                       .filter_period = 0,
                       .filter_used = -1,
                       .filter_dup = 1,
                       .dynamic_size = 16,
                       .slack = 256,
                       .seed = 1,
                       .f32_ulps = 0};
  if (!o->target_config) {
    default_filter_layout(cfg);
    return true;
  }
  size_t len;
  /* Bounded like every configuration: /dev/zero or a runaway pipe is an
   * error, and so is a directory (not an empty configuration). */
  char *text =
      npuc_read_input_limited(o->target_config, NPUC_CONFIG_LIMIT, &len, NULL);
  if (!text)
    return false;
  npuc_yaml y;
  yaml_document_t doc;
  bool ok = npuc_yaml_load_string(&y, &doc, text, len, o->target_config, NULL);
  free(text);
  if (!ok)
    return false;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (root && root->type != YAML_MAPPING_NODE)
    npuc_yaml_error(&y, root,
                    "the aie1-cmodel configuration is a mapping "
                    "(key: value)");
  for (size_t i = 0; y.ok && i < npuc_yaml_pairs(root); ++i)
    read_key(&y, npuc_yaml_key(&y, root, i), npuc_yaml_value(&y, root, i), cfg);
  ok = y.ok;
  yaml_document_delete(&doc);
  default_filter_layout(cfg);
  return ok;
}

/* zero-offset Z asserts the filter's every Z-th element is zero; without
 * an explicit layout that is the one the host makes. */
static void default_filter_layout(aie1_config *cfg) {
  if (cfg->filter_period == 0 && cfg->zero_offset > 0)
    cfg->filter_period = cfg->zero_offset;
  if (cfg->filter_used < 0)
    cfg->filter_used = cfg->filter_period > 0 ? cfg->filter_period - 1 : 0;
}

static bool read_int(npuc_yaml *y, yaml_node_t *v, const char *key, int64_t lo,
                     int64_t hi, int64_t *out) {
  const char *s = npuc_yaml_scalar(v);
  char *end = NULL;
  errno = 0;
  long long x = s ? strtoll(s, &end, 10) : 0;
  if (!s || !*s || *end || errno || x < lo || x > hi) {
    npuc_yaml_error(y, v, "'%s' takes an integer in [%lld, %lld]", key,
                    (long long)lo, (long long)hi);
    return false;
  }
  *out = x;
  return true;
}

static bool read_bool(npuc_yaml *y, yaml_node_t *v, const char *key,
                      bool *out) {
  const char *s = npuc_yaml_scalar(v);
  if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
    *out = s[0] == 't';
    return true;
  }
  npuc_yaml_error(y, v, "'%s' takes true or false", key);
  return false;
}

/* The integer keys: the range each takes and the field it sets. */
#define INT_KEY(key, lo, hi, field)                                            \
  { key, lo, hi, offsetof(aie1_config, field) }
static const struct {
  const char *key;
  int64_t lo, hi;
  size_t field;
} int_keys[] = {
    INT_KEY("virtual-vector-size", 1, 1024, virtual_vector_size),
    INT_KEY("shift", 0, 63, shift),
    INT_KEY("zero-offset", 0, 1 << 20, zero_offset),
    INT_KEY("dup-factor", 1, 1 << 20, dup_factor),
    INT_KEY("filter-arg", 0, 15, filter_arg),
    INT_KEY("filter-period", 1, 1 << 20, filter_period),
    INT_KEY("filter-used", 0, 1 << 20, filter_used),
    INT_KEY("filter-dup", 1, 1 << 20, filter_dup),
    INT_KEY("dynamic-size", 1, 1 << 16, dynamic_size),
    INT_KEY("slack", 0, 1 << 24, slack),
    INT_KEY("f32-ulps", 0, 1 << 24, f32_ulps),
};
#undef INT_KEY

static bool read_key(npuc_yaml *y, const char *key, yaml_node_t *value,
                     aie1_config *cfg) {
  int64_t seed;
  bool b;
  if (!key) {
    npuc_yaml_error(y, value,
                    "keys of the aie1-cmodel configuration are "
                    "names");
    return false;
  }
  if (!strcmp(key, "vectorize"))
    return read_bool(y, value, key, &cfg->vectorize);
  if (!strcmp(key, "unaligned-loads-check")) {
    if (!read_bool(y, value, key, &b))
      return false;
    cfg->unaligned_loads_check = b;
    return true;
  }
  if (!strcmp(key, "aieml"))
    return read_bool(y, value, key, &cfg->aieml);
  if (!strcmp(key, "seed")) {
    if (!read_int(y, value, key, 0, INT64_MAX, &seed))
      return false;
    cfg->seed = (uint64_t)seed;
    return true;
  }
  for (size_t i = 0; i < sizeof int_keys / sizeof *int_keys; ++i)
    if (!strcmp(key, int_keys[i].key))
      return read_int(y, value, key, int_keys[i].lo, int_keys[i].hi,
                      (int64_t *)((char *)cfg + int_keys[i].field));
  npuc_yaml_error(y, value,
                  "unknown key '%s' in the aie1-cmodel configuration (known: "
                  "vectorize, virtual-vector-size, shift, zero-offset, "
                  "dup-factor, unaligned-loads-check, filter-arg, "
                  "filter-period, filter-used, "
                  "filter-dup, dynamic-size, slack, seed, f32-ulps)",
                  key);
  return false;
}
