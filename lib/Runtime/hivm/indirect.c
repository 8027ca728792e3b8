/* indirect_load / indirect_store: gather from and scatter into a rank-1
 * memref at offsets a tensor gives, under an optional mask. Elements move
 * bit for bit. Offsets index the memref's one dimension (src[off]), and
 * every offset an active element uses is checked against its size, bounds
 * checking on or not: a gather or scatter through a wild offset would
 * touch host memory outside the buffer. */
#include "internal.h"

typedef struct {
  const npuc_buf *memref; /* the rank-1 side */
  const npuc_buf *dense;  /* dst of a load, src of a store */
  const npuc_buf *offsets;
  const npuc_buf *mask; /* NULL: every element */
  bool store;
  const char *what;
} indirect;

static void run(indirect x, const char *loc);
static void check_indirect(const indirect *x, const char *loc);
static void walk(const indirect *x, const char *loc);

void npuc_rt_indirect_load(const npuc_buf *dst, const npuc_buf *src,
                           const npuc_buf *offsets, const npuc_buf *mask,
                           const char *loc) {
  run((indirect){src, dst, offsets, mask, false, "indirect_load"}, loc);
}

void npuc_rt_indirect_store(const npuc_buf *dst, const npuc_buf *src,
                            const npuc_buf *offsets, const npuc_buf *mask,
                            const char *loc) {
  run((indirect){dst, src, offsets, mask, true, "indirect_store"}, loc);
}

static void run(indirect x, const char *loc) {
  check_indirect(&x, loc);
  walk(&x, loc);
}

static void check_integer(const npuc_buf *b, const char *what, const char *op,
                          const char *loc) {
  if (npuc_rt_is_float(b->dtype))
    npuc_rt_fail(loc, "%s: %s must be integers, not %s", op, what,
                 npuc_rt_dtype_name(b->dtype));
}

static void check_indirect(const indirect *x, const char *loc) {
  const char *far = x->store ? "indirect_store dst" : "indirect_load src";
  npuc_rti_check_buf(x->memref, far, loc);
  npuc_rti_check_buf(
      x->dense, x->store ? "indirect_store src" : "indirect_load dst", loc);
  npuc_rti_check_buf(x->offsets, "offsets", loc);
  if (x->memref->rank != 1)
    npuc_rt_fail(loc,
                 "%s: the memref has rank %d; the C model indexes rank 1 only",
                 x->what, (int)x->memref->rank);
  npuc_rti_check_same_dtype(x->dense, x->memref, far, loc);
  check_integer(x->offsets, "offsets", x->what, loc);
  npuc_rti_check_same_shape(x->dense, x->offsets, "offsets", loc);
  if (x->mask) {
    npuc_rti_check_buf(x->mask, "mask", loc);
    check_integer(x->mask, "the mask", x->what, loc);
    npuc_rti_check_same_shape(x->dense, x->mask, "mask", loc);
  }
}

/* Row by row over the dense shape: offsets and mask are read as i64 a chunk
 * at a time, then each active element moves alone. Elements go in row-major
 * order, so of two stores to one offset the later wins. */
static void walk(const indirect *x, const char *loc) {
  rt_loop l;
  npuc_rti_loop_init(&l, x->dense->rank, x->dense->sizes);
  npuc_rti_loop_add(&l, x->dense->offset, x->dense->strides);
  npuc_rti_loop_add(&l, x->offsets->offset, x->offsets->strides);
  if (x->mask)
    npuc_rti_loop_add(&l, x->mask->offset, x->mask->strides);
  npuc_rti_loop_finish(&l);
  size_t es = npuc_rt_elem_size(x->dense->dtype);
  int64_t size = x->memref->sizes[0], stride = x->memref->strides[0];
  int64_t offs[RT_CHUNK], on[RT_CHUNK];
  int64_t n = rt_loop_row_len(&l);
  for (; l.rows > 0 && n > 0; npuc_rti_loop_next_row(&l)) {
    for (int64_t start = 0; start < n; start += RT_CHUNK) {
      size_t len = (size_t)(n - start < RT_CHUNK ? n - start : RT_CHUNK);
      npuc_rti_row_load(RT_CT_I64, offs, x->offsets,
                        l.offset[1] + start * rt_loop_row_stride(&l, 1),
                        rt_loop_row_stride(&l, 1), len);
      if (x->mask)
        npuc_rti_row_load(RT_CT_I64, on, x->mask,
                          l.offset[2] + start * rt_loop_row_stride(&l, 2),
                          rt_loop_row_stride(&l, 2), len);
      for (size_t i = 0; i < len; i++) {
        if (x->mask && on[i] == 0)
          continue;
        if (offs[i] < 0 || offs[i] >= size)
          npuc_rt_fail(loc,
                       "%s: offset %lld outside the memref's %lld elements",
                       x->what, (long long)offs[i], (long long)size);
        char *far =
            rt_elem_ptr(x->memref, x->memref->offset + offs[i] * stride);
        char *near =
            rt_elem_ptr(x->dense, l.offset[0] + (start + (int64_t)i) *
                                                    rt_loop_row_stride(&l, 0));
        if (x->store)
          memcpy(far, near, es);
        else
          memcpy(near, far, es);
      }
    }
  }
}
