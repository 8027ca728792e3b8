/* npuc-run specs: YAML in, argument descriptions out; and the inputs they
 * describe, generated deterministically from the seed.
 *
 *   kernel: add_kernel        # optional: which entry (default: the first)
 *   seed: 7                   # optional, default 1
 *   blocks: 98                # optional: logical block count to launch
 *   sub_blocks: [1, 2]        # optional: sub-blocks per block (see Run.h)
 *   args:
 *     - {scalar: i64, value: 0}
 *     - {buffer: f32, shape: [100000], init: random, range: [-4, 4]}
 *     - {buffer: f32, shape: [100000], init: zeros}
 *     - {buffer: i32, shape: [8, 16], init: file, file: a.bin}
 *
 * Everything is checked here, at its line: unknown keys, counts that are
 * not whole numbers or exceed the limits of Run.h, scalar values that do
 * not fit their dtype, buffers whose sizes overflow or together exceed
 * NPUC_RUN_MAX_BYTES, an init file that is missing or too short. */
#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/Dtype.h"
#include "npuc/Run.h"
#include "npuc/ToolSupport.h"
#include "npuc/YamlDoc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef npuc_yaml spec_reader;

static void read_top(spec_reader *r, yaml_node_t *root, npuc_run_spec *spec);
static bool check_keys(spec_reader *r, yaml_node_t *map,
                       const char *const *known, const char *what);
static bool read_int(spec_reader *r, yaml_node_t *n, const char *field,
                     int64_t lo, int64_t hi, int64_t *out);
static void read_sub_blocks(spec_reader *r, yaml_node_t *n,
                            npuc_run_spec *spec);
static void read_args(spec_reader *r, yaml_node_t *list, npuc_run_spec *spec);

bool npuc_run_spec_load(const char *path, npuc_run_spec *spec,
                        const npuc_diag_sink *sink) {
  memset(spec, 0, sizeof *spec);
  spec->seed = 1;
  spec->blocks = -1;
  size_t len;
  char *text = npuc_read_input_limited(path, NPUC_CONFIG_LIMIT, &len, sink);
  if (!text)
    return false;
  const char *name = npuc_input_display_name(path);
  spec->file = npuc_xstrdup(name);
  spec_reader r;
  yaml_document_t doc;
  bool loaded = npuc_yaml_load_string(&r, &doc, text, len, spec->file, sink);
  free(text);
  if (!loaded) {
    npuc_run_spec_free(spec);
    return false;
  }
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE)
    npuc_yaml_error(&r, root, "a spec is a mapping with 'args'");
  else
    read_top(&r, root, spec);
  yaml_document_delete(&doc);
  if (!r.ok)
    npuc_run_spec_free(spec);
  return r.ok;
}

static npuc_run_loc loc_of(const yaml_node_t *n) {
  return (npuc_run_loc){(int)n->start_mark.line + 1,
                        (int)n->start_mark.column + 1};
}

static void read_top(spec_reader *r, yaml_node_t *root, npuc_run_spec *spec) {
  static const char *const keys[] = {"kernel",     "seed", "blocks",
                                     "sub_blocks", "args", NULL};
  if (!check_keys(r, root, keys, "a spec"))
    return;
  yaml_node_t *kernel = npuc_yaml_get(r, root, "kernel");
  if (kernel && !npuc_yaml_scalar(kernel)) {
    npuc_yaml_error(r, kernel, "'kernel' is the name of a function");
    return;
  }
  spec->kernel = kernel ? npuc_xstrdup(npuc_yaml_scalar(kernel)) : NULL;
  int64_t v;
  yaml_node_t *n = npuc_yaml_get(r, root, "seed");
  if (n && read_int(r, n, "'seed'", 0, INT64_MAX, &v))
    spec->seed = (uint64_t)v;
  n = npuc_yaml_get(r, root, "blocks");
  if (n && read_int(r, n, "'blocks'", 0, NPUC_RUN_MAX_BLOCKS, &v))
    spec->blocks = v;
  n = npuc_yaml_get(r, root, "sub_blocks");
  if (n && r->ok)
    read_sub_blocks(r, n, spec);
  yaml_node_t *args = npuc_yaml_get(r, root, "args");
  if (!r->ok)
    return;
  if (!args || args->type != YAML_SEQUENCE_NODE)
    npuc_yaml_error(r, args ? args : root, "'args' must be a list");
  else
    read_args(r, args, spec);
}

/* Every key of `map` is one of `known`. */
static bool check_keys(spec_reader *r, yaml_node_t *map,
                       const char *const *known, const char *what) {
  for (size_t i = 0; i < npuc_yaml_pairs(map); ++i) {
    const char *key = npuc_yaml_key(r, map, i);
    bool found = false;
    for (int k = 0; key && known[k] && !found; ++k)
      found = strcmp(key, known[k]) == 0;
    if (found)
      continue;
    char list[128] = "";
    for (int k = 0; known[k]; ++k)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
               k ? ", " : "", known[k]);
    yaml_node_t *key_node =
        yaml_document_get_node(r->doc, map->data.mapping.pairs.start[i].key);
    npuc_yaml_error(r, key_node, "unknown key '%s' in %s (known: %s)",
                    key ? key : "?", what, list);
    return false;
  }
  return true;
}

/* A whole number in [lo, hi], written as an integer or as a float without
 * a fraction (1e3). `field` names it in errors ("'blocks'"). */
static bool read_int(spec_reader *r, yaml_node_t *n, const char *field,
                     int64_t lo, int64_t hi, int64_t *out) {
  const char *s = npuc_yaml_scalar(n);
  if (!s || !*s) {
    npuc_yaml_error(r, n, "%s expects an integer, found %s", field,
                    s ? "nothing" : "a list or map");
    return false;
  }
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  bool integer = end != s && !*end && errno == 0, huge = false;
  if (!integer) {
    double d = strtod(s, &end);
    if (end == s || *end || isnan(d) || d != floor(d)) {
      npuc_yaml_error(r, n, "%s expects an integer, found '%s'", field, s);
      return false;
    }
    huge = d >= 0x1p63 || d < -0x1p63;
    v = huge ? (d < 0 ? INT64_MIN : INT64_MAX) : (long long)d;
  }
  if (v < lo || (huge && v < 0)) {
    npuc_yaml_error(r, n, "%s is %s, less than %lld", field, s, (long long)lo);
    return false;
  }
  if (v > hi || (huge && v > 0)) {
    npuc_yaml_error(r, n, "%s is %s, more than the limit of %lld", field, s,
                    (long long)hi);
    return false;
  }
  *out = v;
  return true;
}

/* `sub_blocks: N` (every kernel run) or `[A, B]` (the two kernels of a
 * comparison). */
static void read_sub_blocks(spec_reader *r, yaml_node_t *n,
                            npuc_run_spec *spec) {
  yaml_node_t *items[2] = {n, n};
  if (n->type == YAML_SEQUENCE_NODE) {
    if (npuc_yaml_len(n) != 2) {
      npuc_yaml_error(r, n, "sub_blocks is a count or a list of two");
      return;
    }
    items[0] = npuc_yaml_at(r, n, 0);
    items[1] = npuc_yaml_at(r, n, 1);
  }
  for (int k = 0; k < 2; ++k) {
    const char *s = npuc_yaml_scalar(items[k]);
    char *end = NULL;
    double v = s ? strtod(s, &end) : 0;
    if (s && end != s && !*end && (v < 1 || v != floor(v))) {
      npuc_yaml_error(r, items[k],
                      "a sub-block count is a whole number of "
                      "at least 1");
      return;
    }
    if (!read_int(r, items[k], "'sub_blocks'", 1, NPUC_RUN_MAX_SUB_BLOCKS,
                  &spec->sub_blocks[k]))
      return;
  }
}

static bool read_arg(spec_reader *r, yaml_node_t *a, int index,
                     npuc_run_arg *arg, int64_t *total_bytes);
static bool read_buffer(spec_reader *r, yaml_node_t *a, int index,
                        npuc_run_arg *arg, int64_t *total_bytes);
static bool read_scalar(spec_reader *r, yaml_node_t *a, int index,
                        npuc_run_arg *arg);
static bool read_fill(spec_reader *r, yaml_node_t *a, int index,
                      npuc_run_arg *arg);

static void read_args(spec_reader *r, yaml_node_t *list, npuc_run_spec *spec) {
  spec->args_loc = loc_of(list);
  int64_t total_bytes = 0;
  for (size_t i = 0; i < npuc_yaml_len(list) && r->ok; ++i) {
    yaml_node_t *a = npuc_yaml_at(r, list, i);
    if (spec->num_args == 64) {
      npuc_yaml_error(r, a, "at most 64 arguments");
      return;
    }
    npuc_run_arg *arg = &spec->args[spec->num_args];
    /* Counted first: what a failed entry holds is freed with the spec. */
    spec->num_args++;
    if (!read_arg(r, a, (int)i, arg, &total_bytes))
      return;
  }
}

static bool read_arg(spec_reader *r, yaml_node_t *a, int index,
                     npuc_run_arg *arg, int64_t *total_bytes) {
  arg->loc = loc_of(a);
  const char *buf = npuc_yaml_scalar(npuc_yaml_get(r, a, "buffer"));
  const char *sc = npuc_yaml_scalar(npuc_yaml_get(r, a, "scalar"));
  const char *dt = buf ? buf : sc;
  npuc_dtype dtype;
  if (a->type != YAML_MAPPING_NODE || (buf && sc) || !dt ||
      !npuc_rt_dtype_parse(dt, &dtype)) {
    npuc_yaml_error(r, a,
                    "each argument is {buffer: DTYPE, shape: [..]} or "
                    "{scalar: DTYPE, value: V}; dtype '%s' is not one of i1 "
                    "i8 i16 i32 i64 index f16 bf16 f32 f64",
                    dt ? dt : "(none)");
    return false;
  }
  snprintf(arg->dtype, sizeof arg->dtype, "%s",
           strcmp(dt, "index") == 0 ? "i64" : dt);
  arg->is_buffer = buf != NULL;
  return arg->is_buffer ? read_buffer(r, a, index, arg, total_bytes)
                        : read_scalar(r, a, index, arg);
}

static int64_t elem_bytes(const npuc_run_arg *a) {
  npuc_dtype dt = NPUC_DT_I64;
  npuc_rt_dtype_parse(a->dtype, &dt);
  return (int64_t)npuc_rt_elem_size(dt);
}

/* The shape, its size in bytes (overflow-checked, and the spec's buffers
 * together at most NPUC_RUN_MAX_BYTES), and the fill. */
static bool read_buffer(spec_reader *r, yaml_node_t *a, int index,
                        npuc_run_arg *arg, int64_t *total_bytes) {
  static const char *const keys[] = {"buffer", "shape", "init",
                                     "range",  "file",  NULL};
  if (!check_keys(r, a, keys, "a buffer argument"))
    return false;
  yaml_node_t *shape = npuc_yaml_get(r, a, "shape");
  if (!shape || shape->type != YAML_SEQUENCE_NODE || npuc_yaml_len(shape) > 8) {
    npuc_yaml_error(r, shape ? shape : a,
                    "argument %d: a buffer needs "
                    "'shape: [d0, ...]' of rank 0 to 8",
                    index);
    return false;
  }
  arg->shape_loc = loc_of(shape);
  arg->rank = (int)npuc_yaml_len(shape);
  for (int d = 0; d < arg->rank; ++d) {
    char field[64];
    snprintf(field, sizeof field, "dimension %d of 'shape'", d);
    if (!read_int(r, npuc_yaml_at(r, shape, (size_t)d), field, 0, INT64_MAX,
                  &arg->shape[d]))
      return false;
  }
  int64_t elements;
  if (!npuc_checked_product(arg->shape, arg->rank, &elements) ||
      !npuc_checked_mul(elements, elem_bytes(arg), &arg->bytes) ||
      !npuc_checked_add(*total_bytes, arg->bytes, total_bytes) ||
      *total_bytes > NPUC_RUN_MAX_BYTES) {
    npuc_yaml_error(r, shape,
                    "argument %d: 'shape' brings the spec's "
                    "buffers over the limit of %lld bytes (1 GiB) in all",
                    index, (long long)NPUC_RUN_MAX_BYTES);
    return false;
  }
  return read_fill(r, a, index, arg);
}

static bool read_number(spec_reader *r, yaml_node_t *n, const char *field,
                        double *out) {
  const char *s = npuc_yaml_scalar(n);
  char *end = NULL;
  if (s)
    *out = strtod(s, &end);
  if (!s || end == s || *end) {
    npuc_yaml_error(r, n, "%s expects a number, found '%s'", field,
                    s ? s : "a list or map");
    return false;
  }
  return true;
}

static bool check_file(spec_reader *r, yaml_node_t *n, int index,
                       const npuc_run_arg *arg);

static bool read_fill(spec_reader *r, yaml_node_t *a, int index,
                      npuc_run_arg *arg) {
  static const char *const fills[] = {"random", "zeros", "ones", "iota",
                                      "file"};
  yaml_node_t *init_node = npuc_yaml_get(r, a, "init");
  const char *init = npuc_yaml_scalar(init_node);
  arg->fill = NPUC_FILL_RANDOM;
  for (int k = 0; init && k < 5; ++k)
    if (strcmp(init, fills[k]) == 0)
      arg->fill = (npuc_fill)k;
  if (init_node && (!init || strcmp(init, fills[arg->fill]) != 0)) {
    npuc_yaml_error(r, init_node,
                    "argument %d: unknown init '%s' (random, "
                    "zeros, ones, iota, file)",
                    index, init ? init : "?");
    return false;
  }
  arg->lo = -1;
  arg->hi = 1;
  yaml_node_t *range = npuc_yaml_get(r, a, "range");
  if (range && npuc_yaml_len(range) != 2) {
    npuc_yaml_error(r, range, "argument %d: 'range' is [low, high]", index);
    return false;
  }
  if (range &&
      (!read_number(r, npuc_yaml_at(r, range, 0), "'range'", &arg->lo) ||
       !read_number(r, npuc_yaml_at(r, range, 1), "'range'", &arg->hi)))
    return false;
  yaml_node_t *file = npuc_yaml_get(r, a, "file");
  if (arg->fill == NPUC_FILL_FILE && !npuc_yaml_scalar(file)) {
    npuc_yaml_error(r, file ? file : a,
                    "argument %d: init: file needs "
                    "'file: path.bin'",
                    index);
    return false;
  }
  if (npuc_yaml_scalar(file))
    arg->file = npuc_xstrdup(npuc_yaml_scalar(file));
  return arg->fill != NPUC_FILL_FILE || check_file(r, file, index, arg);
}

/* The file of init: file exists, is no directory, and (a regular file) has
 * at least the buffer's bytes: checked now so that nothing is written for
 * a run that cannot start. */
static bool check_file(spec_reader *r, yaml_node_t *n, int index,
                       const npuc_run_arg *arg) {
  struct stat st;
  int err = stat(arg->file, &st) != 0 ? errno
            : S_ISDIR(st.st_mode)     ? EISDIR
                                      : 0;
  if (err) {
    npuc_yaml_error(r, n, "argument %d: cannot read '%s': %s", index, arg->file,
                    strerror(err));
    return false;
  }
  if (S_ISREG(st.st_mode) && st.st_size < arg->bytes) {
    npuc_yaml_error(r, n,
                    "argument %d: '%s' has %lld bytes, the buffer "
                    "needs %lld",
                    index, arg->file, (long long)st.st_size,
                    (long long)arg->bytes);
    return false;
  }
  return true;
}

/* An integer dtype's value fits its width, read as signed or unsigned
 * (i8: -128 to 255); it is passed on in decimal. A float's is a number,
 * passed on as written. */
static bool read_scalar(spec_reader *r, yaml_node_t *a, int index,
                        npuc_run_arg *arg) {
  static const char *const keys[] = {"scalar", "value", NULL};
  if (!check_keys(r, a, keys, "a scalar argument"))
    return false;
  yaml_node_t *value = npuc_yaml_get(r, a, "value");
  npuc_dtype dt = NPUC_DT_I64;
  npuc_rt_dtype_parse(arg->dtype, &dt);
  char field[48];
  snprintf(field, sizeof field, "'value' of argument %d", index);
  if (!value) {
    arg->value = npuc_xstrdup("0");
    return true;
  }
  if (npuc_rt_is_float(dt)) {
    double d;
    if (!read_number(r, value, field, &d))
      return false;
    arg->value = npuc_xstrdup(npuc_yaml_scalar(value));
    return true;
  }
  int bits = (int)npuc_rt_elem_size(dt) * 8;
  if (dt == NPUC_DT_I1)
    bits = 1;
  int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << bits) - 1;
  int64_t v;
  if (!read_int(r, value, field, lo, hi, &v))
    return false;
  char text[32];
  snprintf(text, sizeof text, "%lld", (long long)v);
  arg->value = npuc_xstrdup(text);
  return true;
}

void npuc_run_spec_free(npuc_run_spec *spec) {
  free(spec->file);
  free(spec->kernel);
  for (int i = 0; i < spec->num_args; ++i) {
    free(spec->args[i].file);
    free(spec->args[i].value);
  }
  memset(spec, 0, sizeof *spec);
}

/* ---- inputs ------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* One element's value as the fill describes it. */
static double element_value(const npuc_run_arg *a, int64_t k, uint64_t *rng) {
  switch (a->fill) {
  case NPUC_FILL_ZEROS: return 0;
  case NPUC_FILL_ONES: return 1;
  case NPUC_FILL_IOTA: return (double)k;
  default: break;
  }
  double u = (double)(splitmix64(rng) >> 11) * 0x1.0p-53;
  return a->lo + u * (a->hi - a->lo);
}

static void put(void *data, npuc_dtype dt, int64_t k, double v) {
  switch (dt) {
  case NPUC_DT_I1: ((uint8_t *)data)[k] = v >= 0.5 || v < -0.5; break;
  case NPUC_DT_I8: ((int8_t *)data)[k] = (int8_t)v; break;
  case NPUC_DT_I16: ((int16_t *)data)[k] = (int16_t)v; break;
  case NPUC_DT_I32: ((int32_t *)data)[k] = (int32_t)v; break;
  case NPUC_DT_I64: ((int64_t *)data)[k] = (int64_t)v; break;
  case NPUC_DT_F16: ((uint16_t *)data)[k] = npuc_rt_f32_to_f16((float)v); break;
  case NPUC_DT_BF16:
    ((uint16_t *)data)[k] = npuc_rt_f32_to_bf16((float)v);
    break;
  case NPUC_DT_F32: ((float *)data)[k] = (float)v; break;
  case NPUC_DT_F64: ((double *)data)[k] = v; break;
  }
}

/* The buffer's bytes: read from its file, or generated. NULL (reported)
 * when the file is short or memory is out. */
static void *input_data(const npuc_run_spec *spec, int i,
                        const npuc_diag_sink *sink) {
  const npuc_run_arg *a = &spec->args[i];
  size_t bytes = (size_t)a->bytes;
  void *data = calloc(bytes ? bytes : 1, 1);
  if (!data) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, spec->file, a->loc.line, a->loc.col,
                   "argument %d: out of memory for %zu bytes", i, bytes);
    return NULL;
  }
  if (a->fill == NPUC_FILL_FILE) {
    FILE *in = fopen(a->file, "rb");
    size_t got = in ? fread(data, 1, bytes, in) : 0;
    if (!in)
      npuc_diag_emit(sink, NPUC_SEV_ERROR, a->file, 0, 0, "cannot read: %s",
                     strerror(errno));
    else if (got != bytes)
      npuc_diag_emit(sink, NPUC_SEV_ERROR, a->file, 0, 0,
                     "has %zu bytes, the argument needs %zu", got, bytes);
    if (in)
      fclose(in);
    if (got != bytes) {
      free(data);
      return NULL;
    }
    return data;
  }
  /* Each argument has its own stream: adding an argument does not change
   * the others' data. */
  uint64_t rng = spec->seed * 0x100000001b3ull + (uint64_t)i;
  npuc_dtype dt = NPUC_DT_I64;
  npuc_rt_dtype_parse(a->dtype, &dt);
  int64_t n = a->bytes / (int64_t)npuc_rt_elem_size(dt);
  for (int64_t k = 0; k < n; ++k)
    put(data, dt, k, element_value(a, k, &rng));
  return data;
}

bool npuc_run_write_inputs(const npuc_run_spec *spec, const char *dir,
                           const npuc_diag_sink *sink) {
  for (int i = 0; i < spec->num_args; ++i) {
    if (!spec->args[i].is_buffer)
      continue;
    void *data = input_data(spec, i, sink);
    if (!data)
      return false;
    char *path = npuc_xmalloc(strlen(dir) + 32);
    sprintf(path, "%s/arg%d.bin", dir, i);
    size_t bytes = (size_t)spec->args[i].bytes;
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, bytes, f) == bytes;
    if (f)
      ok = fclose(f) == 0 && ok;
    if (!ok)
      npuc_diag_emit(sink, NPUC_SEV_ERROR, path, 0, 0, "cannot write input: %s",
                     strerror(errno));
    free(path);
    free(data);
    if (!ok)
      return false;
  }
  return true;
}
