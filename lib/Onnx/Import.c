/* The ONNX importer: a read model's graph into a builtin.module holding a
 * flat tx8be graph in func.func @main, built through the MLIR C API.
 *
 * Requires a model from npuc_onnx_read_* (protobuf-c checked the wire
 * format; every size is checked again here before it is used). Every
 * tensor gets a static shape: graph inputs from their type or
 * --input-shape, the rest from each op's rule (Ops.c); shape subgraphs
 * fold to constants (Fold.c). Leaves @main taking and returning the
 * graph's tensors in its own layout, or a null operation after reporting
 * every error: first every unsupported op of the model at once, then each
 * failing node by name and op_type. */
#include "OnnxInternal.h"

#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/Dtype.h"
#include "npuc/Progress.h"
#include "npuc/Verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool check_model(importer *im);
static bool check_ops(importer *im);
static bool count_uses(importer *im);
static bool fold_constant_nodes(importer *im);
static bool add_initializers(importer *im);
static bool add_inputs(importer *im, MlirBlock body, MlirType *types,
                       intptr_t *ntypes);
static bool import_nodes(importer *im);
static MlirOperation finish_module(importer *im, MlirOperation func,
                                   const MlirType *in, intptr_t nin);
static void free_importer(importer *im);

MlirOperation npuc_onnx_import(MlirContext ctx, const npuc_onnx_model *m,
                               const npuc_onnx_import_options *opts,
                               const npuc_diag_sink *sink) {
  static const npuc_onnx_import_options defaults = {0};
  importer im = {.ctx = ctx, .model = m, .graph = m->proto->graph};
  im.opts = opts ? opts : &defaults;
  im.sink = sink;
  im.loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString(m->name), 1, 1);
  im.fty = im.opts->dtype == NPUC_ONNX_DTYPE_F16    ? mlirF16TypeGet(ctx)
           : im.opts->dtype == NPUC_ONNX_DTYPE_BF16 ? mlirBF16TypeGet(ctx)
                                                    : mlirF32TypeGet(ctx);
  MlirOperation result = {NULL};
  if (!check_model(&im) || !check_ops(&im)) {
    free_importer(&im);
    return result;
  }
  size_t nnodes = im.graph->n_node;
  im.skip = npuc_xcalloc(nnodes + 1, sizeof *im.skip);
  im.patterns = npuc_xcalloc(nnodes + 1, sizeof *im.patterns);
  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, body);
  im.body = body;
  size_t nin = im.graph->n_input;
  MlirType *in = npuc_xcalloc(nin + 1, sizeof *in);
  intptr_t ntypes = 0;
  bool ok = add_initializers(&im) && add_inputs(&im, body, in, &ntypes);
  if (ok && (ok = count_uses(&im)) && (ok = fold_constant_nodes(&im))) {
    onnx_find_patterns(&im);
    ok = import_nodes(&im);
  }
  /* func.func @main owns the region from here on. */
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("func.func"), im.loc);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation func = mlirOperationCreate(&st);
  if (ok)
    result = finish_module(&im, func, in, ntypes);
  else
    mlirOperationDestroy(func);
  free(in);
  free_importer(&im);
  return result;
}

/* Diagnostics: "model.onnx: error: node 'name' (Conv): reason". */
bool onnx_error(importer *im, const Onnx__NodeProto *n, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* Names come from the file: no control bytes or broken UTF-8 reach the
   * terminal (ASCII only; anything else is '?'). */
  char name[256], op[64];
  snprintf(name, sizeof name, "%s", n && n->name ? n->name : "");
  snprintf(op, sizeof op, "%s", n && n->op_type ? n->op_type : "");
  for (char *p = msg; *p; ++p)
    *p = (unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e ? '?' : *p;
  for (char *p = name; *p; ++p)
    *p = (unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e ? '?' : *p;
  for (char *p = op; *p; ++p)
    *p = (unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e ? '?' : *p;
  if (n)
    npuc_diag_emit(im->sink, NPUC_SEV_ERROR, im->model->name, 0, 0,
                   "node '%s' (%s): %s", name, op, msg);
  else
    npuc_diag_emit(im->sink, NPUC_SEV_ERROR, im->model->name, 0, 0, "%s", msg);
  im->errors++;
  return false;
}

/* The default domain's opset must be one we read (13 to 17); ops of other
 * domains are reported by check_ops. */
static bool check_model(importer *im) {
  const Onnx__ModelProto *p = im->model->proto;
  int64_t opset = -1;
  for (size_t i = 0; i < p->n_opset_import; ++i) {
    const Onnx__OperatorSetIdProto *o = p->opset_import[i];
    if (o && (!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx")))
      opset = o->has_version ? o->version : 1;
  }
  if (opset < 13 || opset > 17)
    return onnx_error(im, NULL,
                      "opset %lld of the default domain is not supported "
                      "(13 to 17 are)",
                      (long long)opset);
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    if (!n->op_type)
      return onnx_error(im, NULL, "node %zu has no op_type", i);
  }
  return true;
}

/* Every op the importer has no rule for, in one error listing each
 * op_type once with the nodes that use it. */
static bool check_ops(importer *im) {
  npuc_sb list = {0};
  size_t nnodes = im->graph->n_node, missing = 0;
  for (size_t i = 0; i < nnodes; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    bool other_domain = n->domain && *n->domain && strcmp(n->domain, "ai.onnx");
    if (!other_domain && onnx_find_op(n->op_type))
      continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      const Onnx__NodeProto *m = im->graph->node[j];
      seen = !strcmp(m->op_type, n->op_type) && !onnx_find_op(m->op_type);
    }
    if (seen)
      continue;
    npuc_sb_printf(&list, "%s%s (", missing ? ", " : "", n->op_type);
    size_t shown = 0, more = 0;
    for (size_t j = i; j < nnodes; ++j) {
      const Onnx__NodeProto *m = im->graph->node[j];
      if (strcmp(m->op_type, n->op_type))
        continue;
      if (shown < 3)
        npuc_sb_printf(&list, "%snode '%s'", shown ? ", " : "",
                       m->name ? m->name : "");
      else
        more++;
      shown++;
    }
    if (more)
      npuc_sb_printf(&list, " and %zu more", more);
    npuc_sb_printf(&list, ")");
    missing++;
  }
  if (missing) {
    char *s = npuc_sb_take(&list);
    onnx_error(im, NULL, "unsupported ONNX op%s: %s", missing > 1 ? "s" : "",
               s);
    free(s);
    return false;
  }
  npuc_sb_free(&list);
  return true;
}

/* ---- The value table ---------------------------------------------------- */

static size_t hash_name(const char *s) {
  size_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void rehash(importer *im) {
  free(im->table);
  im->table_cap = im->table_cap ? im->table_cap * 2 : 256;
  im->table = npuc_xcalloc(im->table_cap, sizeof *im->table);
  for (size_t k = 0; k < im->nvals; ++k) {
    size_t h = hash_name(im->vals[k].name) & (im->table_cap - 1);
    while (im->table[h])
      h = (h + 1) & (im->table_cap - 1);
    im->table[h] = k + 1;
  }
}

oval *onnx_value(importer *im, const char *name) {
  if (!name || !*name || !im->table_cap)
    return NULL;
  size_t h = hash_name(name) & (im->table_cap - 1);
  while (im->table[h]) {
    oval *v = &im->vals[im->table[h] - 1];
    if (!strcmp(v->name, name))
      return v;
    h = (h + 1) & (im->table_cap - 1);
  }
  return NULL;
}

/* A new value named `name` (a later definition of the same name shadows
 * the earlier one, as ONNX forbids but exporters never do). */
oval *onnx_new_value(importer *im, const char *name) {
  if (im->nvals == im->capvals) {
    im->capvals = im->capvals ? im->capvals * 2 : 64;
    im->vals = npuc_xreallocarray(im->vals, im->capvals, sizeof *im->vals);
  }
  oval *o = &im->vals[im->nvals++];
  memset(o, 0, sizeof *o);
  o->name = name ? name : "";
  o->consumer = -1;
  o->producer = -1;
  if (im->nvals * 2 > im->table_cap)
    rehash(im);
  else {
    size_t h = hash_name(o->name) & (im->table_cap - 1);
    while (im->table[h] &&
           strcmp(im->vals[im->table[h] - 1].name, o->name) != 0)
      h = (h + 1) & (im->table_cap - 1);
    im->table[h] = im->nvals;
  }
  return o;
}

oval *onnx_in(importer *im, const Onnx__NodeProto *n, size_t k) {
  return k < n->n_input ? onnx_value(im, n->input[k]) : NULL;
}

oval *onnx_out(importer *im, const Onnx__NodeProto *n, size_t k) {
  return k < n->n_output ? onnx_value(im, n->output[k]) : NULL;
}

static void free_importer(importer *im) {
  for (size_t k = 0; k < im->nvals; ++k) {
    free(im->vals[k].f);
    free(im->vals[k].i);
  }
  free(im->vals);
  free(im->table);
  free(im->skip);
  free(im->patterns);
}

/* Every node output gets its value now (pending until its node runs),
 * so that the patterns and batchnorm folding can see how often each value
 * is read, by whom, and who defines it: they absorb only values nothing
 * else reads. */
static bool count_uses(importer *im) {
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    for (size_t k = 0; k < n->n_output; ++k) {
      if (!n->output[k] || !*n->output[k])
        continue;
      if (onnx_value(im, n->output[k]))
        return onnx_error(im, n, "output '%s' is defined twice", n->output[k]);
      oval *o = onnx_new_value(im, n->output[k]);
      o->pending = true;
      o->producer = (int)i;
    }
  }
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    for (size_t k = 0; k < n->n_input; ++k) {
      oval *v = onnx_value(im, n->input[k]);
      if (v) {
        v->uses++;
        v->consumer = (int)i;
      }
    }
  }
  for (size_t k = 0; k < im->graph->n_output; ++k) {
    oval *v = onnx_value(im, im->graph->output[k]->name);
    if (v)
      v->uses += 2; /* never absorbed */
  }
  return true;
}

/* Constant nodes have no inputs: their values are set before anything
 * else, as are Identity nodes of constants (exporters share weights
 * through them), so the patterns can read the constants they compare
 * with. */
static bool fold_constant_nodes(importer *im) {
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    oval *x = n->n_input == 1 ? onnx_value(im, n->input[0]) : NULL;
    bool constant = !strcmp(n->op_type, "Constant") && n->n_input == 0;
    bool alias =
        !strcmp(n->op_type, "Identity") && x && !x->pending && (x->f || x->i);
    if ((!constant && !alias) || n->n_output != 1 || !onnx_out(im, n, 0))
      continue;
    if (!onnx_find_op(n->op_type)->fn(im, n, (int)i))
      return false;
    onnx_out(im, n, 0)->pending = false;
    im->skip[i] = true;
  }
  return true;
}

/* ---- Constants ----------------------------------------------------------- */

static bool tensor_shape(const Onnx__TensorProto *t, oval *o,
                         const char **why) {
  if (t->n_dims > MAX_RANK) {
    *why = "rank above 8";
    return false;
  }
  o->rank = (int)t->n_dims;
  for (int d = 0; d < o->rank; ++d) {
    if (t->dims[d] < 0) {
      *why = "negative dimension";
      return false;
    }
    o->dims[d] = t->dims[d];
  }
  if (!npuc_checked_product(o->dims, o->rank, &o->count) ||
      o->count > ((int64_t)1 << 31)) {
    *why = "too many elements";
    return false;
  }
  return true;
}

static float half_to_float(uint16_t h, bool bf16) {
  return bf16 ? npuc_rt_bf16_to_f32(h) : npuc_rt_f16_to_f32(h);
}

/* Elements from raw_data (little endian) or the typed repeated field. */
static bool raw_elements(const Onnx__TensorProto *t, oval *o, size_t width,
                         const char **why) {
  if (t->has_raw_data) {
    if (t->raw_data.len != (size_t)o->count * width) {
      *why = "raw_data does not hold the tensor's elements";
      return false;
    }
    return true;
  }
  size_t have = 0;
  switch (o->elem) {
  case ET_FLOAT: have = t->n_float_data; break;
  case ET_DOUBLE: have = t->n_double_data; break;
  case ET_INT64: have = t->n_int64_data; break;
  default: have = t->n_int32_data; break;
  }
  if (have != (size_t)o->count) {
    *why = "the data does not hold the tensor's elements";
    return false;
  }
  return true;
}

bool onnx_tensor_data(const Onnx__TensorProto *t, oval *o, const char **why) {
  if (t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL ||
      t->n_external_data) {
    *why = "external data is not supported";
    return false;
  }
  o->elem = t->has_data_type ? t->data_type : 0;
  if (!tensor_shape(t, o, why))
    return false;
  size_t width = o->elem == ET_DOUBLE || o->elem == ET_INT64       ? 8
                 : o->elem == ET_FLOAT || o->elem == ET_INT32      ? 4
                 : o->elem == ET_FLOAT16 || o->elem == ET_BFLOAT16 ? 2
                 : o->elem == ET_BOOL                              ? 1
                                                                   : 0;
  if (!width) {
    *why = "unsupported element type";
    return false;
  }
  if (!raw_elements(t, o, width, why))
    return false;
  size_t n = (size_t)o->count;
  const uint8_t *raw = t->has_raw_data ? t->raw_data.data : NULL;
  bool is_float = o->elem == ET_FLOAT || o->elem == ET_DOUBLE ||
                  o->elem == ET_FLOAT16 || o->elem == ET_BFLOAT16;
  if (is_float)
    o->f = npuc_xmalloc(n * sizeof *o->f + 1);
  else
    o->i = npuc_xmalloc(n * sizeof *o->i + 1);
  for (size_t k = 0; k < n; ++k) {
    if (raw) {
      const uint8_t *b = raw + k * width;
      uint64_t u = 0;
      for (size_t j = 0; j < width; ++j)
        u |= (uint64_t)b[j] << (8 * j);
      switch (o->elem) {
      case ET_FLOAT: {
        uint32_t w = (uint32_t)u;
        memcpy(&o->f[k], &w, 4);
        break;
      }
      case ET_DOUBLE: {
        double d;
        memcpy(&d, &u, 8);
        o->f[k] = (float)d;
        break;
      }
      case ET_FLOAT16:
      case ET_BFLOAT16:
        o->f[k] = half_to_float((uint16_t)u, o->elem == ET_BFLOAT16);
        break;
      case ET_INT64: o->i[k] = (int64_t)u; break;
      case ET_INT32: o->i[k] = (int32_t)(uint32_t)u; break;
      default: o->i[k] = u != 0; break;
      }
    } else {
      switch (o->elem) {
      case ET_FLOAT: o->f[k] = t->float_data[k]; break;
      case ET_DOUBLE: o->f[k] = (float)t->double_data[k]; break;
      case ET_FLOAT16:
      case ET_BFLOAT16:
        o->f[k] =
            half_to_float((uint16_t)t->int32_data[k], o->elem == ET_BFLOAT16);
        break;
      case ET_INT64: o->i[k] = t->int64_data[k]; break;
      default: o->i[k] = t->int32_data[k]; break;
      }
    }
  }
  if (is_float)
    o->elem = ET_FLOAT;
  else
    o->elem = ET_INT64;
  return true;
}

static bool add_initializers(importer *im) {
  for (size_t k = 0; k < im->graph->n_initializer; ++k) {
    const Onnx__TensorProto *t = im->graph->initializer[k];
    oval *o = onnx_new_value(im, t->name);
    const char *why = NULL;
    if (!onnx_tensor_data(t, o, &why))
      return onnx_error(im, NULL, "initializer '%s': %s",
                        t->name ? t->name : "", why);
  }
  return true;
}

/* ---- Graph inputs ------------------------------------------------------- */

static const npuc_onnx_input_shape *given_shape(importer *im,
                                                const char *name) {
  for (size_t k = 0; k < im->opts->num_input_shapes; ++k)
    if (!strcmp(im->opts->input_shapes[k].name, name))
      return &im->opts->input_shapes[k];
  return NULL;
}

/* A graph input's or output's element type (input_shape checked the
 * inputs'); FLOAT when an output does not say or is not float. */
static int32_t input_elem(const Onnx__ValueInfoProto *vi) {
  const Onnx__TypeProto *t = vi->type;
  int32_t elem = t && t->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
                         t->tensor_type->has_elem_type
                     ? t->tensor_type->elem_type
                     : ET_FLOAT;
  return elem == ET_FLOAT16 || elem == ET_BFLOAT16 ? elem : ET_FLOAT;
}

static bool input_shape(importer *im, const Onnx__ValueInfoProto *vi, oval *o) {
  const npuc_onnx_input_shape *given = given_shape(im, o->name);
  const Onnx__TypeProto *t = vi->type;
  if (!t || t->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
    return onnx_error(im, NULL, "graph input '%s' is not a tensor", o->name);
  const Onnx__TypeProto__Tensor *tt = t->tensor_type;
  o->elem = tt->has_elem_type ? tt->elem_type : 0;
  if (o->elem != ET_FLOAT && o->elem != ET_FLOAT16 && o->elem != ET_BFLOAT16)
    return onnx_error(im, NULL,
                      "graph input '%s' has element type %d; float inputs "
                      "only",
                      o->name, (int)o->elem);
  o->elem = ET_FLOAT;
  if (given) {
    o->rank = given->rank;
    memcpy(o->dims, given->dims, sizeof o->dims);
  } else {
    if (!tt->shape || tt->shape->n_dim > MAX_RANK)
      return onnx_error(im, NULL,
                        "graph input '%s' has no static shape of rank <= 8: "
                        "give one with --input-shape=%s:DxDx...",
                        o->name, o->name);
    o->rank = (int)tt->shape->n_dim;
    for (int d = 0; d < o->rank; ++d) {
      const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
      if (dim->value_case !=
              ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ||
          dim->dim_value <= 0)
        return onnx_error(im, NULL,
                          "graph input '%s' has dynamic dimension %d: give "
                          "its shape with --input-shape=%s:DxDx...",
                          o->name, d, o->name);
      o->dims[d] = dim->dim_value;
    }
  }
  if (!npuc_checked_product(o->dims, o->rank, &o->count) ||
      o->count > ((int64_t)1 << 31))
    return onnx_error(im, NULL, "graph input '%s' is too large", o->name);
  return true;
}

/* The graph inputs that are not initializers become @main's arguments. */
static bool add_inputs(importer *im, MlirBlock body, MlirType *types,
                       intptr_t *ntypes) {
  for (size_t k = 0; k < im->opts->num_input_shapes; ++k) {
    bool found = false;
    for (size_t j = 0; j < im->graph->n_input && !found; ++j)
      found =
          im->graph->input[j]->name &&
          !strcmp(im->graph->input[j]->name, im->opts->input_shapes[k].name);
    if (!found)
      return onnx_error(im, NULL,
                        "--input-shape names '%s', not an input of "
                        "the graph",
                        im->opts->input_shapes[k].name);
  }
  for (size_t k = 0; k < im->graph->n_input; ++k) {
    const Onnx__ValueInfoProto *vi = im->graph->input[k];
    if (!vi->name || onnx_value(im, vi->name))
      continue; /* an initializer's default */
    oval *o = onnx_new_value(im, vi->name);
    if (!input_shape(im, vi, o))
      return false;
    /* The program reads the input in its own element type; a cast
     * brings it to the one computed in (--tx8-dtype). */
    MlirType t = mlirRankedTensorTypeGet(o->rank, o->dims,
                                         onnx_float_type(im, input_elem(vi)),
                                         mlirAttributeGetNull());
    types[(*ntypes)++] = t;
    MlirValue arg = mlirBlockAddArgument(body, t, im->loc);
    int perm[MAX_RANK];
    onnx_identity_perm(perm, o->rank);
    onnx_set_built(o, onnx_convert(im, arg, im->fty), perm);
  }
  return true;
}

/* ---- Nodes ----------------------------------------------------------------
 */

static MlirLocation node_location(importer *im, const Onnx__NodeProto *n,
                                  size_t index) {
  MlirLocation file = mlirLocationFileLineColGet(
      im->ctx, mlirStringRefCreateFromCString(im->model->name),
      (unsigned)(index + 1), 1);
  char name[256];
  snprintf(name, sizeof name, "%s(%s)", n->name && *n->name ? n->name : "",
           n->op_type);
  return mlirLocationNameGet(im->ctx, mlirStringRefCreateFromCString(name),
                             file);
}

/* The progress line (npuc/Progress.h): the last node always shows. */
static void progress(importer *im, size_t i, size_t n) {
  if (im->opts->progress)
    npuc_progress(i + 1 == n, "importing: node %zu of %zu", i + 1, n);
}

/* Each node in graph order (ONNX graphs are topologically sorted): its
 * outputs get values, its rule builds the ops. Errors are counted and the
 * walk goes on while the outputs can be defined, so that one run reports
 * what it can. */
static bool import_nodes(importer *im) {
  size_t n = im->graph->n_node;
  for (size_t i = 0; i < n; ++i) {
    const Onnx__NodeProto *node = im->graph->node[i];
    progress(im, i, n);
    if (im->skip[i])
      continue;
    /* A pattern's last node reads values the pattern absorbed. */
    for (size_t k = 0; !im->patterns[i].kind && k < node->n_input; ++k) {
      oval *x = onnx_value(im, node->input[k]);
      if (node->input[k] && *node->input[k] && (!x || x->pending))
        return onnx_error(im, node, "input '%s' is not defined before it",
                          node->input[k]);
    }
    for (size_t k = 0; k < node->n_output; ++k) {
      oval *o = onnx_value(im, node->output[k]);
      if (o)
        o->pending = false;
    }
    if (!node->n_output || !node->output[0] || !*node->output[0])
      return onnx_error(im, node, "the node has no output");
    im->loc = node_location(im, node, i);
    bool ok = im->patterns[i].kind
                  ? onnx_emit_pattern(im, node, (int)i)
                  : onnx_find_op(node->op_type)->fn(im, node, (int)i);
    if (!ok)
      return false;
  }
  return im->errors == 0;
}

/* @main returns the graph outputs in their logical layout; the module
 * carries the tile mesh the TX8 target reads. */
static MlirOperation finish_module(importer *im, MlirOperation func,
                                   const MlirType *in, intptr_t nin) {
  size_t nout = im->graph->n_output;
  MlirValue *rets = npuc_xcalloc(nout + 1, sizeof *rets);
  MlirType *rtypes = npuc_xcalloc(nout + 1, sizeof *rtypes);
  bool ok = true;
  for (size_t k = 0; k < nout && ok; ++k) {
    const char *name = im->graph->output[k]->name;
    oval *o = name ? onnx_value(im, name) : NULL;
    if (!o || (mlirValueIsNull(o->v) && !o->f))
      ok = onnx_error(im, NULL, "graph output '%s' is not computed",
                      name ? name : "");
    else {
      if (mlirValueIsNull(o->v))
        o->v = onnx_const_f(im, o->f, o->dims, o->rank),
        onnx_identity_perm(o->perm, o->rank);
      rets[k] =
          onnx_convert(im, onnx_logical(im, o),
                       onnx_float_type(im, input_elem(im->graph->output[k])));
      rtypes[k] = mlirValueGetType(rets[k]);
    }
  }
  MlirOperation module = {NULL};
  if (ok) {
    onnx_build(im, "func.return", (int)nout, rets, (MlirType){NULL}, 0, NULL);
    MlirType fty =
        mlirFunctionTypeGet(im->ctx, nin, in, (intptr_t)nout, rtypes);
    mlirOperationSetAttributeByName(
        func, mlirStringRefCreateFromCString("sym_name"),
        mlirStringAttrGet(im->ctx, mlirStringRefCreateFromCString("main")));
    mlirOperationSetAttributeByName(
        func, mlirStringRefCreateFromCString("function_type"),
        mlirTypeAttrGet(fty));
    MlirModule m = mlirModuleCreateEmpty(mlirLocationFileLineColGet(
        im->ctx, mlirStringRefCreateFromCString(im->model->name), 1, 1));
    module = mlirModuleGetOperation(m);
    MlirType i32 = mlirIntegerTypeGet(im->ctx, 32);
    mlirOperationSetAttributeByName(
        module, mlirStringRefCreateFromCString("tx8be.tile_dx"),
        mlirIntegerAttrGet(i32, 4));
    mlirOperationSetAttributeByName(
        module, mlirStringRefCreateFromCString("tx8be.tile_dy"),
        mlirIntegerAttrGet(i32, 4));
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), func);
  } else
    mlirOperationDestroy(func);
  free(rets);
  free(rtypes);
  return module;
}

MlirOperation npuc_onnx_import_file(MlirContext ctx,
                                    const npuc_op_registry *reg,
                                    const char *path,
                                    const npuc_onnx_import_options *opts,
                                    const npuc_diag_sink *sink) {
  MlirOperation module = {NULL};
  npuc_onnx_model *m = npuc_onnx_read_file(path, sink);
  if (!m)
    return module;
  module = npuc_onnx_import(ctx, m, opts, sink);
  if (!mlirOperationIsNull(module) &&
      (!mlirOperationVerify(module) || !npuc_verify_table_ops(reg, module))) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, m->name, 0, 0,
                   "the imported graph does not verify (an importer bug)");
    mlirOperationDestroy(module);
    module.ptr = NULL;
  }
  npuc_onnx_model_free(m);
  return module;
}

/* ---- --input-shape, --tx8-dtype ---------------------------------------- */

bool npuc_onnx_set_option(npuc_onnx_import_options *o,
                          npuc_onnx_input_shape *shapes, size_t max_shapes,
                          const char *name, const char *value, char *err,
                          size_t err_cap) {
  if (!value || !*value) {
    snprintf(err, err_cap, "option '--%s' needs a value", name);
    return false;
  }
  if (!strcmp(name, "tx8-dtype")) {
    bool ok = !strcmp(value, "f32") || !strcmp(value, "f16") ||
              !strcmp(value, "bf16");
    if (!ok)
      snprintf(err, err_cap, "--tx8-dtype takes f32, f16 or bf16, not '%s'",
               value);
    else
      o->dtype = value[0] == 'b'   ? NPUC_ONNX_DTYPE_BF16
                 : value[1] == '1' ? NPUC_ONNX_DTYPE_F16
                                   : NPUC_ONNX_DTYPE_MODEL;
    return ok;
  }
  if (o->num_input_shapes == max_shapes) {
    snprintf(err, err_cap, "more than %zu --input-shape options", max_shapes);
    return false;
  }
  char why[200];
  if (!npuc_onnx_parse_input_shape(value, &shapes[o->num_input_shapes], why,
                                   sizeof why)) {
    snprintf(err, err_cap, "--input-shape: %s", why);
    return false;
  }
  o->input_shapes = shapes;
  o->num_input_shapes++;
  return true;
}

bool npuc_onnx_parse_input_shape(const char *arg, npuc_onnx_input_shape *out,
                                 char *err, size_t err_cap) {
  const char *colon = strrchr(arg, ':');
  memset(out, 0, sizeof *out);
  if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof out->name) {
    snprintf(err, err_cap, "expected NAME:D1xD2x..., got '%s'", arg);
    return false;
  }
  memcpy(out->name, arg, (size_t)(colon - arg));
  const char *p = colon + 1;
  while (*p) {
    if (out->rank == MAX_RANK) {
      snprintf(err, err_cap, "more than %d dimensions in '%s'", MAX_RANK, arg);
      return false;
    }
    char *end;
    long long d = strtoll(p, &end, 10);
    if (end == p || d <= 0 || d > ((int64_t)1 << 31) || (*end && *end != 'x')) {
      snprintf(err, err_cap,
               "bad dimension in '%s' (positive integers "
               "joined by 'x')",
               arg);
      return false;
    }
    out->dims[out->rank++] = d;
    p = *end ? end + 1 : end;
    if (*end && !*p) {
      snprintf(err, err_cap, "trailing 'x' in '%s'", arg);
      return false;
    }
  }
  if (!out->rank) {
    snprintf(err, err_cap, "no dimensions in '%s'", arg);
    return false;
  }
  return true;
}
