/* Pooling on the CGRA tensor engine: NHWC max and average pooling, the
 * window placed as a convolution's. Per output pixel the valid taps'
 * channel rows are combined with one vector op each; padding taps are
 * skipped (average divides by the valid count: count_include_pad = 0). */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

static void pool_checks(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                        const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "op_pool";
  npuc_tx8i_check_in_out(name, in, out, false);
  if (op == NPUC_TX8_POOL_AVG)
    npuc_tx8i_check_float(name, "in", in);
  if (p->kernel_h <= 0 || p->kernel_w <= 0 || p->stride_h <= 0 ||
      p->stride_w <= 0 || p->pad_top < 0 || p->pad_left < 0 ||
      p->pad_top >= p->kernel_h || p->pad_left >= p->kernel_w)
    npuc_tx8_fail(name, "kernel and strides must be positive, pads below "
                        "the kernel");
  npuc_tx8_dims id = in->layout.dims, od = out->layout.dims;
  if (id.hw != (int64_t)p->in_h * p->in_w ||
      od.hw != (int64_t)p->out_h * p->out_w || id.n != od.n || id.c != od.c)
    npuc_tx8_fail(name, "in must be N x in_h*in_w x C and out N x "
                        "out_h*out_w x C");
}

/* Output pixel (oh, ow) of batch n into acc; returns the valid taps. */
static int64_t pool_pixel(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                          const npuc_tx8_tsr *in, int64_t n, int64_t oh,
                          int64_t ow, float *acc, float *row) {
  int64_t c = in->layout.dims.c, taps = 0;
  for (int64_t k = 0; k < c; ++k)
    acc[k] = op == NPUC_TX8_POOL_MAX ? -INFINITY : 0.0f;
  for (int64_t kh = 0; kh < p->kernel_h; ++kh)
    for (int64_t kw = 0; kw < p->kernel_w; ++kw) {
      int64_t ih = oh * p->stride_h - p->pad_top + kh;
      int64_t iw = ow * p->stride_w - p->pad_left + kw;
      if (ih < 0 || ih >= p->in_h || iw < 0 || iw >= p->in_w)
        continue;
      npuc_tx8i_load_row(row, in, n, ih * p->in_w + iw);
      for (int64_t k = 0; k < c; ++k)
        acc[k] = op == NPUC_TX8_POOL_MAX
                     ? (row[k] > acc[k] || isnan(row[k]) ? row[k] : acc[k])
                     : acc[k] + row[k];
      ++taps;
    }
  return taps;
}

uint64_t op_pool(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                 const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  pool_checks(op, p, in, out);
  npuc_tx8_dims od = out->layout.dims;
  float *acc = malloc((size_t)od.c * 2 * sizeof(float)), *row = acc + od.c;
  npuc_tx8i_clear_padding(out);
  for (int64_t n = 0; n < od.n; ++n)
    for (int64_t oh = 0; oh < p->out_h; ++oh)
      for (int64_t ow = 0; ow < p->out_w; ++ow) {
        int64_t taps = pool_pixel(op, p, in, n, oh, ow, acc, row);
        /* A window entirely in the padding has no value: 0 (ONNX leaves
         * it undefined; npuc_tx8_slice_check rules it out). */
        for (int64_t k = 0; k < od.c; ++k)
          acc[k] = taps == 0                 ? 0.0f
                   : op == NPUC_TX8_POOL_AVG ? acc[k] / (float)taps
                                             : acc[k];
        npuc_tx8i_store_row(out, n, oh * p->out_w + ow, acc);
      }
  free(acc);
  return npuc_tx8_cycles_pool(out->layout.total_bytes,
                              (int64_t)p->kernel_h * p->kernel_w,
                              op == NPUC_TX8_POOL_AVG);
}
