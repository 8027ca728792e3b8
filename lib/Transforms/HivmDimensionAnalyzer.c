/* The dimension analyzer of 1:2 sub-block tiling: see
 * include/npuc/DimensionAnalyzer.h for the model (union-find of the dims of
 * every shaped value, one axis chosen for all store-like leaves). */
#include "npuc/DimensionAnalyzer.h"
#include "npuc/OpList.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 16
/* A DMA moves 32-byte blocks: half a row must stay a whole number of them. */
#define DMA_BLOCK_BYTES 32

/* Where the dims of one shaped value start in the node arrays. */
typedef struct {
  const void *key; /* MlirValue.ptr; NULL: empty slot */
  int32_t base, rank;
} value_slot;

typedef struct {
  const npuc_op_registry *reg;
  /* value -> first node (open addressing, at most half full) */
  value_slot *slots;
  size_t mask, num_values;
  /* per node: union-find parent, static size (-1 dynamic), reduced flag */
  int32_t *parent;
  int64_t *size;
  bool *reduced;
  size_t num_nodes, cap_nodes;
  /* the ops of the function, in walk order */
  npuc_op_list ops;
  /* op -> index in ops (open addressing), and whether a store-like op
   * depends on the op's results (a reduction elsewhere does not stop the
   * axis it reduces from being split) */
  const void **op_keys;
  size_t *op_index;
  size_t op_mask;
  bool *needed;
  /* per class root: it holds two dims of one value (a broadcast joined two
   * axes); which of them a reduction reduces is then unknown */
  bool *across;
  bool oom;
} analyzer;

static bool collect_ops(analyzer *a, MlirOperation func);
static bool find_needed(analyzer *a);
static bool is_needed(analyzer *a, MlirOperation op);
static void connect_op(analyzer *a, MlirOperation op);
static bool collect_leaves(analyzer *a, npuc_dim_result *out);
static void find_window(analyzer *a, npuc_dim_leaf *l);
static void choose_axis(analyzer *a, npuc_dim_result *out);
static void analyzer_free(analyzer *a);

bool npuc_dim_analyze(MlirOperation func, const npuc_op_registry *reg,
                      npuc_dim_result *out) {
  memset(out, 0, sizeof *out);
  analyzer a = {0};
  a.reg = reg;
  bool ok = collect_ops(&a, func) && find_needed(&a);
  for (size_t i = 0; ok && i < a.ops.count; i++)
    connect_op(&a, a.ops.ops[i]);
  ok = ok && !a.oom && collect_leaves(&a, out);
  if (ok)
    choose_axis(&a, out);
  ok = ok && !a.oom;
  analyzer_free(&a);
  if (!ok)
    npuc_dim_result_free(out);
  return ok;
}

void npuc_dim_result_free(npuc_dim_result *r) {
  free(r->leaves);
  r->leaves = NULL;
  r->num_leaves = r->num_tiled = 0;
}

intptr_t npuc_dim_stored_operand(const npuc_op_registry *reg,
                                 MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE))
    return -1;
  intptr_t first, count;
  int g = npuc_op_find_operand(def, "src");
  if (g < 0 || !npuc_operand_group(def, op, g, &first, &count) || count < 1)
    return -1;
  return first;
}

/* ---- the ops ------------------------------------------------------------- */

static bool collect_ops(analyzer *a, MlirOperation func) {
  if (!npuc_op_list_collect(func, MlirWalkPreOrder, NULL, NULL, &a->ops))
    a->oom = true;
  return !a->oom;
}

/* ---- which ops the stores depend on
 * ------------------------------------------ */

static size_t hash_ptr(const void *p);
static bool is_store_like(analyzer *a, MlirOperation op);

static size_t op_slot(const analyzer *a, const void *key) {
  size_t j = hash_ptr(key) & a->op_mask;
  while (a->op_keys[j] && a->op_keys[j] != key)
    j = (j + 1) & a->op_mask;
  return j;
}

static bool is_needed(analyzer *a, MlirOperation op) {
  size_t j = op_slot(a, op.ptr);
  return a->op_keys[j] && a->needed[a->op_index[j]];
}

/* Backwards over the walk order: an op is needed when it stores, ends a
 * block (yields feed loop and if results), or a needed op uses a result
 * of it. Users come later in the walk (or nested later), so one backward
 * sweep over every use settles it. */
static bool find_needed(analyzer *a) {
  size_t cap = 16;
  while (cap < 2 * a->ops.count)
    cap *= 2;
  a->op_keys = calloc(cap, sizeof *a->op_keys);
  a->op_index = malloc(cap * sizeof *a->op_index);
  a->needed = calloc(a->ops.count + 1, sizeof *a->needed);
  if (!a->op_keys || !a->op_index || !a->needed)
    return false;
  a->op_mask = cap - 1;
  for (size_t i = 0; i < a->ops.count; i++) {
    size_t j = op_slot(a, a->ops.ops[i].ptr);
    a->op_keys[j] = a->ops.ops[i].ptr;
    a->op_index[j] = i;
  }
  for (size_t i = a->ops.count; i-- > 0;) {
    MlirOperation op = a->ops.ops[i];
    bool need = is_store_like(a, op) ||
                mlirOperationIsNull(mlirOperationGetNextInBlock(op));
    for (intptr_t r = 0; !need && r < mlirOperationGetNumResults(op); r++)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !need && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        need = is_needed(a, mlirOpOperandGetOwner(u));
    a->needed[i] = need;
  }
  return true;
}

static bool is_store_like(analyzer *a, MlirOperation op) {
  return npuc_dim_stored_operand(a->reg, op) >= 0;
}

/* ---- nodes -----------------------------------------------------------------
 */

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

static bool grow_slots(analyzer *a) {
  size_t cap = a->slots ? 2 * (a->mask + 1) : 1024;
  value_slot *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return false;
  for (size_t i = 0; a->slots && i <= a->mask; i++) {
    if (!a->slots[i].key)
      continue;
    size_t j = hash_ptr(a->slots[i].key) & (cap - 1);
    while (slots[j].key)
      j = (j + 1) & (cap - 1);
    slots[j] = a->slots[i];
  }
  free(a->slots);
  a->slots = slots;
  a->mask = cap - 1;
  return true;
}

static bool reserve_nodes(analyzer *a, size_t n) {
  if (a->num_nodes + n <= a->cap_nodes)
    return true;
  size_t cap = a->cap_nodes ? 2 * a->cap_nodes : 1024;
  while (cap < a->num_nodes + n)
    cap *= 2;
  int32_t *parent = realloc(a->parent, cap * sizeof *parent);
  if (parent)
    a->parent = parent;
  int64_t *size = realloc(a->size, cap * sizeof *size);
  if (size)
    a->size = size;
  bool *reduced = realloc(a->reduced, cap * sizeof *reduced);
  if (reduced)
    a->reduced = reduced;
  if (!parent || !size || !reduced)
    return false;
  a->cap_nodes = cap;
  return true;
}

static int rank_of(MlirType t) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t))
    return -1;
  int64_t r = mlirShapedTypeGetRank(t);
  return r <= MAX_RANK ? (int)r : -1;
}

/* The first node of `v` (its dims are base .. base+rank-1); -1 for values
 * that are not ranked shaped values. Creates the nodes on first sight. */
static int32_t node_of(analyzer *a, MlirValue v) {
  if (a->oom || mlirValueIsNull(v))
    return -1;
  MlirType t = mlirValueGetType(v);
  int rank = rank_of(t);
  if (rank < 0)
    return -1;
  if (!a->slots || 2 * (a->num_values + 1) > a->mask + 1) {
    if (!grow_slots(a)) {
      a->oom = true;
      return -1;
    }
  }
  size_t j = hash_ptr(v.ptr) & a->mask;
  while (a->slots[j].key && a->slots[j].key != v.ptr)
    j = (j + 1) & a->mask;
  if (a->slots[j].key)
    return a->slots[j].base;
  if (!reserve_nodes(a, (size_t)rank)) {
    a->oom = true;
    return -1;
  }
  int32_t base = (int32_t)a->num_nodes;
  for (int d = 0; d < rank; d++) {
    a->parent[base + d] = base + d;
    a->size[base + d] =
        mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
    a->reduced[base + d] = false;
  }
  a->num_nodes += (size_t)rank;
  a->slots[j] = (value_slot){v.ptr, base, rank};
  a->num_values++;
  return base;
}

static int32_t find(analyzer *a, int32_t n) {
  while (a->parent[n] != n) {
    a->parent[n] = a->parent[a->parent[n]]; /* path halving */
    n = a->parent[n];
  }
  return n;
}

static void unite(analyzer *a, int32_t x, int32_t y) {
  x = find(a, x);
  y = find(a, y);
  if (x == y)
    return;
  /* The older node stays the root: ids grow in walk order, so a class is
   * named after its first appearance. */
  if (x < y)
    a->parent[y] = x;
  else
    a->parent[x] = y;
}

/* Joins dim dv of v with dim dw of w. */
static void join(analyzer *a, MlirValue v, int dv, MlirValue w, int dw) {
  int32_t bv = node_of(a, v), bw = node_of(a, w);
  if (bv < 0 || bw < 0 || dv < 0 || dw < 0 ||
      dv >= rank_of(mlirValueGetType(v)) || dw >= rank_of(mlirValueGetType(w)))
    return;
  unite(a, bv + dv, bw + dw);
}

/* Joins every dim of v with the same dim of w when their ranks agree. */
static void join_all(analyzer *a, MlirValue v, MlirValue w) {
  int rv = rank_of(mlirValueGetType(v)), rw = rank_of(mlirValueGetType(w));
  if (rv < 0 || rv != rw)
    return;
  for (int d = 0; d < rv; d++)
    join(a, v, d, w, d);
}

/* ---- connecting dims across ops ------------------------------------------ */

static bool is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static intptr_t i64_list(MlirOperation op, const char *name, int64_t *out,
                         intptr_t cap) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a))
    return -1;
  intptr_t n = 0;
  if (mlirAttributeIsADenseI64Array(a)) {
    n = mlirDenseArrayGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++)
      out[i] = mlirDenseI64ArrayGetElement(a, i);
  } else if (mlirAttributeIsAArray(a)) {
    n = mlirArrayAttrGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++) {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      out[i] = mlirAttributeIsAInteger(e) ? mlirIntegerAttrGetValueInt(e) : -1;
    }
  } else {
    return -1;
  }
  return n < cap ? n : cap;
}

static bool in_list(const int64_t *v, intptr_t n, int64_t x) {
  for (intptr_t i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

static void connect_hivm(analyzer *a, MlirOperation op, const npuc_op_def *def);
static void connect_reshape(analyzer *a, MlirOperation op, bool expand);
static void connect_slice(analyzer *a, MlirOperation op, MlirValue whole,
                          MlirValue part);
static void connect_region_values(analyzer *a, MlirOperation op);

static void connect_op(analyzer *a, MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(a->reg, n.data, n.length);
  if (def && n.length > 9 && memcmp(n.data, "hivm.hir.", 9) == 0) {
    connect_hivm(a, op, def);
  } else if (is(op, "tensor.expand_shape")) {
    connect_reshape(a, op, true);
  } else if (is(op, "tensor.collapse_shape")) {
    connect_reshape(a, op, false);
  } else if (is(op, "tensor.extract_slice") || is(op, "memref.subview")) {
    connect_slice(a, op, mlirOperationGetOperand(op, 0),
                  mlirOperationGetResult(op, 0));
  } else if (is(op, "tensor.insert_slice")) {
    connect_slice(a, op, mlirOperationGetOperand(op, 1),
                  mlirOperationGetOperand(op, 0));
    join_all(a, mlirOperationGetOperand(op, 1), mlirOperationGetResult(op, 0));
  } else if (is(op, "bufferization.to_tensor") ||
             is(op, "bufferization.to_buffer") || is(op, "tensor.cast") ||
             is(op, "memref.cast") || is(op, "memref.memory_space_cast")) {
    join_all(a, mlirOperationGetOperand(op, 0), mlirOperationGetResult(op, 0));
  } else if (is(op, "scf.for") || is(op, "scf.if") || is(op, "scf.while")) {
    connect_region_values(a, op);
  }
}

/* Operand group `name` of an hivm op: first index and count (0 if none). */
static intptr_t group(const npuc_op_def *def, MlirOperation op,
                      const char *name, intptr_t *count) {
  int g = npuc_op_find_operand(def, name);
  intptr_t first = 0;
  *count = 0;
  if (g < 0 || !npuc_operand_group(def, op, g, &first, count))
    *count = 0;
  return first;
}

static void connect_elementwise(analyzer *a, MlirOperation op, MlirValue out,
                                intptr_t first, intptr_t count);
static void connect_broadcast(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out);
static void connect_reduce(analyzer *a, MlirOperation op, MlirValue in,
                           MlirValue out);
static void connect_transpose(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out);

static void connect_hivm(analyzer *a, MlirOperation op,
                         const npuc_op_def *def) {
  intptr_t nsrc, ndst;
  intptr_t src = group(def, op, "src", &nsrc);
  intptr_t dst = group(def, op, "dst", &ndst);
  /* Destination style: each result is its init. */
  for (intptr_t i = 0; i < ndst && i < mlirOperationGetNumResults(op); i++)
    join_all(a, mlirOperationGetOperand(op, dst + i),
             mlirOperationGetResult(op, i));
  if (nsrc < 1 || ndst < 1)
    return;
  MlirValue in = mlirOperationGetOperand(op, src);
  MlirValue out = mlirOperationGetOperand(op, dst);
  if (npuc_op_has_trait(def, NPUC_TRAIT_ELEMENTWISE))
    connect_elementwise(a, op, out, src, nsrc);
  else if (is(op, "hivm.hir.vbrc"))
    connect_broadcast(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_REDUCTION))
    connect_reduce(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_TRANSPOSE))
    connect_transpose(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_LOAD_LIKE) ||
           npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE) ||
           is(op, "hivm.hir.bitcast"))
    for (intptr_t i = 0; i < nsrc; i++) /* indirect_store: offsets, mask */
      join_all(a, mlirOperationGetOperand(op, src + i), out);
}

/* Elementwise: a dim of an operand joins the output's unless the operand
 * broadcasts it (static size 1 where the output's is not). */
static void connect_elementwise(analyzer *a, MlirOperation op, MlirValue out,
                                intptr_t first, intptr_t count) {
  int64_t perm[MAX_RANK];
  if (i64_list(op, "transpose", perm, MAX_RANK) > 0)
    return; /* an implicit transpose: no bubbling through it either */
  MlirType ot = mlirValueGetType(out);
  int rank = rank_of(ot);
  for (intptr_t i = first; i < first + count; i++) {
    MlirValue in = mlirOperationGetOperand(op, i);
    MlirType it = mlirValueGetType(in);
    if (rank_of(it) != rank)
      continue;
    for (int d = 0; d < rank; d++) {
      bool unit_in = !mlirShapedTypeIsDynamicDim(it, d) &&
                     mlirShapedTypeGetDimSize(it, d) == 1;
      bool unit_out = !mlirShapedTypeIsDynamicDim(ot, d) &&
                      mlirShapedTypeGetDimSize(ot, d) == 1;
      if (!unit_in || unit_out)
        join(a, in, d, out, d);
    }
  }
}

static void connect_broadcast(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out) {
  MlirType it = mlirValueGetType(in), ot = mlirValueGetType(out);
  int rank = rank_of(ot);
  if (rank_of(it) != rank)
    return; /* a scalar broadcast carries no dims */
  int64_t dims[MAX_RANK];
  intptr_t n = i64_list(op, "broadcast_dims", dims, MAX_RANK);
  for (int d = 0; d < rank; d++) {
    bool broadcast = n >= 0 ? in_list(dims, n, d)
                            : (!mlirShapedTypeIsDynamicDim(it, d) &&
                               mlirShapedTypeGetDimSize(it, d) == 1 &&
                               mlirShapedTypeGetDimSize(ot, d) != 1);
    if (!broadcast)
      join(a, in, d, out, d);
  }
}

static void connect_reduce(analyzer *a, MlirOperation op, MlirValue in,
                           MlirValue out) {
  int rank = rank_of(mlirValueGetType(in));
  int32_t base = node_of(a, in);
  if (base < 0 || rank_of(mlirValueGetType(out)) != rank)
    return;
  int64_t dims[MAX_RANK];
  intptr_t n = i64_list(op, "reduce_dims", dims, MAX_RANK);
  bool needed = is_needed(a, op);
  for (int d = 0; d < rank; d++) {
    if (n >= 0 && in_list(dims, n, d))
      a->reduced[base + d] = a->reduced[base + d] || needed;
    else
      join(a, in, d, out, d);
  }
}

static void connect_transpose(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out) {
  int64_t perm[MAX_RANK];
  intptr_t n = i64_list(op, "permutation", perm, MAX_RANK);
  if (n != rank_of(mlirValueGetType(out)))
    return;
  for (intptr_t d = 0; d < n; d++)
    join(a, out, (int)d, in, (int)perm[d]);
}

/* expand_shape and collapse_shape: the dim of the lower-rank side joins the
 * outermost non-unit dim of its group on the higher-rank side (the dim a
 * half of it maps onto cleanly). */
static void connect_reshape(analyzer *a, MlirOperation op, bool expand) {
  MlirValue low =
      expand ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  MlirValue high =
      expand ? mlirOperationGetResult(op, 0) : mlirOperationGetOperand(op, 0);
  MlirType ht = mlirValueGetType(high);
  MlirAttribute groups = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("reassociation"));
  if (mlirAttributeIsNull(groups) || !mlirAttributeIsAArray(groups) ||
      rank_of(ht) < 0)
    return;
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); g++) {
    MlirAttribute grp = mlirArrayAttrGetElement(groups, g);
    if (!mlirAttributeIsAArray(grp) || mlirArrayAttrGetNumElements(grp) < 1)
      continue;
    int pick = -1;
    for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(grp); k++) {
      int d = (int)mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(grp, k));
      if (d < 0 || d >= rank_of(ht))
        break;
      if (pick < 0)
        pick = d;
      if (mlirShapedTypeIsDynamicDim(ht, d) ||
          mlirShapedTypeGetDimSize(ht, d) != 1) {
        pick = d;
        break;
      }
    }
    join(a, low, (int)g, high, pick);
  }
}

/* extract_slice / subview / insert_slice: `part` is the slice of `whole`,
 * possibly rank-reduced (unit dims of the slice dropped). */
static void connect_slice(analyzer *a, MlirOperation op, MlirValue whole,
                          MlirValue part) {
  int rw = rank_of(mlirValueGetType(whole));
  int rp = rank_of(mlirValueGetType(part));
  int64_t sizes[MAX_RANK];
  intptr_t n = i64_list(op, "static_sizes", sizes, MAX_RANK);
  if (rw < 0 || rp < 0 || rp > rw || n != rw)
    return;
  int j = 0;
  for (int d = 0; d < rw && j < rp; d++) {
    bool drop = rw - d > rp - j && sizes[d] == 1;
    if (!drop)
      join(a, whole, d, part, j++);
  }
}

static MlirOperation terminator(MlirOperation op, intptr_t region) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
  return mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
}

static MlirBlock first_block(MlirOperation op, intptr_t region) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

/* Loop-carried and if-yielded values: the same tensor on every path. */
static void connect_region_values(analyzer *a, MlirOperation op) {
  intptr_t nres = mlirOperationGetNumResults(op);
  if (is(op, "scf.if")) {
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++) {
      MlirOperation y = terminator(op, r);
      for (intptr_t i = 0; !mlirOperationIsNull(y) && i < nres &&
                           i < mlirOperationGetNumOperands(y);
           i++)
        join_all(a, mlirOperationGetOperand(y, i),
                 mlirOperationGetResult(op, i));
    }
    return;
  }
  if (is(op, "scf.for")) {
    MlirBlock body = first_block(op, 0);
    MlirOperation y = terminator(op, 0);
    if (mlirBlockIsNull(body) || mlirOperationIsNull(y))
      return;
    for (intptr_t i = 0; i < nres; i++) {
      MlirValue arg = mlirBlockGetArgument(body, i + 1);
      join_all(a, mlirOperationGetOperand(op, 3 + i), arg);
      join_all(a, arg, mlirOperationGetResult(op, i));
      join_all(a, mlirOperationGetOperand(y, i), arg);
    }
    return;
  }
  /* scf.while: inits -> before args; condition args -> after args and
   * results; the after region's yield -> before args. */
  MlirBlock before = first_block(op, 0), after = first_block(op, 1);
  MlirOperation cond = terminator(op, 0), y = terminator(op, 1);
  if (mlirBlockIsNull(before) || mlirBlockIsNull(after) ||
      mlirOperationIsNull(cond) || mlirOperationIsNull(y))
    return;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) &&
                       i < mlirBlockGetNumArguments(before) &&
                       i < mlirOperationGetNumOperands(y);
       i++) {
    join_all(a, mlirOperationGetOperand(op, i),
             mlirBlockGetArgument(before, i));
    join_all(a, mlirOperationGetOperand(y, i), mlirBlockGetArgument(before, i));
  }
  for (intptr_t i = 0; i < nres && i < mlirBlockGetNumArguments(after) &&
                       i + 1 < mlirOperationGetNumOperands(cond);
       i++) {
    join_all(a, mlirOperationGetOperand(cond, i + 1),
             mlirBlockGetArgument(after, i));
    join_all(a, mlirOperationGetOperand(cond, i + 1),
             mlirOperationGetResult(op, i));
  }
}

/* ---- leaves and the axis
 * ----------------------------------------------------- */

static bool collect_leaves(analyzer *a, npuc_dim_result *out) {
  size_t n = 0;
  for (size_t i = 0; i < a->ops.count; i++)
    n += npuc_dim_stored_operand(a->reg, a->ops.ops[i]) >= 0;
  out->leaves = n ? calloc(n, sizeof *out->leaves) : NULL;
  if (n && !out->leaves)
    return false;
  for (size_t i = 0; i < a->ops.count; i++) {
    intptr_t k = npuc_dim_stored_operand(a->reg, a->ops.ops[i]);
    if (k < 0)
      continue;
    npuc_dim_leaf *l = &out->leaves[out->num_leaves++];
    l->op = a->ops.ops[i];
    l->value = mlirOperationGetOperand(a->ops.ops[i], k);
    l->dim = -1;
    node_of(a, l->value);
    find_window(a, l);
  }
  return !a->oom;
}

static int64_t element_bytes(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
                 : mlirTypeIsAFloat(e) ? mlirFloatTypeGetWidth(e)
                                       : 64; /* index */
  return bits < 8 ? 1 : bits / 8;
}

/* Do two slice-like ops (extract_slice, subview) take windows of the same
 * sizes (equal static sizes, the same dynamic size operands) with unit
 * strides? */
static bool same_sizes(MlirOperation x, MlirOperation y) {
  int64_t ox[MAX_RANK], oy[MAX_RANK], sx[MAX_RANK], sy[MAX_RANK];
  int64_t tx[MAX_RANK], ty[MAX_RANK];
  intptr_t n = i64_list(x, "static_sizes", sx, MAX_RANK);
  if (n < 0 || n != i64_list(y, "static_sizes", sy, MAX_RANK) ||
      i64_list(x, "static_offsets", ox, MAX_RANK) != n ||
      i64_list(y, "static_offsets", oy, MAX_RANK) != n ||
      i64_list(x, "static_strides", tx, MAX_RANK) != n ||
      i64_list(y, "static_strides", ty, MAX_RANK) != n ||
      memcmp(sx, sy, (size_t)n * sizeof *sx) != 0)
    return false;
  intptr_t dx = 1, dy = 1; /* the first dynamic size operand */
  for (intptr_t k = 0; k < n; k++) {
    if (tx[k] != 1 || ty[k] != 1)
      return false;
    dx += ox[k] == mlirShapedTypeGetDynamicSize();
    dy += oy[k] == mlirShapedTypeGetDynamicSize();
  }
  for (intptr_t k = 0; k < n; k++)
    if (sx[k] == mlirShapedTypeGetDynamicSize() &&
        !mlirValueEqual(mlirOperationGetOperand(x, dx++),
                        mlirOperationGetOperand(y, dy++)))
      return false;
  return true;
}

static bool static_shape(MlirType t) {
  if (rank_of(t) < 0)
    return false;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    if (mlirShapedTypeIsDynamicDim(t, d))
      return false;
  return true;
}

/* Finds the window ops of a store (see npuc_dim_leaf): the stored value is
 * a same-rank slice of a statically shaped tensor, the destination a
 * subview of the same sizes. */
static void find_window(analyzer *a, npuc_dim_leaf *l) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(l->op));
  const npuc_op_def *def = npuc_op_lookup(a->reg, n.data, n.length);
  intptr_t dst = 0, count = 0;
  int g = def ? npuc_op_find_operand(def, "dst") : -1;
  if (g < 0 || !npuc_operand_group(def, l->op, g, &dst, &count) || count != 1 ||
      !mlirValueIsAOpResult(l->value))
    return;
  MlirValue to = mlirOperationGetOperand(l->op, dst);
  if (!mlirValueIsAOpResult(to))
    return;
  MlirOperation slice = mlirOpResultGetOwner(l->value);
  MlirOperation view = mlirOpResultGetOwner(to);
  if (!is(slice, "tensor.extract_slice") || !is(view, "memref.subview"))
    return;
  MlirType x = mlirValueGetType(mlirOperationGetOperand(slice, 0));
  MlirType d = mlirValueGetType(mlirOperationGetOperand(view, 0));
  if (rank_of(x) != rank_of(mlirValueGetType(l->value)) || !static_shape(x) ||
      rank_of(d) != rank_of(x) || !same_sizes(slice, view))
    return;
  l->slice = slice;
  l->view = view;
}

/* Why dim d of the leaf's value cannot be halved (NULL when it can); sets
 * the extent the halves share and whether the leaf is cut as a window. */
static const char *unfit(analyzer *a, const npuc_dim_leaf *l, int d,
                         int32_t base, int64_t *extent, bool *window) {
  MlirType t = mlirValueGetType(l->value);
  int rank = rank_of(t);
  int64_t shape[MAX_RANK];
  bool plain = true;
  for (int k = 0; k < rank; k++) {
    shape[k] = a->size[base + k];
    plain = plain && shape[k] >= 0;
  }
  plain = plain && shape[d] >= 2 && shape[d] % 2 == 0;
  *window = !plain && !mlirOperationIsNull(l->slice);
  if (*window) {
    MlirType x = mlirValueGetType(mlirOperationGetOperand(l->slice, 0));
    for (int k = 0; k < rank; k++)
      shape[k] = mlirShapedTypeGetDimSize(x, k);
  }
  *extent = shape[d];
  for (int k = 0; k < rank; k++) /* the halves get static types */
    if (k != d && shape[k] < 0)
      return "sits in a dynamically shaped value";
  if (shape[d] < 0)
    return "is dynamic";
  if (shape[d] < 2 || shape[d] % 2)
    return "is odd";
  int32_t root = find(a, base + d);
  /* Across a broadcast the reduced axis cannot be told from the kept one:
   * like bishengir, split anyway with strict mode off. */
  if (a->reduced[root] && !(a->across && a->across[root]))
    return "is reduced";
  /* The contiguous runs one sub-block moves: its half of dim d times
   * everything inside it (row-major). */
  int64_t run = element_bytes(t) * (shape[d] / 2);
  for (int k = d + 1; k < rank; k++)
    run *= shape[k];
  if (run % DMA_BLOCK_BYTES)
    return "splits rows of less than 32 bytes";
  return NULL;
}

static void explain_failure(analyzer *a, npuc_dim_result *out);
static void class_widths(analyzer *a, int64_t *widest);
static void mark_across(analyzer *a);
static void count_leaves(analyzer *a, const npuc_dim_result *out,
                         int32_t *count, int32_t *stamp, int8_t *outer);
static int32_t pick_dim(analyzer *a, npuc_dim_leaf *l, const int32_t *count,
                        const int8_t *outer);
static bool whole_ok(analyzer *a, const npuc_dim_leaf *l,
                     const int64_t *widest);
static void refuse_partial(npuc_dim_result *out, const npuc_dim_leaf *l);
static void note_broadcast_across(analyzer *a, npuc_dim_result *out,
                                  const bool *chosen);

/* Counts, per class, the leaves it can halve; the most wins, then the one
 * seen on the outermost dim, then the oldest. */
static void choose_axis(analyzer *a, npuc_dim_result *out) {
  if (out->num_leaves == 0)
    return;
  size_t n = a->num_nodes + 1;
  int32_t *count = calloc(n, sizeof *count);
  int32_t *stamp = malloc(n * sizeof *stamp);
  int8_t *outer = malloc(n);
  int64_t *widest = malloc(n * sizeof *widest);
  bool *chosen = calloc(n, sizeof *chosen);
  if (!count || !stamp || !outer || !widest || !chosen) {
    a->oom = true;
    free(count), free(stamp), free(outer), free(widest), free(chosen);
    return;
  }
  memset(stamp, 0xff, n * sizeof *stamp);
  memset(outer, MAX_RANK, n);
  class_widths(a, widest);
  a->across = calloc(n, sizeof *a->across);
  if (!a->across) {
    a->oom = true;
    free(count), free(stamp), free(outer), free(widest), free(chosen);
    return;
  }
  mark_across(a);
  count_leaves(a, out, count, stamp, outer);
  for (size_t i = 0; i < out->num_leaves; i++) {
    int32_t r = pick_dim(a, &out->leaves[i], count, outer);
    if (r >= 0) {
      chosen[r] = true;
      out->num_tiled++;
    }
  }
  for (size_t i = 0; out->num_tiled > 0 && i < out->num_leaves; i++)
    if (out->leaves[i].dim < 0 && !whole_ok(a, &out->leaves[i], widest))
      refuse_partial(out, &out->leaves[i]);
  if (out->num_tiled > 0)
    note_broadcast_across(a, out, chosen);
  else if (!out->reason)
    explain_failure(a, out);
  free(count), free(stamp), free(outer), free(widest), free(chosen);
}

/* The largest static size in each class (-1 when a member is dynamic);
 * also moves the reduced marks of the members to their class. */
static void class_widths(analyzer *a, int64_t *widest) {
  for (size_t k = 0; k < a->num_nodes; k++)
    widest[k] = 0;
  for (size_t k = 0; k < a->num_nodes; k++) {
    int32_t r = find(a, (int32_t)k);
    a->reduced[r] = a->reduced[r] || a->reduced[k];
    if (widest[r] < 0 || a->size[k] < 0)
      widest[r] = -1;
    else if (a->size[k] > widest[r])
      widest[r] = a->size[k];
  }
}

static bool two_dims_in(analyzer *a, const value_slot *v, int32_t *root) {
  for (int d = 0; v->key && d < v->rank; d++)
    for (int e = d + 1; e < v->rank; e++)
      if (find(a, v->base + d) == find(a, v->base + e)) {
        *root = find(a, v->base + d);
        return true;
      }
  return false;
}

/* The classes that hold two dims of one value. */
static void mark_across(analyzer *a) {
  for (size_t s = 0; s <= a->mask; s++) {
    int32_t root;
    if (two_dims_in(a, &a->slots[s], &root))
      a->across[root] = true;
  }
}

/* Per class: how many leaves it can halve, and the outermost dim it was
 * seen on. */
static void count_leaves(analyzer *a, const npuc_dim_result *out,
                         int32_t *count, int32_t *stamp, int8_t *outer) {
  for (size_t i = 0; i < out->num_leaves; i++) {
    const npuc_dim_leaf *l = &out->leaves[i];
    int32_t base = node_of(a, l->value);
    for (int d = 0; base >= 0 && d < rank_of(mlirValueGetType(l->value)); d++) {
      int64_t extent;
      bool window;
      if (unfit(a, l, d, base, &extent, &window))
        continue;
      int32_t r = find(a, base + d);
      if (stamp[r] != (int32_t)i) {
        stamp[r] = (int32_t)i;
        count[r]++;
      }
      if (d < outer[r])
        outer[r] = (int8_t)d;
    }
  }
}

/* The leaf's dim whose class halves the most leaves (then the outermost,
 * then the oldest class): sets l->dim and returns its class, or -1. Leaves
 * connected to each other share their best class, so they are cut along
 * the same axis; unrelated leaves get their own. */
static int32_t pick_dim(analyzer *a, npuc_dim_leaf *l, const int32_t *count,
                        const int8_t *outer) {
  int32_t base = node_of(a, l->value), best = -1;
  for (int d = 0; base >= 0 && d < rank_of(mlirValueGetType(l->value)); d++) {
    int64_t extent;
    bool window;
    if (unfit(a, l, d, base, &extent, &window))
      continue;
    int32_t r = find(a, base + d);
    if (best < 0 || count[r] > count[best] ||
        (count[r] == count[best] && outer[r] < outer[best]) ||
        (count[r] == count[best] && outer[r] == outer[best] && r < best)) {
      best = r;
      l->dim = d;
      l->extent = extent;
      l->window = window;
    }
  }
  return best;
}

/* A leaf left whole runs on sub-block 0 only. That is kept for leaves whose
 * axes hold nothing to split (every class all size 1), not for a leaf
 * with an axis that cannot be halved. */
static bool whole_ok(analyzer *a, const npuc_dim_leaf *l,
                     const int64_t *widest) {
  int32_t base = node_of(a, l->value);
  for (int d = 0; base >= 0 && d < rank_of(mlirValueGetType(l->value)); d++) {
    int64_t w = widest[find(a, base + d)];
    if (w < 0 || w > 1)
      return false;
  }
  return true;
}

static void refuse_partial(npuc_dim_result *out, const npuc_dim_leaf *l) {
  for (size_t i = 0; i < out->num_leaves; i++)
    out->leaves[i].dim = -1;
  out->num_tiled = 0;
  out->culprit = l->op;
  snprintf(out->reason_buf, sizeof out->reason_buf,
           "this store cannot be cut along the axis chosen for the others");
  out->reason = out->reason_buf;
}

/* Names the first leaf and why its first splittable-looking dim fails. */
static void explain_failure(analyzer *a, npuc_dim_result *out) {
  const npuc_dim_leaf *l = &out->leaves[0];
  out->culprit = l->op;
  int32_t base = node_of(a, l->value);
  int rank = rank_of(mlirValueGetType(l->value));
  if (base < 0 || rank == 0) {
    snprintf(out->reason_buf, sizeof out->reason_buf,
             "the stored value has no dimension to split");
    out->reason = out->reason_buf;
    return;
  }
  int pick = 0; /* prefer a dim that is not a static 1 */
  for (int d = 0; d < rank; d++)
    if (a->size[base + d] != 1) {
      pick = d;
      break;
    }
  int64_t extent;
  bool window;
  snprintf(out->reason_buf, sizeof out->reason_buf,
           "no parallel axis to split in two: dim %d of the stored value %s",
           pick, unfit(a, l, pick, base, &extent, &window));
  out->reason = out->reason_buf;
}

/* Does a chosen class hold two dims of one value? */
static void note_broadcast_across(analyzer *a, npuc_dim_result *out,
                                  const bool *chosen) {
  const value_slot *first = NULL; /* the oldest such value: deterministic */
  for (size_t s = 0; s <= a->mask; s++) {
    const value_slot *v = &a->slots[s];
    int32_t root;
    if (two_dims_in(a, v, &root) && chosen[root] &&
        (!first || v->base < first->base))
      first = v;
  }
  if (!first)
    return;
  out->broadcast_across = true;
  MlirValue val = {first->key};
  out->broadcast_at = mlirValueIsAOpResult(val) ? mlirOpResultGetOwner(val)
                                                : (MlirOperation){NULL};
}

static void analyzer_free(analyzer *a) {
  free(a->op_keys);
  free(a->op_index);
  free(a->needed);
  free(a->across);
  free(a->slots);
  free(a->parent);
  free(a->size);
  free(a->reduced);
  npuc_op_list_free(&a->ops);
}
