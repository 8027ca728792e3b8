/* Interval reuse analysis for aie-vectorize: which vector reads can share
 * one AIE vector register.
 *
 * A read's access is linearized (row-major) into base + constant offset:
 * A[i+1][j+2] of a 64x64 array is (64*i + j) + 66. Reads of the same memref
 * with the same base inside the same innermost loop form a group; within a
 * group, each read's access extent (in bits from the base) is aligned to
 * the vector size (at least 128 bits, 256 for mul/fma operands), and
 * overlapping extents merge into intervals: one interval is one AIE vector
 * to load. Intervals that only feed the left operand of multiplies and are
 * at most 256 bits wide coalesce with an adjacent next one, because the
 * AIE1 multiply wants an X operand twice as wide as Z.
 *
 * Reads are named by the caller's dense ids 0..n-1. Grouping is by hash,
 * intervals are merged by sorting once: n log n in the number of reads. */
#ifndef NPUC_INTERVAL_REUSE_H
#define NPUC_INTERVAL_REUSE_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One term of a linearized access: coeff * atom, scaled by the stride of
 * dimension `dim` when that stride is dynamic (dim >= 0), or already scaled
 * by a static stride (dim == -1). A null atom with dim >= 0 is a constant
 * times a dynamic stride. */
typedef struct {
  MlirValue atom;
  int dim;
  int64_t coeff;
} npuc_linear_term;

/* base (sorted terms) + offset, in elements. */
typedef struct {
  npuc_linear_term *terms;
  size_t num_terms;
  int64_t offset;
} npuc_linear_access;

/* Linearizes the access `indices` of a memref of type `memref_type`, seeing
 * through arith.constant, arith.addi/subi/muli by constants and affine.apply.
 * Returns false on out of memory, or when a coefficient or the offset does
 * not fit int64 (computed checked). Free with npuc_linear_access_free. */
bool npuc_linearize_access(MlirType memref_type, const MlirValue *indices,
                           size_t num_indices, npuc_linear_access *out);
void npuc_linear_access_free(npuc_linear_access *a);

typedef struct npuc_reuse npuc_reuse;

/* An analysis for `num_reads` reads (ids 0..num_reads-1). */
npuc_reuse *npuc_reuse_create(size_t num_reads);
void npuc_reuse_destroy(npuc_reuse *r);

typedef struct {
  MlirValue memref;
  MlirOperation loop;   /* innermost enclosing loop (null: none) */
  int64_t elem_bits;    /* element size */
  int64_t lanes;        /* vector lanes of the read */
  bool splat;           /* broadcast of one element */
  int64_t min_vec_bits; /* 128, or 256 for mul/fma operands */
  int64_t extra_elems;  /* fused columns read this far past the vector */
} npuc_reuse_read;

/* Adds read `id` with its linearized access (the analysis takes ownership
 * of `access`). Returns false on out of memory, or when its extent in bits
 * does not fit int64. */
bool npuc_reuse_insert(npuc_reuse *r, size_t id, const npuc_reuse_read *read,
                       npuc_linear_access *access);
/* Read `id` is only ever the left (X) operand of a mul/fma. */
void npuc_reuse_mark_lhs_only(npuc_reuse *r, size_t id);
/* Merges overlapping extents into intervals, then coalesces LHS-only
 * intervals of at most 256 bits with an adjacent next one. Call once,
 * after every insert. */
bool npuc_reuse_finalize(npuc_reuse *r);

/* After finalize: the group of read `id` (dense, 0-based), its aligned
 * extent and its interval, in bits from the group's base; the read's own
 * first bit (offset * element size). */
size_t npuc_reuse_group(const npuc_reuse *r, size_t id);
size_t npuc_reuse_num_groups(const npuc_reuse *r);
void npuc_reuse_extent(const npuc_reuse *r, size_t id, int64_t *lo,
                       int64_t *hi);
void npuc_reuse_interval(const npuc_reuse *r, size_t id, int64_t *lo,
                         int64_t *hi);
int64_t npuc_reuse_start_bits(const npuc_reuse *r, size_t id);

#endif
