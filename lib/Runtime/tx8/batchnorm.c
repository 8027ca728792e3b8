/* op_batchnorm_inference: the seed's 10-step flow on the CGRA tensor
 * engine, every step in fp32 in the scratch buffer `imm`:
 *   1-2  gatherScatter + convert the input into an fp32 copy (same layout)
 *   3    x - mean            (VuV: one [C] unit vector against every row)
 *   4-5  rsqrt(var + epsilon) (on the [C] vector)
 *   6-8  * rsqrt, * scale, + shift (VuV)
 *   9-10 convert back and gatherScatter into out.
 * imm holds the fp32 copy, then the [C] vector, each 2048-bit aligned. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

typedef enum { VUV_SUB, VUV_MUL, VUV_ADD } vuv_op;

static void bn_checks(const npuc_tx8_tsr *in, const npuc_tx8_tsr *scale,
                      const npuc_tx8_tsr *shift, const npuc_tx8_tsr *mean,
                      const npuc_tx8_tsr *var, const void *imm,
                      const npuc_tx8_tsr *out);
static void vuv(vuv_op op, const npuc_tx8_tsr *x, const float *unit);

static int64_t align_batch(int64_t bytes) {
  return (bytes + NPUC_TX8_BATCH_ALIGN_BYTES - 1) / NPUC_TX8_BATCH_ALIGN_BYTES *
         NPUC_TX8_BATCH_ALIGN_BYTES;
}

static npuc_tx8_tsr fp32_copy_of(const npuc_tx8_tsr *in, void *imm) {
  return npuc_tx8_tsr_make(imm, in->layout.dims, NPUC_TX8_F32, in->layout.mode);
}

int64_t npuc_tx8_batchnorm_imm_bytes(const npuc_tx8_tsr *in) {
  return npuc_tx8_batchnorm_imm_size(in->layout.dims, in->layout.mode);
}

uint64_t op_batchnorm_inference(const npuc_tx8_batchnorm_param *p,
                                const npuc_tx8_tsr *in,
                                const npuc_tx8_tsr *scale,
                                const npuc_tx8_tsr *shift,
                                const npuc_tx8_tsr *mean,
                                const npuc_tx8_tsr *var, void *imm,
                                const npuc_tx8_tsr *out) {
  bn_checks(in, scale, shift, mean, var, imm, out);
  int64_t c = in->layout.dims.c;
  npuc_tx8_tsr x = fp32_copy_of(in, imm);
  float *unit = (float *)((char *)imm + align_batch(x.layout.total_bytes));
  float *tmp = malloc((size_t)c * sizeof(float));
  npuc_tx8i_convert_rows(&x, in); /* 1-2 */
  npuc_tx8i_vector_f32(tmp, mean);
  vuv(VUV_SUB, &x, tmp); /* 3 */
  npuc_tx8i_vector_f32(unit, var);
  for (int64_t i = 0; i < c; ++i)
    unit[i] = 1.0f / sqrtf(unit[i] + p->epsilon); /* 4-5 */
  vuv(VUV_MUL, &x, unit);                         /* 6 */
  npuc_tx8i_vector_f32(tmp, scale);
  vuv(VUV_MUL, &x, tmp); /* 7 */
  npuc_tx8i_vector_f32(tmp, shift);
  vuv(VUV_ADD, &x, tmp);           /* 8 */
  npuc_tx8i_convert_rows(out, &x); /* 9-10 */
  free(tmp);
  return npuc_tx8_cycles_tdma(in->layout.total_bytes +
                              out->layout.total_bytes) +
         npuc_tx8_cycles_ct(x.layout.total_bytes, 6) +
         npuc_tx8_cycles_ct(c * (int64_t)sizeof(float), 2);
}

static void bn_checks(const npuc_tx8_tsr *in, const npuc_tx8_tsr *scale,
                      const npuc_tx8_tsr *shift, const npuc_tx8_tsr *mean,
                      const npuc_tx8_tsr *var, const void *imm,
                      const npuc_tx8_tsr *out) {
  const char *op = "op_batchnorm_inference";
  npuc_tx8i_check_in_out(op, in, out, true);
  npuc_tx8i_check_same_layout(op, "in and out", in, out);
  int64_t c = in->layout.dims.c;
  const npuc_tx8_tsr *vectors[] = {scale, shift, mean, var};
  const char *names[] = {"scale", "shift", "mean", "var"};
  for (int i = 0; i < 4; ++i) {
    npuc_tx8i_check_vector(op, names[i], vectors[i], c);
    npuc_tx8i_check_float(op, names[i], vectors[i]);
  }
  if (!imm)
    npuc_tx8_fail(op, "imm has no data");
}

/* One VuV instruction per contiguous run: the run against the matching
 * slice of the unit vector (fp32 x, in place). */
static void vuv(vuv_op op, const npuc_tx8_tsr *x, const float *unit) {
  const npuc_tx8_layout *l = &x->layout;
  for (int64_t n = 0; n < l->dims.n; ++n)
    for (int64_t hw = 0; hw < l->dims.hw; ++hw)
      for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
        npuc_tx8_run run = npuc_tx8_row_run(l, n, hw, r);
        float *v = (float *)tx8_at(x, run.offset);
        const float *u = unit + run.c_first;
        for (int64_t i = 0; i < run.count; ++i)
          v[i] = op == VUV_SUB   ? v[i] - u[i]
                 : op == VUV_MUL ? v[i] * u[i]
                                 : v[i] + u[i];
      }
}
