/* The slice rules of the compute ops (the seed's ShardingInterface:
 * tileShardingSplit says how the output may be split, backWindow what an
 * output slice reads). One rule per op family; npuc/TX8.h documents the
 * contract, Tx8Runtime.h the window arithmetic. */
#include "npuc/Checked.h"
#include "npuc/TX8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool check_unary(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_binary(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_batchnorm(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_gemm(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_conv(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_reduce(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_softmax(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_layernorm(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_transpose(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_broadcast(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_concat(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_slice(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_pool(const npuc_tx8_slice_op *op, char *err, size_t cap);

static const npuc_tx8_op_def op_defs[] = {
#define TX8_UNARY(op, ENUM, PASSES)                                            \
  {"tx8be." #op, NPUC_TX8_KIND_UNARY, "NPUC_TX8_" #ENUM},
#define TX8_BINARY(op, ENUM, PASSES)                                           \
  {"tx8be." #op, NPUC_TX8_KIND_BINARY, "NPUC_TX8_" #ENUM},
#define TX8_REDUCE(op, ENUM, PASSES)                                           \
  {"tx8be." #op, NPUC_TX8_KIND_REDUCE, "NPUC_TX8_" #ENUM},
#define TX8_OP(op, KIND) {"tx8be." #op, NPUC_TX8_KIND_##KIND, NULL},
#include "npuc/Tx8Ops.def"
};

const npuc_tx8_op_def *npuc_tx8_op_def_of(const char *name) {
  for (size_t i = 0; i < sizeof op_defs / sizeof op_defs[0]; ++i)
    if (strcmp(op_defs[i].name, name) == 0)
      return &op_defs[i];
  return NULL;
}

bool npuc_tx8_op_kind_of(const char *name, npuc_tx8_op_kind *kind) {
  const npuc_tx8_op_def *def = npuc_tx8_op_def_of(name);
  if (def)
    *kind = def->kind;
  return def != NULL;
}

bool npuc_tx8_slice_check(const npuc_tx8_slice_op *op, char *err,
                          size_t err_cap) {
  int r = op->result.rank;
  if (r < 1 || r > NPUC_TX8_MAX_SHAPE_DIM) {
    snprintf(err, err_cap, "the result has rank %d (1 to %d supported)", r,
             NPUC_TX8_MAX_SHAPE_DIM);
    return false;
  }
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY: return check_unary(op, err, err_cap);
  case NPUC_TX8_KIND_BINARY: return check_binary(op, err, err_cap);
  case NPUC_TX8_KIND_BATCHNORM: return check_batchnorm(op, err, err_cap);
  case NPUC_TX8_KIND_GEMM: return check_gemm(op, err, err_cap);
  case NPUC_TX8_KIND_CONV: return check_conv(op, err, err_cap);
  case NPUC_TX8_KIND_CLIP: return check_unary(op, err, err_cap);
  case NPUC_TX8_KIND_REDUCE: return check_reduce(op, err, err_cap);
  case NPUC_TX8_KIND_SOFTMAX: return check_softmax(op, err, err_cap);
  case NPUC_TX8_KIND_LAYERNORM: return check_layernorm(op, err, err_cap);
  case NPUC_TX8_KIND_TRANSPOSE: return check_transpose(op, err, err_cap);
  case NPUC_TX8_KIND_BROADCAST: return check_broadcast(op, err, err_cap);
  case NPUC_TX8_KIND_CONCAT: return check_concat(op, err, err_cap);
  case NPUC_TX8_KIND_SLICE: return check_slice(op, err, err_cap);
  case NPUC_TX8_KIND_POOL: return check_pool(op, err, err_cap);
  }
  return false;
}

/* ---- which dimensions split
 * ------------------------------------------------------ */

static uint32_t all_axes(int rank) { return (1u << rank) - 1; }

/* The ops networks use (issue 17) split the same across tiles and in
 * time: every axis but the ones a slice needs whole (reduced axes,
 * softmax's axis, layernorm's last, concat's axis). */
static uint32_t whole_axis_rule(const npuc_tx8_slice_op *op) {
  int r = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_REDUCE:
  case NPUC_TX8_KIND_SOFTMAX:
  case NPUC_TX8_KIND_CONCAT: return all_axes(r) & ~op->axes;
  case NPUC_TX8_KIND_LAYERNORM: return all_axes(r) & ~(1u << (r - 1));
  default: return all_axes(r); /* clip, transpose, broadcast, slice, pool */
  }
}

/* A conv's output channels split (across tiles and in time) when each
 * reads its own weights and inputs: a plain conv (every input channel,
 * its O rows of the HWOI weight) or a depthwise one (its own channel). A
 * grouped conv in between keeps C whole. */
static bool conv_channels_split(const npuc_tx8_slice_op *op) {
  return op->groups <= 1 || npuc_tx8_conv_is_depthwise(op);
}

bool npuc_tx8_conv_is_depthwise(const npuc_tx8_slice_op *op) {
  return op->kind == NPUC_TX8_KIND_CONV && op->groups > 1 &&
         op->operands[0].rank == 4 && op->result.rank == 4 &&
         op->groups == op->operands[0].dims[3] &&
         op->groups == op->result.dims[3];
}

static uint32_t conv_axes(const npuc_tx8_slice_op *op, uint32_t spatial) {
  return spatial | (conv_channels_split(op) ? 1u << 3 : 0u);
}

uint32_t npuc_tx8_shard_axes(const npuc_tx8_slice_op *op) {
  int r = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY:
  case NPUC_TX8_KIND_BINARY: return all_axes(r);
  case NPUC_TX8_KIND_BATCHNORM: return all_axes(r); /* per channel: any */
  case NPUC_TX8_KIND_GEMM: return all_axes(r);      /* the rows and N */
  case NPUC_TX8_KIND_CONV: /* N, H, W, and C (conv_channels_split) */
    return conv_axes(op, 1u << 0 | 1u << 1 | 1u << 2);
  default: return whole_axis_rule(op);
  }
}

uint32_t npuc_tx8_split_axes(const npuc_tx8_slice_op *op) {
  int r = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY:
  case NPUC_TX8_KIND_BINARY: return all_axes(r);
  case NPUC_TX8_KIND_BATCHNORM: return all_axes(r) & ~(1u << (r - 1));
  case NPUC_TX8_KIND_GEMM: return all_axes(r); /* N too: weights in parts */
  case NPUC_TX8_KIND_CONV: return conv_axes(op, 1u << 0 | 1u << 1);
  default: return whole_axis_rule(op);
  }
}

/* ---- windows
 * ------------------------------------------------------------------------ */

static npuc_tx8_window same(int out_dim) {
  npuc_tx8_window w = {out_dim, 1, 0, 1};
  return w;
}

static npuc_tx8_window whole(void) {
  npuc_tx8_window w = {-1, 1, 0, 1};
  return w;
}

static void gemm_windows(const npuc_tx8_slice_op *op, int i,
                         npuc_tx8_window *w);
static void conv_windows(const npuc_tx8_slice_op *op, int i,
                         npuc_tx8_window *w);
static void reduce_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w);
static void transpose_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w);
static void broadcast_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w);
static void slice_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w);
static void pool_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w);

void npuc_tx8_operand_windows(const npuc_tx8_slice_op *op, int i,
                              npuc_tx8_window *w) {
  int rank = op->operands[i].rank, out_rank = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY:
  case NPUC_TX8_KIND_BINARY:
  case NPUC_TX8_KIND_BATCHNORM:
    /* Same shape as the output, or a [C] vector along its last dim. */
    for (int d = 0; d < rank; ++d)
      w[d] = same(out_rank - rank + d);
    return;
  case NPUC_TX8_KIND_GEMM: gemm_windows(op, i, w); return;
  case NPUC_TX8_KIND_CONV: conv_windows(op, i, w); return;
  case NPUC_TX8_KIND_CLIP:
  case NPUC_TX8_KIND_SOFTMAX: /* the axis is never split: same is whole */
  case NPUC_TX8_KIND_LAYERNORM:
    for (int d = 0; d < rank; ++d)
      w[d] = same(out_rank - rank + d);
    return;
  case NPUC_TX8_KIND_REDUCE: reduce_windows(op, w); return;
  case NPUC_TX8_KIND_TRANSPOSE: transpose_windows(op, w); return;
  case NPUC_TX8_KIND_BROADCAST: broadcast_windows(op, w); return;
  case NPUC_TX8_KIND_CONCAT: /* the axis is never split: whole there */
    for (int d = 0; d < rank; ++d)
      w[d] = (op->axes >> d & 1) ? whole() : same(d);
    return;
  case NPUC_TX8_KIND_SLICE: slice_windows(op, w); return;
  case NPUC_TX8_KIND_POOL: pool_windows(op, w); return;
  }
}

/* a: [...,] M x K (every dimension before K is a row of the product,
 * transposed: [batch,] K x M); b: K x N (N x K); bias: [N]. */
static void gemm_windows(const npuc_tx8_slice_op *op, int i,
                         npuc_tx8_window *w) {
  int r = op->result.rank, n = r - 1;
  if (i == 0) {
    for (int d = 0; d < r - 2; ++d)
      w[d] = same(d);
    w[r - 2] = op->transpose_a ? whole() : same(r - 2);
    w[r - 1] = op->transpose_a ? same(r - 2) : whole();
  } else if (i == 1) {
    /* A batched b ([..., K, N]): its leading dimensions are the output's. */
    int lead = op->operands[1].rank - 2;
    for (int d = 0; d < lead; ++d)
      w[d] = same(d);
    w[lead] = op->transpose_b ? same(n) : whole();
    w[lead + 1] = op->transpose_b ? whole() : same(n);
  } else {
    w[0] = same(n);
  }
}

/* input: N, the rows and columns each output pixel's kernel covers, all
 * channels (a depthwise conv's: its own); the HWOI weight's O rows and
 * the bias of the output's channels where they split
 * (conv_channels_split), whole otherwise. */
static void conv_windows(const npuc_tx8_slice_op *op, int i,
                         npuc_tx8_window *w) {
  bool by_channel = conv_channels_split(op);
  if (i != 0) {
    for (int d = 0; d < op->operands[i].rank; ++d)
      w[d] = whole();
    int o_dim = i == 1 ? 2 : 0; /* HWOI's O; the bias [O] */
    if (by_channel && o_dim < op->operands[i].rank)
      w[o_dim] = same(3);
    return;
  }
  const npuc_tx8_shape *weight = &op->operands[1];
  w[0] = same(0);
  for (int d = 0; d < 2; ++d) {
    npuc_tx8_window k = {
        1 + d, (int32_t)op->strides[d], (int32_t)-op->pads[2 * d],
        (int32_t)((weight->dims[d] - 1) * op->dilations[d] + 1)};
    w[1 + d] = k;
  }
  w[3] = npuc_tx8_conv_is_depthwise(op) ? same(3) : whole();
}

/* A reduced dimension is 1 in the output: its slice reads the whole input
 * dimension; the others read what they write. */
static void reduce_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w) {
  for (int d = 0; d < op->operands[0].rank; ++d)
    w[d] = (op->axes >> d & 1) ? whole() : same(d);
}

/* Input dimension perm[i] is output dimension i: the window of input
 * dimension j follows the output dimension that shows it. */
static void transpose_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w) {
  for (int i = 0; i < op->result.rank; ++i)
    w[op->perm[i]] = same(i);
}

/* Input dimension i is output dimension perm[i]: read as it is written,
 * or whole when it is 1 and repeats. */
static void broadcast_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w) {
  const npuc_tx8_shape *in = &op->operands[0];
  for (int i = 0; i < in->rank; ++i)
    w[i] = in->dims[i] == op->result.dims[op->perm[i]] ? same((int)op->perm[i])
                                                       : whole();
}

/* Output index s reads input index s * step + offset: the window of a
 * strided convolution with a one-element kernel. */
static void slice_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w) {
  for (int d = 0; d < op->result.rank; ++d) {
    npuc_tx8_window k = {d, (int32_t)op->steps[d], (int32_t)op->offsets[d], 1};
    w[d] = k;
  }
}

/* N and C as written; rows and columns: the kernel each output pixel
 * covers, as a convolution's (a halo). */
static void pool_windows(const npuc_tx8_slice_op *op, npuc_tx8_window *w) {
  w[0] = same(0);
  for (int d = 0; d < 2; ++d) {
    npuc_tx8_window k = {1 + d, (int32_t)op->strides[d],
                         (int32_t)-op->pads[2 * d], (int32_t)op->kernel[d]};
    w[1 + d] = k;
  }
  w[3] = same(3);
}

/* ---- shape checks
 * ------------------------------------------------------------------- */

static bool fail(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return false;
}

bool npuc_tx8_shape_equal(const npuc_tx8_shape *a, const npuc_tx8_shape *b) {
  if (a->rank != b->rank)
    return false;
  for (int d = 0; d < a->rank; ++d)
    if (a->dims[d] != b->dims[d])
      return false;
  return true;
}

static int64_t channels(const npuc_tx8_shape *s) {
  return s->rank ? s->dims[s->rank - 1] : 1;
}

static bool is_vector_of(const npuc_tx8_shape *s, int64_t c) {
  return s->rank == 1 && s->dims[0] == c;
}

/* The windows of the slice plan (npuc_tx8_window) hold strides, offsets
 * and kernel extents in 32 bits: a larger one is an error, not a
 * truncated window. */
static bool fits_window(int64_t v) { return v >= -INT32_MAX && v <= INT32_MAX; }

static bool check_unary(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  if (op->num_operands != 1 ||
      !npuc_tx8_shape_equal(&op->operands[0], &op->result))
    return fail(err, cap, "the operand and the result shapes differ");
  return true;
}

static bool check_binary(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  int64_t c = channels(&op->result);
  for (int i = 0; i < op->num_operands; ++i)
    if (!npuc_tx8_shape_equal(&op->operands[i], &op->result) &&
        !is_vector_of(&op->operands[i], c))
      return fail(err, cap,
                  "operand #%d must have the result's shape or be a [%lld] "
                  "vector (only a rank-1 operand broadcasts)",
                  i, (long long)c);
  return true;
}

static bool check_batchnorm(const npuc_tx8_slice_op *op, char *err,
                            size_t cap) {
  int64_t c = channels(&op->result);
  if (op->result.rank < 2)
    return fail(err, cap, "the input must have rank 2 or more");
  if (!npuc_tx8_shape_equal(&op->operands[0], &op->result))
    return fail(err, cap, "the input and the result shapes differ");
  for (int i = 1; i < op->num_operands; ++i)
    if (!is_vector_of(&op->operands[i], c))
      return fail(err, cap, "operand #%d must be a [%lld] vector", i,
                  (long long)c);
  return true;
}

/* [..., M, K] x [..., K, N]: the same leading dimensions. */
static bool batched_gemm_ok(const npuc_tx8_slice_op *op) {
  const npuc_tx8_shape *a = &op->operands[0], *b = &op->operands[1];
  if (op->transpose_a || a->rank != b->rank || a->rank != op->result.rank)
    return false;
  for (int d = 0; d < a->rank - 2; ++d)
    if (a->dims[d] != b->dims[d])
      return false;
  return true;
}

static bool check_gemm(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *a = &op->operands[0], *b = &op->operands[1],
                       *o = &op->result;
  int r = o->rank;
  if (b->rank > 2 && !batched_gemm_ok(op))
    return fail(err, cap,
                "a batched gemm needs a and b of the result's rank with "
                "the same leading dimensions, no transpose_a");
  if (r < 2 || a->rank != r || (b->rank != 2 && b->rank != r) ||
      (op->transpose_a && r > 3))
    return fail(err, cap,
                "gemm needs an operand a of rank 2 or more (2 or 3 "
                "with transpose_a), a 2-D operand b (or one of a's rank: "
                "batched) and a result of a's rank");
  int64_t m = a->dims[r - (op->transpose_a ? 1 : 2)];
  int64_t k = a->dims[r - (op->transpose_a ? 2 : 1)];
  int64_t bk = b->dims[b->rank - (op->transpose_b ? 1 : 2)];
  int64_t bn = b->dims[b->rank - (op->transpose_b ? 2 : 1)];
  bool rows_match = o->dims[r - 2] == m;
  for (int d = 0; d < r - 2; ++d)
    rows_match = rows_match && o->dims[d] == a->dims[d];
  if (k != bk || !rows_match || o->dims[r - 1] != bn)
    return fail(err, cap, "the operand and result shapes do not match");
  if (op->num_operands == 3 && !is_vector_of(&op->operands[2], bn))
    return fail(err, cap, "the bias must be a [%lld] vector", (long long)bn);
  return true;
}

static bool check_conv(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *w = &op->operands[1],
                       *o = &op->result;
  if (in->rank != 4 || w->rank != 4 || o->rank != 4)
    return fail(err, cap, "conv needs 4-D NHWC input, HWOI weight and result");
  int64_t g = op->groups > 0 ? op->groups : 1, channels;
  if (in->dims[3] % g || o->dims[3] % g || w->dims[2] != o->dims[3] ||
      !npuc_checked_mul(w->dims[3], g, &channels) || channels != in->dims[3] ||
      o->dims[0] != in->dims[0])
    return fail(err, cap, "the operand and result shapes do not match");
  for (int d = 0; d < 2; ++d) {
    if (op->strides[d] <= 0 || op->dilations[d] <= 0 || op->pads[2 * d] < 0 ||
        op->pads[2 * d + 1] < 0)
      return fail(err, cap,
                  "strides and dilations must be positive and pads "
                  "not negative");
    /* (kernel - 1) * dilation + 1, checked: a huge dilation overflowed
     * here (UBSan). */
    int64_t extent;
    if (!npuc_checked_mul(w->dims[d] - 1, op->dilations[d], &extent) ||
        !npuc_checked_add(extent, 1, &extent) || !fits_window(extent) ||
        !fits_window(op->strides[d]) || !fits_window(op->pads[2 * d]))
      return fail(err, cap,
                  "dimension %d: the kernel extent ((%lld - 1) * dilation "
                  "%lld + 1), the stride %lld and the pad %lld must fit "
                  "in 32 bits",
                  1 + d, (long long)w->dims[d], (long long)op->dilations[d],
                  (long long)op->strides[d], (long long)op->pads[2 * d]);
    /* A wider pad gives output rows that read padding only. */
    if (op->pads[2 * d] >= extent || op->pads[2 * d + 1] >= extent)
      return fail(err, cap,
                  "pads must be smaller than the kernel's extent "
                  "(%lld)",
                  (long long)extent);
  }
  if (op->num_operands == 3 && !is_vector_of(&op->operands[2], o->dims[3]))
    return fail(err, cap, "the bias must be a [%lld] vector",
                (long long)o->dims[3]);
  npuc_tx8_infer_attrs attrs = {.strides = op->strides,
                                .pads = op->pads,
                                .dilations = op->dilations,
                                .group = g};
  npuc_tx8_shape inferred;
  if (!npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, op->operands, 2, &attrs,
                            &inferred, err, cap))
    return false;
  if (!npuc_tx8_shape_equal(&inferred, o))
    return fail(err, cap, "the result should be %lldx%lldx%lldx%lld",
                (long long)inferred.dims[0], (long long)inferred.dims[1],
                (long long)inferred.dims[2], (long long)inferred.dims[3]);
  return true;
}

/* keepdims: the result is the input with each reduced dimension 1. */
static bool check_reduce(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *o = &op->result;
  if (op->num_operands != 1 || in->rank != o->rank)
    return fail(err, cap, "the result must have the input's rank (keepdims)");
  if (op->axes == 0 || op->axes >> in->rank)
    return fail(err, cap, "axes must name dimensions below the rank %d",
                in->rank);
  for (int d = 0; d < in->rank; ++d)
    if (o->dims[d] != ((op->axes >> d & 1) ? 1 : in->dims[d]))
      return fail(err, cap,
                  "result dimension %d should be %lld (keepdims: "
                  "reduced dimensions are 1)",
                  d, (long long)((op->axes >> d & 1) ? 1 : in->dims[d]));
  return true;
}

static bool check_softmax(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  if (!check_unary(op, err, cap))
    return false;
  if (op->axes == 0 || (op->axes & (op->axes - 1)) ||
      op->axes >> op->result.rank)
    return fail(err, cap, "the axis must be one dimension below the rank %d",
                op->result.rank);
  return true;
}

static bool check_layernorm(const npuc_tx8_slice_op *op, char *err,
                            size_t cap) {
  int64_t c = channels(&op->result);
  if (op->num_operands != 3 ||
      !npuc_tx8_shape_equal(&op->operands[0], &op->result))
    return fail(err, cap, "the input and the result shapes differ");
  for (int i = 1; i < 3; ++i)
    if (!is_vector_of(&op->operands[i], c))
      return fail(err, cap, "operand #%d must be a [%lld] vector", i,
                  (long long)c);
  return true;
}

static bool check_transpose(const npuc_tx8_slice_op *op, char *err,
                            size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *o = &op->result;
  if (op->num_operands != 1 || in->rank != o->rank)
    return fail(err, cap, "the result must have the input's rank");
  uint32_t seen = 0;
  for (int i = 0; i < o->rank; ++i) {
    int64_t j = op->perm[i];
    if (j < 0 || j >= in->rank || (seen >> j & 1))
      return fail(err, cap, "the permutation is not one of 0..%d",
                  in->rank - 1);
    seen |= 1u << j;
    if (o->dims[i] != in->dims[j])
      return fail(err, cap, "result dimension %d should be %lld", i,
                  (long long)in->dims[j]);
  }
  return true;
}

static bool check_broadcast(const npuc_tx8_slice_op *op, char *err,
                            size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *o = &op->result;
  if (op->num_operands != 1 || in->rank > o->rank)
    return fail(err, cap,
                "the input must not have more dimensions than "
                "the result");
  uint32_t seen = 0;
  for (int i = 0; i < in->rank; ++i) {
    int64_t d = op->perm[i];
    if (d < 0 || d >= o->rank || (seen >> d & 1))
      return fail(err, cap, "dims must name distinct result dimensions");
    seen |= 1u << d;
    if (in->dims[i] != 1 && in->dims[i] != o->dims[d])
      return fail(err, cap,
                  "input dimension %d (%lld) cannot broadcast to result "
                  "dimension %lld (%lld)",
                  i, (long long)in->dims[i], (long long)d,
                  (long long)o->dims[d]);
  }
  return true;
}

static bool check_concat(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *o = &op->result;
  if (op->axes == 0 || (op->axes & (op->axes - 1)) || op->axes >> o->rank)
    return fail(err, cap, "the axis must be one dimension below the rank %d",
                o->rank);
  int64_t total = 0;
  for (int i = 0; i < op->num_operands; ++i) {
    const npuc_tx8_shape *in = &op->operands[i];
    if (in->rank != o->rank)
      return fail(err, cap, "operand #%d must have the result's rank", i);
    for (int d = 0; d < o->rank; ++d) {
      if ((op->axes >> d & 1) && !npuc_checked_add(total, in->dims[d], &total))
        return fail(err, cap,
                    "the operands' sizes along the axis add up beyond "
                    "int64");
      if (op->axes >> d & 1)
        continue;
      if (in->dims[d] != o->dims[d])
        return fail(err, cap,
                    "operand #%d differs from the result off the axis "
                    "(dimension %d)",
                    i, d);
    }
  }
  for (int d = 0; d < o->rank; ++d)
    if ((op->axes >> d & 1) && total != o->dims[d])
      return fail(err, cap,
                  "the operands add up to %lld along the axis, the "
                  "result has %lld",
                  (long long)total, (long long)o->dims[d]);
  return true;
}

/* The last element read, (size - 1) * step + offset, must be inside
 * (computed checked); offsets and steps are window fields (32 bits). */
static bool check_slice(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *o = &op->result;
  if (op->num_operands != 1 || in->rank != o->rank)
    return fail(err, cap, "the result must have the input's rank");
  for (int d = 0; d < o->rank; ++d) {
    int64_t last;
    bool inside = npuc_checked_mul(o->dims[d] - 1, op->steps[d], &last) &&
                  npuc_checked_add(last, op->offsets[d], &last) &&
                  last < in->dims[d];
    if (op->offsets[d] < 0 || op->steps[d] < 1 || !inside ||
        !fits_window(op->offsets[d]) || !fits_window(op->steps[d]))
      return fail(err, cap,
                  "dimension %d: offset %lld, size %lld and stride %lld "
                  "read outside the input's %lld",
                  d, (long long)op->offsets[d], (long long)o->dims[d],
                  (long long)op->steps[d], (long long)in->dims[d]);
  }
  return true;
}

/* NHWC in and out of the same N and C; the output size a convolution of
 * the kernel would have; pads below the kernel, so that every window
 * holds an input pixel. */
static bool check_pool(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *in = &op->operands[0], *o = &op->result;
  if (op->num_operands != 1 || in->rank != 4 || o->rank != 4 ||
      in->dims[0] != o->dims[0] || in->dims[3] != o->dims[3])
    return fail(err, cap,
                "pooling needs a 4-D NHWC input and a result of "
                "its N and C");
  for (int d = 0; d < 2; ++d) {
    int64_t k = op->kernel[d], s = op->strides[d];
    int64_t pt = op->pads[2 * d], pb = op->pads[2 * d + 1];
    if (k < 1 || s < 1 || pt < 0 || pb < 0 || pt >= k || pb >= k)
      return fail(err, cap,
                  "kernel and strides must be positive and pads below "
                  "the kernel (%lld)",
                  (long long)k);
    int64_t extent;
    if (!fits_window(k) || !fits_window(s) ||
        !npuc_checked_add(in->dims[1 + d], pt, &extent) ||
        !npuc_checked_add(extent, pb, &extent))
      return fail(err, cap,
                  "dimension %d: the kernel %lld, the stride %lld and the "
                  "padded extent must fit (32 bits for the kernel and "
                  "stride)",
                  1 + d, (long long)k, (long long)s);
    int64_t want = extent < k ? 0 : (extent - k) / s + 1;
    if (o->dims[1 + d] != want)
      return fail(err, cap, "result dimension %d should be %lld", 1 + d,
                  (long long)want);
  }
  return true;
}
