/* Buffers: the per-thread arena, views (subview, reinterpret, reshape),
 * copies and scalar element access. */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena -------------------------------------------------------------- */

/* Large chunks amortize malloc over the many small buffers a kernel
 * makes; 64-byte alignment gives every buffer whole cache lines. */
enum { ARENA_CHUNK_BYTES = 4 << 20, ARENA_ALIGN = 64 };

typedef struct arena_chunk {
  struct arena_chunk *prev;
  unsigned char *base;
  size_t size, used;
} arena_chunk;

static _Thread_local arena_chunk *arena_top;

static void *arena_alloc(size_t bytes, const char *loc);
static void row_major_strides(npuc_buf *b);

npuc_buf npuc_rt_alloc(npuc_dtype dt, int32_t rank, const int64_t *sizes,
                       const char *loc) {
  if (!npuc_rti_dtype_valid(dt))
    npuc_rt_fail(loc, "alloc: invalid dtype (%d)", (int)dt);
  npuc_rti_check_rank(rank, loc);
  npuc_buf b = {.offset = 0, .rank = rank, .dtype = dt};
  size_t es = npuc_rt_elem_size(dt), count = 1;
  for (int32_t j = 0; j < rank; j++) {
    if (sizes[j] < 0)
      npuc_rt_fail(loc, "alloc: negative size %lld in dim %d",
                   (long long)sizes[j], (int)j);
    b.sizes[j] = sizes[j];
    if (sizes[j] != 0 && count > SIZE_MAX / es / (size_t)sizes[j])
      npuc_rt_fail(loc, "alloc: buffer size overflows");
    count *= (size_t)sizes[j];
  }
  row_major_strides(&b);
  b.data = arena_alloc(count * es, loc);
  b.extent = (int64_t)count;
  return b;
}

void npuc_rt_arena_reset(void) {
  /* Keep the largest chunk for the next invocation, free the rest. */
  arena_chunk *keep = NULL;
  for (arena_chunk *c = arena_top; c; c = c->prev)
    if (!keep || c->size > keep->size)
      keep = c;
  while (arena_top) {
    arena_chunk *prev = arena_top->prev;
    if (arena_top != keep) {
      free(arena_top->base);
      free(arena_top);
    }
    arena_top = prev;
  }
  if (keep) {
    keep->prev = NULL;
    keep->used = 0;
    arena_top = keep;
  }
}

/* Zero-filled: a kernel that reads memory it never wrote then computes the
 * same thing on every run, so comparing two runs stays meaningful. */
void npuc_rt_arena_release(void) {
  while (arena_top) {
    arena_chunk *prev = arena_top->prev;
    free(arena_top->base);
    free(arena_top);
    arena_top = prev;
  }
}

static void *arena_alloc(size_t bytes, const char *loc) {
  if (bytes > SIZE_MAX - ARENA_ALIGN)
    npuc_rt_fail(loc, "alloc: buffer size overflows");
  bytes = (bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
  if (bytes == 0)
    bytes = ARENA_ALIGN; /* distinct storage per buffer */
  if (!arena_top || arena_top->size - arena_top->used < bytes) {
    size_t size = bytes > ARENA_CHUNK_BYTES ? bytes : ARENA_CHUNK_BYTES;
    arena_chunk *c = malloc(sizeof *c);
    unsigned char *base = c ? aligned_alloc(ARENA_ALIGN, size) : NULL;
    if (!base) {
      free(c);
      npuc_rt_fail(loc, "alloc: out of memory (%zu bytes)", bytes);
    }
    *c = (arena_chunk){.prev = arena_top, .base = base, .size = size};
    arena_top = c;
  }
  void *p = arena_top->base + arena_top->used;
  arena_top->used += bytes;
  memset(p, 0, bytes);
  return p;
}

static void row_major_strides(npuc_buf *b) {
  int64_t stride = 1;
  for (int32_t j = b->rank - 1; j >= 0; j--) {
    b->strides[j] = stride;
    stride *= b->sizes[j];
  }
}

/* ---- copies ------------------------------------------------------------- */

npuc_buf npuc_rt_clone(const npuc_buf *src, const char *loc) {
  npuc_rti_check_buf(src, "clone source", loc);
  npuc_buf dst = npuc_rt_alloc(src->dtype, src->rank, src->sizes, loc);
  npuc_rti_copy_strided(&dst, src->data, src->offset, src->strides);
  return dst;
}

void npuc_rt_copy(const npuc_buf *dst, const npuc_buf *src, const char *loc) {
  npuc_rti_check_buf(dst, "copy target", loc);
  npuc_rti_check_buf(src, "copy source", loc);
  npuc_rti_check_same_shape(dst, src, "copy source", loc);
  npuc_rti_check_same_dtype(dst, src, "copy source", loc);
  npuc_rti_copy_strided(dst, src->data, src->offset, src->strides);
}

/* ---- views -------------------------------------------------------------- */

static void check_subview_bounds(const npuc_buf *src, const int64_t *offsets,
                                 const int64_t *sizes, const int64_t *strides,
                                 const char *loc);

npuc_buf npuc_rt_subview(const npuc_buf *src, const int64_t *offsets,
                         const int64_t *sizes, const int64_t *strides,
                         int32_t result_rank, uint32_t dropped,
                         const char *loc) {
  npuc_rti_check_buf_shape(src, "subview source", loc);
  if (npuc_rt_check_bounds())
    check_subview_bounds(src, offsets, sizes, strides, loc);
  npuc_buf v = {.data = src->data,
                .offset = src->offset,
                .rank = 0,
                .dtype = src->dtype,
                .extent = src->extent};
  for (int32_t j = 0; j < src->rank; j++) {
    if (sizes[j] < 0)
      npuc_rt_fail(loc, "subview: negative size %lld in dim %d",
                   (long long)sizes[j], (int)j);
    v.offset += offsets[j] * src->strides[j];
    if (dropped >> j & 1) {
      if (sizes[j] != 1)
        npuc_rt_fail(loc, "subview: dropped dim %d has size %lld, not 1",
                     (int)j, (long long)sizes[j]);
      continue;
    }
    v.sizes[v.rank] = sizes[j];
    v.strides[v.rank] = src->strides[j] * strides[j];
    v.rank++;
  }
  if (dropped >> src->rank != 0 || v.rank != result_rank)
    npuc_rt_fail(loc,
                 "subview: result rank %d does not match source rank %d "
                 "less the dropped dims (mask 0x%x)",
                 (int)result_rank, (int)src->rank, (unsigned)dropped);
  return v;
}

/* Every element of the view must lie inside the source: the first and
 * last index of each dim are in [0, size). */
static void check_subview_bounds(const npuc_buf *src, const int64_t *offsets,
                                 const int64_t *sizes, const int64_t *strides,
                                 const char *loc) {
  for (int32_t j = 0; j < src->rank; j++) {
    if (sizes[j] <= 0)
      continue;
    int64_t first = offsets[j], last = offsets[j] + (sizes[j] - 1) * strides[j];
    bool first_ok = first >= 0 && first < src->sizes[j],
         last_ok = last >= 0 && last < src->sizes[j];
    if (first_ok && last_ok)
      continue;
    npuc_rt_fail(
        loc,
        "subview: index %lld out of bounds for dimension %d of size %lld "
        "(offset %lld, size %lld, stride %lld)",
        (long long)(first_ok ? last : first), (int)j, (long long)src->sizes[j],
        (long long)offsets[j], (long long)sizes[j], (long long)strides[j]);
  }
}

npuc_buf npuc_rt_reinterpret(const npuc_buf *src, int64_t offset, int32_t rank,
                             const int64_t *sizes, const int64_t *strides) {
  npuc_rti_check_rank(rank, NULL);
  npuc_buf v = {.data = src->data,
                .offset = offset,
                .rank = rank,
                .dtype = src->dtype,
                .extent = src->extent};
  for (int32_t j = 0; j < rank; j++) {
    v.sizes[j] = sizes[j];
    v.strides[j] = strides[j];
  }
  return v;
}

/* The elements b's storage holds, into *n; false when unknown (0). */
static bool known_extent(const npuc_buf *b, int64_t *n) {
  *n = b->extent == NPUC_RT_EXTENT_EMPTY ? 0 : b->extent;
  return b->extent != 0;
}

/* Views may overhang their storage (a reinterpret_cast past the end is
 * legal); only touching such elements is not. Ops check the views they
 * touch, through npuc_rti_check_buf. */
void npuc_rt_check_view(const npuc_buf *b, const char *loc) {
  int64_t extent;
  if (!npuc_rt_check_bounds() || !known_extent(b, &extent))
    return;
  int64_t lo = b->offset, hi = b->offset;
  for (int32_t j = 0; j < b->rank; j++) {
    if (b->sizes[j] == 0)
      return; /* an empty view touches nothing */
    int64_t span = (b->sizes[j] - 1) * b->strides[j];
    if (span < 0)
      lo += span;
    else
      hi += span;
  }
  if (lo < 0 || hi >= extent)
    npuc_rt_fail(loc,
                 "view reaches element %lld of a buffer of %lld elements "
                 "(offset %lld)",
                 (long long)(lo < 0 ? lo : hi), (long long)extent,
                 (long long)b->offset);
}

npuc_buf npuc_rt_byte_view(const npuc_buf *src, int64_t shift, npuc_dtype dt,
                           int32_t rank, const int64_t *sizes,
                           const char *loc) {
  if (!npuc_rti_dtype_valid(dt))
    npuc_rt_fail(loc, "view: invalid dtype (%d)", (int)dt);
  npuc_rti_check_rank(rank, loc);
  if (shift < 0)
    npuc_rt_fail(loc, "view: negative byte shift %lld", (long long)shift);
  int64_t src_es = (int64_t)npuc_rt_elem_size(src->dtype);
  int64_t es = (int64_t)npuc_rt_elem_size(dt);
  npuc_buf v = {.rank = rank, .dtype = dt};
  v.data = (char *)src->data + src->offset * src_es + shift;
  v.extent = src->extent;
  if (src->extent > 0) {
    /* What is left of the storage past the shift, in the new elements. */
    int64_t left;
    if (__builtin_sub_overflow(src->extent, src->offset, &left) ||
        __builtin_mul_overflow(left, src_es, &left) ||
        __builtin_sub_overflow(left, shift, &left))
      npuc_rt_fail(loc, "view: byte shift %lld overflows", (long long)shift);
    v.extent = left >= es ? left / es : NPUC_RT_EXTENT_EMPTY;
  }
  for (int32_t j = 0; j < rank; j++) {
    if (sizes[j] < 0)
      npuc_rt_fail(loc, "view: negative size %lld in dim %d",
                   (long long)sizes[j], (int)j);
    v.sizes[j] = sizes[j];
  }
  row_major_strides(&v);
  return v;
}

static bool is_row_major(const npuc_buf *b);

npuc_buf npuc_rt_reshape(const npuc_buf *src, int32_t rank,
                         const int64_t *sizes, const char *loc) {
  npuc_rti_check_buf_shape(src, "reshape source", loc);
  npuc_rti_check_rank(rank, loc);
  npuc_buf v = {.data = src->data,
                .offset = src->offset,
                .rank = rank,
                .dtype = src->dtype,
                .extent = src->extent};
  for (int32_t j = 0; j < rank; j++) {
    if (sizes[j] < 0)
      npuc_rt_fail(loc, "reshape: negative size %lld in dim %d",
                   (long long)sizes[j], (int)j);
    v.sizes[j] = sizes[j];
  }
  int64_t have = npuc_rti_num_elements(src->rank, src->sizes),
          want = npuc_rti_num_elements(rank, sizes);
  if (have != want) {
    char a[160], b[160];
    npuc_rti_format_shape(a, sizeof a, src->rank, src->sizes);
    npuc_rti_format_shape(b, sizeof b, rank, sizes);
    npuc_rt_fail(loc, "reshape: %s (%lld elements) to %s (%lld elements)", a,
                 (long long)have, b, (long long)want);
  }
  if (!is_row_major(src)) {
    npuc_buf dense = npuc_rt_clone(src, loc);
    v.data = dense.data;
    v.offset = 0;
    v.extent = dense.extent;
  }
  row_major_strides(&v);
  return v;
}

/* Dense row-major, ignoring the strides of size-1 dims (they are never
 * stepped over). */
static bool is_row_major(const npuc_buf *b) {
  if (npuc_rti_num_elements(b->rank, b->sizes) == 0)
    return true;
  int64_t expect = 1;
  for (int32_t j = b->rank - 1; j >= 0; j--) {
    if (b->sizes[j] == 1)
      continue;
    if (b->strides[j] != expect)
      return false;
    expect *= b->sizes[j];
  }
  return true;
}

/* ---- element access ----------------------------------------------------- */

static int64_t element_offset(const npuc_buf *b, const int64_t *idx,
                              const char *loc);

double npuc_rt_load_f(const npuc_buf *b, const int64_t *idx, const char *loc) {
  if (!npuc_rt_is_float(b->dtype))
    npuc_rt_fail(loc, "load_f from a %s buffer", npuc_rt_dtype_name(b->dtype));
  double v;
  npuc_rti_row_load(RT_CT_F64, &v, b, element_offset(b, idx, loc), 1, 1);
  return v;
}

int64_t npuc_rt_load_i(const npuc_buf *b, const int64_t *idx, const char *loc) {
  if (!npuc_rti_dtype_valid(b->dtype) || npuc_rt_is_float(b->dtype))
    npuc_rt_fail(loc, "load_i from a %s buffer", npuc_rt_dtype_name(b->dtype));
  int64_t v;
  npuc_rti_row_load(RT_CT_I64, &v, b, element_offset(b, idx, loc), 1, 1);
  /* Emitted scalar code keeps integers sign-extended (KernelPrelude.h),
   * so a true i1 reads as -1. */
  return b->dtype == NPUC_DT_I1 ? -v : v;
}

void npuc_rt_store_f(const npuc_buf *b, const int64_t *idx, double v,
                     const char *loc) {
  if (!npuc_rt_is_float(b->dtype))
    npuc_rt_fail(loc, "store_f to a %s buffer", npuc_rt_dtype_name(b->dtype));
  npuc_rti_row_store(RT_CT_F64, &v, b, element_offset(b, idx, loc), 1, 1);
}

void npuc_rt_store_i(const npuc_buf *b, const int64_t *idx, int64_t v,
                     const char *loc) {
  if (!npuc_rti_dtype_valid(b->dtype) || npuc_rt_is_float(b->dtype))
    npuc_rt_fail(loc, "store_i to a %s buffer", npuc_rt_dtype_name(b->dtype));
  npuc_rti_row_store(RT_CT_I64, &v, b, element_offset(b, idx, loc), 1, 1);
}

static int64_t element_offset(const npuc_buf *b, const int64_t *idx,
                              const char *loc) {
  bool check = npuc_rt_check_bounds();
  int64_t off = b->offset;
  for (int32_t j = 0; j < b->rank; j++) {
    if (check && (idx[j] < 0 || idx[j] >= b->sizes[j]))
      npuc_rt_fail(loc,
                   "index %lld out of bounds for dimension %d of size %lld",
                   (long long)idx[j], (int)j, (long long)b->sizes[j]);
    off += idx[j] * b->strides[j];
  }
  int64_t extent;
  if (check && known_extent(b, &extent) && (off < 0 || off >= extent))
    npuc_rt_fail(loc, "element %lld is outside its buffer of %lld elements",
                 (long long)off, (long long)extent);
  return off;
}
