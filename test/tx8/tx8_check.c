/* npuc-tx8-check: recomputes a TX8 graph with the naive reference of
 * libnpuc_tx8_rt (npuc_tx8_ref_*, the seed's compute interface) and
 * compares a program's outputs with it within the dtype's tolerance.
 *
 * Usage: npuc-tx8-check GRAPH IN_DIR OUT_DIR
 * GRAPH (written by test/tx8/gen.py), one line each:
 *   in  NAME DTYPE RANK DIMS... FILE       a graph input, IN_DIR/FILE
 *   op  NAME DTYPE RANK DIMS... KIND [PARAMS] : OPERANDS...
 *   out NAME FILE                          compare with OUT_DIR/FILE
 * KIND and PARAMS: the unary ops (relu, gelu, ..., silu, gelu_tanh);
 * the binary ops (add, sub, mul, div, pow); batchnorm EPS; gemm TA TB;
 * conv SH SW PT PB PL PR DH DW G; reshape; clip MIN MAX;
 * reduce_sum|reduce_max|reduce_min|reduce_mean AXES (a bit mask);
 * softmax AXIS; layernorm EPS (operands x, scale, bias);
 * transpose P0 P1 ... (one per dimension); broadcast R D0 ... D(R-1)
 * (the input's rank, then dims); concat AXIS (up to 5 operands);
 * slice O0 ... S0 ... (offsets, then strides, one per dimension);
 * max_pool|avg_pool KH KW SH SW PT PB PL PR; global_avg_pool.
 * An operand `-` is an absent bias. Tensors are compact row-major.
 *
 * Tolerance: |got - ref| <= tol * (|ref| + mean |ref| of the output), tol
 * 8 ulps of the dtype (f32: 2^-16, for fp32 vs double accumulation); i8
 * must match exactly. Prints one line per output and exits 1 on a
 * mismatch, 2 on bad input. */
#include "npuc/Tx8Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TENSORS 64

typedef struct {
  char name[32];
  npuc_tx8_dtype dt;
  int rank;
  int64_t dims[8];
  void *data;
} tensor;

static tensor tensors[MAX_TENSORS];
static int num_tensors;

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, "npuc-tx8-check: error: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(2);
}

static int64_t count_of(const tensor *t) {
  int64_t n = 1;
  for (int d = 0; d < t->rank; ++d)
    n *= t->dims[d];
  return n;
}

static int64_t bytes_of(const tensor *t) {
  return count_of(t) * npuc_tx8_dtype_bytes(t->dt);
}

/* The reference's view of a tensor: batched (NTensor) from rank 3, so
 * gemm's and conv's rows per batch come out right; rank 1 and 2 as Tensor. */
static npuc_tx8_tsr tsr_of(const tensor *t) {
  npuc_tx8_layout_mode mode = t->rank >= 3 ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
  return npuc_tx8_tsr_make(
      t->data, npuc_tx8_dims_of_shape(t->dims, t->rank, mode), t->dt, mode);
}

static tensor *lookup(const char *name) {
  for (int i = 0; i < num_tensors; ++i)
    if (strcmp(tensors[i].name, name) == 0)
      return &tensors[i];
  die("unknown tensor '%s'", name);
  return NULL;
}

static npuc_tx8_dtype dtype_named(const char *s) {
  if (!strcmp(s, "f16"))
    return NPUC_TX8_F16;
  if (!strcmp(s, "bf16"))
    return NPUC_TX8_BF16;
  if (!strcmp(s, "f32"))
    return NPUC_TX8_F32;
  if (!strcmp(s, "i8"))
    return NPUC_TX8_I8;
  die("unknown dtype '%s'", s);
  return NPUC_TX8_F32;
}

static void *read_file(const char *dir, const char *file, int64_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "rb");
  if (!f)
    die("cannot read %s", path);
  void *data = calloc((size_t)bytes + 1, 1);
  size_t got = fread(data, 1, (size_t)bytes + 1, f);
  fclose(f);
  if ((int64_t)got != bytes)
    die("%s has the wrong size", path);
  return data;
}

/* Reads "NAME DTYPE RANK DIMS..." into a new tensor. */
static tensor *declare(char **save) {
  if (num_tensors == MAX_TENSORS)
    die("more than %s tensors", "64");
  tensor *t = &tensors[num_tensors++];
  char *name = strtok_r(NULL, " \t\n", save),
       *dt = strtok_r(NULL, " \t\n", save),
       *rank = strtok_r(NULL, " \t\n", save);
  if (!name || !dt || !rank)
    die("malformed line%s", "");
  snprintf(t->name, sizeof t->name, "%s", name);
  t->dt = dtype_named(dt);
  t->rank = atoi(rank);
  if (t->rank < 1 || t->rank > 8)
    die("bad rank for %s", name);
  for (int d = 0; d < t->rank; ++d) {
    char *v = strtok_r(NULL, " \t\n", save);
    if (!v)
      die("missing dimension of %s", name);
    t->dims[d] = atoll(v);
  }
  return t;
}

static void run_op(tensor *out, char **save);
static int compare(const tensor *ref, const char *dir, const char *file);

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: npuc-tx8-check GRAPH IN_DIR OUT_DIR\n");
    return 2;
  }
  FILE *g = fopen(argv[1], "r");
  if (!g)
    die("cannot read %s", argv[1]);
  char line[4096];
  int failures = 0, outputs = 0;
  while (fgets(line, sizeof line, g)) {
    char *save = NULL, *kind = strtok_r(line, " \t\n", &save);
    if (!kind || kind[0] == '#')
      continue;
    if (!strcmp(kind, "in")) {
      tensor *t = declare(&save);
      char *file = strtok_r(NULL, " \t\n", &save);
      if (!file)
        die("input %s has no file", t->name);
      t->data = read_file(argv[2], file, bytes_of(t));
    } else if (!strcmp(kind, "op")) {
      tensor *t = declare(&save);
      t->data = calloc((size_t)bytes_of(t), 1);
      run_op(t, &save);
    } else if (!strcmp(kind, "out")) {
      char *name = strtok_r(NULL, " \t\n", &save),
           *file = strtok_r(NULL, " \t\n", &save);
      if (!name || !file)
        die("malformed out line%s", "");
      failures += !compare(lookup(name), argv[3], file);
      ++outputs;
    } else {
      die("unknown line kind '%s'", kind);
    }
  }
  fclose(g);
  for (int i = 0; i < num_tensors; ++i)
    free(tensors[i].data);
  if (!outputs)
    die("no outputs to compare%s", "");
  return failures ? 1 : 0;
}

/* ---- the ops
 * ---------------------------------------------------------------------- */

/* In the runtime enums' order: the rows of npuc/Tx8Ops.def. */
static const char *const unary_names[] = {
#define TX8_UNARY(op, ENUM, PASSES) #op,
#include "npuc/Tx8Ops.def"
    NULL};
static const char *const binary_names[] = {
#define TX8_BINARY(op, ENUM, PASSES) #op,
#include "npuc/Tx8Ops.def"
    NULL};
static const char *const reduce_names[] = {
#define TX8_REDUCE(op, ENUM, PASSES) #op,
#include "npuc/Tx8Ops.def"
    NULL};

static int index_in(const char *const *names, const char *s) {
  for (int i = 0; names[i]; ++i)
    if (!strcmp(names[i], s))
      return i;
  return -1;
}

static int next_int(char **save) {
  char *v = strtok_r(NULL, " \t\n", save);
  if (!v)
    die("missing parameter%s", "");
  return atoi(v);
}

/* The operands after ':' (their tensors in `ts`); `-` is absent. */
static const tensor *ts[5];

static int operands(char **save, npuc_tx8_tsr *tsrs, bool *present, int max) {
  char *colon = strtok_r(NULL, " \t\n", save);
  if (!colon || strcmp(colon, ":"))
    die("expected ':' before the operands%s", "");
  int n = 0;
  for (char *v; (v = strtok_r(NULL, " \t\n", save)) && n < max; ++n) {
    present[n] = strcmp(v, "-") != 0;
    if (present[n]) {
      ts[n] = lookup(v);
      tsrs[n] = tsr_of(ts[n]);
    }
  }
  return n;
}

static bool run_shaped_op(const char *kind, tensor *out, char **save);

static void run_op(tensor *out, char **save) {
  char *kind = strtok_r(NULL, " \t\n", save);
  if (!kind)
    die("op %s has no kind", out->name);
  npuc_tx8_tsr o = tsr_of(out), in[5];
  bool present[5] = {false};
  int u = index_in(unary_names, kind), b = index_in(binary_names, kind);
  if (u >= 0) {
    operands(save, in, present, 1);
    npuc_tx8_ref_unary((npuc_tx8_unary_op)u, &in[0], &o);
  } else if (b >= 0) {
    operands(save, in, present, 2);
    npuc_tx8_ref_binary((npuc_tx8_binary_op)b, &in[0], &in[1], &o);
  } else if (!strcmp(kind, "reshape")) { /* same elements, compact */
    operands(save, in, present, 1);
    if (count_of(ts[0]) != count_of(out) || ts[0]->dt != out->dt)
      die("reshape of %s changes the elements", out->name);
    memcpy(out->data, ts[0]->data, (size_t)bytes_of(out));
  } else if (!strcmp(kind, "batchnorm")) {
    char *eps = strtok_r(NULL, " \t\n", save);
    npuc_tx8_batchnorm_param p = {eps ? strtof(eps, NULL) : 1e-6f};
    operands(save, in, present, 5);
    npuc_tx8_ref_batchnorm_inference(&p, &in[0], &in[1], &in[2], &in[3], &in[4],
                                     &o);
  } else if (!strcmp(kind, "gemm")) {
    npuc_tx8_gemm_param p = {0};
    p.transpose_a = next_int(save);
    p.transpose_b = next_int(save);
    operands(save, in, present, 3);
    /* Batched ([B,H,M,K] x [B,H,K,N]): the matrices per batch. */
    p.heads = 1;
    for (int d = 1; ts[1]->rank > 2 && d < out->rank - 2; ++d)
      p.heads *= (int32_t)out->dims[d];
    npuc_tx8_ref_gemm(&p, &in[0], &in[1], present[2] ? &in[2] : NULL, &o);
    (void)ts;
  } else if (!strcmp(kind, "conv")) {
    int v[9];
    for (int i = 0; i < 9; ++i)
      v[i] = next_int(save);
    operands(save, in, present, 3);
    npuc_tx8_conv_param p = {.in_h = (int32_t)ts[0]->dims[1],
                             .in_w = (int32_t)ts[0]->dims[2],
                             .kernel_h = (int32_t)ts[1]->dims[0],
                             .kernel_w = (int32_t)ts[1]->dims[1],
                             .stride_h = v[0],
                             .stride_w = v[1],
                             .pad_top = v[2],
                             .pad_left = v[4],
                             .dilation_h = v[6],
                             .dilation_w = v[7],
                             .out_h = (int32_t)out->dims[1],
                             .out_w = (int32_t)out->dims[2],
                             .groups = v[8]};
    /* HWOI weights as one batch of KH*KW*O rows. */
    npuc_tx8_tsr w = npuc_tx8_tsr_make(
        ts[1]->data, npuc_tx8_dims_of_shape(ts[1]->dims, 4, NPUC_TX8_TENSOR),
        ts[1]->dt, NPUC_TX8_TENSOR);
    npuc_tx8_ref_conv(&p, &in[0], &w, present[2] ? &in[2] : NULL, &o);
  } else if (!run_shaped_op(kind, out, save)) {
    die("unknown op kind '%s'", kind);
  }
}

/* A tensor's shape as the runtime's int32 shape. */
static int32_t shape32(const tensor *t, int32_t *shape) {
  for (int d = 0; d < t->rank; ++d)
    shape[d] = (int32_t)t->dims[d];
  return t->rank;
}

static bool run_move_op(const char *kind, tensor *out, char **save);

/* The issue-17 ops; false for an unknown kind. */
static bool run_shaped_op(const char *kind, tensor *out, char **save) {
  npuc_tx8_tsr o = tsr_of(out), in[5];
  bool present[5] = {false};
  int r = index_in(reduce_names, kind);
  if (!strcmp(kind, "clip")) {
    char *lo = strtok_r(NULL, " \t\n", save),
         *hi = strtok_r(NULL, " \t\n", save);
    if (!lo || !hi)
      die("clip of %s needs MIN MAX", out->name);
    npuc_tx8_clip_param p = {strtof(lo, NULL), strtof(hi, NULL)};
    operands(save, in, present, 1);
    npuc_tx8_ref_clip(&p, &in[0], &o);
  } else if (r >= 0) {
    npuc_tx8_reduce_param p = {.axes = (uint32_t)next_int(save)};
    operands(save, in, present, 1);
    p.dim = shape32(ts[0], p.shape);
    npuc_tx8_ref_reduce((npuc_tx8_reduce_op)r, &p, &in[0], &o);
  } else if (!strcmp(kind, "softmax")) {
    npuc_tx8_softmax_param p = {.axis = next_int(save)};
    operands(save, in, present, 1);
    p.dim = shape32(ts[0], p.shape);
    if (p.axis < 0 || p.axis >= p.dim)
      die("softmax axis out of range for %s", out->name);
    npuc_tx8_ref_softmax(&p, &in[0], &o);
  } else if (!strcmp(kind, "layernorm")) {
    char *eps = strtok_r(NULL, " \t\n", save);
    npuc_tx8_layernorm_param p = {eps ? strtof(eps, NULL) : 1e-5f};
    operands(save, in, present, 3);
    npuc_tx8_ref_layernorm(&p, &in[0], &in[1], &in[2], &o);
  } else if (!strcmp(kind, "transpose")) {
    npuc_tx8_transpose_param p = {.dim = out->rank};
    for (int d = 0; d < out->rank; ++d)
      p.perm[d] = next_int(save);
    operands(save, in, present, 1);
    if (shape32(ts[0], p.shape) != p.dim)
      die("transpose of %s changes the rank", out->name);
    npuc_tx8_ref_transpose(&p, &in[0], &o);
  } else {
    return run_move_op(kind, out, save);
  }
  return true;
}

/* ---- comparing
 * ---------------------------------------------------------------------- */

static double tolerance(npuc_tx8_dtype dt) {
  switch (dt) {
  case NPUC_TX8_F16: return 8 * ldexp(1, -10);
  case NPUC_TX8_BF16: return 8 * ldexp(1, -7);
  case NPUC_TX8_F32: return ldexp(1, -16);
  case NPUC_TX8_I8: return 0;
  }
  return 0;
}

static int compare(const tensor *ref, const char *dir, const char *file) {
  tensor got = *ref;
  got.data = read_file(dir, file, bytes_of(ref));
  npuc_tx8_tsr r = tsr_of(ref), g = tsr_of(&got);
  npuc_tx8_dims d = r.layout.dims;
  double mean = 0, worst = 0, tol = tolerance(ref->dt);
  int64_t n = count_of(ref), bad = 0, first = -1;
  for (int64_t i = 0; i < n; ++i)
    mean += fabs(npuc_tx8_get(&r, i / (d.hw * d.c), i / d.c % d.hw, i % d.c));
  mean /= (double)n;
  for (int64_t i = 0; i < n; ++i) {
    int64_t b = i / (d.hw * d.c), hw = i / d.c % d.hw, c = i % d.c;
    double want = npuc_tx8_get(&r, b, hw, c), have = npuc_tx8_get(&g, b, hw, c);
    double err = fabs(have - want), bound = tol * (fabs(want) + mean);
    bool ok = err <= bound || (isnan(want) && isnan(have));
    if (!ok && first < 0)
      first = i;
    bad += !ok;
    double ratio = bound > 0 ? err / bound : err > 0 ? INFINITY : 0;
    if (ratio > worst)
      worst = ratio;
  }
  if (bad) {
    int64_t b = first / (d.hw * d.c), hw = first / d.c % d.hw, c = first % d.c;
    printf("%s: MISMATCH in %lld of %lld elements; first at element %lld: got "
           "%.9g, "
           "expected %.9g\n",
           file, (long long)bad, (long long)n, (long long)first,
           npuc_tx8_get(&g, b, hw, c), npuc_tx8_get(&r, b, hw, c));
  } else {
    printf("%s: %lld elements match (%s, worst error %.3g of the tolerance)\n",
           file, (long long)n, npuc_tx8_dtype_name(ref->dt), worst);
  }
  free(got.data);
  return bad == 0;
}

static bool run_pool(const char *kind, tensor *out, char **save);

/* broadcast, concat, slice; false for an unknown kind. */
static bool run_move_op(const char *kind, tensor *out, char **save) {
  npuc_tx8_tsr o = tsr_of(out), in[5];
  bool present[5] = {false};
  if (!strcmp(kind, "broadcast")) {
    npuc_tx8_broadcast_param p = {.dim = next_int(save)};
    if (p.dim < 1 || p.dim > out->rank)
      die("broadcast of %s: bad input rank", out->name);
    for (int d = 0; d < p.dim; ++d)
      p.dims[d] = next_int(save);
    operands(save, in, present, 1);
    if (shape32(ts[0], p.shape) != p.dim)
      die("broadcast of %s: the input's rank differs", out->name);
    p.out_dim = shape32(out, p.out_shape);
    npuc_tx8_ref_broadcast(&p, &in[0], &o);
  } else if (!strcmp(kind, "concat")) {
    npuc_tx8_concat_param p = {.axis = next_int(save)};
    p.count = operands(save, in, present, NPUC_TX8_MAX_CONCAT);
    p.dim = shape32(out, p.shape);
    if (p.axis < 0 || p.axis >= p.dim)
      die("concat axis out of range for %s", out->name);
    const npuc_tx8_tsr *ins[NPUC_TX8_MAX_CONCAT];
    for (int i = 0; i < p.count; ++i) {
      if (!present[i] || ts[i]->rank != p.dim)
        die("concat of %s: an operand of another rank", out->name);
      p.lengths[i] = (int32_t)ts[i]->dims[p.axis];
      ins[i] = &in[i];
    }
    npuc_tx8_ref_concat(&p, ins, &o);
  } else if (!strcmp(kind, "slice")) {
    npuc_tx8_slice_param p = {.dim = out->rank};
    for (int d = 0; d < p.dim; ++d)
      p.offsets[d] = next_int(save);
    for (int d = 0; d < p.dim; ++d)
      p.strides[d] = next_int(save);
    operands(save, in, present, 1);
    shape32(out, p.shape);
    if (shape32(ts[0], p.in_shape) != p.dim)
      die("slice of %s changes the rank", out->name);
    npuc_tx8_ref_slice(&p, &in[0], &o);
  } else {
    return run_pool(kind, out, save);
  }
  return true;
}

/* NHWC pooling; false for an unknown kind. */
static bool run_pool(const char *kind, tensor *out, char **save) {
  bool global = !strcmp(kind, "global_avg_pool");
  if (!global && strcmp(kind, "max_pool") && strcmp(kind, "avg_pool"))
    return false;
  int v[8] = {0};
  for (int i = 0; i < 8 && !global; ++i)
    v[i] = next_int(save);
  npuc_tx8_tsr o = tsr_of(out), in[1];
  bool present[1] = {false};
  operands(save, in, present, 1);
  if (ts[0]->rank != 4 || out->rank != 4)
    die("pooling of %s needs 4-D NHWC tensors", out->name);
  npuc_tx8_conv_param p = {.in_h = (int32_t)ts[0]->dims[1],
                           .in_w = (int32_t)ts[0]->dims[2],
                           .kernel_h = global ? (int32_t)ts[0]->dims[1] : v[0],
                           .kernel_w = global ? (int32_t)ts[0]->dims[2] : v[1],
                           .stride_h = global ? 1 : v[2],
                           .stride_w = global ? 1 : v[3],
                           .pad_top = v[4],
                           .pad_left = v[6],
                           .dilation_h = 1,
                           .dilation_w = 1,
                           .out_h = (int32_t)out->dims[1],
                           .out_w = (int32_t)out->dims[2],
                           .groups = 1};
  npuc_tx8_ref_pool(strcmp(kind, "max_pool") ? NPUC_TX8_POOL_AVG
                                             : NPUC_TX8_POOL_MAX,
                    &p, &in[0], &o);
  return true;
}
