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
 */
#include "npuc/Alloc.h"
#include "npuc/Dtype.h"
#include "npuc/Run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npuc/YamlDoc.h"

typedef npuc_yaml spec_reader;

static bool read_args(spec_reader *r, yaml_node_t *list, npuc_run_spec *spec);
static void read_sub_blocks(spec_reader *r, yaml_node_t *n,
                            npuc_run_spec *spec);

static bool number(spec_reader *r, yaml_node_t *n, double *out) {
  const char *s = npuc_yaml_scalar(n);
  char *end = NULL;
  if (s)
    *out = strtod(s, &end);
  if (!s || end == s || *end) {
    npuc_yaml_error(r, n, "expected a number, found '%s'", s ? s : "a list or map");
    return false;
  }
  return true;
}

bool npuc_run_spec_load(const char *path, npuc_run_spec *spec,
                        const npuc_diag_sink *sink) {
  memset(spec, 0, sizeof *spec);
  spec->seed = 1;
  spec->blocks = -1;
  FILE *f = fopen(path, "rb");
  if (!f) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, path, 0, 0, "cannot read spec: %s",
                   strerror(errno));
    return false;
  }
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, f);
  bool loaded = yaml_parser_load(&parser, &doc);
  fclose(f);
  if (!loaded) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, path, (int)parser.problem_mark.line + 1,
                   (int)parser.problem_mark.column + 1, "invalid YAML: %s",
                   parser.problem ? parser.problem : "parse error");
    yaml_parser_delete(&parser);
    return false;
  }
  spec_reader r = {&doc, path, sink, true};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    npuc_yaml_error(&r, root, "a spec is a mapping with 'args'%s", "");
  } else {
    const char *kernel = npuc_yaml_scalar(npuc_yaml_get(&r, root, "kernel"));
    spec->kernel = kernel ? npuc_xstrdup(kernel) : NULL;
    double v;
    if (npuc_yaml_get(&r, root, "seed") && number(&r, npuc_yaml_get(&r, root, "seed"), &v))
      spec->seed = (uint64_t)v;
    if (npuc_yaml_get(&r, root, "blocks") && number(&r, npuc_yaml_get(&r, root, "blocks"), &v))
      spec->blocks = (int64_t)v;
    yaml_node_t *sb = npuc_yaml_get(&r, root, "sub_blocks");
    if (sb)
      read_sub_blocks(&r, sb, spec);
    yaml_node_t *args = npuc_yaml_get(&r, root, "args");
    if (!args || args->type != YAML_SEQUENCE_NODE)
      npuc_yaml_error(&r, args ? args : root, "'args' must be a list%s", "");
    else
      read_args(&r, args, spec);
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  if (!r.ok)
    npuc_run_spec_free(spec);
  return r.ok;
}

/* `sub_blocks: N` (every kernel run) or `[A, B]` (the two kernels of a
 * comparison): whole counts of at least 1. */
static void read_sub_blocks(spec_reader *r, yaml_node_t *n,
                            npuc_run_spec *spec) {
  yaml_node_t *items[2] = {n, n};
  if (n->type == YAML_SEQUENCE_NODE) {
    yaml_node_item_t *it = n->data.sequence.items.start;
    if (n->data.sequence.items.top - it != 2) {
      npuc_yaml_error(r, n, "sub_blocks is a count or a list of two%s", "");
      return;
    }
    items[0] = yaml_document_get_node(r->doc, it[0]);
    items[1] = yaml_document_get_node(r->doc, it[1]);
  }
  for (int k = 0; k < 2; ++k) {
    double v;
    if (!number(r, items[k], &v))
      return;
    if (v < 1 || v != (double)(int64_t)v) {
      npuc_yaml_error(r, items[k], "a sub-block count is a whole number of at "
                      "least 1%s", "");
      return;
    }
    spec->sub_blocks[k] = (int64_t)v;
  }
}

static bool valid_dtype(const char *s) {
  npuc_dtype dt;
  return npuc_rt_dtype_parse(s, &dt);
}

static bool read_fill(spec_reader *r, yaml_node_t *a, npuc_run_arg *arg) {
  static const char *const fills[] = {"random", "zeros", "ones", "iota", "file"};
  const char *init = npuc_yaml_scalar(npuc_yaml_get(r, a, "init"));
  arg->fill = NPUC_FILL_RANDOM;
  for (int k = 0; init && k < 5; ++k)
    if (strcmp(init, fills[k]) == 0)
      arg->fill = (npuc_fill)k;
  if (init && strcmp(init, fills[arg->fill]) != 0) {
    npuc_yaml_error(r, npuc_yaml_get(r, a, "init"),
               "unknown init '%s' (random, zeros, ones, iota, file)", init);
    return false;
  }
  arg->lo = -1;
  arg->hi = 1;
  yaml_node_t *range = npuc_yaml_get(r, a, "range");
  if (range && (npuc_yaml_len(range) != 2 || !number(r, npuc_yaml_at(r, range, 0), &arg->lo) ||
                !number(r, npuc_yaml_at(r, range, 1), &arg->hi))) {
    npuc_yaml_error(r, range, "'range' is [low, high]%s", "");
    return false;
  }
  const char *file = npuc_yaml_scalar(npuc_yaml_get(r, a, "file"));
  if (arg->fill == NPUC_FILL_FILE && !file) {
    npuc_yaml_error(r, a, "init: file needs 'file: path.bin'%s", "");
    return false;
  }
  arg->file = file ? npuc_xstrdup(file) : NULL;
  return true;
}

static bool read_args(spec_reader *r, yaml_node_t *list, npuc_run_spec *spec) {
  for (size_t i = 0; i < npuc_yaml_len(list) && r->ok; ++i) {
    yaml_node_t *a = npuc_yaml_at(r, list, i);
    if (spec->num_args == 64) {
      npuc_yaml_error(r, a, "at most 64 arguments%s", "");
      return false;
    }
    npuc_run_arg *arg = &spec->args[spec->num_args];
    const char *buf = npuc_yaml_scalar(npuc_yaml_get(r, a, "buffer"));
    const char *sc = npuc_yaml_scalar(npuc_yaml_get(r, a, "scalar"));
    const char *dt = buf ? buf : sc;
    if (!dt || !valid_dtype(dt)) {
      npuc_yaml_error(r, a, "each argument is {buffer: DTYPE, shape: [..]} or "
                       "{scalar: DTYPE, value: V}; dtype '%s' is not one of "
                       "i1 i8 i16 i32 i64 index f16 bf16 f32 f64",
                 dt ? dt : "(none)");
      return false;
    }
    snprintf(arg->dtype, sizeof arg->dtype, "%s",
             strcmp(dt, "index") == 0 ? "i64" : dt);
    arg->is_buffer = buf != NULL;
    if (arg->is_buffer) {
      yaml_node_t *shape = npuc_yaml_get(r, a, "shape");
      if (!shape || shape->type != YAML_SEQUENCE_NODE || npuc_yaml_len(shape) > 8) {
        npuc_yaml_error(r, shape ? shape : a, "a buffer needs 'shape: [d0, ...]' "
                                         "of rank 0 to 8%s", "");
        return false;
      }
      arg->rank = (int)npuc_yaml_len(shape);
      for (int d = 0; d < arg->rank; ++d) {
        double v;
        if (!number(r, npuc_yaml_at(r, shape, (size_t)d), &v) || v < 0)
          return false;
        arg->shape[d] = (int64_t)v;
      }
      if (!read_fill(r, a, arg))
        return false;
    } else {
      const char *value = npuc_yaml_scalar(npuc_yaml_get(r, a, "value"));
      arg->value = npuc_xstrdup(value ? value : "0");
    }
    spec->num_args++;
  }
  return r->ok;
}

void npuc_run_spec_free(npuc_run_spec *spec) {
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

static npuc_dtype dtype_of(const char *s) {
  npuc_dtype dt = NPUC_DT_I64;
  npuc_rt_dtype_parse(s, &dt);
  return dt;
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
  case NPUC_DT_BF16: ((uint16_t *)data)[k] = npuc_rt_f32_to_bf16((float)v); break;
  case NPUC_DT_F32: ((float *)data)[k] = (float)v; break;
  case NPUC_DT_F64: ((double *)data)[k] = v; break;
  }
}

static bool copy_file(const char *from, const char *to, size_t bytes,
                      const npuc_diag_sink *sink) {
  FILE *in = fopen(from, "rb");
  if (!in) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, from, 0, 0, "cannot read: %s",
                   strerror(errno));
    return false;
  }
  char *data = malloc(bytes ? bytes : 1);
  size_t got = fread(data, 1, bytes, in);
  fclose(in);
  bool ok = got == bytes;
  if (!ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, from, 0, 0,
                   "has %zu bytes, the argument needs %zu", got, bytes);
  FILE *out = ok ? fopen(to, "wb") : NULL;
  ok = ok && out && fwrite(data, 1, bytes, out) == bytes;
  if (out)
    fclose(out);
  free(data);
  return ok;
}

bool npuc_run_write_inputs(const npuc_run_spec *spec, const char *dir,
                           const npuc_diag_sink *sink) {
  for (int i = 0; i < spec->num_args; ++i) {
    const npuc_run_arg *a = &spec->args[i];
    if (!a->is_buffer)
      continue;
    int64_t n = 1;
    for (int d = 0; d < a->rank; ++d)
      n *= a->shape[d];
    npuc_dtype dt = dtype_of(a->dtype);
    size_t bytes = (size_t)n * npuc_rt_elem_size(dt);
    char path[4200];
    snprintf(path, sizeof path, "%s/arg%d.bin", dir, i);
    if (a->fill == NPUC_FILL_FILE) {
      if (!copy_file(a->file, path, bytes, sink))
        return false;
      continue;
    }
    /* Each argument has its own stream: adding an argument does not change
     * the others' data. */
    uint64_t rng = spec->seed * 0x100000001b3ull + (uint64_t)i;
    void *data = calloc(bytes ? bytes : 1, 1);
    for (int64_t k = 0; k < n; ++k)
      put(data, dt, k, element_value(a, k, &rng));
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, bytes, f) == bytes;
    if (f)
      fclose(f);
    free(data);
    if (!ok) {
      npuc_diag_emit(sink, NPUC_SEV_ERROR, path, 0, 0, "cannot write input");
      return false;
    }
  }
  return true;
}
