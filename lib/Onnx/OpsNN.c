/* The op rules of the neural-network ops: convolution (with a following
 * BatchNormalization folded in), batch norm, Gemm and MatMul, pooling,
 * softmax, reductions and layer norm.
 *
 * Requires the node's inputs defined. Conv-like ops take NHWC activations
 * and HWOI weights: the importer asks for the input in that layout (a
 * transpose unless it is already so) and leaves the result in it, its
 * logical shape NCHW, so a chain of them never transposes. Weights must be
 * constants; they are laid out at import. Leaves outputs as Ops.c does. */
#include "OnnxFold.h"

#include "npuc/Alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int NHWC[MAX_RANK] = {0, 2, 3, 1};
/* Window sizes, strides, pads and dilations stay below this, so that the
 * output-size arithmetic cannot overflow. */
#define BIG ((int64_t)1 << 24)

typedef struct {
  int64_t kernel[2], strides[2], pads[4], dilations[2], group;
} window;

static MlirValue build_conv(importer *im, MlirValue in, const float *hw,
                            const int64_t *oihw, const float *bias,
                            const window *win, const int64_t *dims);

static oval *need(importer *im, const Onnx__NodeProto *n, size_t k) {
  oval *x = onnx_in(im, n, k);
  if (!x)
    onnx_error(im, n, "input %zu is missing", k);
  return x;
}

/* Sets o to the op result r whose physical shape is pdims under perm. */
static void set_result(importer *im, oval *o, MlirOperation r,
                       const int64_t *dims, int rank, const int *perm) {
  onnx_set_shape(im, NULL, o, dims, rank);
  onnx_set_built(o, mlirOperationGetResult(r, 0), perm);
}

static MlirType physical_type(importer *im, const int64_t *dims, int rank,
                              const int *perm) {
  int64_t p[MAX_RANK];
  for (int d = 0; d < rank; ++d)
    p[d] = dims[perm[d]];
  return onnx_tensor_type(im, p, rank);
}

/* ---- Conv ------------------------------------------------------------------
 */

/* kernel_shape, strides, pads (ONNX: begins then ends; tx8be: top,
 * bottom, left, right), dilations and auto_pad of a conv or pool over
 * input spatial dims in[2]. */
static bool read_window(importer *im, const Onnx__NodeProto *n,
                        const int64_t *in, window *w) {
  int64_t v[4];
  for (int k = 0; k < 2; ++k)
    w->strides[k] = 1, w->dilations[k] = 1;
  memset(w->pads, 0, sizeof w->pads);
  if (onnx_attr_ints(n, "strides", v, 2) == 2)
    w->strides[0] = v[0], w->strides[1] = v[1];
  if (onnx_attr_ints(n, "dilations", v, 2) == 2)
    w->dilations[0] = v[0], w->dilations[1] = v[1];
  if (onnx_attr_ints(n, "pads", v, 4) == 4)
    w->pads[0] = v[0], w->pads[1] = v[2], w->pads[2] = v[1], w->pads[3] = v[3];
  for (int k = 0; k < 2; ++k)
    if (w->strides[k] <= 0 || w->dilations[k] <= 0 || w->pads[2 * k] < 0 ||
        w->pads[2 * k + 1] < 0 || w->kernel[k] <= 0 || w->strides[k] > BIG ||
        w->dilations[k] > BIG || w->pads[2 * k] > BIG ||
        w->pads[2 * k + 1] > BIG || w->kernel[k] > BIG)
      return onnx_error(im, n,
                        "kernel, strides, dilations must be positive "
                        "and pads not negative (all below 2^24)");
  const Onnx__AttributeProto *ap = onnx_attr(n, "auto_pad");
  const char *mode = ap && ap->has_s ? (const char *)ap->s.data : "NOTSET";
  size_t len = ap && ap->has_s ? ap->s.len : 6;
  if ((len == 10 && !strncmp(mode, "SAME_UPPER", 10)) ||
      (len == 10 && !strncmp(mode, "SAME_LOWER", 10))) {
    for (int k = 0; k < 2; ++k) {
      int64_t out = (in[k] + w->strides[k] - 1) / w->strides[k];
      int64_t span = (w->kernel[k] - 1) * w->dilations[k] + 1;
      int64_t total = (out - 1) * w->strides[k] + span - in[k];
      total = total < 0 ? 0 : total;
      int64_t small = total / 2;
      bool upper = mode[5] == 'U';
      w->pads[2 * k] = upper ? small : total - small;
      w->pads[2 * k + 1] = upper ? total - small : small;
    }
  } else if (len == 5 && !strncmp(mode, "VALID", 5))
    memset(w->pads, 0, sizeof w->pads);
  else if (!(len == 6 && !strncmp(mode, "NOTSET", 6)))
    return onnx_error(im, n, "auto_pad '%.*s' is not supported", (int)len,
                      mode);
  return true;
}

static int64_t out_extent(int64_t in, int64_t pad, int64_t kernel,
                          int64_t stride, int64_t dilation) {
  int64_t span = dilation * (kernel - 1) + 1;
  return in + pad < span ? 0 : (in + pad - span) / stride + 1;
}

/* A BatchNormalization reading only this conv's output with constant
 * parameters, or -1. */
static int folded_batchnorm(importer *im, const Onnx__NodeProto *n) {
  oval *y = onnx_out(im, n, 0);
  if (!y || y->uses != 1 || y->consumer < 0)
    return -1;
  const Onnx__NodeProto *bn = im->graph->node[y->consumer];
  if (strcmp(bn->op_type, "BatchNormalization") || bn->n_input < 5 ||
      strcmp(bn->input[0], y->name) || bn->n_output != 1)
    return -1;
  for (size_t k = 1; k < 5; ++k)
    if (!onnx_is_const(onnx_value(im, bn->input[k])) ||
        !onnx_value(im, bn->input[k])->f)
      return -1;
  return y->consumer;
}

/* w' = w * g, b' = (b - mean) * g + beta with g = scale / sqrt(var + eps),
 * per output channel. False when the parameters do not have O elements. */
static bool fold_batchnorm(importer *im, const Onnx__NodeProto *bn, float *w,
                           int64_t per_o, float *b, int64_t o) {
  oval *p[4];
  for (int k = 0; k < 4; ++k) {
    p[k] = onnx_value(im, bn->input[k + 1]);
    if (p[k]->count != o)
      return false;
  }
  float eps = onnx_attr_f(bn, "epsilon", 1e-5f);
  for (int64_t c = 0; c < o; ++c) {
    double g = p[0]->f[c] / sqrt((double)p[3]->f[c] + eps);
    for (int64_t k = 0; k < per_o; ++k)
      w[c * per_o + k] = (float)(w[c * per_o + k] * g);
    b[c] = (float)((b[c] - p[2]->f[c]) * g + p[1]->f[c]);
  }
  return true;
}

/* OIHW weights to HWOI. */
static float *hwoi(const oval *w) {
  int64_t o = w->dims[0], i = w->dims[1], kh = w->dims[2], kw = w->dims[3];
  float *r = npuc_xmalloc((size_t)w->count * sizeof *r + 1);
  for (int64_t a = 0; a < o; ++a)
    for (int64_t b = 0; b < i; ++b)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          r[((y * kw + x) * o + a) * i + b] =
              w->f[((a * i + b) * kh + y) * kw + x];
  return r;
}

static bool conv_operands(importer *im, const Onnx__NodeProto *n, oval **x,
                          oval **w, oval **b) {
  *x = need(im, n, 0);
  *w = *x ? need(im, n, 1) : NULL;
  *b = onnx_in(im, n, 2);
  if (!*x || !*w)
    return false;
  if ((*x)->rank != 4 || (*w)->rank != 4)
    return onnx_error(im, n,
                      "only 2-D convolutions (rank-4 input and "
                      "weights) are supported");
  if (!(*w)->f)
    return onnx_error(im, n, "the weights must be constant");
  if (*b && (!(*b)->f || (*b)->count != (*w)->dims[0]))
    return onnx_error(im, n, "the bias must be a constant of %lld elements",
                      (long long)(*w)->dims[0]);
  return true;
}

bool onnx_op_conv(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x, *w, *b;
  if (!conv_operands(im, n, &x, &w, &b))
    return false;
  window win;
  win.kernel[0] = w->dims[2], win.kernel[1] = w->dims[3];
  win.group = onnx_attr_i(n, "group", 1);
  if (!read_window(im, n, x->dims + 2, &win))
    return false;
  int64_t o = w->dims[0];
  if (win.group <= 0 || win.group > x->dims[1] || o <= 0 ||
      x->dims[1] != w->dims[1] * win.group || o % win.group)
    return onnx_error(im, n,
                      "%lld input channels do not fit weights of %lld "
                      "in %lld groups",
                      (long long)x->dims[1], (long long)w->dims[1],
                      (long long)win.group);
  int64_t dims[4] = {x->dims[0], o, 0, 0};
  for (int k = 0; k < 2; ++k)
    dims[2 + k] =
        out_extent(x->dims[2 + k], win.pads[2 * k] + win.pads[2 * k + 1],
                   win.kernel[k], win.strides[k], win.dilations[k]);
  if (!dims[2] || !dims[3])
    return onnx_error(im, n, "the window does not fit the input");
  float *wf = npuc_xmalloc((size_t)w->count * sizeof *wf + 1);
  float *bf = npuc_xcalloc((size_t)o + 1, sizeof *bf);
  memcpy(wf, w->f, (size_t)w->count * sizeof *wf);
  if (b)
    memcpy(bf, b->f, (size_t)o * sizeof *bf);
  int bn = folded_batchnorm(im, n);
  oval *out = onnx_out(im, n, 0);
  if (bn >= 0 &&
      fold_batchnorm(im, im->graph->node[bn], wf, w->count / o, bf, o)) {
    im->skip[bn] = true;
    out = onnx_value(im, im->graph->node[bn]->output[0]);
    out->pending = false;
  }
  oval laid = *w;
  laid.f = wf;
  float *hw = hwoi(&laid);
  MlirValue in = onnx_physical(im, x, NHWC);
  /* One conv however large its weights: tx8-sharding splits its output
   * channels (and the weights with them) across tiles and in time. */
  MlirValue y =
      build_conv(im, in, hw, w->dims, b || bn >= 0 ? bf : NULL, &win, dims);
  free(wf), free(bf), free(hw);
  onnx_set_shape(im, n, out, dims, 4);
  onnx_set_built(out, y, NHWC);
  return true;
}

/* tx8be.conv of the HWOI weights hw ([kh, kw, O, I/group]). */
static MlirValue build_conv(importer *im, MlirValue in, const float *hw,
                            const int64_t *oihw, const float *bias,
                            const window *win, const int64_t *dims) {
  int64_t o = oihw[0];
  int64_t wdims[4] = {oihw[2], oihw[3], o, oihw[1]};
  MlirValue ops[3] = {in, onnx_const_f(im, hw, wdims, 4),
                      bias ? onnx_const_f(im, bias, &o, 1) : onnx_none(im)};
  MlirNamedAttribute a[4] = {onnx_attr_i64s(im, "strides", win->strides, 2),
                             onnx_attr_i64s(im, "pads", win->pads, 4),
                             onnx_attr_i64s(im, "dilations", win->dilations, 2),
                             onnx_attr_int(im, "group", win->group)};
  int64_t pd[4] = {dims[0], dims[2], dims[3], o};
  return mlirOperationGetResult(
      onnx_build(im, "tx8be.conv", 3, ops, onnx_tensor_type(im, pd, 4), 4, a),
      0);
}

/* ---- BatchNormalization ----------------------------------------------------
 */

/* The layout with the channel axis (1) last: [0, 2, ..., r-1, 1]. */
static void channel_last(int *perm, int rank) {
  perm[0] = 0;
  for (int d = 1; d + 1 < rank; ++d)
    perm[d] = d + 1;
  perm[rank - 1] = 1;
}

bool onnx_op_batchnorm(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need(im, n, 0), *o = onnx_out(im, n, 0), *p[4];
  if (!x)
    return false;
  if (onnx_attr_i(n, "training_mode", 0))
    return onnx_error(im, n, "training mode is not supported");
  if (x->rank < 2)
    return onnx_error(im, n, "the input needs a channel axis");
  for (int k = 0; k < 4; ++k) {
    p[k] = need(im, n, (size_t)k + 1);
    if (!p[k])
      return false;
    if (p[k]->rank != 1 || p[k]->dims[0] != x->dims[1])
      return onnx_error(im, n, "parameter %d must have %lld elements", k + 1,
                        (long long)x->dims[1]);
  }
  int perm[MAX_RANK];
  channel_last(perm, x->rank);
  /* ONNX: scale, B, mean, var; tx8be: scale, offset, mean, variance. */
  MlirValue ops[5] = {onnx_physical(im, x, perm), onnx_logical(im, p[0]),
                      onnx_logical(im, p[1]), onnx_logical(im, p[2]),
                      onnx_logical(im, p[3])};
  MlirNamedAttribute eps =
      onnx_attr_f32(im, "epsilon", onnx_attr_f(n, "epsilon", 1e-5f));
  MlirOperation r =
      onnx_build(im, "tx8be.batchnorm_inference", 5, ops,
                 physical_type(im, x->dims, x->rank, perm), 1, &eps);
  set_result(im, o, r, x->dims, x->rank, perm);
  return true;
}

/* ---- Gemm and MatMul --------------------------------------------------------
 */

/* The [N] bias of a Gemm: beta * C when C is uniform along M. */
static bool gemm_bias(importer *im, const Onnx__NodeProto *n, const oval *c,
                      int64_t m, int64_t nn, float beta, float *bias) {
  if (!c->f || c->rank > 2)
    return onnx_error(im, n, "C must be a constant of rank <= 2");
  oval full = {.rank = 2, .dims = {m, nn}};
  int64_t dims[MAX_RANK];
  int rank;
  if (!onnx_broadcast_shape(&full, c, dims, &rank) || dims[0] != m ||
      dims[1] != nn)
    return onnx_error(im, n, "C does not broadcast to [%lld, %lld]",
                      (long long)m, (long long)nn);
  int64_t s[MAX_RANK];
  onnx_broadcast_strides(c, 2, s);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t k = 0; k < nn; ++k) {
      float v = (float)(beta * onnx_get(c, r * s[0] + k * s[1]));
      if (r == 0)
        bias[k] = v;
      else if (bias[k] != v)
        return onnx_error(im, n, "C varies along M: not supported");
    }
  return true;
}

bool onnx_op_gemm(importer *im, const Onnx__NodeProto *n, int index) {
  oval *a = need(im, n, 0), *b = a ? need(im, n, 1) : NULL,
       *c = onnx_in(im, n, 2);
  oval *o = onnx_out(im, n, 0);
  if (!a || !b)
    return false;
  if (a->rank != 2 || b->rank != 2)
    return onnx_error(im, n, "A and B must be matrices");
  if (onnx_is_const(a))
    return onnx_error(im, n, "a constant A is not supported");
  bool ta = onnx_attr_i(n, "transA", 0), tb = onnx_attr_i(n, "transB", 0);
  float alpha = onnx_attr_f(n, "alpha", 1), beta = onnx_attr_f(n, "beta", 1);
  int64_t m = a->dims[ta ? 1 : 0], k = a->dims[ta ? 0 : 1];
  int64_t bk = b->dims[tb ? 1 : 0], nn = b->dims[tb ? 0 : 1];
  if (k != bk)
    return onnx_error(im, n, "A has %lld columns, B %lld rows", (long long)k,
                      (long long)bk);
  static const int swap[MAX_RANK] = {1, 0}, keep[MAX_RANK] = {0, 1};
  MlirValue ops[3];
  ops[0] = onnx_physical(im, a, ta ? swap : keep);
  if (b->f) {
    float *w = npuc_xmalloc((size_t)b->count * sizeof *w + 1);
    for (int64_t r = 0; r < k; ++r)
      for (int64_t q = 0; q < nn; ++q)
        w[r * nn + q] = alpha * b->f[tb ? q * k + r : r * nn + q];
    int64_t wd[2] = {k, nn};
    ops[1] = onnx_const_f(im, w, wd, 2);
    free(w);
  } else if (alpha != 1)
    return onnx_error(im, n, "alpha != 1 with a run-time B is not supported");
  else
    ops[1] = onnx_physical(im, b, tb ? swap : keep);
  if (c && beta != 0) {
    float *bias = npuc_xmalloc((size_t)nn * sizeof *bias + 1);
    bool ok = gemm_bias(im, n, c, m, nn, beta, bias);
    if (ok)
      ops[2] = onnx_const_f(im, bias, &nn, 1);
    free(bias);
    if (!ok)
      return false;
  } else
    ops[2] = onnx_none(im);
  int64_t dims[2] = {m, nn};
  int perm[MAX_RANK];
  onnx_identity_perm(perm, 2);
  MlirOperation r = onnx_build(im, "tx8be.gemm", 3, ops,
                               onnx_tensor_type(im, dims, 2), 0, NULL);
  set_result(im, o, r, dims, 2, perm);
  return true;
}

/* MatMul: [..., M, K] x [K, N] is one gemm; [B..., M, K] x [B..., K, N]
 * with the same batch dimensions a batched gemm (one b per matrix). */
bool onnx_op_matmul(importer *im, const Onnx__NodeProto *n, int index) {
  oval *a = need(im, n, 0), *b = a ? need(im, n, 1) : NULL;
  oval *o = onnx_out(im, n, 0);
  if (!a || !b)
    return false;
  if (a->rank < 2 || b->rank < 2)
    return onnx_error(im, n, "vector operands (rank 1) are not supported");
  if (onnx_is_const(a))
    return onnx_error(im, n, "a constant first operand is not supported");
  int64_t k = a->dims[a->rank - 1], nn = b->dims[b->rank - 1];
  if (b->dims[b->rank - 2] != k)
    return onnx_error(im, n, "contracts %lld with %lld", (long long)k,
                      (long long)b->dims[b->rank - 2]);
  int64_t b_batch = 1;
  for (int d = 0; d + 2 < b->rank; ++d)
    b_batch *= b->dims[d];
  bool batched = b_batch > 1;
  if (batched) {
    bool same = a->rank == b->rank;
    for (int d = 0; same && d + 2 < a->rank; ++d)
      same = a->dims[d] == b->dims[d];
    if (!same)
      return onnx_error(im, n,
                        "batched operands need the same batch "
                        "dimensions (no broadcasting)");
  }
  MlirValue ops[3] = {onnx_logical(im, a), onnx_logical(im, b), onnx_none(im)};
  if (!batched && b->rank != 2) {
    int64_t bd[2] = {k, nn};
    ops[1] = onnx_reshape(im, ops[1], bd, 2);
  }
  int64_t dims[MAX_RANK];
  int rank = a->rank;
  memcpy(dims, a->dims, sizeof dims);
  dims[rank - 1] = nn;
  int perm[MAX_RANK];
  onnx_identity_perm(perm, rank);
  MlirOperation r = onnx_build(im, "tx8be.gemm", 3, ops,
                               onnx_tensor_type(im, dims, rank), 0, NULL);
  set_result(im, o, r, dims, rank, perm);
  return true;
}

/* ---- Pooling
 * ------------------------------------------------------------------ */

bool onnx_op_pool(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need(im, n, 0), *o = onnx_out(im, n, 0);
  bool max = !strcmp(n->op_type, "MaxPool");
  if (!x)
    return false;
  if (x->rank != 4)
    return onnx_error(im, n, "only 2-D pooling (rank-4 input) is supported");
  if (n->n_output > 1 && n->output[1] && *n->output[1])
    return onnx_error(im, n, "the indices output is not supported");
  window w;
  if (onnx_attr_ints(n, "kernel_shape", w.kernel, 2) != 2)
    return onnx_error(im, n, "kernel_shape must have 2 entries");
  if (!read_window(im, n, x->dims + 2, &w))
    return false;
  if (w.dilations[0] != 1 || w.dilations[1] != 1)
    return onnx_error(im, n, "dilations are not supported");
  bool padded = w.pads[0] || w.pads[1] || w.pads[2] || w.pads[3];
  if (!max && padded && onnx_attr_i(n, "count_include_pad", 0))
    return onnx_error(im, n,
                      "count_include_pad = 1 with padding is not "
                      "supported (tx8be.avg_pool counts the taps "
                      "inside the input)");
  int64_t dims[4] = {x->dims[0], x->dims[1], 0, 0};
  for (int k = 0; k < 2; ++k) {
    int64_t pad = w.pads[2 * k] + w.pads[2 * k + 1];
    dims[2 + k] = out_extent(x->dims[2 + k], pad, w.kernel[k], w.strides[k], 1);
    if (onnx_attr_i(n, "ceil_mode", 0) &&
        (x->dims[2 + k] + pad - w.kernel[k]) % w.strides[k])
      return onnx_error(im, n,
                        "ceil_mode = 1 that changes the output size "
                        "is not supported");
  }
  if (!dims[2] || !dims[3])
    return onnx_error(im, n, "the window does not fit the input");
  MlirValue v = onnx_physical(im, x, NHWC);
  MlirNamedAttribute a[3] = {onnx_attr_i64s(im, "kernel", w.kernel, 2),
                             onnx_attr_i64s(im, "strides", w.strides, 2),
                             onnx_attr_i64s(im, "pads", w.pads, 4)};
  MlirOperation r = onnx_build(im, max ? "tx8be.max_pool" : "tx8be.avg_pool", 1,
                               &v, physical_type(im, dims, 4, NHWC), 3, a);
  set_result(im, o, r, dims, 4, NHWC);
  return true;
}

bool onnx_op_global_avg_pool(importer *im, const Onnx__NodeProto *n,
                             int index) {
  oval *x = need(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  if (x->rank != 4)
    return onnx_error(im, n, "only rank-4 inputs are supported");
  int64_t dims[4] = {x->dims[0], x->dims[1], 1, 1};
  MlirValue v = onnx_physical(im, x, NHWC);
  MlirOperation r = onnx_build(im, "tx8be.global_avg_pool", 1, &v,
                               physical_type(im, dims, 4, NHWC), 0, NULL);
  set_result(im, o, r, dims, 4, NHWC);
  return true;
}

/* ---- Softmax, reductions, layer norm ------------------------------------- */

static int physical_axis(const oval *x, int64_t axis) {
  for (int d = 0; d < x->rank; ++d)
    if (x->perm[d] == axis)
      return d;
  return (int)axis;
}

bool onnx_op_softmax(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  int64_t axis = onnx_attr_i(n, "axis", -1);
  if (!onnx_norm_axis(&axis, x->rank))
    return onnx_error(im, n, "axis out of range");
  if (onnx_is_const(x))
    return onnx_error(im, n, "softmax of a constant is not folded");
  MlirNamedAttribute a = onnx_attr_int(im, "axis", physical_axis(x, axis));
  MlirOperation r =
      onnx_build(im, "tx8be.softmax", 1, &x->v, mlirValueGetType(x->v), 1, &a);
  set_result(im, o, r, x->dims, x->rank, x->perm);
  return true;
}

bool onnx_op_reduce(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  if (onnx_is_const(x))
    return onnx_error(im, n, "reductions of constants are not folded");
  int64_t axes[MAX_RANK];
  int na;
  if (!strcmp(n->op_type, "ReduceSum") && n->n_input > 1 && onnx_in(im, n, 1))
    na = onnx_const_ints(onnx_in(im, n, 1), axes, MAX_RANK);
  else
    na = onnx_attr_ints(n, "axes", axes, MAX_RANK);
  if (na < 0)
    return onnx_error(im, n, "the axes must be a constant of at most 8");
  if (na == 0 && onnx_attr_i(n, "noop_with_empty_axes", 0)) {
    onnx_alias(o, x);
    return true;
  }
  bool reduced[MAX_RANK] = {false};
  if (na == 0)
    for (int d = 0; d < x->rank; ++d)
      axes[na++] = d;
  int64_t keep[MAX_RANK], paxes[MAX_RANK], kept[MAX_RANK];
  for (int k = 0; k < na; ++k) {
    if (!onnx_norm_axis(&axes[k], x->rank) || reduced[axes[k]])
      return onnx_error(im, n, "axes out of range or repeated");
    reduced[axes[k]] = true;
    paxes[k] = physical_axis(x, axes[k]);
  }
  int rank = 0;
  for (int d = 0; d < x->rank; ++d) {
    keep[d] = reduced[d] ? 1 : x->dims[d];
    if (!reduced[d])
      kept[rank++] = x->dims[d];
  }
  const char *op = !strcmp(n->op_type, "ReduceMean")  ? "tx8be.reduce_mean"
                   : !strcmp(n->op_type, "ReduceSum") ? "tx8be.reduce_sum"
                                                      : "tx8be.reduce_max";
  MlirNamedAttribute a = onnx_attr_i64s(im, "axes", paxes, na);
  MlirOperation r = onnx_build(
      im, op, 1, &x->v, physical_type(im, keep, x->rank, x->perm), 1, &a);
  if (onnx_attr_i(n, "keepdims", 1)) {
    set_result(im, o, r, keep, x->rank, x->perm);
    return true;
  }
  oval tmp = {.name = o->name};
  set_result(im, &tmp, r, keep, x->rank, x->perm);
  onnx_set_shape(im, n, o, kept, rank);
  onnx_set_reshaped(im, o, &tmp, kept, rank);
  return true;
}

/* tx8be.layernorm normalises the physical last axis: x's layout must keep
 * the logical last axis last. */
bool onnx_build_layernorm(importer *im, const Onnx__NodeProto *n, oval *x,
                          oval *scale, oval *bias, float eps, oval *out) {
  int64_t c = x->dims[x->rank - 1];
  if ((scale && scale->count != c) || (bias && bias->count != c))
    return onnx_error(im, n, "scale and bias must have %lld elements",
                      (long long)c);
  MlirValue v =
      x->perm[x->rank - 1] == x->rank - 1 ? x->v : onnx_logical(im, x);
  int perm[MAX_RANK];
  if (x->perm[x->rank - 1] == x->rank - 1)
    memcpy(perm, x->perm, sizeof perm);
  else
    onnx_identity_perm(perm, x->rank);
  float *ones = npuc_xmalloc((size_t)c * sizeof *ones + 1);
  float *zeros = npuc_xcalloc((size_t)c + 1, sizeof *zeros);
  for (int64_t k = 0; k < c; ++k)
    ones[k] = 1;
  MlirValue ops[3] = {
      v, scale ? onnx_logical(im, scale) : onnx_const_f(im, ones, &c, 1),
      bias ? onnx_logical(im, bias) : onnx_const_f(im, zeros, &c, 1)};
  free(ones), free(zeros);
  if (scale && scale->rank != 1)
    ops[1] = onnx_reshape(im, ops[1], &c, 1);
  if (bias && bias->rank != 1)
    ops[2] = onnx_reshape(im, ops[2], &c, 1);
  MlirNamedAttribute a = onnx_attr_f32(im, "epsilon", eps);
  MlirOperation r =
      onnx_build(im, "tx8be.layernorm", 3, ops, mlirValueGetType(v), 1, &a);
  set_result(im, out, r, x->dims, x->rank, perm);
  return true;
}

bool onnx_op_layernorm(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need(im, n, 0), *s = x ? need(im, n, 1) : NULL;
  if (!x || !s)
    return false;
  int64_t axis = onnx_attr_i(n, "axis", -1);
  if (!onnx_norm_axis(&axis, x->rank) || axis != x->rank - 1)
    return onnx_error(im, n,
                      "only normalisation over the last axis is "
                      "supported");
  for (size_t k = 1; k < n->n_output; ++k)
    if (n->output[k] && *n->output[k])
      return onnx_error(im, n,
                        "the Mean and InvStdDev outputs are not "
                        "supported");
  if (onnx_is_const(x))
    return onnx_error(im, n, "layer norm of a constant is not folded");
  return onnx_build_layernorm(im, n, x, s, onnx_in(im, n, 2),
                              onnx_attr_f(n, "epsilon", 1e-5f),
                              onnx_out(im, n, 0));
}
