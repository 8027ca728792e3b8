/* Elementwise ops, compare, broadcast and select.
 *
 * Every op here runs the same way: an n-d loop over dst's shape yields
 * rows; a row is cut into chunks; each input chunk is read in place when
 * its storage already is the compute type and it is dense (else it is
 * converted into a temporary), a dense kernel loop computes the chunk, and
 * the result is written in place or rounded/wrapped into dst. Same-shape
 * dense operands merge into one row, so the common case (dense f32, f64,
 * i8..i64 with or without a scalar) is a single tight loop over the whole
 * buffer with no index arithmetic and no copies. */
#include "internal.h"

/* ---- the dense loops ---------------------------------------------------- */

/* One per compute type, instantiated from ew_float.inc and ew_int.inc. */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* One op's dense loop for the type T being instantiated: its inputs (a, b,
 * c; a select's condition a is int8_t) and d[i] = its expression. Which
 * ops a type gets: EW_FLOAT_<kinds> and EW_INT_<kinds> of the op's line in
 * npuc/HivmElementwise.def. The .inc files paste NPUC_EW_<NAME> before
 * passing it on, as MAX and MIN are also macros there. */
#define EW_IN_1 const T *a = in[0];
#define EW_IN_2 const T *a = in[0], *b = in[1];
#define EW_IN_3                                                                \
  const int8_t *a = in[0];                                                     \
  const T *b = in[1], *c = in[2];
#define EW_LOOP(op, arity, expr)                                               \
  case op: {                                                                   \
    EW_IN_##arity for (size_t i = 0; i < n; i++) d[i] = (expr);                \
    return;                                                                    \
  }
#define EW_SKIP(op, arity, expr)
#define EW_FLOAT_F EW_LOOP
#define EW_FLOAT_FI EW_LOOP
#define EW_FLOAT_I EW_SKIP
#define EW_INT_I EW_LOOP
#define EW_INT_FI EW_LOOP
#define EW_INT_F EW_SKIP

#define T float
#define FN(name) CAT(name, f)
#define MAX rt_maxf
#define MIN rt_minf
#define EW_NAME ew_f32
#define CMP_NAME cmp_f32
#include "ew_float.inc"

#define T double
#define FN(name) name
#define MAX rt_max
#define MIN rt_min
#define EW_NAME ew_f64
#define CMP_NAME cmp_f64
#include "ew_float.inc"

#define T int8_t
#define UT uint32_t
#define W 8
#define SFX(name) CAT(name, _i8)
#define EW_NAME ew_i8
#define CMP_NAME cmp_i8
#include "ew_int.inc"

#define T int16_t
#define UT uint32_t
#define W 16
#define SFX(name) CAT(name, _i16)
#define EW_NAME ew_i16
#define CMP_NAME cmp_i16
#include "ew_int.inc"

#define T int32_t
#define UT uint32_t
#define W 32
#define SFX(name) CAT(name, _i32)
#define EW_NAME ew_i32
#define CMP_NAME cmp_i32
#include "ew_int.inc"

#define T int64_t
#define UT uint64_t
#define W 64
#define SFX(name) CAT(name, _i64)
#define EW_NAME ew_i64
#define CMP_NAME cmp_i64
#include "ew_int.inc"

/* ---- the row engine ----------------------------------------------------- */

typedef struct ew_job ew_job;
typedef void ew_kernel_fn(const ew_job *job, size_t n, void *d,
                          const void *const *in);

struct ew_job {
  int op; /* npuc_ew_op or npuc_cmp_mode */
  int nin;
  rt_ct ct;          /* the type the kernel computes in */
  rt_ct in_ct[3];    /* what each input chunk holds */
  bool in_raw_ok[3]; /* the input's storage may be read in place */
  rt_ct out_ct;      /* what the kernel writes */
  bool out_raw_ok;   /* ... and whether that is dst's storage */
  ew_kernel_fn *kernel;
  const char *loc;
};

static void run_job(const ew_job *job, const npuc_buf *dst,
                    const npuc_buf *ins);
static npuc_buf operand_view(const npuc_operand *src, npuc_dtype dt,
                             const npuc_buf *dst, uint64_t *scalar,
                             const char *what, const char *loc);
static void check_arity(npuc_ew_op op, int nsrc, const char *loc);
static void check_op_dtype(npuc_ew_op op, npuc_dtype dt, const char *loc);
static ew_kernel_fn ew_kernel, cmp_kernel;

void npuc_rt_elementwise(npuc_ew_op op, const npuc_buf *dst,
                         const npuc_operand *srcs, int nsrc, const char *loc) {
  npuc_rti_check_buf(dst, "dst", loc);
  check_arity(op, nsrc, loc);
  check_op_dtype(op, dst->dtype, loc);
  ew_job job = {.op = op,
                .nin = nsrc,
                .ct = npuc_rti_compute_type(dst->dtype),
                .kernel = ew_kernel,
                .loc = loc};
  job.out_ct = job.ct;
  job.out_raw_ok = npuc_rti_ct_is_storage(job.ct, dst->dtype);
  static const char *const names[] = {"src 0", "src 1", "src 2"};
  npuc_buf ins[3];
  uint64_t scalars[3];
  for (int k = 0; k < nsrc; k++) {
    bool cond = op == NPUC_EW_SEL && k == 0;
    ins[k] = operand_view(&srcs[k], cond ? NPUC_DT_I1 : dst->dtype, dst,
                          &scalars[k], names[k], loc);
    job.in_ct[k] = cond ? RT_CT_I8 : job.ct;
    /* The select kernel tests the condition for != 0, so raw i1 bytes do. */
    job.in_raw_ok[k] = cond || npuc_rti_ct_is_storage(job.ct, ins[k].dtype);
  }
  run_job(&job, dst, ins);
}

void npuc_rt_compare(npuc_cmp_mode mode, const npuc_buf *dst,
                     const npuc_operand *a, const npuc_operand *b,
                     const char *loc) {
  npuc_rti_check_buf(dst, "dst", loc);
  if (dst->dtype != NPUC_DT_I1)
    npuc_rt_fail(loc, "compare: dst dtype is %s, expected i1",
                 npuc_rt_dtype_name(dst->dtype));
  if ((unsigned)mode > NPUC_CMP_GE)
    npuc_rt_fail(loc, "compare: invalid mode %d", (int)mode);
  /* Inputs compare in the dtype of the first buffer input; scalars convert. */
  npuc_dtype dt = !a->is_scalar   ? a->buf.dtype
                  : !b->is_scalar ? b->buf.dtype
                                  : a->dtype;
  if (!npuc_rti_dtype_valid(dt))
    npuc_rt_fail(loc, "compare: invalid input dtype (%d)", (int)dt);
  ew_job job = {.op = mode,
                .nin = 2,
                .ct = npuc_rti_compute_type(dt),
                .out_ct = RT_CT_I8,
                .out_raw_ok = true,
                .kernel = cmp_kernel,
                .loc = loc};
  npuc_buf ins[2];
  uint64_t scalars[2];
  ins[0] = operand_view(a, dt, dst, &scalars[0], "lhs", loc);
  ins[1] = operand_view(b, dt, dst, &scalars[1], "rhs", loc);
  for (int k = 0; k < 2; k++) {
    job.in_ct[k] = job.ct;
    job.in_raw_ok[k] = npuc_rti_ct_is_storage(job.ct, dt);
  }
  run_job(&job, dst, ins);
}

void npuc_rt_broadcast(const npuc_buf *dst, const npuc_operand *src,
                       const char *loc) {
  npuc_rti_check_buf(dst, "dst", loc);
  uint64_t scalar;
  npuc_buf in = operand_view(src, dst->dtype, dst, &scalar, "src", loc);
  int64_t strides[NPUC_RT_MAX_RANK];
  npuc_rti_broadcast_strides(&in, dst, strides, "src", loc);
  /* Same dtype: a bit-exact copy, NaN payloads included. */
  npuc_rti_copy_strided(dst, in.data, in.offset, strides);
}

/* A scalar becomes a view repeating one element of `dt`; a buffer must
 * already have `dt`. */
static npuc_buf operand_view(const npuc_operand *src, npuc_dtype dt,
                             const npuc_buf *dst, uint64_t *scalar,
                             const char *what, const char *loc) {
  if (src->is_scalar)
    return npuc_rti_scalar_view(src, dt, dst->rank, dst->sizes, scalar, loc);
  npuc_rti_check_buf(&src->buf, what, loc);
  if (src->buf.dtype != dt)
    npuc_rt_fail(loc, "%s: dtype %s does not match %s", what,
                 npuc_rt_dtype_name(src->buf.dtype), npuc_rt_dtype_name(dt));
  return src->buf;
}

/* Per row: the state of one chunk's inputs and output. */
typedef struct {
  const ew_job *job;
  const npuc_buf *dst;
  const npuc_buf *ins;
  /* Chunk temporaries: inputs 0..2, then the output. */
  _Alignas(64) unsigned char tmp[4][RT_CHUNK * 8];
  /* A temporary filled from a repeated element (stride 0) stays valid
   * while that element's offset is unchanged: scalars are expanded once. */
  int64_t filled_from[3];
  size_t filled_len[3];
} ew_rows;

static void run_row(ew_rows *r, const rt_loop *l);

static void run_job(const ew_job *job, const npuc_buf *dst,
                    const npuc_buf *ins) {
  static const char *const names[] = {"src 0", "src 1", "src 2"};
  rt_loop l;
  npuc_rti_loop_init(&l, dst->rank, dst->sizes);
  npuc_rti_loop_add(&l, dst->offset, dst->strides);
  for (int k = 0; k < job->nin; k++) {
    int64_t strides[NPUC_RT_MAX_RANK];
    npuc_rti_broadcast_strides(&ins[k], dst, strides, names[k], job->loc);
    npuc_rti_loop_add(&l, ins[k].offset, strides);
  }
  npuc_rti_loop_finish(&l);
  ew_rows r = {.job = job, .dst = dst, .ins = ins, .filled_from = {-1, -1, -1}};
  for (; l.rows > 0; npuc_rti_loop_next_row(&l))
    run_row(&r, &l);
}

static const void *input_chunk(ew_rows *r, int k, int64_t off, int64_t stride,
                               size_t len);

/* Loop operand 0 is dst, operand k+1 is input k. */
static void run_row(ew_rows *r, const rt_loop *l) {
  const ew_job *job = r->job;
  size_t n = (size_t)rt_loop_row_len(l);
  int64_t dstride = rt_loop_row_stride(l, 0);
  bool dst_in_place = job->out_raw_ok && dstride == 1;
  bool all_in_place = dst_in_place;
  for (int k = 0; k < job->nin; k++)
    all_in_place &= job->in_raw_ok[k] && rt_loop_row_stride(l, k + 1) == 1;
  /* Without temporaries there is no reason to cut the row. */
  size_t chunk = all_in_place ? n : RT_CHUNK;
  for (size_t start = 0; start < n; start += chunk) {
    size_t len = n - start < chunk ? n - start : chunk;
    const void *in[3] = {NULL, NULL, NULL};
    for (int k = 0; k < job->nin; k++) {
      int64_t s = rt_loop_row_stride(l, k + 1);
      in[k] = input_chunk(r, k, l->offset[k + 1] + (int64_t)start * s, s, len);
    }
    int64_t doff = l->offset[0] + (int64_t)start * dstride;
    void *out = dst_in_place ? (void *)rt_elem_ptr(r->dst, doff) : r->tmp[3];
    job->kernel(job, len, out, in);
    if (!dst_in_place)
      npuc_rti_row_store(job->out_ct, out, r->dst, doff, dstride, len);
  }
}

static const void *input_chunk(ew_rows *r, int k, int64_t off, int64_t stride,
                               size_t len) {
  const npuc_buf *b = &r->ins[k];
  if (r->job->in_raw_ok[k] && stride == 1)
    return rt_elem_ptr(b, off);
  if (stride == 0) {
    if (r->filled_from[k] != off || r->filled_len[k] < len) {
      npuc_rti_row_load(r->job->in_ct[k], r->tmp[k], b, off, 0, len);
      r->filled_from[k] = off;
      r->filled_len[k] = len;
    }
    return r->tmp[k];
  }
  npuc_rti_row_load(r->job->in_ct[k], r->tmp[k], b, off, stride, len);
  return r->tmp[k];
}

/* ---- kernel dispatch ---------------------------------------------------- */

static void ew_kernel(const ew_job *job, size_t n, void *d,
                      const void *const *in) {
  npuc_ew_op op = (npuc_ew_op)job->op;
  switch (job->ct) {
  case RT_CT_F32: ew_f32(op, n, d, in); return;
  case RT_CT_F64: ew_f64(op, n, d, in); return;
  case RT_CT_I8: ew_i8(op, n, d, in, job->loc); return;
  case RT_CT_I16: ew_i16(op, n, d, in, job->loc); return;
  case RT_CT_I32: ew_i32(op, n, d, in, job->loc); return;
  case RT_CT_I64: ew_i64(op, n, d, in, job->loc); return;
  }
}

static void cmp_kernel(const ew_job *job, size_t n, void *d,
                       const void *const *in) {
  npuc_cmp_mode mode = (npuc_cmp_mode)job->op;
  switch (job->ct) {
  case RT_CT_F32: cmp_f32(mode, n, d, in[0], in[1]); return;
  case RT_CT_F64: cmp_f64(mode, n, d, in[0], in[1]); return;
  case RT_CT_I8: cmp_i8(mode, n, d, in[0], in[1]); return;
  case RT_CT_I16: cmp_i16(mode, n, d, in[0], in[1]); return;
  case RT_CT_I32: cmp_i32(mode, n, d, in[0], in[1]); return;
  case RT_CT_I64: cmp_i64(mode, n, d, in[0], in[1]); return;
  }
}

/* ---- checks ------------------------------------------------------------- */

/* What npuc/HivmElementwise.def says of each op. */
#define EW_TAKES_F true, false
#define EW_TAKES_I false, true
#define EW_TAKES_FI true, true
static const struct {
  const char *name; /* without the 'v' of vadd */
  int arity;
  bool floats, ints;
} kOps[] = {
#define NPUC_EW(NAME, vop, arity, kinds, float_expr, int_expr)                 \
  [NPUC_EW_##NAME] = {#vop + 1, arity, EW_TAKES_##kinds},
#include "npuc/HivmElementwise.def"
};
#define EW_NUM_OPS (sizeof kOps / sizeof *kOps)

static const char *op_name(npuc_ew_op op) {
  return (unsigned)op < EW_NUM_OPS ? kOps[op].name : "<invalid op>";
}

static void check_arity(npuc_ew_op op, int nsrc, const char *loc) {
  if ((unsigned)op >= EW_NUM_OPS)
    npuc_rt_fail(loc, "elementwise: invalid op %d", (int)op);
  int want = kOps[op].arity;
  if (nsrc != want)
    npuc_rt_fail(loc, "elementwise %s: %d operands, expected %d", op_name(op),
                 nsrc, want);
}

static void check_op_dtype(npuc_ew_op op, npuc_dtype dt, const char *loc) {
  bool ok = npuc_rt_is_float(dt) ? kOps[op].floats : kOps[op].ints;
  if (!ok)
    npuc_rt_fail(loc, "elementwise %s does not support dtype %s", op_name(op),
                 npuc_rt_dtype_name(dt));
}
