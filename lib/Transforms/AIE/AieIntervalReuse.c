/* Interval reuse analysis (see npuc/IntervalReuse.h): linearized accesses,
 * grouping by memref, base and innermost loop, aligned extents, interval
 * merging and LHS coalescing. */
#include "npuc/IntervalReuse.h"
#include "npuc/BuildOps.h"
#include "npuc/Checked.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- Linearization -------------------------------------------------- */

/* A linear form over SSA values: sum of coeff*atom + constant. */
typedef struct {
  npuc_linear_term *terms;
  size_t n, cap;
  int64_t constant;
  bool oom; /* out of memory, or a coefficient or offset past int64: the
               access is not linearized (its callers treat it as opaque) */
} linear_form;

/* a * b and a + b, computed checked: past int64, lf gives up. */
static int64_t lf_mul(linear_form *lf, int64_t a, int64_t b) {
  int64_t r = 0;
  lf->oom |= !npuc_checked_mul(a, b, &r);
  return r;
}

static int64_t lf_add(linear_form *lf, int64_t a, int64_t b) {
  int64_t r = 0;
  lf->oom |= !npuc_checked_add(a, b, &r);
  return r;
}

#define MAX_DEPTH 16

static void decompose(MlirValue v, int64_t scale, linear_form *lf, int depth);
static void add_term(linear_form *lf, MlirValue atom, int dim, int64_t coeff);
static int compare_terms(const void *a, const void *b);

bool npuc_linearize_access(MlirType memref_type, const MlirValue *indices,
                           size_t num_indices, npuc_linear_access *out) {
  linear_form all = {0};
  intptr_t rank = mlirShapedTypeGetRank(memref_type);
  for (size_t k = 0; k < num_indices && (intptr_t)k < rank; k++) {
    /* The stride of dim k: the product of the sizes after it. */
    int64_t stride = 1;
    bool dynamic = false;
    for (intptr_t d = (intptr_t)k + 1; d < rank; d++) {
      int64_t size = mlirShapedTypeGetDimSize(memref_type, d);
      if (mlirShapedTypeIsDynamicSize(size))
        dynamic = true;
      else
        stride = lf_mul(&all, stride, size);
    }
    linear_form one = {0};
    decompose(indices[k], 1, &one, 0);
    for (size_t t = 0; t < one.n; t++)
      add_term(&all, one.terms[t].atom, dynamic ? (int)k : -1,
               dynamic ? one.terms[t].coeff
                       : lf_mul(&all, one.terms[t].coeff, stride));
    if (dynamic && one.constant != 0)
      add_term(&all, (MlirValue){NULL}, (int)k, one.constant);
    else if (!dynamic)
      all.constant =
          lf_add(&all, all.constant, lf_mul(&all, one.constant, stride));
    all.oom |= one.oom;
    free(one.terms);
  }
  if (all.oom) {
    free(all.terms);
    return false;
  }
  /* Canonical order, equal terms combined, zero terms dropped. */
  if (all.n > 1)
    qsort(all.terms, all.n, sizeof *all.terms, compare_terms);
  size_t kept = 0;
  for (size_t t = 0; t < all.n; t++) {
    if (kept > 0 && compare_terms(&all.terms[kept - 1], &all.terms[t]) == 0)
      all.terms[kept - 1].coeff =
          lf_add(&all, all.terms[kept - 1].coeff, all.terms[t].coeff);
    else
      all.terms[kept++] = all.terms[t];
    if (all.terms[kept - 1].coeff == 0)
      kept--;
  }
  out->terms = all.terms;
  out->num_terms = kept;
  out->offset = all.constant;
  return true;
}

void npuc_linear_access_free(npuc_linear_access *a) {
  free(a->terms);
  a->terms = NULL;
  a->num_terms = 0;
}

static void decompose_expr(MlirAffineExpr e, MlirOperation apply,
                           intptr_t num_dims, int64_t scale, linear_form *lf,
                           int depth);

/* Adds scale*v to lf, looking through constants, index arithmetic and
 * affine.apply; anything else is an atom. */
static void decompose(MlirValue v, int64_t scale, linear_form *lf, int depth) {
  int64_t c;
  if (npuc_constant_int(v, &c)) {
    lf->constant = lf_add(lf, lf->constant, lf_mul(lf, scale, c));
    return;
  }
  if (depth < MAX_DEPTH && mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (npuc_op_is(def, "affine.apply")) {
      MlirAffineMap map =
          mlirAffineMapAttrGetValue(mlirOperationGetAttributeByName(
              def, mlirStringRefCreateFromCString("map")));
      if (mlirAffineMapGetNumResults(map) == 1) {
        decompose_expr(mlirAffineMapGetResult(map, 0), def,
                       mlirAffineMapGetNumDims(map), scale, lf, depth + 1);
        return;
      }
    } else if (npuc_op_is(def, "arith.addi") || npuc_op_is(def, "arith.subi")) {
      decompose(mlirOperationGetOperand(def, 0), scale, lf, depth + 1);
      decompose(mlirOperationGetOperand(def, 1),
                npuc_op_is(def, "arith.subi") ? lf_mul(lf, scale, -1) : scale,
                lf, depth + 1);
      return;
    } else if (npuc_op_is(def, "arith.muli")) {
      for (int side = 0; side < 2; side++)
        if (npuc_constant_int(mlirOperationGetOperand(def, side), &c)) {
          decompose(mlirOperationGetOperand(def, 1 - side),
                    lf_mul(lf, scale, c), lf, depth + 1);
          return;
        }
    }
  }
  add_term(lf, v, -1, scale);
}

/* An affine expression of `apply`'s operands: sums, products by constants,
 * dims and symbols are linear; anything else makes the whole apply an
 * atom. */
static bool expr_is_linear(MlirAffineExpr e) {
  if (mlirAffineExprIsAConstant(e) || mlirAffineExprIsADim(e) ||
      mlirAffineExprIsASymbol(e))
    return true;
  if (mlirAffineExprIsAAdd(e))
    return expr_is_linear(mlirAffineBinaryOpExprGetLHS(e)) &&
           expr_is_linear(mlirAffineBinaryOpExprGetRHS(e));
  if (mlirAffineExprIsAMul(e))
    return (mlirAffineExprIsAConstant(mlirAffineBinaryOpExprGetRHS(e)) ||
            mlirAffineExprIsAConstant(mlirAffineBinaryOpExprGetLHS(e))) &&
           expr_is_linear(mlirAffineBinaryOpExprGetLHS(e)) &&
           expr_is_linear(mlirAffineBinaryOpExprGetRHS(e));
  return false;
}

static void decompose_linear_expr(MlirAffineExpr e, MlirOperation apply,
                                  intptr_t num_dims, int64_t scale,
                                  linear_form *lf, int depth) {
  if (mlirAffineExprIsAConstant(e)) {
    lf->constant = lf_add(lf, lf->constant,
                          lf_mul(lf, scale, mlirAffineConstantExprGetValue(e)));
  } else if (mlirAffineExprIsADim(e)) {
    decompose(mlirOperationGetOperand(apply, mlirAffineDimExprGetPosition(e)),
              scale, lf, depth);
  } else if (mlirAffineExprIsASymbol(e)) {
    decompose(mlirOperationGetOperand(
                  apply, num_dims + mlirAffineSymbolExprGetPosition(e)),
              scale, lf, depth);
  } else if (mlirAffineExprIsAAdd(e)) {
    decompose_linear_expr(mlirAffineBinaryOpExprGetLHS(e), apply, num_dims,
                          scale, lf, depth);
    decompose_linear_expr(mlirAffineBinaryOpExprGetRHS(e), apply, num_dims,
                          scale, lf, depth);
  } else { /* a product with a constant side */
    MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
    MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(e);
    if (mlirAffineExprIsAConstant(r))
      decompose_linear_expr(
          l, apply, num_dims,
          lf_mul(lf, scale, mlirAffineConstantExprGetValue(r)), lf, depth);
    else
      decompose_linear_expr(
          r, apply, num_dims,
          lf_mul(lf, scale, mlirAffineConstantExprGetValue(l)), lf, depth);
  }
}

static void decompose_expr(MlirAffineExpr e, MlirOperation apply,
                           intptr_t num_dims, int64_t scale, linear_form *lf,
                           int depth) {
  if (expr_is_linear(e))
    decompose_linear_expr(e, apply, num_dims, scale, lf, depth);
  else
    add_term(lf, mlirOperationGetResult(apply, 0), -1, scale);
}

static void add_term(linear_form *lf, MlirValue atom, int dim, int64_t coeff) {
  if (lf->n == lf->cap) {
    size_t cap = lf->cap ? 2 * lf->cap : 4;
    npuc_linear_term *t = realloc(lf->terms, cap * sizeof *t);
    if (!t) {
      lf->oom = true;
      return;
    }
    lf->terms = t;
    lf->cap = cap;
  }
  lf->terms[lf->n++] = (npuc_linear_term){atom, dim, coeff};
}

static int compare_terms(const void *a, const void *b) {
  const npuc_linear_term *x = a, *y = b;
  uintptr_t px = (uintptr_t)x->atom.ptr, py = (uintptr_t)y->atom.ptr;
  if (px != py)
    return px < py ? -1 : 1;
  return (x->dim > y->dim) - (x->dim < y->dim);
}

/* ---- Groups and intervals ------------------------------------------- */

typedef struct {
  int64_t lo, hi;
  bool lhs_only;
} interval;

typedef struct {
  MlirValue memref;
  MlirOperation loop;
  npuc_linear_access base; /* offset unused */
  uint64_t hash;
  size_t next;         /* hash chain, SIZE_MAX ends it */
  interval *intervals; /* sorted, disjoint after finalize */
  size_t num_intervals;
} group;

typedef struct {
  size_t group;
  int64_t start_bits;
  int64_t lo, hi; /* aligned extent */
  size_t interval;
  bool lhs_only, present;
} read_info;

struct npuc_reuse {
  read_info *reads;
  size_t num_reads;
  group *groups;
  size_t num_groups, cap_groups;
  size_t *buckets;
  size_t num_buckets;
};

npuc_reuse *npuc_reuse_create(size_t num_reads) {
  npuc_reuse *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->num_reads = num_reads;
  r->num_buckets = 16;
  while (r->num_buckets < 2 * num_reads)
    r->num_buckets *= 2;
  r->reads = calloc(num_reads ? num_reads : 1, sizeof *r->reads);
  r->buckets = malloc(r->num_buckets * sizeof *r->buckets);
  if (!r->reads || !r->buckets) {
    npuc_reuse_destroy(r);
    return NULL;
  }
  for (size_t i = 0; i < r->num_buckets; i++)
    r->buckets[i] = SIZE_MAX;
  return r;
}

void npuc_reuse_destroy(npuc_reuse *r) {
  if (!r)
    return;
  for (size_t g = 0; g < r->num_groups; g++) {
    npuc_linear_access_free(&r->groups[g].base);
    free(r->groups[g].intervals);
  }
  free(r->groups);
  free(r->buckets);
  free(r->reads);
  free(r);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t key_hash(MlirValue memref, MlirOperation loop,
                         const npuc_linear_access *a) {
  uint64_t h = mix(0, (uintptr_t)memref.ptr);
  h = mix(h, (uintptr_t)loop.ptr);
  for (size_t t = 0; t < a->num_terms; t++) {
    h = mix(h, (uintptr_t)a->terms[t].atom.ptr);
    h = mix(h, (uint64_t)a->terms[t].dim);
    h = mix(h, (uint64_t)a->terms[t].coeff);
  }
  return h;
}

static bool same_base(const npuc_linear_access *a,
                      const npuc_linear_access *b) {
  if (a->num_terms != b->num_terms)
    return false;
  for (size_t t = 0; t < a->num_terms; t++)
    if (!mlirValueEqual(a->terms[t].atom, b->terms[t].atom) ||
        a->terms[t].dim != b->terms[t].dim ||
        a->terms[t].coeff != b->terms[t].coeff)
      return false;
  return true;
}

/* The group of (memref, loop, base); created on first use. The group owns
 * `access`'s terms when it is created from it. */
static size_t find_or_add_group(npuc_reuse *r, MlirValue memref,
                                MlirOperation loop, npuc_linear_access *access,
                                bool *oom) {
  uint64_t h = key_hash(memref, loop, access);
  size_t *slot = &r->buckets[h & (r->num_buckets - 1)];
  for (size_t g = *slot; g != SIZE_MAX; g = r->groups[g].next)
    if (r->groups[g].hash == h && mlirValueEqual(r->groups[g].memref, memref) &&
        mlirOperationEqual(r->groups[g].loop, loop) &&
        same_base(&r->groups[g].base, access)) {
      npuc_linear_access_free(access);
      return g;
    }
  if (r->num_groups == r->cap_groups) {
    size_t cap = r->cap_groups ? 2 * r->cap_groups : 8;
    group *gs = realloc(r->groups, cap * sizeof *gs);
    if (!gs) {
      *oom = true;
      return SIZE_MAX;
    }
    r->groups = gs;
    r->cap_groups = cap;
  }
  group *g = &r->groups[r->num_groups];
  memset(g, 0, sizeof *g);
  g->memref = memref;
  g->loop = loop;
  g->base = *access;
  g->hash = h;
  g->next = *slot;
  *slot = r->num_groups;
  access->terms = NULL;
  access->num_terms = 0;
  return r->num_groups++;
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

bool npuc_reuse_insert(npuc_reuse *r, size_t id, const npuc_reuse_read *read,
                       npuc_linear_access *access) {
  bool oom = false;
  int64_t offset = access->offset;
  size_t g = find_or_add_group(r, read->memref, read->loop, access, &oom);
  if (oom)
    return false;
  read_info *ri = &r->reads[id];
  ri->group = g;
  ri->present = true;
  /* The extent a load of this read covers: whole vectors of the read's
   * size (at least the minimum AIE vector), aligned to that size. In bits
   * of an offset from the input: computed checked. */
  linear_form lf = {0};
  ri->start_bits = lf_mul(&lf, offset, read->elem_bits);
  int64_t access_bits =
      lf_mul(&lf, lf_add(&lf, read->splat ? 1 : read->lanes, read->extra_elems),
             read->elem_bits);
  int64_t vec = read->lanes * read->elem_bits; /* a vector: small */
  if (vec < read->min_vec_bits)
    vec = read->min_vec_bits;
  int64_t end = lf_add(&lf, ri->start_bits, access_bits);
  ri->lo = lf_mul(&lf, floor_div(ri->start_bits, vec), vec);
  ri->hi = lf_mul(&lf, -floor_div(lf_mul(&lf, end, -1), vec), vec);
  return !lf.oom;
}

void npuc_reuse_mark_lhs_only(npuc_reuse *r, size_t id) {
  r->reads[id].lhs_only = true;
}

static int compare_intervals(const void *a, const void *b) {
  const interval *x = a, *y = b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return (x->hi > y->hi) - (x->hi < y->hi);
}

static size_t find_interval(const group *g, int64_t lo);
static void merge_sorted(group *g);
static void coalesce_lhs(group *g);

bool npuc_reuse_finalize(npuc_reuse *r) {
  /* Each group's extents, gathered, sorted, merged. */
  size_t *count = calloc(r->num_groups ? r->num_groups : 1, sizeof *count);
  if (!count)
    return false;
  for (size_t i = 0; i < r->num_reads; i++)
    if (r->reads[i].present)
      count[r->reads[i].group]++;
  for (size_t g = 0; g < r->num_groups; g++) {
    r->groups[g].intervals =
        malloc((count[g] ? count[g] : 1) * sizeof *r->groups[g].intervals);
    if (!r->groups[g].intervals) {
      free(count);
      return false;
    }
  }
  free(count);
  for (size_t i = 0; i < r->num_reads; i++) {
    read_info *ri = &r->reads[i];
    if (!ri->present)
      continue;
    group *g = &r->groups[ri->group];
    g->intervals[g->num_intervals++] = (interval){ri->lo, ri->hi, ri->lhs_only};
  }
  for (size_t g = 0; g < r->num_groups; g++) {
    group *gr = &r->groups[g];
    qsort(gr->intervals, gr->num_intervals, sizeof *gr->intervals,
          compare_intervals);
    merge_sorted(gr);
  }
  /* Which intervals only feed multiplies on the left: any LHS-only read
   * marks its vector (as mlir-aie does). */
  for (size_t i = 0; i < r->num_reads; i++) {
    read_info *ri = &r->reads[i];
    if (ri->present && ri->lhs_only) {
      group *g = &r->groups[ri->group];
      g->intervals[find_interval(g, ri->lo)].lhs_only = true;
    }
  }
  for (size_t g = 0; g < r->num_groups; g++)
    coalesce_lhs(&r->groups[g]);
  for (size_t i = 0; i < r->num_reads; i++)
    if (r->reads[i].present)
      r->reads[i].interval =
          find_interval(&r->groups[r->reads[i].group], r->reads[i].lo);
  return true;
}

/* Overlapping extents (sorted by start) become one interval; touching ones
 * stay apart, since each is a whole aligned vector already. */
static void merge_sorted(group *g) {
  size_t kept = 0;
  for (size_t i = 0; i < g->num_intervals; i++) {
    interval cur = g->intervals[i];
    cur.lhs_only = false;
    if (kept > 0 && cur.lo < g->intervals[kept - 1].hi) {
      if (cur.hi > g->intervals[kept - 1].hi)
        g->intervals[kept - 1].hi = cur.hi;
    } else {
      g->intervals[kept++] = cur;
    }
  }
  g->num_intervals = kept;
}

/* A vector of at most 256 bits used only as X of multiplies would be
 * doubled by a concat; loading the adjacent next interval with it gives
 * the multiply real data in both halves instead. */
static void coalesce_lhs(group *g) {
  size_t kept = 0;
  for (size_t i = 0; i < g->num_intervals; i++) {
    interval cur = g->intervals[i];
    if (kept > 0) {
      interval *prev = &g->intervals[kept - 1];
      if (prev->lhs_only && prev->hi - prev->lo <= 256 && cur.lo == prev->hi &&
          cur.hi - cur.lo <= prev->hi - prev->lo) {
        prev->hi = cur.hi;
        prev->lhs_only = false; /* merged once */
        continue;
      }
    }
    g->intervals[kept++] = cur;
  }
  g->num_intervals = kept;
}

/* The interval containing an extent starting at `lo` (binary search). */
static size_t find_interval(const group *g, int64_t lo) {
  size_t a = 0, b = g->num_intervals;
  while (b - a > 1) {
    size_t m = (a + b) / 2;
    if (g->intervals[m].lo <= lo)
      a = m;
    else
      b = m;
  }
  return a;
}

size_t npuc_reuse_group(const npuc_reuse *r, size_t id) {
  return r->reads[id].group;
}

size_t npuc_reuse_num_groups(const npuc_reuse *r) { return r->num_groups; }

void npuc_reuse_extent(const npuc_reuse *r, size_t id, int64_t *lo,
                       int64_t *hi) {
  *lo = r->reads[id].lo;
  *hi = r->reads[id].hi;
}

void npuc_reuse_interval(const npuc_reuse *r, size_t id, int64_t *lo,
                         int64_t *hi) {
  const read_info *ri = &r->reads[id];
  const interval *iv = &r->groups[ri->group].intervals[ri->interval];
  *lo = iv->lo;
  *hi = iv->hi;
}

int64_t npuc_reuse_start_bits(const npuc_reuse *r, size_t id) {
  return r->reads[id].start_bits;
}
