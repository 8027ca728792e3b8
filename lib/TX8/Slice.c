/* The slice rules of the compute ops (the seed's ShardingInterface:
 * tileShardingSplit says how the output may be split, backWindow what an
 * output slice reads). One rule per op family; npuc/TX8.h documents the
 * contract, Tx8Runtime.h the window arithmetic. */
#include "npuc/TX8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool check_unary(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_binary(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_batchnorm(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_gemm(const npuc_tx8_slice_op *op, char *err, size_t cap);
static bool check_conv(const npuc_tx8_slice_op *op, char *err, size_t cap);

static const npuc_tx8_op_def op_defs[] = {
#define TX8_UNARY(op, ENUM, PASSES)                                            \
  {"tx8be." #op, NPUC_TX8_KIND_UNARY, "NPUC_TX8_" #ENUM},
#define TX8_BINARY(op, ENUM, PASSES)                                           \
  {"tx8be." #op, NPUC_TX8_KIND_BINARY, "NPUC_TX8_" #ENUM},
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
  }
  return false;
}

/* ---- which dimensions split
 * ------------------------------------------------------ */

static uint32_t all_axes(int rank) { return (1u << rank) - 1; }

uint32_t npuc_tx8_shard_axes(const npuc_tx8_slice_op *op) {
  int r = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY:
  case NPUC_TX8_KIND_BINARY: return all_axes(r);
  case NPUC_TX8_KIND_BATCHNORM: return 1u << (r - 1);
  case NPUC_TX8_KIND_GEMM: return all_axes(r); /* the rows and N */
  case NPUC_TX8_KIND_CONV: return 1u << 0 | 1u << 1;
  }
  return 0;
}

uint32_t npuc_tx8_split_axes(const npuc_tx8_slice_op *op) {
  int r = op->result.rank;
  switch (op->kind) {
  case NPUC_TX8_KIND_UNARY:
  case NPUC_TX8_KIND_BINARY: return all_axes(r);
  case NPUC_TX8_KIND_BATCHNORM: return all_axes(r) & ~(1u << (r - 1));
  case NPUC_TX8_KIND_GEMM: return all_axes(r - 1); /* N stays whole in time */
  case NPUC_TX8_KIND_CONV: return 1u << 0 | 1u << 1;
  }
  return 0;
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
    w[0] = op->transpose_b ? same(n) : whole();
    w[1] = op->transpose_b ? whole() : same(n);
  } else {
    w[0] = same(n);
  }
}

/* input: N, the rows and columns each output pixel's kernel covers, all
 * channels; weight and bias whole. */
static void conv_windows(const npuc_tx8_slice_op *op, int i,
                         npuc_tx8_window *w) {
  if (i != 0) {
    for (int d = 0; d < op->operands[i].rank; ++d)
      w[d] = whole();
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
  w[3] = whole();
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

static bool check_gemm(const npuc_tx8_slice_op *op, char *err, size_t cap) {
  const npuc_tx8_shape *a = &op->operands[0], *b = &op->operands[1],
                       *o = &op->result;
  int r = o->rank;
  if (r < 2 || a->rank != r || b->rank != 2 || (op->transpose_a && r > 3))
    return fail(err, cap,
                "gemm needs an operand a of rank 2 or more (2 or 3 "
                "with transpose_a), a 2-D operand b and a result "
                "of a's rank");
  int64_t m = a->dims[r - (op->transpose_a ? 1 : 2)];
  int64_t k = a->dims[r - (op->transpose_a ? 2 : 1)];
  int64_t bk = b->dims[op->transpose_b ? 1 : 0];
  int64_t bn = b->dims[op->transpose_b ? 0 : 1];
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
  int64_t g = op->groups > 0 ? op->groups : 1;
  if (in->dims[3] % g || o->dims[3] % g || w->dims[2] != o->dims[3] ||
      w->dims[3] * g != in->dims[3] || o->dims[0] != in->dims[0])
    return fail(err, cap, "the operand and result shapes do not match");
  for (int d = 0; d < 2; ++d) {
    if (op->strides[d] <= 0 || op->dilations[d] <= 0 || op->pads[2 * d] < 0 ||
        op->pads[2 * d + 1] < 0)
      return fail(err, cap,
                  "strides and dilations must be positive and pads "
                  "not negative");
    /* A wider pad gives output rows that read padding only. */
    int64_t extent = (w->dims[d] - 1) * op->dilations[d] + 1;
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
