/* Shape and layout inference for tx8be ops, one function per rule the op
 * table's `infer:` entries name (the seed's ShapeInferenceOpInterface:
 * inferShapes and inferLayout). Passes look the rule up with
 * npuc_tx8_query_op_attr and call these; no pass carries its own. */
#include "npuc/Checked.h"
#include "npuc/TX8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool infer_broadcast(const npuc_tx8_shape *ops, npuc_tx8_shape *r,
                            char *err, size_t cap);
static bool infer_gemm(const npuc_tx8_shape *ops, const npuc_tx8_infer_attrs *a,
                       npuc_tx8_shape *r, char *err, size_t cap);
static bool infer_conv(const npuc_tx8_shape *ops, const npuc_tx8_infer_attrs *a,
                       npuc_tx8_shape *r, char *err, size_t cap);
static bool infer_transpose(const npuc_tx8_shape *ops,
                            const npuc_tx8_infer_attrs *a, npuc_tx8_shape *r,
                            char *err, size_t cap);

static int operands_needed(npuc_tx8_shape_rule rule) {
  switch (rule) {
  case NPUC_TX8_SHAPE_BROADCAST:
  case NPUC_TX8_SHAPE_GEMM:
  case NPUC_TX8_SHAPE_CONV: return 2;
  default: return 1;
  }
}

bool npuc_tx8_infer_shape(npuc_tx8_shape_rule rule, const npuc_tx8_shape *ops,
                          int num_ops, const npuc_tx8_infer_attrs *attrs,
                          npuc_tx8_shape *result, char *err, size_t err_cap) {
  static const npuc_tx8_infer_attrs none = {0};
  const npuc_tx8_infer_attrs *a = attrs ? attrs : &none;
  bool infers = rule != NPUC_TX8_SHAPE_GIVEN && rule != NPUC_TX8_SHAPE_TUPLE &&
                rule != NPUC_TX8_SHAPE_NONE;
  if (!infers)
    return fail(err, err_cap, "the op states its result type");
  if (num_ops < operands_needed(rule))
    return fail(err, err_cap, "needs %d operands, got %d",
                operands_needed(rule), num_ops);
  switch (rule) {
  case NPUC_TX8_SHAPE_BROADCAST:
    return infer_broadcast(ops, result, err, err_cap);
  case NPUC_TX8_SHAPE_GEMM: return infer_gemm(ops, a, result, err, err_cap);
  case NPUC_TX8_SHAPE_CONV: return infer_conv(ops, a, result, err, err_cap);
  case NPUC_TX8_SHAPE_TRANSPOSE:
    return infer_transpose(ops, a, result, err, err_cap);
  default: *result = ops[0]; return true;
  }
}

static bool fail(char *err, size_t cap, const char *fmt, ...) {
  if (err && cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
  }
  return false;
}

/* ---- shapes ----------------------------------------------------------------
 */

/* Numpy broadcasting, aligned at the last dimension: a rank-1 [C] operand
 * against [N, H, W, C] is the CGRA's VuV case. */
static bool infer_broadcast(const npuc_tx8_shape *ops, npuc_tx8_shape *r,
                            char *err, size_t cap) {
  const npuc_tx8_shape *x = &ops[0], *y = &ops[1];
  r->rank = x->rank > y->rank ? x->rank : y->rank;
  for (int i = 1; i <= r->rank; ++i) {
    int64_t dx = i <= x->rank ? x->dims[x->rank - i] : 1;
    int64_t dy = i <= y->rank ? y->dims[y->rank - i] : 1;
    if (dx != dy && dx != 1 && dy != 1)
      return fail(err, cap, "dimension %d: %lld and %lld do not broadcast",
                  r->rank - i, (long long)dx, (long long)dy);
    r->dims[r->rank - i] = dx == 1 ? dy : dx;
  }
  return true;
}

/* a is [..., M, K] (leading dimensions are batches; [..., K, M] with
 * transpose_a), b is [K, N] ([N, K] with transpose_b): [..., M, N]. */
static bool infer_gemm(const npuc_tx8_shape *ops, const npuc_tx8_infer_attrs *a,
                       npuc_tx8_shape *r, char *err, size_t cap) {
  const npuc_tx8_shape *x = &ops[0], *y = &ops[1];
  if (x->rank < 2 || y->rank != 2)
    return fail(err, cap, "gemm takes a of rank >= 2 and b of rank 2");
  int64_t m = x->dims[x->rank - (a->transpose_a ? 1 : 2)];
  int64_t k = x->dims[x->rank - (a->transpose_a ? 2 : 1)];
  int64_t bk = y->dims[a->transpose_b ? 1 : 0];
  int64_t n = y->dims[a->transpose_b ? 0 : 1];
  if (k != bk)
    return fail(err, cap, "gemm contracts %lld with %lld", (long long)k,
                (long long)bk);
  *r = *x;
  r->dims[r->rank - 2] = m;
  r->dims[r->rank - 1] = n;
  return true;
}

/* One output extent of a conv window, computed checked: false when a
 * pad, kernel or dilation makes it overflow int64 (*out is then unset). */
static bool conv_extent(int64_t in, int64_t pad_a, int64_t pad_b,
                        int64_t kernel, int64_t stride, int64_t dilation,
                        int64_t *out) {
  int64_t padded, span;
  if (!npuc_checked_add(in, pad_a, &padded) ||
      !npuc_checked_add(padded, pad_b, &padded) ||
      !npuc_checked_mul(dilation, kernel - 1, &span) ||
      !npuc_checked_add(span, 1, &span))
    return false;
  *out = padded < span ? 0 : (padded - span) / stride + 1;
  return true;
}

/* input [N, H, W, C], weight HWOI [KH, KW, O, C / group]: [N, OH, OW, O]. */
static bool infer_conv(const npuc_tx8_shape *ops, const npuc_tx8_infer_attrs *a,
                       npuc_tx8_shape *r, char *err, size_t cap) {
  const npuc_tx8_shape *x = &ops[0], *w = &ops[1];
  if (x->rank != 4 || w->rank != 4)
    return fail(err, cap, "conv takes an NHWC input and HWOI weights");
  if (!a->strides || !a->pads || !a->dilations)
    return fail(err, cap, "conv needs strides, pads and dilations");
  int64_t group = a->group > 0 ? a->group : 1, channels;
  if (!npuc_checked_mul(w->dims[3], group, &channels) ||
      channels != x->dims[3] || w->dims[2] % group)
    return fail(err, cap,
                "conv of %lld channels in %lld groups cannot take "
                "weights of %lld input channels",
                (long long)x->dims[3], (long long)group, (long long)w->dims[3]);
  for (int i = 0; i < 2; ++i)
    if (a->strides[i] <= 0 || a->dilations[i] <= 0)
      return fail(err, cap, "conv strides and dilations must be positive");
  *r = *x;
  for (int i = 0; i < 2; ++i)
    if (!conv_extent(x->dims[1 + i], a->pads[2 * i], a->pads[2 * i + 1],
                     w->dims[i], a->strides[i], a->dilations[i],
                     &r->dims[1 + i]))
      return fail(err, cap,
                  "the conv window of dimension %d overflows int64: pads "
                  "%lld and %lld, kernel %lld, dilation %lld",
                  1 + i, (long long)a->pads[2 * i],
                  (long long)a->pads[2 * i + 1], (long long)w->dims[i],
                  (long long)a->dilations[i]);
  r->dims[3] = w->dims[2];
  if (r->dims[1] <= 0 || r->dims[2] <= 0)
    return fail(err, cap, "the conv window does not fit the input");
  return true;
}

static bool is_permutation(const int64_t *perm, int rank) {
  bool seen[NPUC_TX8_MAX_RANK] = {false};
  for (int i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
      return false;
    seen[perm[i]] = true;
  }
  return true;
}

/* Result dimension i is input dimension permutation[i]. */
static bool infer_transpose(const npuc_tx8_shape *ops,
                            const npuc_tx8_infer_attrs *a, npuc_tx8_shape *r,
                            char *err, size_t cap) {
  const npuc_tx8_shape *x = &ops[0];
  if (!a->permutation || !is_permutation(a->permutation, x->rank))
    return fail(err, cap, "transpose needs a permutation of %d dimensions",
                x->rank);
  r->rank = x->rank;
  for (int i = 0; i < x->rank; ++i)
    r->dims[i] = x->dims[a->permutation[i]];
  return true;
}

/* ---- layouts
 * ------------------------------------------------------------------- */

static bool copy_out(const char *s, size_t n, char *out, size_t cap) {
  if (n + 1 > cap)
    return false;
  memcpy(out, s, n);
  out[n] = '\0';
  return true;
}

/* The seed's example: NCHW through transpose (0, 2, 3, 1) is NHWC. Only
 * one-letter-per-dimension layouts permute; Tensor/NTensor do not. */
static bool permute_layout(const char *in, const int64_t *perm, int rank,
                           char *out, size_t cap) {
  if (!perm || (int)strlen(in) != rank || rank > NPUC_TX8_MAX_RANK ||
      !is_permutation(perm, rank) || (size_t)rank + 1 > cap)
    return false;
  for (int i = 0; i < rank; ++i)
    out[i] = in[perm[i]];
  out[rank] = '\0';
  return true;
}

bool npuc_tx8_infer_layout(npuc_tx8_layout_rule rule, const char *in,
                           const int64_t *permutation, int rank, char *out,
                           size_t out_cap) {
  if (!in)
    return false;
  switch (rule) {
  case NPUC_TX8_LAYOUT_SAME: return copy_out(in, strlen(in), out, out_cap);
  case NPUC_TX8_LAYOUT_PERMUTE:
    return permute_layout(in, permutation, rank, out, out_cap);
  case NPUC_TX8_LAYOUT_SOURCE: {
    const char *last = strrchr(in, '-');
    last = last ? last + 1 : in;
    return copy_out(last, strlen(last), out, out_cap);
  }
  default: return false;
  }
}

/* ---- layout_str names and backward inference
 * ----------------------------------------- */

int npuc_tx8_layout_num_components(const char *layout_str) {
  int n = 1;
  for (const char *p = layout_str; *p; ++p)
    n += *p == '-';
  return n;
}

bool npuc_tx8_layout_component(const char *layout_str, int index, char *out,
                               size_t out_cap) {
  const char *start = layout_str;
  for (int i = 0; i < index; ++i) {
    start = strchr(start, '-');
    if (!start)
      return false;
    ++start;
  }
  const char *end = strchr(start, '-');
  return copy_out(start, end ? (size_t)(end - start) : strlen(start), out,
                  out_cap);
}

bool npuc_tx8_layout_name_valid(const char *name, int rank) {
  if (strcmp(name, "Tensor") == 0 || strcmp(name, "NTensor") == 0)
    return true;
  if ((int)strlen(name) != rank || rank == 0)
    return false;
  for (int i = 0; i < rank; ++i)
    if (!strchr("NCHWDOI", name[i]) || strchr(name + i + 1, name[i]))
      return false;
  return true;
}

npuc_tx8_layout_mode npuc_tx8_mem_layout_of(const char *name, bool aligned) {
  bool batched = name[0] == 'N';
  if (aligned)
    return batched ? NPUC_TX8_NCX : NPUC_TX8_CX;
  return batched ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
}

bool npuc_tx8_layout_mode_parse(const char *text, size_t len,
                                npuc_tx8_layout_mode *out) {
  static const npuc_tx8_layout_mode modes[] = {
      NPUC_TX8_TENSOR, NPUC_TX8_NTENSOR, NPUC_TX8_CX, NPUC_TX8_NCX};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i) {
    const char *name = npuc_tx8_layout_name(modes[i]);
    if (strlen(name) == len && memcmp(name, text, len) == 0) {
      *out = modes[i];
      return true;
    }
  }
  return false;
}

bool npuc_tx8_layouts_coincide(npuc_tx8_layout_mode a, npuc_tx8_layout_mode b,
                               const int64_t *shape, int rank) {
  if (npuc_tx8_is_aligned(a) != npuc_tx8_is_aligned(b))
    return false;
  if (a == b || !npuc_tx8_is_aligned(a))
    return true;
  return rank < 2 || shape[0] == 1;
}

static bool inverse_permute_layout(const char *in, const int64_t *perm,
                                   int rank, char *out, size_t cap) {
  if (!perm || (int)strlen(in) != rank || rank > NPUC_TX8_MAX_RANK ||
      !is_permutation(perm, rank) || (size_t)rank + 1 > cap)
    return false;
  for (int i = 0; i < rank; ++i)
    out[perm[i]] = in[i];
  out[rank] = '\0';
  return true;
}

bool npuc_tx8_infer_operand_layout(npuc_tx8_layout_rule rule,
                                   const char *op_layout, int operand,
                                   int operand_rank, int result_rank,
                                   const int64_t *permutation, char *out,
                                   size_t out_cap) {
  if (!op_layout)
    return false;
  switch (rule) {
  case NPUC_TX8_LAYOUT_SAME:
    return operand_rank == result_rank &&
           copy_out(op_layout, strlen(op_layout), out, out_cap);
  case NPUC_TX8_LAYOUT_PERMUTE:
    return operand == 0 && inverse_permute_layout(op_layout, permutation,
                                                  result_rank, out, out_cap);
  case NPUC_TX8_LAYOUT_SOURCE:
    /* The last component is the result's; the others name operands. */
    return operand < npuc_tx8_layout_num_components(op_layout) - 1 &&
           npuc_tx8_layout_component(op_layout, operand, out, out_cap);
  default: return false;
  }
}
