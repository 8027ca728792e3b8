/* The plan of one tx8be.group (npuc/Tx8Group.h): its SPM buffers, their
 * layouts and windows, the steps one slice runs, its stores. The
 * tx8-sharding pass and the tx8 code generator both build it, so they agree
 * on what a slice costs.
 *
 * A group holds a DAG of compute ops in topological order. Windows are
 * propagated from the anchor output back to the inputs, each op by its own
 * slice rule (lib/TX8/Slice.c): an op's operand window is the op's rule
 * composed with the window of its result, and a buffer several readers use
 * holds the hull of what they need; a reader needing less than the hull
 * gets an EXTRACT buffer (an SPM copy of its part). */
#include "npuc/Tx8Group.h"
#include "npuc/Alloc.h"
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
  bool returned; /* a tx8be.return was read: each store has its result */
  /* channel_norms merged into an earlier one of the same value and
   * layout (tx8-group-single copies a shared one for each reader): their
   * results and the buffer that holds them. */
  MlirValue merged[NPUC_TX8_MAX_BUFFERS];
  int merged_into[NPUC_TX8_MAX_BUFFERS], num_merged;
} builder;

static bool add_op(builder *b, MlirOperation op);
static bool choose_anchor(builder *b);
static bool assign_windows(builder *b);
static bool assign_layouts(builder *b);
static bool check_dtypes(builder *b);
static void assign_axes(npuc_tx8_group_plan *p);
static void assign_lifetimes(npuc_tx8_group_plan *p);
static bool assign_residents(npuc_tx8_group_plan *p);

static bool reduce_split_attr(npuc_tx8_group_plan *p, int *op, int32_t *k);
static bool apply_reduce(npuc_tx8_group_plan *p, int op, int32_t k);
static bool reduce_sharding_attr(npuc_tx8_group_plan *p);
static bool build(MlirOperation group, npuc_tx8_group_plan *p, int force_op,
                  int32_t force_slice);

bool npuc_tx8_group_plan_build(MlirOperation group, npuc_tx8_group_plan *p) {
  return build(group, p, -1, 0);
}

bool npuc_tx8_group_plan_build_reduce(MlirOperation group, int op,
                                      int32_t k_slice, npuc_tx8_group_plan *p) {
  return build(group, p, op, k_slice);
}

/* The plan; with a reduce split of gemm `force_op` in slices of
 * `force_slice` when force_op >= 0, else as its reduce_split says. */
static bool build(MlirOperation group, npuc_tx8_group_plan *p, int force_op,
                  int32_t force_slice) {
  memset(p, 0, sizeof *p);
  p->reduce_op = p->psum = -1;
  p->reduce_ways = 1;
  p->group = group;
  p->anchor = -1;
  builder b = {.p = p,
               .body =
                   mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0))};
  if (mlirBlockIsNull(b.body)) {
    npuc_op_error(group, "tx8be.group has no body");
    return false;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(b.body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!add_op(&b, op))
      return false;
  if (!b.returned) {
    npuc_op_error(group, "tx8be.group: its body has no tx8be.return "
                         "(which names the group's results)");
    return false;
  }
  if (p->num_ops == 0) {
    npuc_op_error(group, "tx8be.group has no compute op (one of gemm, conv, "
                         "batchnorm_inference, the elementwise ops)");
    return false;
  }
  if (!choose_anchor(&b) || !assign_windows(&b) || !assign_layouts(&b) ||
      !check_dtypes(&b))
    return false;
  assign_axes(p);
  int op = force_op;
  int32_t k = force_slice;
  if ((op < 0 && !reduce_split_attr(p, &op, &k)) ||
      (op >= 0 && !apply_reduce(p, op, k)) ||
      (force_op < 0 && !reduce_sharding_attr(p)))
    return false;
  assign_lifetimes(p);
  if (p->psum >= 0) { /* accumulates across the K loop */
    p->buffers[p->psum].first_step = 0;
    p->buffers[p->psum].last_step = p->num_steps - 1;
  }
  return assign_residents(p);
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

bool npuc_tx8_value_layout_type(MlirOperation where, MlirValue v,
                                const char *who, const char *what,
                                npuc_tx8_shape *s, npuc_tx8_dtype *dt) {
  MlirType t = mlirValueGetType(v);
  if (!npuc_tx8_shape_of(t, s) || s->rank == 0) {
    npuc_op_error(where,
                  "%s: unsupported shape%s: a static tensor of rank 1 to %d "
                  "is needed",
                  who, what, NPUC_TX8_MAX_RANK);
    return false;
  }
  for (int d = 0; d < s->rank; ++d)
    if (s->dims[d] > INT32_MAX) {
      /* The plan's slices and the C model's shapes are 32-bit. */
      npuc_op_error(where,
                    "%s: unsupported shape%s: dimension %d is %lld, more "
                    "than 2^31 - 1",
                    who, what, d, (long long)s->dims[d]);
      return false;
    }
  if (!npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(t), dt)) {
    npuc_op_error(where,
                  "%s: unsupported dtype%s: TX8 computes f16, bf16, f32 and "
                  "i8",
                  who, what);
    return false;
  }
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

/* The tiles of a dx x dy mesh, which must fit the target's (the C model
 * runs one thread per tile; the product of two attributes overflowed int32
 * before); 0 with an error at the group when it does not. */
static int32_t mesh_tiles(MlirOperation group, const char *what, int64_t dx,
                          int64_t dy, const npuc_tx8_target *t) {
  if (dx <= t->tiles_x && dy <= t->tiles_y)
    return (int32_t)(dx * dy); /* the target's tiles are at most 4096 */
  npuc_op_error(group,
                "the group's tile mesh %lldx%lld (%s) exceeds the target's "
                "%dx%d tiles",
                (long long)dx, (long long)dy, what, t->tiles_x, t->tiles_y);
  return 0;
}

int32_t npuc_tx8_group_tiles(MlirOperation group, const npuc_tx8_target *t) {
  char text[256], err[128];
  npuc_tx8_region_attr r;
  if (attr_text(group, "dev_region", text, sizeof text) &&
      npuc_tx8_parse_region_attr(text, strlen(text), &r, err, sizeof err) &&
      r.tile_dx > 0 && r.tile_dy > 0)
    return mesh_tiles(group, "dev_region", r.tile_dx, r.tile_dy, t);
  MlirOperation module = group;
  while (!mlirOperationIsNull(module) && !named(module, "builtin.module"))
    module = mlirOperationGetParentOperation(module);
  int32_t dx = t->tiles_x, dy = t->tiles_y;
  if (!mlirOperationIsNull(module) &&
      !npuc_tx8_module_tile_mesh(module, t, &dx, &dy))
    return 0;
  return mesh_tiles(group, "tx8be.tile_dx x tx8be.tile_dy", dx, dy, t);
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

/* ---- collecting the buffers and steps
 * -------------------------------------------- */

static int buffer_of(const builder *b, MlirValue v) {
  const npuc_tx8_group_plan *p = b->p;
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].kind != NPUC_TX8_BUF_EXTRACT &&
        mlirValueEqual(p->buffers[i].value, v))
      return i;
  for (int i = 0; i < b->num_merged; ++i)
    if (mlirValueEqual(b->merged[i], v))
      return b->merged_into[i];
  return -1;
}

static int block_arg_index(MlirBlock body, MlirValue v) {
  if (!mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body))
    return -1;
  return (int)mlirBlockArgumentGetArgNumber(v);
}

/* False, with an error at `op`, when a table of the plan holding `n` of
 * at most `max` `what` is full. */
static bool room(MlirOperation op, int n, int max, const char *what) {
  if (n < max)
    return true;
  npuc_op_error(op, "more than %d %s in one tx8be.group", max, what);
  return false;
}

static bool add_step(builder *b, MlirOperation op, npuc_tx8_step_kind kind,
                     int index) {
  npuc_tx8_group_plan *p = b->p;
  if (!room(op, p->num_steps, NPUC_TX8_MAX_STEPS, "steps"))
    return false;
  p->steps[p->num_steps].kind = kind;
  p->steps[p->num_steps++].index = index;
  return true;
}

/* A new buffer for `op`'s result, defined by a step of `step` kind. */
static bool new_buffer(builder *b, MlirOperation op, npuc_tx8_buf_kind kind,
                       int source, npuc_tx8_step_kind step) {
  npuc_tx8_group_plan *p = b->p;
  if (!room(op, p->num_buffers, NPUC_TX8_MAX_BUFFERS, "SPM buffers"))
    return false;
  npuc_tx8_buffer *buf = &p->buffers[p->num_buffers];
  buf->kind = kind;
  buf->op = op;
  buf->value = mlirOperationGetResult(op, 0);
  buf->source = source;
  buf->inplace_of = -1;
  buf->load_into = -1;
  char name[64];
  npuc_tx8_op_name(op, name, sizeof name);
  if (!npuc_tx8_value_layout_type(op, buf->value, name, "", &buf->shape,
                                  &buf->dtype))
    return false;
  return add_step(b, op, step, p->num_buffers++);
}

static bool add_load(builder *b, MlirOperation op);
static bool add_norm(builder *b, MlirOperation op);
static bool add_compute(builder *b, MlirOperation op, npuc_tx8_op_kind kind);
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
  if (npuc_tx8_op_kind_of(name, &kind))
    return add_compute(b, op, kind);
  npuc_op_error(op,
                "%s: unsupported op in a tx8be.group (the TX8 code "
                "generator knows load_var, channel_norm, store_var, "
                "gemm, conv, batchnorm_inference and the elementwise "
                "ops)",
                name);
  return false;
}

static bool add_load(builder *b, MlirOperation op) {
  int arg = block_arg_index(b->body, mlirOperationGetOperand(op, 0));
  if (arg < 0) {
    npuc_op_error(op, "tx8be.load_var: unsupported operand: it must load an "
                      "input of its group (a block argument)");
    return false;
  }
  return new_buffer(b, op, NPUC_TX8_BUF_LOAD, arg, NPUC_TX8_STEP_LOAD);
}

/* An earlier channel_norm of buffer `src` converting to `op`'s layout
 * and type, or -1. */
static int same_norm(const npuc_tx8_group_plan *p, int src, MlirOperation op) {
  MlirStringRef layout = mlirStringRefCreateFromCString("layout");
  MlirAttribute want = mlirOperationGetAttributeByName(op, layout);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *x = &p->buffers[i];
    if (x->kind != NPUC_TX8_BUF_NORM || x->source != src)
      continue;
    MlirAttribute have = mlirOperationGetAttributeByName(x->op, layout);
    if (!mlirAttributeIsNull(want) && !mlirAttributeIsNull(have) &&
        mlirAttributeEqual(want, have) &&
        mlirTypeEqual(type, mlirValueGetType(x->value)))
      return i;
  }
  return -1;
}

static bool add_norm(builder *b, MlirOperation op) {
  int src = buffer_of(b, mlirOperationGetOperand(op, 0));
  if (src < 0) {
    npuc_op_error(op, "tx8be.channel_norm: its operand is not in SPM (load it "
                      "with tx8be.load_var first)");
    return false;
  }
  /* One conversion serves every reader: each reads its part of it (an
   * extract when that is less than the whole), and a loaded value's only
   * conversion can be loaded straight into its layout (fuse_load_norms). */
  int same = same_norm(b->p, src, op);
  if (same >= 0 && b->num_merged < NPUC_TX8_MAX_BUFFERS) {
    b->merged[b->num_merged] = mlirOperationGetResult(op, 0);
    b->merged_into[b->num_merged++] = same;
    return true;
  }
  return new_buffer(b, op, NPUC_TX8_BUF_NORM, src, NPUC_TX8_STEP_NORM);
}

/* The buffer a store or a channel_norm chain comes from. */
static int root_of(const npuc_tx8_group_plan *p, int buf) {
  while (p->buffers[buf].kind == NPUC_TX8_BUF_NORM ||
         p->buffers[buf].kind == NPUC_TX8_BUF_EXTRACT)
    buf = p->buffers[buf].source;
  return buf;
}

static bool add_store(builder *b, MlirOperation op) {
  npuc_tx8_group_plan *p = b->p;
  int src = buffer_of(b, mlirOperationGetOperand(op, 0));
  if (src < 0 || p->buffers[root_of(p, src)].kind != NPUC_TX8_BUF_RESULT) {
    npuc_op_error(op, "tx8be.store_var: unsupported operand: it must store a "
                      "compute result of the group (or its channel_norm)");
    return false;
  }
  if (!room(op, p->num_stores, NPUC_TX8_MAX_STORES, "stores"))
    return false;
  p->stores[p->num_stores].op = op;
  p->stores[p->num_stores].buffer = src;
  p->stores[p->num_stores].result = -1;
  return add_step(b, op, NPUC_TX8_STEP_STORE, p->num_stores++);
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
    if (p->stores[s].result < 0)    /* yielded twice: stored once, */
      p->stores[s].result = (int)i; /* the emitter aliases the other */
  }
  for (int s = 0; s < p->num_stores; ++s)
    if (p->stores[s].result < 0) {
      npuc_op_error(p->stores[s].op, "tx8be.store_var: the stored value is not "
                                     "returned by the group");
      return false;
    }
  b->returned = true;
  return true;
}

/* ---- the compute ops
 * --------------------------------------------------------------- */

static bool is_none(MlirValue v) {
  return mlirValueIsAOpResult(v) &&
         named(mlirOpResultGetOwner(v), "tx8be.none");
}

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
}

static bool read_conv_attrs(MlirOperation op, npuc_tx8_slice_op *s) {
  if (!npuc_tx8_read_i64_array(op, "strides", 2, s->strides) ||
      !npuc_tx8_read_i64_array(op, "pads", 4, s->pads) ||
      !npuc_tx8_read_i64_array(op, "dilations", 2, s->dilations)) {
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

/* Maps the op's tensor operands to buffers (an absent gemm/conv bias is
 * none) and checks its shapes against its slice rule. */
static bool add_compute(builder *b, MlirOperation op, npuc_tx8_op_kind kind) {
  npuc_tx8_group_plan *p = b->p;
  if (!room(op, p->num_ops, NPUC_TX8_MAX_GROUP_OPS, "compute ops"))
    return false;
  npuc_tx8_group_op *o = &p->ops[p->num_ops];
  o->op = op;
  o->slice.kind = kind;
  const char *name = npuc_tx8_op_name(op, o->name, sizeof o->name);
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (is_none(v) && i == 2 &&
        (kind == NPUC_TX8_KIND_GEMM || kind == NPUC_TX8_KIND_CONV))
      continue;
    int buf = buffer_of(b, v);
    if (buf < 0 || i >= NPUC_TX8_MAX_OPERANDS) {
      npuc_op_error(op,
                    "%s: operand #%zd is not in SPM (load it with "
                    "tx8be.load_var inside the group)",
                    name, (ssize_t)i);
      return false;
    }
    o->operand_buffer[o->slice.num_operands] = buf;
    o->slice.operands[o->slice.num_operands++] = p->buffers[buf].shape;
    if (i == 2)
      o->has_bias = true;
  }
  o->slice.transpose_a = has_attr(op, "transpose_a");
  o->slice.transpose_b = has_attr(op, "transpose_b");
  if (kind == NPUC_TX8_KIND_CONV && !read_conv_attrs(op, &o->slice))
    return false;
  o->epsilon = read_epsilon(op);
  if (!new_buffer(b, op, NPUC_TX8_BUF_RESULT, -1, NPUC_TX8_STEP_COMPUTE))
    return false;
  o->result = p->num_buffers - 1;
  p->steps[p->num_steps - 1].index = p->num_ops++;
  o->slice.result = p->buffers[o->result].shape;
  if (!npuc_tx8_read_op_params(op, name, &o->slice, &o->epsilon))
    return false;
  char err[256];
  if (!npuc_tx8_slice_check(&o->slice, err, sizeof err)) {
    npuc_op_error(op, "%s: unsupported shape: %s", name, err);
    return false;
  }
  return true;
}

/* ---- the anchor
 * ---------------------------------------------------------------------- */

static int shape_text(const npuc_tx8_shape *s, char *buf, size_t cap) {
  int n = 0;
  for (int d = 0; d < s->rank && (size_t)n < cap; ++d)
    n += snprintf(buf + n, cap - (size_t)n, "%s%lld", d ? "x" : "",
                  (long long)s->dims[d]);
  return n;
}

/* The stored buffer defined last drives the loop (every other output is
 * computed on the way to it); every output must have its shape, as each
 * output slice is the anchor's slice. */
static bool choose_anchor(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  p->anchor = p->ops[p->num_ops - 1].result;
  for (int s = 0; s < p->num_stores; ++s)
    if (s == 0 || p->stores[s].buffer > p->anchor)
      p->anchor = p->stores[s].buffer;
  const npuc_tx8_buffer *a = &p->buffers[p->anchor];
  p->out = a->shape;
  int root = root_of(p, p->anchor);
  for (int k = 0; k < p->num_ops; ++k)
    if (p->ops[k].result == root) {
      p->compute = p->ops[k].op;
      memcpy(p->compute_name, p->ops[k].name, sizeof p->compute_name);
    }
  for (int s = 0; s < p->num_stores; ++s) {
    const npuc_tx8_buffer *x = &p->buffers[p->stores[s].buffer];
    if (npuc_tx8_shape_equal(&x->shape, &a->shape))
      continue;
    char want[128], got[128];
    shape_text(&a->shape, want, sizeof want);
    shape_text(&x->shape, got, sizeof got);
    npuc_op_error(p->stores[s].op,
                  "tx8be.store_var: unsupported: the group's outputs must "
                  "have one shape (the slices of its last output, %s, drive "
                  "the loop), this one is %s: split the group here",
                  want, got);
    return false;
  }
  return true;
}

/* ---- windows
 * ------------------------------------------------------------------------ */

/* One reader's need of a buffer: operand `operand` of step `step`. */
typedef struct {
  int step, operand, buffer;
  npuc_tx8_window w[NPUC_TX8_MAX_RANK];
} request;

typedef struct {
  request *r;
  int n;
} requests;

static npuc_tx8_window whole(void) {
  npuc_tx8_window w = {-1, 1, 0, 1};
  return w;
}

/* An operand window `w` (over the op's result dimensions) seen from the
 * anchor, through the result's windows `res`: index i of the result reads
 * [i·sc + off, i·sc + off + ext), and anchor slice s gives the result
 * [s·S + O, (s+len−1)·S + O + E), so the operand reads
 * [s·S·sc + O·sc + off, (s+len−1)·S·sc + O·sc + off + (E−1)·sc + ext). */
static npuc_tx8_window compose(npuc_tx8_window w, const npuc_tx8_window *res) {
  if (w.out_dim < 0 || res[w.out_dim].out_dim < 0)
    return whole();
  npuc_tx8_window r = res[w.out_dim];
  npuc_tx8_window c = {r.out_dim, r.scale * w.scale,
                       r.offset * w.scale + w.offset,
                       (r.extent - 1) * w.scale + w.extent};
  return c;
}

/* The smallest window holding a and b: whole unless they follow one
 * anchor dimension at one scale. */
static npuc_tx8_window hull(npuc_tx8_window a, npuc_tx8_window b) {
  if (a.out_dim < 0 || a.out_dim != b.out_dim || a.scale != b.scale)
    return whole();
  int32_t lo = a.offset < b.offset ? a.offset : b.offset;
  int32_t ea = a.offset + a.extent, eb = b.offset + b.extent;
  npuc_tx8_window h = {a.out_dim, a.scale, lo, (ea > eb ? ea : eb) - lo};
  return h;
}

static bool same_windows(const npuc_tx8_window *a, const npuc_tx8_window *b,
                         int rank) {
  return memcmp(a, b, (size_t)rank * sizeof *a) == 0;
}

static void add_request(npuc_tx8_group_plan *p, requests *rq, int step,
                        int operand, int buf, const npuc_tx8_window *w) {
  npuc_tx8_buffer *x = &p->buffers[buf];
  request *r = &rq->r[rq->n++];
  r->step = step;
  r->operand = operand;
  r->buffer = buf;
  memcpy(r->w, w, (size_t)x->shape.rank * sizeof *w);
  for (int d = 0; d < x->shape.rank; ++d)
    x->windows[d] = x->has_windows ? hull(x->windows[d], w[d]) : w[d];
  x->has_windows = true;
}

static void identity(npuc_tx8_window *w, int rank) {
  for (int d = 0; d < rank; ++d)
    w[d] = (npuc_tx8_window){d, 1, 0, 1};
}

static bool unused(const npuc_tx8_group_plan *p, int buf) {
  const npuc_tx8_buffer *x = &p->buffers[buf];
  if (x->has_windows)
    return false;
  char name[64];
  npuc_op_error(x->op,
                "%s: unsupported: its value is neither read in the group "
                "nor stored",
                npuc_tx8_op_name(x->op, name, sizeof name));
  return true;
}

/* Step `i`'s requests on the buffers it reads, from its result's windows
 * (final: every reader comes later and was visited first). */
static bool request_step(npuc_tx8_group_plan *p, requests *rq, int i) {
  const npuc_tx8_step *st = &p->steps[i];
  npuc_tx8_window w[NPUC_TX8_MAX_RANK];
  switch (st->kind) {
  case NPUC_TX8_STEP_STORE: {
    int buf = p->stores[st->index].buffer;
    identity(w, p->buffers[buf].shape.rank);
    add_request(p, rq, i, 0, buf, w);
    return true;
  }
  case NPUC_TX8_STEP_COMPUTE: {
    const npuc_tx8_group_op *o = &p->ops[st->index];
    if (unused(p, o->result))
      return false;
    for (int k = 0; k < o->slice.num_operands; ++k) {
      npuc_tx8_window ow[NPUC_TX8_MAX_RANK];
      npuc_tx8_operand_windows(&o->slice, k, ow);
      for (int d = 0; d < o->slice.operands[k].rank; ++d)
        w[d] = compose(ow[d], p->buffers[o->result].windows);
      add_request(p, rq, i, k, o->operand_buffer[k], w);
    }
    return true;
  }
  case NPUC_TX8_STEP_NORM:
    if (unused(p, st->index))
      return false;
    add_request(p, rq, i, 0, p->buffers[st->index].source,
                p->buffers[st->index].windows);
    return true;
  case NPUC_TX8_STEP_LOAD: return !unused(p, st->index);
  case NPUC_TX8_STEP_EXTRACT: return true;
  }
  return true;
}

static bool add_extracts(npuc_tx8_group_plan *p, const requests *rq);

static bool assign_windows(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  npuc_tx8_buffer *a = &p->buffers[p->anchor];
  identity(a->windows, a->shape.rank);
  a->has_windows = true;
  requests rq = {npuc_xcalloc((size_t)p->num_steps * NPUC_TX8_MAX_OPERANDS,
                              sizeof(request)),
                 0};
  bool ok = true;
  for (int i = p->num_steps - 1; i >= 0 && ok; --i)
    ok = request_step(p, &rq, i);
  ok = ok && add_extracts(p, &rq);
  free(rq.r);
  return ok;
}

/* Points operand `k` of step `st` at buffer `buf`. */
static void reroute(npuc_tx8_group_plan *p, const npuc_tx8_step *st, int k,
                    int buf) {
  switch (st->kind) {
  case NPUC_TX8_STEP_STORE: p->stores[st->index].buffer = buf; return;
  case NPUC_TX8_STEP_COMPUTE: p->ops[st->index].operand_buffer[k] = buf; return;
  case NPUC_TX8_STEP_NORM: p->buffers[st->index].source = buf; return;
  default: return;
  }
}

/* A reader needing less than the buffer's hull reads an EXTRACT of its
 * part, copied just before it. Requests come in reverse step order. */
static bool add_extracts(npuc_tx8_group_plan *p, const requests *rq) {
  npuc_tx8_step old[NPUC_TX8_MAX_STEPS];
  int n = p->num_steps, r = rq->n - 1;
  memcpy(old, p->steps, (size_t)n * sizeof *old);
  p->num_steps = 0;
  for (int i = 0; i < n; ++i) {
    for (; r >= 0 && rq->r[r].step == i; --r) {
      const request *q = &rq->r[r];
      const npuc_tx8_buffer *src = &p->buffers[q->buffer];
      if (same_windows(q->w, src->windows, src->shape.rank))
        continue;
      if (!room(src->op, p->num_buffers, NPUC_TX8_MAX_BUFFERS, "SPM buffers") ||
          !room(src->op, p->num_steps + (n - i), NPUC_TX8_MAX_STEPS, "steps"))
        return false;
      npuc_tx8_buffer *e = &p->buffers[p->num_buffers];
      *e = *src;
      e->kind = NPUC_TX8_BUF_EXTRACT;
      e->source = q->buffer;
      memcpy(e->windows, q->w, sizeof e->windows);
      reroute(p, &old[i], q->operand, p->num_buffers);
      p->steps[p->num_steps++] =
          (npuc_tx8_step){NPUC_TX8_STEP_EXTRACT, p->num_buffers++};
    }
    p->steps[p->num_steps++] = old[i];
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

static bool is_batched(npuc_tx8_layout_mode m) {
  return m == NPUC_TX8_NTENSOR || m == NPUC_TX8_NCX;
}

/* The layout a channel_norm converts to, from its `layout` enum attribute
 * (#tx8be.layout_mode<Cx>). */
static bool norm_aligned(MlirOperation op) {
  char text[128];
  if (!attr_text(op, "layout", text, sizeof text))
    return false;
  return strstr(text, "<Cx>") || strstr(text, "<NCx>");
}

/* Whether the first op reading `buf` (through channel_norms and extracts)
 * reads it as batches; -1 when no compute op does. */
static int reader_batched(const npuc_tx8_group_plan *p, int buf) {
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_COMPUTE) {
      const npuc_tx8_group_op *o = &p->ops[st->index];
      for (int k = 0; k < o->slice.num_operands; ++k)
        if (o->operand_buffer[k] == buf)
          return batched_role(&o->slice, k);
    } else if ((st->kind == NPUC_TX8_STEP_NORM ||
                st->kind == NPUC_TX8_STEP_EXTRACT) &&
               p->buffers[st->index].source == buf) {
      int r = reader_batched(p, st->index);
      if (r >= 0)
        return r;
    }
  }
  return -1;
}

/* The first compute op reading `buf` directly (or through an extract), or
 * -1; *via_norm tells whether a channel_norm reads it. */
static int first_reader(const npuc_tx8_group_plan *p, int buf, bool *via_norm) {
  *via_norm = false;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    const npuc_tx8_buffer *x = &p->buffers[st->index];
    if (st->kind == NPUC_TX8_STEP_NORM && x->source == buf)
      *via_norm = true;
    if (st->kind != NPUC_TX8_STEP_COMPUTE)
      continue;
    const npuc_tx8_group_op *o = &p->ops[st->index];
    for (int k = 0; k < o->slice.num_operands; ++k) {
      const npuc_tx8_buffer *in = &p->buffers[o->operand_buffer[k]];
      if (o->operand_buffer[k] == buf ||
          (in->kind == NPUC_TX8_BUF_EXTRACT && in->source == buf))
        return st->index;
    }
  }
  return -1;
}

/* A CGRA op computes in the layout of its first full-size operand that the
 * group computed (the producer's, so a chain stays in one layout); -1 when
 * it has none. */
static int computed_operand(const npuc_tx8_group_plan *p,
                            const npuc_tx8_group_op *o) {
  if (o->slice.kind == NPUC_TX8_KIND_GEMM ||
      o->slice.kind == NPUC_TX8_KIND_CONV)
    return -1;
  for (int k = 0; k < o->slice.num_operands; ++k) {
    int buf = o->operand_buffer[k];
    if (p->buffers[buf].shape.rank == o->slice.result.rank &&
        p->buffers[root_of(p, buf)].kind == NPUC_TX8_BUF_RESULT)
      return buf;
  }
  return -1;
}

/* A compute result: its dev_info's family, else the producer's layout of
 * a computed operand, else the op library's family; batched by role (or as
 * the computed operand). False after an error (a malformed dev_info). */
static bool result_mode(npuc_tx8_group_plan *p, const npuc_tx8_group_op *o) {
  npuc_tx8_buffer *x = &p->buffers[o->result];
  int from = computed_operand(p, o);
  bool batched = from >= 0 ? is_batched(p->buffers[from].mode)
                           : batched_role(&o->slice, -1);
  npuc_tx8_dev_attr dev;
  switch (npuc_tx8_op_dev_attr(o->op, &dev)) {
  case NPUC_TX8_ATTR_MALFORMED: return false;
  case NPUC_TX8_ATTR_PRESENT:
    x->mode = mode_of(npuc_tx8_is_aligned(dev.mem_layout), batched);
    return true;
  case NPUC_TX8_ATTR_ABSENT: break;
  }
  if (from >= 0)
    x->mode = p->buffers[from].mode;
  else
    x->mode = mode_of(
        npuc_tx8_query_op(o->op).align_mode == NPUC_TX8_ALIGN_ALIGNED, batched);
  return true;
}

static bool is_cgra(const npuc_tx8_group_op *o) {
  return o->slice.kind != NPUC_TX8_KIND_GEMM &&
         o->slice.kind != NPUC_TX8_KIND_CONV;
}

/* A load: as in DDR (its dev_info, or compact when a channel_norm converts
 * it), else in the layout family of the op reading it; a full-size operand
 * of a CGRA op is read in the op's very layout. */
static bool load_mode(npuc_tx8_group_plan *p, int buf) {
  npuc_tx8_buffer *x = &p->buffers[buf];
  bool via_norm;
  int reader = first_reader(p, buf, &via_norm);
  npuc_tx8_layout_mode want =
      reader >= 0 ? p->buffers[p->ops[reader].result].mode : NPUC_TX8_TENSOR;
  bool aligned = npuc_tx8_is_aligned(want),
       batched = reader_batched(p, buf) > 0;
  if (reader >= 0 && is_cgra(&p->ops[reader]) &&
      x->shape.rank == p->ops[reader].slice.result.rank)
    batched = is_batched(want);
  npuc_tx8_dev_attr dev;
  switch (npuc_tx8_op_dev_attr(x->op, &dev)) {
  case NPUC_TX8_ATTR_MALFORMED: return false;
  case NPUC_TX8_ATTR_PRESENT:
    aligned = npuc_tx8_is_aligned(dev.mem_layout);
    break;
  case NPUC_TX8_ATTR_ABSENT:
    if (via_norm)
      aligned = false;
    break;
  }
  x->mode = mode_of(aligned, batched);
  return true;
}

static bool check_cgra_layouts(const npuc_tx8_group_plan *p,
                               const npuc_tx8_group_op *o);
static void vector_layouts(npuc_tx8_group_plan *p, const npuc_tx8_group_op *o);
static void norm_reader_layouts(npuc_tx8_group_plan *p);

static bool assign_layouts(builder *b) {
  npuc_tx8_group_plan *p = b->p;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    npuc_tx8_buffer *x = &p->buffers[st->index];
    if (st->kind == NPUC_TX8_STEP_COMPUTE) {
      if (!result_mode(p, &p->ops[st->index]))
        return false;
    } else if (st->kind == NPUC_TX8_STEP_NORM) {
      int r = reader_batched(p, st->index);
      x->mode =
          mode_of(norm_aligned(x->op),
                  r >= 0 ? r > 0 : is_batched(p->buffers[x->source].mode));
    }
  }
  norm_reader_layouts(p);
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].kind == NPUC_TX8_BUF_LOAD && !load_mode(p, i))
      return false;
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].kind == NPUC_TX8_BUF_EXTRACT)
      p->buffers[i].mode = p->buffers[p->buffers[i].source].mode;
  for (int k = 0; k < p->num_ops; ++k)
    vector_layouts(p, &p->ops[k]);
  for (int k = 0; k < p->num_ops; ++k)
    if (!check_cgra_layouts(p, &p->ops[k]))
      return false;
  return true;
}

/* A full-size operand of a CGRA op is read in the op's very layout: a
 * channel_norm feeding one takes the op's batching. Its role alone would
 * call a [rows x C] operand batched while the op, following its computed
 * operand (a gemm's [rows x C] result), computes in the unbatched layout. */
static void norm_reader_layouts(npuc_tx8_group_plan *p) {
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_buffer *x = &p->buffers[i];
    bool via_norm;
    int reader =
        x->kind == NPUC_TX8_BUF_NORM ? first_reader(p, i, &via_norm) : -1;
    if (reader < 0 || !is_cgra(&p->ops[reader]) ||
        x->shape.rank != p->ops[reader].slice.result.rank)
      continue;
    x->mode = mode_of(npuc_tx8_is_aligned(x->mode),
                      is_batched(p->buffers[p->ops[reader].result].mode));
  }
}

/* A [C] vector is read whole in any layout, but against a one-row slice it
 * looks like a tensor and must match: its chain takes the op's layout (a
 * vector's is one row either way). */
static void vector_layouts(npuc_tx8_group_plan *p, const npuc_tx8_group_op *o) {
  if (!is_cgra(o) || o->slice.result.rank <= 1)
    return;
  npuc_tx8_layout_mode want = p->buffers[o->result].mode;
  for (int k = 0; k < o->slice.num_operands; ++k) {
    if (p->buffers[o->operand_buffer[k]].shape.rank != 1)
      continue;
    for (int c = o->operand_buffer[k]; c >= 0;
         c = p->buffers[c].kind == NPUC_TX8_BUF_NORM ||
                     p->buffers[c].kind == NPUC_TX8_BUF_EXTRACT
                 ? p->buffers[c].source
                 : -1)
      p->buffers[c].mode = want;
  }
}

/* The CGRA ops compute in one layout: every full-size operand must be in
 * the result's. */
static bool check_cgra_layouts(const npuc_tx8_group_plan *p,
                               const npuc_tx8_group_op *o) {
  if (!is_cgra(o))
    return true;
  npuc_tx8_layout_mode want = p->buffers[o->result].mode;
  for (int k = 0; k < o->slice.num_operands; ++k) {
    const npuc_tx8_buffer *x = &p->buffers[o->operand_buffer[k]];
    if ((x->shape.rank == 1 && o->slice.result.rank > 1) || x->mode == want)
      continue;
    npuc_op_error(o->op,
                  "%s: layout conflict: operand #%d is %s (%s) "
                  "but the op computes in %s (a "
                  "tx8be.channel_norm must convert it)",
                  o->name, k,
                  npuc_tx8_is_aligned(x->mode) ? "aligned" : "compact",
                  npuc_tx8_layout_name(x->mode), npuc_tx8_layout_name(want));
    return false;
  }
  return true;
}

/* ---- dtypes
 * ------------------------------------------------------------------------- */

static bool check_op_dtypes(const npuc_tx8_group_plan *p,
                            const npuc_tx8_group_op *o) {
  const npuc_tx8_slice_op *s = &o->slice;
  npuc_tx8_dtype out = p->buffers[o->result].dtype;
  const char *name = o->name;
  /* tx8be.cast converts between float types (issue 19, the ONNX front
   * end): its operand and result differ by design. */
  if (!strcmp(name, "tx8be.cast") && s->num_operands == 1) {
    npuc_tx8_dtype in = p->buffers[o->operand_buffer[0]].dtype;
    if (in == NPUC_TX8_I8 || out == NPUC_TX8_I8)
      npuc_op_error(o->op,
                    "%s: unsupported dtype: i8 (cast converts f32, "
                    "f16 and bf16)",
                    name);
    return in != NPUC_TX8_I8 && out != NPUC_TX8_I8;
  }
  for (int i = 0; i < s->num_operands; ++i) {
    npuc_tx8_dtype dt = p->buffers[o->operand_buffer[i]].dtype;
    bool vector_of_bn = s->kind == NPUC_TX8_KIND_BATCHNORM && i > 0;
    bool bias = i == 2 && (s->kind == NPUC_TX8_KIND_GEMM ||
                           s->kind == NPUC_TX8_KIND_CONV);
    if (vector_of_bn ? dt == NPUC_TX8_I8 : (!bias && dt != out)) {
      npuc_op_error(o->op,
                    "%s: unsupported dtype: operand #%d is %s, "
                    "the result %s",
                    name, i, npuc_tx8_dtype_name(dt), npuc_tx8_dtype_name(out));
      return false;
    }
  }
  bool int8_ok = s->kind == NPUC_TX8_KIND_GEMM ||
                 s->kind == NPUC_TX8_KIND_CONV || !strcmp(name, "tx8be.add") ||
                 !strcmp(name, "tx8be.sub") || !strcmp(name, "tx8be.mul") ||
                 !strcmp(name, "tx8be.relu") || !strcmp(name, "tx8be.abs") ||
                 npuc_tx8_op_takes_i8(s, name);
  if (out == NPUC_TX8_I8 && !int8_ok) {
    npuc_op_error(o->op,
                  "%s: unsupported dtype: i8 (the op library has "
                  "i8 gemm, conv, add, sub, mul, relu, abs, clip, "
                  "reduce_max, reduce_min, max_pool, transpose, "
                  "broadcast, concat and slice)",
                  name);
    return false;
  }
  return true;
}

static bool check_dtypes(builder *b) {
  for (int k = 0; k < b->p->num_ops; ++k)
    if (!check_op_dtypes(b->p, &b->p->ops[k]))
      return false;
  return true;
}

/* ---- split axes and lifetimes
 * ------------------------------------------------------ */

/* An anchor dimension splits when every op allows splitting each result
 * dimension that follows it (batchnorm's C, gemm's N in time, conv's W
 * and C stay whole, and so does the anchor dimension they follow). */
static void assign_axes(npuc_tx8_group_plan *p) {
  p->shard_axes = p->split_axes = (1u << p->out.rank) - 1;
  for (int k = 0; k < p->num_ops; ++k) {
    const npuc_tx8_group_op *o = &p->ops[k];
    const npuc_tx8_buffer *r = &p->buffers[o->result];
    uint32_t shard = npuc_tx8_shard_axes(&o->slice);
    uint32_t split = npuc_tx8_split_axes(&o->slice);
    for (int d = 0; d < r->shape.rank; ++d) {
      int a = r->windows[d].out_dim;
      if (a < 0)
        continue;
      if (!(shard & (1u << d)))
        p->shard_axes &= ~(1u << a);
      if (!(split & (1u << d)))
        p->split_axes &= ~(1u << a);
    }
  }
}

static bool all_whole(const npuc_tx8_buffer *x) {
  for (int d = 0; d < x->shape.rank; ++d)
    if (x->windows[d].out_dim >= 0)
      return false;
  return true;
}

/* Loads and conversions of what every slice reads whole happen once. */
static void assign_invariants(npuc_tx8_group_plan *p) {
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind != NPUC_TX8_STEP_LOAD && st->kind != NPUC_TX8_STEP_NORM &&
        st->kind != NPUC_TX8_STEP_EXTRACT)
      continue;
    npuc_tx8_buffer *x = &p->buffers[st->index];
    x->invariant = all_whole(x) && (st->kind == NPUC_TX8_STEP_LOAD ||
                                    p->buffers[x->source].invariant);
  }
}

static void read_at(npuc_tx8_group_plan *p, int buf, int step) {
  if (p->buffers[buf].last_step < step)
    p->buffers[buf].last_step = step;
}

/* A load whose only reader is a channel_norm of the same windows loads
 * straight into the norm's layout: the norm's buffer is written at the
 * load's step. */
static void fuse_load_norms(npuc_tx8_group_plan *p) {
  int readers[NPUC_TX8_MAX_BUFFERS] = {0}, norm_of[NPUC_TX8_MAX_BUFFERS];
  for (int k = 0; k < p->num_ops; ++k)
    for (int i = 0; i < p->ops[k].slice.num_operands; ++i)
      readers[p->ops[k].operand_buffer[i]]++;
  for (int s = 0; s < p->num_stores; ++s)
    readers[p->stores[s].buffer]++;
  for (int i = 0; i < p->num_buffers; ++i) {
    norm_of[i] = -1;
    const npuc_tx8_buffer *b = &p->buffers[i];
    if (b->kind == NPUC_TX8_BUF_NORM || b->kind == NPUC_TX8_BUF_EXTRACT)
      readers[b->source]++;
    if (b->kind == NPUC_TX8_BUF_NORM)
      norm_of[b->source] = i;
  }
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_buffer *b = &p->buffers[i];
    int n = norm_of[i];
    if (b->kind != NPUC_TX8_BUF_LOAD || readers[i] != 1 || n < 0 ||
        !same_windows(b->windows, p->buffers[n].windows, b->shape.rank))
      continue;
    b->load_into = n;
    p->buffers[n].first_step = b->first_step;
  }
}

/* first_step: the step writing the buffer; last_step: the last reading it.
 * A mem_inplace op's result may take its operand 0's bytes when that dies
 * at the op and has the result's size and layout. */
static void assign_lifetimes(npuc_tx8_group_plan *p) {
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_STORE) {
      read_at(p, p->stores[st->index].buffer, i);
      continue;
    }
    if (st->kind != NPUC_TX8_STEP_COMPUTE) {
      p->buffers[st->index].first_step = p->buffers[st->index].last_step = i;
      if (st->kind != NPUC_TX8_STEP_LOAD)
        read_at(p, p->buffers[st->index].source, i);
      continue;
    }
    const npuc_tx8_group_op *o = &p->ops[st->index];
    p->buffers[o->result].first_step = p->buffers[o->result].last_step = i;
    for (int k = 0; k < o->slice.num_operands; ++k)
      read_at(p, o->operand_buffer[k], i);
  }
  assign_invariants(p);
  fuse_load_norms(p);
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].invariant) {
      p->buffers[i].first_step = 0;
      p->buffers[i].last_step = p->num_steps - 1;
    }
  for (int k = 0; k < p->num_ops; ++k) {
    const npuc_tx8_group_op *o = &p->ops[k];
    npuc_tx8_buffer *r = &p->buffers[o->result];
    if (!o->slice.num_operands || !npuc_tx8_query_op(o->op).mem_inplace)
      continue;
    const npuc_tx8_buffer *in = &p->buffers[o->operand_buffer[0]];
    if (in->last_step == r->first_step && in->mode == r->mode &&
        in->dtype == r->dtype && npuc_tx8_shape_equal(&in->shape, &r->shape) &&
        same_windows(in->windows, r->windows, r->shape.rank))
      r->inplace_of = o->operand_buffer[0];
  }
}

/* ---- SPM
 * -----------------------------------------------------------------------------
 */

/* Byte counts saturate at INT64_MAX, which no SPM holds (the layouts do
 * the same, npuc_tx8_layout_of). */
static int64_t align_batch(int64_t bytes) {
  int64_t r;
  return npuc_checked_align_up(bytes, NPUC_TX8_BATCH_ALIGN_BYTES, &r)
             ? r
             : INT64_MAX;
}

static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return npuc_checked_add(a, b, &r) ? r : INT64_MAX;
}

/* Buffer `i`'s layout at its largest for anchor slices of `out_slice`. */
static npuc_tx8_layout buffer_layout(const npuc_tx8_group_plan *p, int i,
                                     const int32_t *out_slice) {
  const npuc_tx8_buffer *x = &p->buffers[i];
  int32_t whole[NPUC_TX8_MAX_RANK], max[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK + 1]; /* and the K slice (reduce split) */
  memcpy(slice, out_slice, (size_t)p->out.rank * sizeof *slice);
  slice[p->out.rank] = p->reduce_op >= 0 ? p->reduce_slice : 1;
  for (int d = 0; d < x->shape.rank; ++d)
    whole[d] = (int32_t)x->shape.dims[d];
  npuc_tx8_window_max(x->windows, whole, x->shape.rank, slice, max);
  return npuc_tx8_layout_of(
      npuc_tx8_dims_of_shape32(max, x->shape.rank, x->mode), x->dtype, x->mode);
}

int64_t npuc_tx8_group_buffer_bytes(const npuc_tx8_group_plan *p, int i,
                                    const int32_t *out_slice) {
  if (p->buffers[i].load_into >= 0)
    return 0; /* loaded straight into its channel_norm's buffer */
  return align_batch(buffer_layout(p, i, out_slice).total_bytes);
}

int64_t npuc_tx8_group_spm_bytes(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets) {
  int64_t total = 0, scratch = 0;
  for (int i = 0; i < p->num_buffers; ++i) {
    if (offsets)
      offsets[i] = total;
    total = sat_add(total, npuc_tx8_group_buffer_bytes(p, i, out_slice));
  }
  for (int k = 0; k < p->num_ops; ++k) {
    const npuc_tx8_group_op *o = &p->ops[k];
    if (o->slice.kind != NPUC_TX8_KIND_BATCHNORM)
      continue;
    npuc_tx8_layout in = buffer_layout(p, o->operand_buffer[0], out_slice);
    int64_t imm = align_batch(npuc_tx8_batchnorm_imm_size(in.dims, in.mode));
    if (imm > scratch)
      scratch = imm;
  }
  if (offsets)
    offsets[p->num_buffers] = total;
  return sat_add(total, scratch);
}

/* The allocator's offsets (tx8-spm-alloc), read back so that the code
 * generator places every buffer where the pass decided; the sizes are
 * the bump placement's steps. */
int npuc_tx8_buffer_addr_slot(const npuc_tx8_group_plan *p, int i) {
  int slot = 0;
  for (int j = 0; j < i; ++j)
    slot += mlirOperationEqual(p->buffers[j].op, p->buffers[i].op);
  return slot;
}

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
    int slot = i < p->num_buffers ? npuc_tx8_buffer_addr_slot(p, i) : 0;
    if (st == NPUC_TX8_ATTR_ABSENT ||
        (i < p->num_buffers && dev.mem_addr.len <= slot))
      break; /* not allocated: the bump placement */
    placed[i] = i < p->num_buffers ? dev.mem_addr.v[slot] : dev.imm_addr;
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

/* ---- residents
 * ----------------------------------------------------------------------- */

bool npuc_tx8_buffer_resident(const npuc_tx8_group_plan *p, int i,
                              const int32_t *sharding, const int32_t *slice) {
  const npuc_tx8_buffer *x = &p->buffers[i];
  if (x->invariant)
    return true;
  int64_t slices = 1; /* a tile's: one slice gains nothing */
  for (int a = 0; a < p->out.rank && slices == 1; ++a)
    slices =
        (p->out.dims[a] + sharding[a] - 1) / sharding[a] > slice[a] ? 2 : 1;
  if (slices == 1 || x->kind == NPUC_TX8_BUF_RESULT ||
      x->kind == NPUC_TX8_BUF_PSUM || /* computed, no source */
      (x->kind != NPUC_TX8_BUF_LOAD &&
       !npuc_tx8_buffer_resident(p, x->source, sharding, slice)))
    return false;
  for (int d = 0; d < x->shape.rank; ++d) {
    int a = x->windows[d].out_dim;
    if (a < 0)
      continue;
    if (a >= p->out.rank)
      return false; /* a K slice */
    int64_t part = (p->out.dims[a] + sharding[a] - 1) / sharding[a];
    if (slice[a] < part)
      return false;
  }
  return true;
}

int32_t npuc_tx8_buffer_shared(const npuc_tx8_group_plan *p, int i,
                               const int32_t *sharding, const int32_t *slice,
                               int32_t *stride) {
  const npuc_tx8_buffer *x = &p->buffers[i];
  *stride = 1;
  if (x->kind != NPUC_TX8_BUF_LOAD)
    return 0;
  bool followed[NPUC_TX8_MAX_RANK] = {false}, even = true;
  for (int d = 0; d < x->shape.rank; ++d) {
    int a = x->windows[d].out_dim;
    if (a >= 0 && a < p->out.rank)
      followed[a] = true;
  }
  /* The sharded dimensions it does not follow: one run among the sharded
   * ones (first .. last), else their tiles are not evenly spaced. */
  int first = -1, last = -1;
  int32_t members = 1, after = 1;
  for (int a = 0; a < p->out.rank; ++a) {
    if (sharding[a] <= 1)
      continue;
    even = even && p->out.dims[a] % sharding[a] == 0;
    if (followed[a]) {
      if (last >= 0)
        after *= sharding[a]; /* past the run, or a gap in it */
      continue;
    }
    if (last >= 0 && after > 1)
      return 0; /* a followed dimension between two that are not */
    first = first < 0 ? a : first;
    last = a;
    members *= sharding[a];
  }
  if (first < 0)
    return 0;
  /* Filled once (from the tile's first slice): the same on every member.
   * Per slice: slice k must be the same slice on every member. */
  if (!even && !npuc_tx8_buffer_resident(p, i, sharding, slice))
    return 0;
  *stride = after;
  return members;
}

/* Whether buffer i is read whole by every slice of every tile under the
 * decision though its windows follow output dimensions: each dimension it
 * follows is neither sharded nor split (a conv's weight, whose O rows
 * follow the output channels, when the channels stay whole). Then it is
 * invariant as a weight read whole is: loaded once, shared by the tiles
 * (the code generator takes its windows from the first slice). */
static bool whole_under(const npuc_tx8_group_plan *p, int i,
                        const int32_t *sharding, const int32_t *slice) {
  const npuc_tx8_buffer *x = &p->buffers[i];
  if (x->kind != NPUC_TX8_BUF_LOAD &&
      (x->kind == NPUC_TX8_BUF_RESULT || x->kind == NPUC_TX8_BUF_PSUM ||
       !p->buffers[x->source].invariant))
    return false;
  for (int d = 0; d < x->shape.rank; ++d) {
    int a = x->windows[d].out_dim;
    if (a < 0)
      continue;
    if (a >= p->out.rank || sharding[a] != 1 || slice[a] < p->out.dims[a])
      return false;
  }
  return true;
}

/* The decision tx8-sharding wrote on the anchor's op, if any: the
 * buffers it makes resident live over every step (filled before the
 * loop), and those it leaves whole in every slice invariant
 * (whole_under). False after a located error (a malformed attribute). */
static bool assign_residents(npuc_tx8_group_plan *p) {
  int64_t ways[NPUC_TX8_MAX_RANK], slices[NPUC_TX8_MAX_RANK];
  npuc_tx8_attr_status st = npuc_tx8_group_decision(p, ways, slices);
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  if (st != NPUC_TX8_ATTR_PRESENT)
    return true; /* not decided yet */
  int32_t sharding[NPUC_TX8_MAX_RANK], slice[NPUC_TX8_MAX_RANK];
  for (int d = 0; d < p->out.rank; ++d) {
    int64_t w = ways[d], s = slices[d];
    if (w < 1 || w > p->out.dims[d] || s < 1 || s > p->out.dims[d])
      return true; /* out of range: the code generator says so */
    sharding[d] = (int32_t)w;
    slice[d] = (int32_t)s;
  }
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_buffer *x = &p->buffers[i];
    if (!x->invariant && whole_under(p, i, sharding, slice))
      x->invariant = true; /* every slice reads it whole after all */
    else if (x->invariant || !npuc_tx8_buffer_resident(p, i, sharding, slice))
      continue;
    else
      x->resident = true;
    x->first_step = 0;
    x->last_step = p->num_steps - 1;
  }
  for (int i = 0; i < p->num_buffers; ++i) /* no longer dies at the op */
    if (p->buffers[i].inplace_of >= 0 &&
        p->buffers[p->buffers[i].inplace_of].resident)
      p->buffers[i].inplace_of = -1;
  return true;
}

npuc_tx8_attr_status npuc_tx8_group_decision(const npuc_tx8_group_plan *p,
                                             int64_t *sharding,
                                             int64_t *slice) {
  npuc_tx8_parallel_attr par;
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status sp =
      npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &par);
  npuc_tx8_attr_status sd = npuc_tx8_op_dev_attr(p->compute, &dev);
  if (sp == NPUC_TX8_ATTR_MALFORMED || sd == NPUC_TX8_ATTR_MALFORMED)
    return NPUC_TX8_ATTR_MALFORMED;
  int rank = p->out.rank;
  if (sp != NPUC_TX8_ATTR_PRESENT || sd != NPUC_TX8_ATTR_PRESENT ||
      par.shape_spatial_sharding.len != rank ||
      dev.temporal_mem_slice.len != rank)
    return NPUC_TX8_ATTR_ABSENT;
  for (int d = 0; d < rank; ++d) {
    sharding[d] = par.shape_spatial_sharding.v[d];
    slice[d] = dev.temporal_mem_slice.v[d];
  }
  return NPUC_TX8_ATTR_PRESENT;
}

/* ---- the reduce (K) split
 * ----------------------------------------------------------- */

static void count_readers(const npuc_tx8_group_plan *p, int *readers) {
  memset(readers, 0, (size_t)p->num_buffers * sizeof *readers);
  for (int k = 0; k < p->num_ops; ++k)
    for (int i = 0; i < p->ops[k].slice.num_operands; ++i)
      readers[p->ops[k].operand_buffer[i]]++;
  for (int s = 0; s < p->num_stores; ++s)
    readers[p->stores[s].buffer]++;
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].kind == NPUC_TX8_BUF_NORM ||
        p->buffers[i].kind == NPUC_TX8_BUF_EXTRACT)
      readers[p->buffers[i].source]++;
}

/* Buffer `i` and the ones filling it are loads and channel_norms read
 * by one reader each. */
static bool private_load_chain(const npuc_tx8_group_plan *p, const int *readers,
                               int i) {
  for (int depth = 0; depth < NPUC_TX8_MAX_BUFFERS; ++depth) {
    const npuc_tx8_buffer *x = &p->buffers[i];
    if (readers[i] != 1 || x->kind == NPUC_TX8_BUF_RESULT ||
        x->kind == NPUC_TX8_BUF_PSUM)
      return false;
    if (x->kind == NPUC_TX8_BUF_LOAD)
      return true;
    i = x->source;
  }
  return false;
}

/* The group's only NE op (gemm or conv), -1 when it has none or more. */
static int only_ne_op(const npuc_tx8_group_plan *p) {
  int ne = -1;
  for (int k = 0; k < p->num_ops; ++k) {
    npuc_tx8_op_kind kind = p->ops[k].slice.kind;
    if (kind != NPUC_TX8_KIND_GEMM && kind != NPUC_TX8_KIND_CONV)
      continue;
    if (ne >= 0)
      return -1;
    ne = k;
  }
  return ne;
}

/* A gemm not batched nor transpose_a; a conv not grouped (its input
 * channels are every output channel's K). */
static bool reducible_shape(const npuc_tx8_slice_op *s) {
  if (s->kind == NPUC_TX8_KIND_CONV)
    return s->groups <= 1 && s->operands[0].rank == 4 &&
           s->operands[1].rank == 4;
  return !s->transpose_a && s->operands[1].rank == 2;
}

int npuc_tx8_group_reduce_candidate(const npuc_tx8_group_plan *p) {
  int ne = only_ne_op(p);
  if (ne < 0)
    return -1;
  const npuc_tx8_group_op *o = &p->ops[ne];
  const npuc_tx8_slice_op *s = &o->slice;
  if (!reducible_shape(s) || p->out.rank >= NPUC_TX8_MAX_RANK ||
      s->operands[0].dims[s->operands[0].rank - 1] < 2 ||
      o->operand_buffer[0] == o->operand_buffer[1])
    return -1;
  int readers[NPUC_TX8_MAX_BUFFERS];
  count_readers(p, readers);
  return private_load_chain(p, readers, o->operand_buffer[0]) &&
                 private_load_chain(p, readers, o->operand_buffer[1])
             ? ne
             : -1;
}

int npuc_tx8_reduce_dim(const npuc_tx8_slice_op *s, int operand) {
  if (operand == 0 || s->kind == NPUC_TX8_KIND_CONV)
    return s->operands[operand].rank - 1; /* a's K; NHWC's C; HWOI's I */
  return s->transpose_b ? 1 : 0;
}

bool npuc_tx8_buffer_in_reduce(const npuc_tx8_group_plan *p, int i) {
  if (p->reduce_op < 0)
    return false;
  for (int d = 0; d < p->buffers[i].shape.rank; ++d)
    if (p->buffers[i].windows[d].out_dim == p->out.rank)
      return true;
  return false;
}

/* The gemm's reduce_split (i64), checked against what the plan allows. */
static bool reduce_split_attr(npuc_tx8_group_plan *p, int *op, int32_t *k) {
  *op = -1;
  for (int i = 0; i < p->num_ops; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        p->ops[i].op, mlirStringRefCreateFromCString("reduce_split"));
    if (mlirAttributeIsNull(a))
      continue;
    if (!mlirAttributeIsAInteger(a) ||
        npuc_tx8_group_reduce_candidate(p) != i) {
      npuc_op_error(p->ops[i].op,
                    "%s: reduce_split must be an integer on the group's only "
                    "gemm or conv (a gemm not batched nor transpose_a, a "
                    "conv not grouped) whose operands 0 and 1 are loads "
                    "read by it alone",
                    p->ops[i].name);
      return false;
    }
    int64_t v = mlirIntegerAttrGetValueInt(a);
    *op = i;
    *k = v < 1 || v > INT32_MAX ? 0 : (int32_t)v;
  }
  return true;
}

/* Its operand `j`'s chain (loads, channel_norms) reads K along buffer
 * dimension `dim` by the virtual anchor dimension out.rank. */
static void window_k(npuc_tx8_group_plan *p, int i, int dim) {
  npuc_tx8_window k = {p->out.rank, 1, 0, 1};
  for (int depth = 0; depth < NPUC_TX8_MAX_BUFFERS; ++depth) {
    p->buffers[i].windows[dim] = k;
    if (p->buffers[i].kind == NPUC_TX8_BUF_LOAD)
      return;
    i = p->buffers[i].source;
  }
}

static bool k_step(const npuc_tx8_group_plan *p, const npuc_tx8_step *st) {
  return st->kind != NPUC_TX8_STEP_COMPUTE && st->kind != NPUC_TX8_STEP_STORE &&
         npuc_tx8_buffer_in_reduce(p, st->index);
}

/* The steps before the gemm that fill its K slices move next to it (the
 * K loop's body); the others keep their order before them. */
static void reorder_k_steps(npuc_tx8_group_plan *p) {
  int at = 0;
  while (at < p->num_steps && !(p->steps[at].kind == NPUC_TX8_STEP_COMPUTE &&
                                p->steps[at].index == p->reduce_op))
    ++at;
  npuc_tx8_step moved[NPUC_TX8_MAX_STEPS];
  int n = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < at; ++i)
      if (k_step(p, &p->steps[i]) == (pass == 1))
        moved[n++] = p->steps[i];
  memcpy(p->steps, moved, (size_t)n * sizeof *moved);
}

static bool apply_reduce(npuc_tx8_group_plan *p, int op, int32_t k) {
  const npuc_tx8_group_op *o = &p->ops[op];
  const npuc_tx8_slice_op *s = &o->slice;
  int64_t len = s->operands[0].dims[s->operands[0].rank - 1];
  if (npuc_tx8_group_reduce_candidate(p) != op || k < 1 || k >= len ||
      p->num_buffers >= NPUC_TX8_MAX_BUFFERS) {
    npuc_op_error(o->op,
                  "%s: reduce_split %d is not a K slice in [1, %lld) of a "
                  "gemm or conv the group can split",
                  o->name, (int)k, (long long)len);
    return false;
  }
  p->reduce_op = op;
  p->reduce_len = (int32_t)len;
  p->reduce_slice = k;
  window_k(p, o->operand_buffer[0], npuc_tx8_reduce_dim(s, 0));
  window_k(p, o->operand_buffer[1], npuc_tx8_reduce_dim(s, 1));
  const npuc_tx8_buffer *r = &p->buffers[o->result];
  npuc_tx8_buffer *ps = &p->buffers[p->num_buffers];
  *ps = *r;
  ps->kind = NPUC_TX8_BUF_PSUM;
  ps->value = (MlirValue){NULL};
  ps->dtype = NPUC_TX8_F32;
  ps->mode = is_batched(r->mode) ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
  ps->source = ps->inplace_of = ps->load_into = -1;
  ps->invariant = ps->resident = false;
  p->psum = p->num_buffers++;
  reorder_k_steps(p);
  return true;
}

int32_t npuc_tx8_reduce_part(const npuc_tx8_group_plan *p) {
  int32_t ways = p->reduce_ways > 1 ? p->reduce_ways : 1;
  return (int32_t)(((int64_t)p->reduce_len + ways - 1) / ways);
}

int32_t npuc_tx8_reduce_slices(const npuc_tx8_group_plan *p) {
  if (p->reduce_op < 0 || p->reduce_slice < 1)
    return 1;
  int32_t part = npuc_tx8_reduce_part(p);
  return (part + p->reduce_slice - 1) / p->reduce_slice;
}

/* The gemm's reduce_sharding (i64, K ways across tiles): with its
 * reduce_split, at least 2 ways, each tile's part of K holding at least
 * one K slice and the last tile's part not empty. */
static bool reduce_sharding_attr(npuc_tx8_group_plan *p) {
  for (int i = 0; i < p->num_ops; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        p->ops[i].op, mlirStringRefCreateFromCString("reduce_sharding"));
    if (mlirAttributeIsNull(a))
      continue;
    int64_t v = mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : 0;
    const npuc_tx8_shape *x = &p->ops[i].slice.operands[0];
    int64_t len = x->rank > 0 ? x->dims[x->rank - 1] : 0;
    int64_t part = v > 0 ? (len + v - 1) / v : 0;
    if (p->reduce_op != i || v < 2 || v > len || (v - 1) * part >= len ||
        p->reduce_slice > part) {
      npuc_op_error(p->ops[i].op,
                    "%s: reduce_sharding %lld cannot split K (%lld) across "
                    "tiles: it needs the %s's reduce_split (a K slice of "
                    "at most each tile's part) and 2 to %lld ways, each "
                    "tile's part not empty",
                    p->ops[i].name, (long long)v, (long long)len,
                    p->ops[i].slice.kind == NPUC_TX8_KIND_CONV ? "conv"
                                                               : "gemm",
                    (long long)(len > 1 ? len : 2));
      return false;
    }
    p->reduce_ways = (int32_t)v;
  }
  return true;
}
