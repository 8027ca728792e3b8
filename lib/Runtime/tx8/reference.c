/* The reference ("compute interface"): each op written the obvious way, in
 * double, on compact NHWC tensors, rounding once when storing. It shares
 * no code with the model ops beyond element conversion, and indexes
 * tensors itself (element (n, hw, c) of a compact tensor is at
 * (n * HW + hw) * C + c), so a layout bug in the model cannot cancel out. */
#include "internal.h"

#include <math.h>

static double at(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c) {
  const npuc_tx8_dims d = t->layout.dims;
  int64_t i = (n * d.hw + hw) * d.c + c;
  float f;
  npuc_tx8i_load_f32(&f, (const char *)t->data + i * t->layout.elem_bytes,
                     t->layout.dtype, 1);
  return f;
}

static void put(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c,
                double v) {
  const npuc_tx8_dims d = t->layout.dims;
  int64_t i = (n * d.hw + hw) * d.c + c;
  char *p = (char *)t->data + i * t->layout.elem_bytes;
  if (t->layout.dtype == NPUC_TX8_I8) {
    *(int8_t *)p = npuc_tx8i_saturate_i8(v);
    return;
  }
  float f = (float)v;
  npuc_tx8i_store_f32(p, t->layout.dtype, &f, 1);
}

/* A [C] vector operand broadcasts over (n, hw). */
static double at_bcast(const npuc_tx8_tsr *t, int64_t n, int64_t hw,
                       int64_t c) {
  return tx8_is_vector(t) ? at(t, 0, 0, c) : at(t, n, hw, c);
}

static void check_all_compact(const char *op, const npuc_tx8_tsr *const *ts,
                              int count) {
  for (int i = 0; i < count; ++i)
    if (ts[i])
      npuc_tx8i_check_compact(op, "every operand", ts[i]);
}

void npuc_tx8_ref_gemm(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                       const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {a, b, bias, out};
  check_all_compact("npuc_tx8_ref_gemm", all, 4);
  npuc_tx8_dims od = out->layout.dims;
  int64_t k = p->transpose_a ? a->layout.dims.hw : a->layout.dims.c;
  for (int64_t n = 0; n < od.n; ++n)
    for (int64_t i = 0; i < od.hw; ++i)
      for (int64_t j = 0; j < od.c; ++j) {
        double sum = bias ? at(bias, 0, 0, j) : 0.0;
        for (int64_t kk = 0; kk < k; ++kk) {
          double x = p->transpose_a ? at(a, n, kk, i) : at(a, n, i, kk);
          double y = p->transpose_b ? at(b, 0, j, kk) : at(b, 0, kk, j);
          sum += x * y;
        }
        put(out, n, i, j, sum);
      }
}

void npuc_tx8_ref_conv(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                       const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, weight, bias, out};
  check_all_compact("npuc_tx8_ref_conv", all, 4);
  int64_t cout = out->layout.dims.c, ig = weight->layout.dims.c;
  int64_t og = cout / p->groups;
  for (int64_t n = 0; n < out->layout.dims.n; ++n)
    for (int64_t oh = 0; oh < p->out_h; ++oh)
      for (int64_t ow = 0; ow < p->out_w; ++ow)
        for (int64_t o = 0; o < cout; ++o) {
          double sum = bias ? at(bias, 0, 0, o) : 0.0;
          for (int64_t kh = 0; kh < p->kernel_h; ++kh)
            for (int64_t kw = 0; kw < p->kernel_w; ++kw) {
              int64_t ih = oh * p->stride_h - p->pad_top + kh * p->dilation_h;
              int64_t iw = ow * p->stride_w - p->pad_left + kw * p->dilation_w;
              if (ih < 0 || ih >= p->in_h || iw < 0 || iw >= p->in_w)
                continue;
              for (int64_t i = 0; i < ig; ++i)
                sum += at(in, n, ih * p->in_w + iw, o / og * ig + i) *
                       at(weight, 0, (kh * p->kernel_w + kw) * cout + o, i);
            }
          put(out, n, oh * p->out_w + ow, o, sum);
        }
}

void npuc_tx8_ref_batchnorm_inference(const npuc_tx8_batchnorm_param *p,
                                      const npuc_tx8_tsr *in,
                                      const npuc_tx8_tsr *scale,
                                      const npuc_tx8_tsr *shift,
                                      const npuc_tx8_tsr *mean,
                                      const npuc_tx8_tsr *var,
                                      const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, scale, shift, mean, var, out};
  check_all_compact("npuc_tx8_ref_batchnorm_inference", all, 6);
  npuc_tx8_dims d = in->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c) {
        double x = at(in, n, hw, c);
        double y = at(scale, 0, 0, c) * (x - at(mean, 0, 0, c)) /
                       sqrt(at(var, 0, 0, c) + (double)p->epsilon) +
                   at(shift, 0, 0, c);
        put(out, n, hw, c, y);
      }
}

static double binary(npuc_tx8_binary_op op, double x, double y) {
  switch (op) {
  case NPUC_TX8_ADD: return x + y;
  case NPUC_TX8_SUB: return x - y;
  case NPUC_TX8_MUL: return x * y;
  case NPUC_TX8_DIV: return x / y;
  }
  return x;
}

void npuc_tx8_ref_binary(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                         const npuc_tx8_tsr *b, const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {a, b, out};
  check_all_compact("npuc_tx8_ref_binary", all, 3);
  npuc_tx8_dims d = out->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        put(out, n, hw, c,
            binary(op, at_bcast(a, n, hw, c), at_bcast(b, n, hw, c)));
}

static double unary(npuc_tx8_unary_op op, double x) {
  switch (op) {
  case NPUC_TX8_RELU: return x > 0 ? x : 0.0;
  case NPUC_TX8_GELU:
    return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); /* as defined */
  case NPUC_TX8_EXP: return exp(x);
  case NPUC_TX8_LOG: return log(x);
  case NPUC_TX8_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case NPUC_TX8_TANH: return tanh(x);
  case NPUC_TX8_SQRT: return sqrt(x);
  case NPUC_TX8_RSQRT: return 1.0 / sqrt(x);
  case NPUC_TX8_ABS: return fabs(x);
  }
  return x;
}

void npuc_tx8_ref_unary(npuc_tx8_unary_op op, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, out};
  check_all_compact("npuc_tx8_ref_unary", all, 2);
  npuc_tx8_dims d = out->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        put(out, n, hw, c, unary(op, at(in, n, hw, c)));
}
