/* The plan of one tx8be.group (npuc/Tx8Group.h): its SPM buffers, their
 * layouts and windows, its stores. The tx8-sharding pass and the tx8
 * code generator both build it, so they agree on what a slice costs. */
#include "npuc/Tx8Group.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  npuc_tx8_group_plan *p;
  MlirBlock body;
  bool failed;
} builder;

static bool add_op(builder *b, MlirOperation op);
static bool finish_compute(builder *b);
static bool assign_windows(builder *b);
static bool assign_layouts(builder *b);
static bool check_dtypes(builder *b);

bool npuc_tx8_group_plan_build(MlirOperation group, npuc_tx8_group_plan *p) {
  memset(p, 0, sizeof *p);
  p->group = group;
  p->result_buffer = -1;
  for (int i = 0; i < NPUC_TX8_MAX_OPERANDS; ++i)
    p->operand_buffer[i] = -1;
  builder b = {p, mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0)),
               false};
  if (mlirBlockIsNull(b.body)) {
    npuc_op_error(group, "tx8be.group has no body");
    return false;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(b.body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!add_op(&b, op))
      return false;
  if (mlirOperationIsNull(p->compute)) {
    npuc_op_error(group, "tx8be.group has no compute op (one of gemm, conv, "
                         "batchnorm_inference, the elementwise ops)");
    return false;
  }
  return finish_compute(&b) && assign_windows(&b) && assign_layouts(&b) &&
         check_dtypes(&b);
}

/* ---- MLIR helpers
 * ------------------------------------------------------------- */

const char *npuc_tx8_op_name(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, cap, "%.*s", (int)n.length, n.data);
  return buf;
}

static bool named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

bool npuc_tx8_shape_of(MlirType t, npuc_tx8_shape *s) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > NPUC_TX8_MAX_RANK)
    return false;
  s->rank = (int)rank;
  for (intptr_t d = 0; d < rank; ++d)
    s->dims[d] = mlirShapedTypeGetDimSize(t, d);
  return true;
}

static bool attr_text(MlirOperation op, const char *name, char *buf,
                      size_t cap) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAOpaque(a))
    return false;
  MlirStringRef d = mlirOpaqueAttrGetData(a);
  int n = snprintf(buf, cap, "#tx8be.%.*s", (int)d.length, d.data);
  return n > 0 && (size_t)n < cap;
}

int32_t npuc_tx8_group_tiles(MlirOperation group, const npuc_tx8_target *t) {
  char text[256], err[128];
  npuc_tx8_region_attr r;
  if (attr_text(group, "dev_region", text, sizeof text) &&
      npuc_tx8_parse_region_attr(text, strlen(text), &r, err, sizeof err) &&
      r.tile_dx > 0 && r.tile_dy > 0)
    return r.tile_dx * r.tile_dy;
  MlirOperation module = group;
  while (!mlirOperationIsNull(module) && !named(module, "builtin.module"))
    module = mlirOperationGetParentOperation(module);
  int32_t dx = t->tiles_x, dy = t->tiles_y;
  if (!mlirOperationIsNull(module) &&
      !npuc_tx8_module_tile_mesh(module, t, &dx, &dy))
    return 0;
  return dx * dy;
}

bool npuc_tx8_group_is_ddr_only(MlirOperation group) {
  MlirAttribute tag = mlirOperationGetAttributeByName(
      group, mlirStringRefCreateFromCString("group_tag"));
  return mlirOperationIsNull(npuc_tx8_group_compute_op(group)) &&
         !mlirAttributeIsNull(tag) && mlirAttributeIsAInteger(tag) &&
         mlirIntegerAttrGetValueInt(tag) == 2;
}

MlirOperation npuc_tx8_group_compute_op(MlirOperation group) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  MlirOperation none = {NULL};
  if (mlirBlockIsNull(body))
    return none;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    char name[64];
    npuc_tx8_op_kind kind;
    if (npuc_tx8_op_kind_of(npuc_tx8_op_name(op, name, sizeof name), &kind))
      return op;
  }
  return none;
}

/* ---- collecting the buffers
 * ------------------------------------------------------ */

static int buffer_of(const npuc_tx8_group_plan *p, MlirValue v) {
  for (int i = 0; i < p->num_buffers; ++i)
    if (mlirValueEqual(p->buffers[i].value, v))
      return i;
  return -1;
}

static int block_arg_index(MlirBlock body, MlirValue v) {
  if (!mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body))
    return -1;
  return (int)mlirBlockArgumentGetArgNumber(v);
}

static bool new_buffer(builder *b, MlirOperation op, npuc_tx8_buf_kind kind,
                       int source) {
  npuc_tx8_group_plan *p = b->p;
  if (p->num_buffers == NPUC_TX8_MAX_BUFFERS) {
    npuc_op_error(op, "more than %d SPM buffers in one group",
                  NPUC_TX8_MAX_BUFFERS);
    return false;
  }
  npuc_tx8_buffer *buf = &p->buffers[p->num_buffers++];
  buf->kind = kind;
  buf->op = op;
  buf->value = mlirOperationGetResult(op, 0);
  buf->source = source;
  MlirType t = mlirValueGetType(buf->value);
  char name[64];
  npuc_tx8_op_name(op, name, sizeof name);
  if (!npuc_tx8_shape_of(t, &buf->shape) || buf->shape.rank == 0) {
    npuc_op_error(op,
                  "%s: unsupported shape: the result must be a static "
                  "tensor of rank 1 to %d",
                  name, NPUC_TX8_MAX_RANK);
    return false;
  }
  if (!npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(t), &buf->dtype)) {
    npuc_op_error(op,
                  "%s: unsupported dtype: TX8 computes f16, bf16, f32 "
                  "and i8",
                  name);
    return false;
  }
  return true;
}

static bool add_load(builder *b, MlirOperation op);
static bool add_norm(builder *b, MlirOperation op);
static bool add_store(builder *b, MlirOperation op);
static bool add_return(builder *b, MlirOperation op);

static bool add_op(builder *b, MlirOperation op) {
  char name[64];
  npuc_tx8_op_name(op, name, sizeof name);
  npuc_tx8_op_kind kind;
  if (strcmp(name, "tx8be.load_var") == 0)
    return add_load(b, op);
  if (strcmp(name, "tx8be.channel_norm") == 0)
    return add_norm(b, op);
  if (strcmp(name, "tx8be.store_var") == 0)
    return add_store(b, op);
  if (strcmp(name, "tx8be.return") == 0)
    return add_return(b, op);
  if (!npuc_tx8_op_kind_of(name, &kind)) {
    npuc_op_error(op,
                  "%s: unsupported op in a tx8be.group (the TX8 code "
                  "generator knows load_var, channel_norm, store_var, "
                  "gemm, conv, batchnorm_inference and the elementwise "
                  "ops)",
                  name);
    return false;
  }
  if (!mlirOperationIsNull(b->p->compute)) {
    npuc_op_error(op,
                  "%s: a second compute op in one tx8be.group (one group "
                  "per compute op)",
                  name);
    return false;
  }
  b->p->compute = op;
  b->p->slice.kind = kind;
  if (!new_buffer(b, op, NPUC_TX8_BUF_RESULT, -1))
    return false;
  b->p->result_buffer = b->p->num_buffers - 1;
  return true;
}

static bool add_load(builder *b, MlirOperation op) {
  int arg = block_arg_index(b->body, mlirOperationGetOperand(op, 0));
  if (arg < 0) {
    npuc_op_error(op, "tx8be.load_var: unsupported operand: it must load an "
                      "input of its group (a block argument)");
    return false;
  }
  return new_buffer(b, op, NPUC_TX8_BUF_LOAD, arg);
}

static bool add_norm(builder *b, MlirOperation op) {
  int src = buffer_of(b->p, mlirOperationGetOperand(op, 0));
  if (src < 0) {
    npuc_op_error(op, "tx8be.channel_norm: its operand is not in SPM (load it "
                      "with tx8be.load_var first)");
    return false;
  }
  return new_buffer(b, op, NPUC_TX8_BUF_NORM, src);
}

static bool add_store(builder *b, MlirOperation op) {
  npuc_tx8_group_plan *p = b->p;
  int src = buffer_of(p, mlirOperationGetOperand(op, 0));
  bool from_result = src >= 0 && (src == p->result_buffer ||
                                  (p->buffers[src].kind == NPUC_TX8_BUF_NORM &&
                                   p->buffers[src].source == p->result_buffer));
  if (!from_result) {
    npuc_op_error(op, "tx8be.store_var: unsupported operand: it must store the "
                      "group's compute result (or its channel_norm)");
    return false;
  }
  if (p->num_stores == NPUC_TX8_MAX_STORES) {
    npuc_op_error(op, "tx8be.store_var: more than %d stores in one group",
                  NPUC_TX8_MAX_STORES);
    return false;
  }
  p->stores[p->num_stores].op = op;
  p->stores[p->num_stores].buffer = src;
  p->stores[p->num_stores].result = -1;
  p->num_stores++;
  return true;
}

static bool add_return(builder *b, MlirOperation op) {
  npuc_tx8_group_plan *p = b->p;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    int s = 0;
    while (s < p->num_stores &&
           !mlirValueEqual(mlirOperationGetResult(p->stores[s].op, 0), v))
      ++s;
    if (s == p->num_stores) {
      npuc_op_error(op,
                    "tx8be.return: operand #%zd is not a tx8be.store_var "
                    "result (group results live in DDR)",
                    (ssize_t)i);
      return false;
    }
    p->stores[s].result = (int)i;
  }
  for (int s = 0; s < p->num_stores; ++s)
    if (p->stores[s].result < 0) {
      npuc_op_error(p->stores[s].op, "tx8be.store_var: the stored value is not "
                                     "returned by the group");
      return false;
    }
  return true;
}

/* ---- the compute op
 * ---------------------------------------------------------------- */

static bool is_none(MlirValue v) {
  return mlirValueIsAOpResult(v) &&
         named(mlirOpResultGetOwner(v), "tx8be.none");
}

static bool read_i64s(MlirOperation op, const char *name, int64_t *out, int n) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (int i = 0; i < n; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
}

static bool read_conv_attrs(MlirOperation op, npuc_tx8_slice_op *s) {
  if (!read_i64s(op, "strides", s->strides, 2) ||
      !read_i64s(op, "pads", s->pads, 4) ||
      !read_i64s(op, "dilations", s->dilations, 2)) {
    npuc_op_error(op, "tx8be.conv: unsupported attributes: strides and "
                      "dilations need 2 entries, pads 4");
    return false;
  }
  MlirAttribute g = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("group"));
  s->groups = !mlirAttributeIsNull(g) && mlirAttributeIsAInteger(g)
                  ? mlirIntegerAttrGetValueInt(g)
                  : 1;
  return true;
}

static float read_epsilon(MlirOperation op) {
  MlirAttribute e = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("epsilon"));
  if (!mlirAttributeIsNull(e) && mlirAttributeIsAFloat(e))
    return (float)mlirFloatAttrGetValueDouble(e);
  return 1e-6f; /* the seed's */
}

static bool finish_compute(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  MlirOperation op = p->compute;
  npuc_tx8_slice_op *s = &p->slice;
  const char *local =
      npuc_tx8_op_name(op, p->compute_name, sizeof p->compute_name);
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (is_none(v) && i == 2 &&
        (s->kind == NPUC_TX8_KIND_GEMM || s->kind == NPUC_TX8_KIND_CONV))
      continue;
    int buf = buffer_of(p, v);
    if (buf < 0 || buf == p->result_buffer || i >= NPUC_TX8_MAX_OPERANDS) {
      npuc_op_error(op,
                    "%s: operand #%zd is not in SPM (load it with "
                    "tx8be.load_var inside the group)",
                    local, (ssize_t)i);
      return false;
    }
    p->operand_buffer[s->num_operands] = buf;
    s->operands[s->num_operands++] = p->buffers[buf].shape;
    if (i == 2)
      p->has_bias = true;
  }
  s->result = p->buffers[p->result_buffer].shape;
  s->transpose_a = has_attr(op, "transpose_a");
  s->transpose_b = has_attr(op, "transpose_b");
  if (s->kind == NPUC_TX8_KIND_CONV && !read_conv_attrs(op, s))
    return false;
  p->epsilon = read_epsilon(op);
  if (!npuc_tx8_read_op_params(op, local, s, &p->epsilon))
    return false;
  char err[256];
  if (!npuc_tx8_slice_check(s, err, sizeof err)) {
    npuc_op_error(op, "%s: unsupported shape: %s", local, err);
    return false;
  }
  return true;
}

/* ---- windows
 * ------------------------------------------------------------------------ */

static bool same_windows(const npuc_tx8_window *a, const npuc_tx8_window *b,
                         int rank) {
  return memcmp(a, b, (size_t)rank * sizeof *a) == 0;
}

/* Gives buffer `buf` (and the buffers it was converted from) `w`. */
static bool set_windows(builder *b, int buf, const npuc_tx8_window *w) {
  npuc_tx8_group_plan *p = b->p;
  for (; buf >= 0; buf = p->buffers[buf].kind == NPUC_TX8_BUF_NORM
                             ? p->buffers[buf].source
                             : -1) {
    npuc_tx8_buffer *x = &p->buffers[buf];
    if (x->has_windows && !same_windows(x->windows, w, x->shape.rank)) {
      npuc_op_error(x->op,
                    "unsupported: this SPM value feeds operands of "
                    "%s that read different parts of it",
                    p->compute_name);
      return false;
    }
    memcpy(x->windows, w, (size_t)x->shape.rank * sizeof *w);
    x->has_windows = true;
  }
  return true;
}

/* The result, or a channel_norm of it: read as the output slice is. */
static bool derives_from_result(const npuc_tx8_group_plan *p, int buf) {
  while (p->buffers[buf].kind == NPUC_TX8_BUF_NORM)
    buf = p->buffers[buf].source;
  return buf == p->result_buffer;
}

static bool assign_windows(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  for (int i = 0; i < p->slice.num_operands; ++i) {
    npuc_tx8_window w[NPUC_TX8_MAX_RANK];
    npuc_tx8_operand_windows(&p->slice, i, w);
    if (!set_windows(b, p->operand_buffer[i], w))
      return false;
  }
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_buffer *x = &p->buffers[i];
    if (derives_from_result(p, i)) {
      for (int d = 0; d < x->shape.rank; ++d)
        x->windows[d] = (npuc_tx8_window){d, 1, 0, 1};
      x->has_windows = true;
    }
    if (!x->has_windows) {
      npuc_op_error(x->op,
                    "unsupported: this SPM value is not used by the "
                    "group's compute op %s",
                    p->compute_name);
      return false;
    }
  }
  return true;
}

/* ---- layouts
 * ------------------------------------------------------------------------- */

/* Whether the op reads operand `i` (-1: its result) as N batches, which
 * decides NTensor/NCx over Tensor/Cx: gemm batches a and the result from
 * rank 3 (dimension 0 batches, the rest before K are rows), conv
 * its NHWC input and output, the CGRA ops every tensor of rank >= 2. */
static bool batched_role(const npuc_tx8_slice_op *s, int i) {
  const npuc_tx8_shape *sh = i < 0 ? &s->result : &s->operands[i];
  switch (s->kind) {
  case NPUC_TX8_KIND_GEMM: return i <= 0 && sh->rank >= 3;
  case NPUC_TX8_KIND_CONV: return i <= 0;
  default: return sh->rank >= 2;
  }
}

static npuc_tx8_layout_mode mode_of(bool aligned, bool batched) {
  if (aligned)
    return batched ? NPUC_TX8_NCX : NPUC_TX8_CX;
  return batched ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
}

/* The layout a channel_norm converts to, from its `layout` enum attribute
 * (#tx8be.layout_mode<Cx>). */
static bool norm_aligned(MlirOperation op) {
  char text[128];
  if (!attr_text(op, "layout", text, sizeof text))
    return false;
  return strstr(text, "<Cx>") || strstr(text, "<NCx>");
}

/* A buffer's family (aligned or compact): what its producer's dev_info
 * says, the channel_norm's target, or the compute op's need. False after
 * an error (a malformed dev_info). */
static bool family_of(builder *b, int i, bool result_aligned, bool *aligned) {
  npuc_tx8_buffer *x = &b->p->buffers[i];
  npuc_tx8_dev_attr dev;
  if (x->kind == NPUC_TX8_BUF_NORM) {
    *aligned = norm_aligned(x->op);
    return true;
  }
  switch (npuc_tx8_op_dev_attr(x->op, &dev)) {
  case NPUC_TX8_ATTR_MALFORMED: return false;
  case NPUC_TX8_ATTR_PRESENT:
    *aligned = npuc_tx8_is_aligned(dev.mem_layout);
    return true;
  case NPUC_TX8_ATTR_ABSENT: break;
  }
  if (x->kind == NPUC_TX8_BUF_RESULT) {
    *aligned = npuc_tx8_query_op(x->op).align_mode == NPUC_TX8_ALIGN_ALIGNED;
    return true;
  }
  /* A load feeding a channel_norm stays as in DDR (compact); one feeding
   * the op directly takes the op's layout. */
  *aligned = result_aligned;
  for (int j = 0; j < b->p->num_buffers; ++j)
    if (b->p->buffers[j].kind == NPUC_TX8_BUF_NORM &&
        b->p->buffers[j].source == i)
      *aligned = false;
  return true;
}

/* The role (operand index, -1 for the result) a buffer's chain ends in. */
static int role_of(const npuc_tx8_group_plan *p, int buf) {
  for (int i = 0; i < p->slice.num_operands; ++i)
    for (int x = p->operand_buffer[i]; x >= 0;
         x = p->buffers[x].kind == NPUC_TX8_BUF_NORM ? p->buffers[x].source
                                                     : -1)
      if (x == buf)
        return i;
  return -1;
}

static bool assign_layouts(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  bool result_aligned;
  if (!family_of(b, p->result_buffer, false, &result_aligned))
    return false;
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_buffer *x = &p->buffers[i];
    bool aligned = result_aligned;
    if (i != p->result_buffer && !family_of(b, i, result_aligned, &aligned))
      return false;
    x->mode = mode_of(aligned, batched_role(&p->slice, role_of(p, i)));
  }
  /* The CGRA ops compute in one layout: every full-size operand must be
   * in the result's ([C] vectors are read whole). */
  if (p->slice.kind == NPUC_TX8_KIND_GEMM ||
      p->slice.kind == NPUC_TX8_KIND_CONV)
    return true;
  npuc_tx8_layout_mode want = p->buffers[p->result_buffer].mode;
  for (int i = 0; i < p->slice.num_operands; ++i) {
    const npuc_tx8_buffer *x = &p->buffers[p->operand_buffer[i]];
    if (x->shape.rank == 1 && p->slice.result.rank > 1) {
      /* A [C] vector is read whole in any layout, but against a one-row
       * slice it looks like a tensor and must match: give its chain the
       * result's layout (a vector's is one row either way). */
      for (int c = p->operand_buffer[i]; c >= 0;
           c = p->buffers[c].kind == NPUC_TX8_BUF_NORM ? p->buffers[c].source
                                                       : -1)
        p->buffers[c].mode = want;
      continue;
    }
    if (x->mode != want) {
      npuc_op_error(p->compute,
                    "%s: layout conflict: operand #%d is %s (%s) "
                    "but the op computes in %s (a "
                    "tx8be.channel_norm must convert it)",
                    p->compute_name, i,
                    npuc_tx8_is_aligned(x->mode) ? "aligned" : "compact",
                    npuc_tx8_layout_name(x->mode), npuc_tx8_layout_name(want));
      return false;
    }
  }
  return true;
}

/* ---- dtypes
 * ------------------------------------------------------------------------- */

static bool check_dtypes(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  const npuc_tx8_slice_op *s = &p->slice;
  npuc_tx8_dtype out = p->buffers[p->result_buffer].dtype;
  const char *name = p->compute_name;
  for (int i = 0; i < s->num_operands; ++i) {
    npuc_tx8_dtype dt = p->buffers[p->operand_buffer[i]].dtype;
    bool vector_of_bn = s->kind == NPUC_TX8_KIND_BATCHNORM && i > 0;
    bool bias = i == 2 && (s->kind == NPUC_TX8_KIND_GEMM ||
                           s->kind == NPUC_TX8_KIND_CONV);
    if (vector_of_bn ? dt == NPUC_TX8_I8 : (!bias && dt != out)) {
      npuc_op_error(p->compute,
                    "%s: unsupported dtype: operand #%d is %s, "
                    "the result %s",
                    name, i, npuc_tx8_dtype_name(dt), npuc_tx8_dtype_name(out));
      return false;
    }
  }
  bool int8 = out == NPUC_TX8_I8;
  bool int8_ok = s->kind == NPUC_TX8_KIND_GEMM ||
                 s->kind == NPUC_TX8_KIND_CONV || !strcmp(name, "tx8be.add") ||
                 !strcmp(name, "tx8be.sub") || !strcmp(name, "tx8be.mul") ||
                 !strcmp(name, "tx8be.relu") || !strcmp(name, "tx8be.abs") ||
                 npuc_tx8_op_takes_i8(s, name);
  if (int8 && !int8_ok) {
    npuc_op_error(p->compute,
                  "%s: unsupported dtype: i8 (the op library has "
                  "i8 gemm, conv, add, sub, mul, relu, abs, clip, "
                  "reduce_max, reduce_min, max_pool, transpose, "
                  "broadcast, concat and slice)",
                  name);
    return false;
  }
  return true;
}

/* ---- SPM
 * -----------------------------------------------------------------------------
 */

static int64_t align_batch(int64_t bytes) {
  return (bytes + NPUC_TX8_BATCH_ALIGN_BYTES - 1) / NPUC_TX8_BATCH_ALIGN_BYTES *
         NPUC_TX8_BATCH_ALIGN_BYTES;
}

int64_t npuc_tx8_group_spm_bytes(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets) {
  int64_t total = 0;
  npuc_tx8_layout input = {0};
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *x = &p->buffers[i];
    int32_t whole[NPUC_TX8_MAX_RANK], max[NPUC_TX8_MAX_RANK];
    for (int d = 0; d < x->shape.rank; ++d)
      whole[d] = (int32_t)x->shape.dims[d];
    npuc_tx8_window_max(x->windows, whole, x->shape.rank, out_slice, max);
    npuc_tx8_layout t = npuc_tx8_layout_of(
        npuc_tx8_dims_of_shape32(max, x->shape.rank, x->mode), x->dtype,
        x->mode);
    if (p->slice.num_operands && i == p->operand_buffer[0])
      input = t;
    if (offsets)
      offsets[i] = total;
    total += align_batch(t.total_bytes);
  }
  if (offsets)
    offsets[p->num_buffers] = total;
  if (p->slice.kind == NPUC_TX8_KIND_BATCHNORM)
    total += align_batch(npuc_tx8_batchnorm_imm_size(input.dims, input.mode));
  return total;
}

/* The allocator's offsets (tx8-spm-alloc), read back so that the code
 * generator places every buffer where the pass decided; the sizes are
 * the bump placement's steps. */
int64_t npuc_tx8_group_placement(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets) {
  int64_t bump[NPUC_TX8_MAX_BUFFERS + 1], placed[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t total = npuc_tx8_group_spm_bytes(p, out_slice, bump);
  int64_t span = 0;
  npuc_tx8_dev_attr dev;
  for (int i = 0; i <= p->num_buffers; ++i) {
    MlirOperation op = i < p->num_buffers ? p->buffers[i].op : p->compute;
    int64_t size = (i < p->num_buffers ? bump[i + 1] : total) - bump[i];
    npuc_tx8_attr_status st = npuc_tx8_op_dev_attr(op, &dev);
    if (st == NPUC_TX8_ATTR_MALFORMED)
      return -1;
    if (st == NPUC_TX8_ATTR_ABSENT || (i < p->num_buffers && !dev.mem_addr.len))
      break; /* not allocated: the bump placement */
    placed[i] = i < p->num_buffers ? dev.mem_addr.v[0] : dev.imm_addr;
    if (size == 0)
      placed[i] = 0;
    int64_t end;
    if (placed[i] < 0 || placed[i] % NPUC_TX8_BATCH_ALIGN_BYTES ||
        !npuc_checked_add(placed[i], size, &end)) {
      npuc_op_error(op,
                    "dev_info: SPM offset %lld is not a non-negative "
                    "multiple of 256 bytes that fits",
                    (long long)placed[i]);
      return -1;
    }
    if (end > span)
      span = end;
    if (i == p->num_buffers) {
      if (offsets)
        memcpy(offsets, placed, sizeof placed);
      return span;
    }
  }
  if (offsets)
    memcpy(offsets, bump, sizeof bump);
  return total;
}
