/* Elementwise ops on the CGRA tensor engine: one instruction per
 * contiguous run of the output, a rank-1 [C] operand read as the VuV
 * "unit" vector against every row. Floats compute in fp32; int8 computes
 * exactly (in float, see apply_binary) and saturates on the way out. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* 1/sqrt(2); M_SQRT1_2 is not in strict C11. */
#define SQRT1_2 0.70710678118654752440f
/* sqrt(2 / pi), gelu's tanh form. */
#define GELU_TANH_K 0.79788456080286535588f

/* A binary operand: a tensor laid out as out, or a [C] vector held whole. */
typedef struct {
  const npuc_tx8_tsr *t;
  float *vec; /* non-NULL for a vector operand */
} operand;

static void binary_checks(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                          const npuc_tx8_tsr *b, const npuc_tx8_tsr *out);
static operand operand_of(const npuc_tx8_tsr *t, const npuc_tx8_tsr *out);
static void operand_run(float *dst, const operand *o, const npuc_tx8_run *run);
static float apply_binary(npuc_tx8_binary_op op, float x, float y);
static float apply_unary(npuc_tx8_unary_op op, float x);
static uint64_t op_cast(const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);

/* CT passes per element: each op's row of npuc/Tx8Ops.def. */
static int unary_passes(npuc_tx8_unary_op op) {
  static const int passes[] = {
#define TX8_UNARY(name, ENUM, PASSES) PASSES,
#include "npuc/Tx8Ops.def"
  };
  return passes[op];
}

static int binary_passes(npuc_tx8_binary_op op) {
  static const int passes[] = {
#define TX8_BINARY(name, ENUM, PASSES) PASSES,
#include "npuc/Tx8Ops.def"
  };
  return passes[op];
}

uint64_t op_binary(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                   const npuc_tx8_tsr *b, const npuc_tx8_tsr *out) {
  binary_checks(op, a, b, out);
  const npuc_tx8_layout *l = &out->layout;
  operand x = operand_of(a, out), y = operand_of(b, out);
  float *xs = malloc((size_t)l->block * sizeof(float));
  float *ys = malloc((size_t)l->block * sizeof(float));
  for (int64_t n = 0; n < l->dims.n; ++n)
    for (int64_t hw = 0; hw < l->dims.hw; ++hw)
      for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
        npuc_tx8_run run = npuc_tx8_row_run(l, n, hw, r);
        operand_run(xs, &x, &run);
        operand_run(ys, &y, &run);
        for (int64_t i = 0; i < run.count; ++i)
          xs[i] = apply_binary(op, xs[i], ys[i]);
        npuc_tx8i_store_f32(tx8_at(out, run.offset), l->dtype, xs, run.count);
      }
  free(xs);
  free(ys);
  free(x.vec);
  free(y.vec);
  return npuc_tx8_cycles_ct(l->total_bytes, binary_passes(op));
}

/* in and out valid, of one layout and dtype. */
static void check_in_out(const char *name, const npuc_tx8_tsr *in,
                         const npuc_tx8_tsr *out) {
  npuc_tx8i_check_tsr(name, "in", in);
  npuc_tx8i_check_tsr(name, "out", out);
  npuc_tx8i_check_same_layout(name, "in and out", in, out);
  npuc_tx8i_check_dtype(name, "out", out, in->layout.dtype);
}

/* One instruction per contiguous run: `f` maps the run's `n` values (as
 * fp32) in place, from in to out (one layout). */
typedef void (*run_fn)(float *xs, int64_t n, const void *ctx);

static void map_runs(const npuc_tx8_tsr *in, const npuc_tx8_tsr *out, run_fn f,
                     const void *ctx) {
  const npuc_tx8_layout *l = &out->layout;
  float *xs = malloc((size_t)l->block * sizeof(float));
  for (int64_t n = 0; n < l->dims.n; ++n)
    for (int64_t hw = 0; hw < l->dims.hw; ++hw)
      for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
        npuc_tx8_run run = npuc_tx8_row_run(l, n, hw, r);
        npuc_tx8i_load_f32(xs, tx8_at(in, run.offset), l->dtype, run.count);
        f(xs, run.count, ctx);
        npuc_tx8i_store_f32(tx8_at(out, run.offset), l->dtype, xs, run.count);
      }
  free(xs);
}

static void unary_run(float *xs, int64_t n, const void *ctx) {
  npuc_tx8_unary_op op = *(const npuc_tx8_unary_op *)ctx;
  for (int64_t i = 0; i < n; ++i)
    xs[i] = apply_unary(op, xs[i]);
}

uint64_t op_unary(npuc_tx8_unary_op op, const npuc_tx8_tsr *in,
                  const npuc_tx8_tsr *out) {
  const char *name = "op_unary";
  if (op == NPUC_TX8_CAST)
    return op_cast(in, out);
  check_in_out(name, in, out);
  if (out->layout.dtype == NPUC_TX8_I8 && op != NPUC_TX8_RELU &&
      op != NPUC_TX8_ABS)
    npuc_tx8_fail(name, "i8 supports relu and abs only");
  map_runs(in, out, unary_run, &op);
  return npuc_tx8_cycles_ct(out->layout.total_bytes, unary_passes(op));
}

static void binary_checks(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                          const npuc_tx8_tsr *b, const npuc_tx8_tsr *out) {
  const char *name = "op_binary";
  npuc_tx8i_check_tsr(name, "a", a);
  npuc_tx8i_check_tsr(name, "b", b);
  npuc_tx8i_check_tsr(name, "out", out);
  npuc_tx8i_check_dtype(name, "a", a, out->layout.dtype);
  npuc_tx8i_check_dtype(name, "b", b, out->layout.dtype);
  const npuc_tx8_tsr *ops[] = {a, b};
  for (int i = 0; i < 2; ++i)
    if (tx8_is_vector(ops[i]) && !tx8_is_vector(out))
      npuc_tx8i_check_vector(name, i ? "b" : "a", ops[i], out->layout.dims.c);
    else
      npuc_tx8i_check_same_layout(name, i ? "b and out" : "a and out", ops[i],
                                  out);
  if (out->layout.dtype == NPUC_TX8_I8 &&
      (op == NPUC_TX8_DIV || op == NPUC_TX8_POW))
    npuc_tx8_fail(name, "i8 does not support div and pow");
}

static operand operand_of(const npuc_tx8_tsr *t, const npuc_tx8_tsr *out) {
  operand o = {t, NULL};
  if (tx8_is_vector(t) && !tx8_is_vector(out)) {
    o.vec = malloc((size_t)t->layout.dims.c * sizeof(float));
    npuc_tx8i_vector_f32(o.vec, t);
  }
  return o;
}

static void operand_run(float *dst, const operand *o, const npuc_tx8_run *run) {
  if (o->vec) {
    for (int64_t i = 0; i < run->count; ++i)
      dst[i] = o->vec[run->c_first + i];
    return;
  }
  npuc_tx8i_load_f32(dst, tx8_at(o->t, run->offset), o->t->layout.dtype,
                     run->count);
}

/* int8 values and their sums and products (|x| <= 2^14) are exact in
 * float, so int32 arithmetic is done in float here; the store saturates.
 * The operation itself is the reference's (npuc_tx8i_binary_f64): a
 * float sum, difference, product or quotient computed in double and
 * rounded to float is the fp32 instruction's result. */
static float apply_binary(npuc_tx8_binary_op op, float x, float y) {
  return (float)npuc_tx8i_binary_f64(op, x, y);
}

static float apply_unary(npuc_tx8_unary_op op, float x) {
  switch (op) {
  case NPUC_TX8_RELU: return x > 0 ? x : 0.0f;
  /* erfc(-t) = 1 + erf(t) without cancelling for x < 0. */
  case NPUC_TX8_GELU: return 0.5f * x * erfcf(-x * SQRT1_2);
  case NPUC_TX8_EXP: return expf(x);
  case NPUC_TX8_LOG: return logf(x);
  case NPUC_TX8_SIGMOID: return 1.0f / (1.0f + expf(-x));
  case NPUC_TX8_TANH: return tanhf(x);
  case NPUC_TX8_SQRT: return sqrtf(x);
  case NPUC_TX8_RSQRT: return 1.0f / sqrtf(x);
  case NPUC_TX8_ABS: return fabsf(x);
  case NPUC_TX8_SILU: return x / (1.0f + expf(-x));
  /* 0.5 x (1 + tanh u) = x / (1 + exp(-2u)): no cancellation for x < 0. */
  case NPUC_TX8_GELU_TANH:
    return x / (1.0f + expf(-2.0f * GELU_TANH_K * (x + 0.044715f * x * x * x)));
  case NPUC_TX8_CAST: return x; /* the store rounds to out's type */
  case NPUC_TX8_ERF: return erff(x);
  }
  return x;
}

/* ---- cast ---------------------------------------------------------------
 * in and out hold one shape in one layout mode, in two float types: each
 * run is read in in's type and rounded to out's on the store. */
static uint64_t op_cast(const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "op_unary (cast)";
  npuc_tx8i_check_tsr(name, "in", in);
  npuc_tx8i_check_tsr(name, "out", out);
  npuc_tx8i_check_same_layout(name, "in and out", in, out);
  npuc_tx8i_check_float(name, "in", in);
  npuc_tx8i_check_float(name, "out", out);
  npuc_tx8i_convert_rows(out, in);
  const npuc_tx8_layout *li = &in->layout, *lo = &out->layout;
  /* One pass over the wider of the two. */
  int64_t bytes =
      li->total_bytes > lo->total_bytes ? li->total_bytes : lo->total_bytes;
  return npuc_tx8_cycles_ct(bytes, unary_passes(NPUC_TX8_CAST));
}

/* f16, bf16 and f32 align channels alike, so run i of a row is the same
 * channels in both; only the byte offsets differ (batchnorm converts its
 * input to fp32 and back with this too). */
void npuc_tx8i_convert_rows(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  const npuc_tx8_layout *sl = &src->layout, *dl = &dst->layout;
  float *row = malloc((size_t)sl->block * sizeof(float));
  for (int64_t n = 0; n < sl->dims.n; ++n)
    for (int64_t hw = 0; hw < sl->dims.hw; ++hw)
      for (int64_t r = 0; r < npuc_tx8_num_runs(sl); ++r) {
        npuc_tx8_run s = npuc_tx8_row_run(sl, n, hw, r);
        npuc_tx8_run d = npuc_tx8_row_run(dl, n, hw, r);
        npuc_tx8i_load_f32(row, tx8_at(src, s.offset), sl->dtype, s.count);
        npuc_tx8i_store_f32(tx8_at(dst, d.offset), dl->dtype, row, d.count);
      }
  free(row);
}

/* ---- clip -------------------------------------------------------------- */

static void clip_run(float *xs, int64_t n, const void *ctx) {
  const npuc_tx8_clip_param *p = ctx;
  for (int64_t i = 0; i < n; ++i)
    xs[i] = xs[i] < p->lo ? p->lo : xs[i] > p->hi ? p->hi : xs[i];
}

uint64_t op_clip(const npuc_tx8_clip_param *p, const npuc_tx8_tsr *in,
                 const npuc_tx8_tsr *out) {
  const char *name = "op_clip";
  check_in_out(name, in, out);
  if (!(p->lo <= p->hi))
    npuc_tx8_fail(name, "min %g is above max %g", (double)p->lo, (double)p->hi);
  map_runs(in, out, clip_run, p);
  /* A max and a min instruction. */
  return npuc_tx8_cycles_ct(out->layout.total_bytes, 2);
}
