/* The dimension analyzer of 1:2 sub-block tiling: see
 * include/npuc/DimensionAnalyzer.h for the model (union-find of the dims of
 * every shaped value, one axis chosen for all store-like leaves).
 *
 * Cost: the analyzer runs on every AIV function, so each fact is read from
 * MLIR once. Op names are uniqued identifiers: what the analyzer needs of
 * a name (its kind, table entry, operand groups) is looked up once per
 * name and then found by the identifier's pointer. A value's rank and
 * static sizes are read once, when its nodes are made, and later read from
 * the node arrays (ShapedType queries go through MLIR's interface lookup,
 * which costs far more than the union-find step). */
#include "npuc/DimensionAnalyzer.h"
#include "npuc/BuildOps.h"
#include "npuc/MlirSupport.h"
#include "npuc/OpList.h"
#include "npuc/PtrSet.h"
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

/* The op kinds the analyzer connects dims through. */
typedef enum {
  K_OTHER,
  K_HIVM, /* an hivm.hir op of the table */
  K_EXPAND,
  K_COLLAPSE,
  K_EXTRACT_SLICE,
  K_SUBVIEW,
  K_INSERT_SLICE,
  K_SAME_SHAPE, /* to_tensor, to_buffer, casts: the result is the operand */
  K_FOR,
  K_IF,
  K_WHILE,
} op_kind;

/* What the analyzer needs of one op name. */
typedef struct {
  const void *name; /* MlirIdentifier.ptr; NULL: empty slot */
  const npuc_op_def *def;
  op_kind kind;
  int src, dst;    /* operand groups `src` and `dst` of a table op, or -1 */
  bool store_like; /* the store-like trait and a `src` group */
  bool load_like;  /* the load-like trait and a `src` group */
  bool broadcast;  /* hivm.hir.vbrc */
  bool reduction;  /* the reduction trait */
  bool same_dims;  /* hivm.hir.bitcast: the operand's dims are the result's */
} name_facts;

/* Where the dims of one value start in the node arrays. The analyzer's
 * tables (names, values, types) are its own rather than npuc_ptr_map: the
 * slot holds the entry itself, one cache line per lookup, which the
 * issue-5 time target of hivm-bind-sub-block was tuned on. */
typedef struct {
  const void *key;    /* MlirValue.ptr; NULL: empty slot */
  int32_t base, rank; /* rank -1: not a ranked shaped value (no nodes) */
} value_slot;

/* The shape of one type: rank (-1: not a ranked shaped type) and static
 * sizes (-1: dynamic) at sizes[first ..]. */
typedef struct {
  const void *key; /* MlirType.ptr; NULL: empty slot */
  int32_t rank, first;
} type_slot;

/* The dims of one value: nodes base .. base+rank-1 (rank -1: none). */
typedef struct {
  int32_t base, rank;
} dims;

typedef struct {
  const npuc_op_registry *reg;
  /* op name -> facts (open addressing, at most half full) */
  name_facts *names;
  size_t names_mask, num_names;
  /* type -> shape (open addressing, at most half full); values of one
   * type are common, and its shape is read from MLIR once */
  type_slot *types;
  size_t types_mask, num_types;
  int64_t *type_sizes;
  size_t num_type_sizes, cap_type_sizes;
  /* value -> first node (open addressing, at most half full) */
  value_slot *slots;
  size_t mask, num_values;
  /* per node: union-find parent, static size (-1 dynamic), reduced flag */
  int32_t *parent;
  int64_t *size;
  bool *reduced;
  size_t num_nodes, cap_nodes;
  /* the ops of the function, in walk order, and per op the operand index
   * of the value it stores (-1: not store-like) */
  npuc_op_list ops;
  intptr_t *stored;
  /* op -> index in ops (open addressing), and whether a store-like op
   * depends on the op's results (a reduction elsewhere does not stop the
   * axis it reduces from being split) */
  const void **op_keys;
  size_t *op_index;
  size_t op_mask;
  bool *needed;
  /* Any op with the reduction trait: only then are `needed` and the op
   * index above made (connect_reduce alone asks). */
  bool reductions;
  /* per class root: it holds two dims of one value (a broadcast joined two
   * axes); which of them a reduction reduces is then unknown */
  bool *across;
  /* per class root: the columns of a 2-D tightly coupled UB buffer
   * narrower than 32 on a target whose fixpipe then cannot split them
   * (COLUMN_SPLIT wants a multiple of 32): not an axis to cut */
  bool *narrow_columns;
  /* Some union joined dims of different positions (a broadcast, a
   * transpose, a reshape): only then can a class hold two dims of one
   * value, as every other union joins dim d with dim d. */
  bool mixed_dims;
  npuc_group_sizes_cache groups;
  bool oom;
} analyzer;

static bool collect_ops(analyzer *a, MlirOperation func, npuc_dim_result *out);
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
  bool ok = collect_ops(&a, func, out) && (!a.reductions || find_needed(&a));
  for (size_t i = 0; ok && i < a.ops.count; i++)
    connect_op(&a, a.ops.ops[i]);
  ok = ok && !a.oom && collect_leaves(&a, out);
  if (ok)
    choose_axis(&a, out);
  ok = ok && !a.oom;
  if (ok) { /* handed over */
    out->ops = a.ops;
    a.ops = (npuc_op_list){0};
  }
  analyzer_free(&a);
  if (!ok)
    npuc_dim_result_free(out);
  return ok;
}

void npuc_dim_result_free(npuc_dim_result *r) {
  free(r->leaves);
  free(r->loads);
  free(r->tcbs);
  npuc_op_list_free(&r->ops);
  r->leaves = NULL;
  r->loads = NULL;
  r->tcbs = NULL;
  r->num_tcbs = 0;
  r->num_leaves = r->num_tiled = r->num_loads = 0;
}

static intptr_t stored_operand(const npuc_op_def *def, int src,
                               MlirOperation op);

intptr_t npuc_dim_stored_operand(const npuc_op_registry *reg,
                                 MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE))
    return -1;
  return stored_operand(def, npuc_op_find_operand(def, "src"), op);
}

/* The first operand of group `src` of a store-like (or load-like) op, or
 * -1. */
static intptr_t stored_operand(const npuc_op_def *def, int src,
                               MlirOperation op) {
  intptr_t first, count;
  if (src < 0 || !npuc_operand_group(def, op, src, &first, &count) || count < 1)
    return -1;
  return first;
}

/* ---- op names ------------------------------------------------------------ */

static void describe_name(analyzer *a, MlirOperation op, name_facts *f);

/* The facts of op's name: looked up on the first op of that name. */
static const name_facts *facts_of(analyzer *a, MlirOperation op) {
  static const name_facts none = {NULL,  NULL,  K_OTHER, -1,    -1,
                                  false, false, false,   false, false};
  const void *key = mlirOperationGetName(op).ptr;
  if (!a->names || 2 * (a->num_names + 1) > a->names_mask + 1) {
    size_t cap = a->names ? 2 * (a->names_mask + 1) : 64;
    name_facts *grown = calloc(cap, sizeof *grown);
    if (!grown) {
      a->oom = true;
      return &none;
    }
    for (size_t i = 0; a->names && i <= a->names_mask; i++) {
      size_t j = npuc_hash_ptr(a->names[i].name) & (cap - 1);
      while (a->names[i].name && grown[j].name)
        j = (j + 1) & (cap - 1);
      if (a->names[i].name)
        grown[j] = a->names[i];
    }
    free(a->names);
    a->names = grown;
    a->names_mask = cap - 1;
  }
  size_t j = npuc_hash_ptr(key) & a->names_mask;
  while (a->names[j].name && a->names[j].name != key)
    j = (j + 1) & a->names_mask;
  if (!a->names[j].name) {
    describe_name(a, op, &a->names[j]);
    a->names[j].name = key;
    a->num_names++;
  }
  return &a->names[j];
}

static void describe_name(analyzer *a, MlirOperation op, name_facts *f) {
  static const struct {
    const char *name;
    op_kind kind;
  } kinds[] = {
      {"tensor.expand_shape", K_EXPAND},
      {"tensor.collapse_shape", K_COLLAPSE},
      {"tensor.extract_slice", K_EXTRACT_SLICE},
      {"memref.subview", K_SUBVIEW},
      {"tensor.insert_slice", K_INSERT_SLICE},
      {"bufferization.to_tensor", K_SAME_SHAPE},
      {"bufferization.to_buffer", K_SAME_SHAPE},
      {"tensor.cast", K_SAME_SHAPE},
      {"memref.cast", K_SAME_SHAPE},
      {"memref.memory_space_cast", K_SAME_SHAPE},
      {"scf.for", K_FOR},
      {"scf.if", K_IF},
      {"scf.while", K_WHILE},
  };
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(a->reg, n.data, n.length);
  *f = (name_facts){NULL,  def,   K_OTHER, -1,    -1,
                    false, false, false,   false, false};
  if (def) {
    f->src = npuc_op_find_operand(def, "src");
    f->dst = npuc_op_find_operand(def, "dst");
    f->store_like =
        f->src >= 0 && npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE);
    f->load_like = f->src >= 0 && npuc_op_has_trait(def, NPUC_TRAIT_LOAD_LIKE);
    f->reduction = npuc_op_has_trait(def, NPUC_TRAIT_REDUCTION);
  }
  if (def && n.length > 9 && memcmp(n.data, "hivm.hir.", 9) == 0) {
    f->kind = K_HIVM;
    f->broadcast = npuc_op_is(op, "hivm.hir.vbrc");
    f->same_dims = npuc_op_is(op, "hivm.hir.bitcast");
    return;
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (npuc_op_is(op, kinds[i].name))
      f->kind = kinds[i].kind;
}

static op_kind kind_of(analyzer *a, MlirOperation op) {
  return facts_of(a, op)->kind;
}

/* ---- the ops ------------------------------------------------------------- */

static bool add_load(npuc_dim_result *out, MlirOperation op,
                     const name_facts *f);

/* The ops in walk order, per op the operand it stores, and what the
 * load-like ops read. */
static bool collect_ops(analyzer *a, MlirOperation func, npuc_dim_result *out) {
  npuc_op_list_collect(func, MlirWalkPreOrder, NULL, NULL, &a->ops);
  a->stored = a->oom ? NULL : malloc((a->ops.count + 1) * sizeof *a->stored);
  for (size_t i = 0; a->stored && i < a->ops.count && !a->oom; i++) {
    const name_facts *f = facts_of(a, a->ops.ops[i]);
    a->reductions |= f->reduction;
    a->stored[i] =
        f->store_like ? stored_operand(f->def, f->src, a->ops.ops[i]) : -1;
    if (f->load_like && !add_load(out, a->ops.ops[i], f))
      a->oom = true;
  }
  if (!a->stored)
    a->oom = true;
  return !a->oom;
}

/* Appends the memref a load-like op reads (its first `src` operand). */
static bool add_load(npuc_dim_result *out, MlirOperation op,
                     const name_facts *f) {
  intptr_t k = stored_operand(f->def, f->src, op);
  if (k < 0 ||
      !mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, k))))
    return true;
  if ((out->num_loads & (out->num_loads - 1)) == 0) { /* 0, 1, 2, 4, ... */
    MlirValue *grown =
        realloc(out->loads, 2 * (out->num_loads + 1) * sizeof *grown);
    if (!grown)
      return false;
    out->loads = grown;
  }
  out->loads[out->num_loads++] = mlirOperationGetOperand(op, k);
  return true;
}

/* ---- which ops the stores depend on
 * ------------------------------------------ */

static size_t op_slot(const analyzer *a, const void *key) {
  size_t j = npuc_hash_ptr(key) & a->op_mask;
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
    bool need = a->stored[i] >= 0 ||
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

/* ---- nodes -----------------------------------------------------------------
 */

/* The slots of an open-addressed table keyed by the pointer they start
 * with (value_slot, type_slot; NULL: empty), moved into a new zeroed table
 * of `cap` slots of `size` bytes (cap a power of two). Frees `old` and sets
 * *mask for the new table; NULL, leaving both, when out of memory. */
static void *rehash(void *old, size_t *mask, size_t cap, size_t size) {
  char *slots = calloc(cap, size);
  if (!slots)
    return NULL;
  for (size_t i = 0; old && i <= *mask; i++) {
    const char *from = (const char *)old + i * size;
    const void *key, *taken;
    memcpy(&key, from, sizeof key);
    if (!key)
      continue;
    size_t j = npuc_hash_ptr(key) & (cap - 1);
    for (;;) {
      memcpy(&taken, slots + j * size, sizeof taken);
      if (!taken)
        break;
      j = (j + 1) & (cap - 1);
    }
    memcpy(slots + j * size, from, size);
  }
  free(old);
  *mask = cap - 1;
  return slots;
}

/* A capacity for `need` items: twice `cap` (`first` when there is none
 * yet), doubled until they fit. */
static size_t grown_capacity(size_t cap, size_t need, size_t first) {
  cap = cap ? 2 * cap : first;
  while (cap < need)
    cap *= 2;
  return cap;
}

static bool grow_slots(analyzer *a) {
  /* First sized for a value per op (most ops have one result; operands
   * are values already seen), half full: a table twice that size is
   * touched at random and costs more in cache misses than a growth. */
  size_t cap = a->slots ? 2 * (a->mask + 1) : 1024;
  while (!a->slots && cap < 2 * a->ops.count)
    cap *= 2;
  value_slot *slots = rehash(a->slots, &a->mask, cap, sizeof *slots);
  if (slots)
    a->slots = slots;
  return slots != NULL;
}

static bool reserve_nodes(analyzer *a, size_t n) {
  if (a->num_nodes + n <= a->cap_nodes)
    return true;
  size_t cap = grown_capacity(a->cap_nodes, a->num_nodes + n, 1024);
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

/* The rank of a ranked shaped type (tensor, memref, vector) up to
 * MAX_RANK, else -1. The kind checks compare type ids; only the rank
 * itself goes through the ShapedType interface. */
static int rank_of(MlirType t) {
  if (!mlirTypeIsARankedTensor(t) && !mlirTypeIsAMemRef(t) &&
      !mlirTypeIsAVector(t))
    return -1;
  int64_t r = mlirShapedTypeGetRank(t);
  return r <= MAX_RANK ? (int)r : -1;
}

static bool grow_types(analyzer *a);
static bool add_sizes(analyzer *a, MlirType t, int rank, int32_t *first);

/* The shape of `t`, read from MLIR on the first value of that type (NULL
 * when out of memory). */
static const type_slot *shape_of(analyzer *a, MlirType t) {
  if ((!a->types || 2 * (a->num_types + 1) > a->types_mask + 1) &&
      !grow_types(a))
    return NULL;
  size_t j = npuc_hash_ptr(t.ptr) & a->types_mask;
  while (a->types[j].key && a->types[j].key != t.ptr)
    j = (j + 1) & a->types_mask;
  if (a->types[j].key)
    return &a->types[j];
  int rank = rank_of(t);
  int32_t first = 0;
  if (rank > 0 && !add_sizes(a, t, rank, &first))
    return NULL;
  a->types[j] = (type_slot){t.ptr, rank, first};
  a->num_types++;
  return &a->types[j];
}

static bool grow_types(analyzer *a) {
  size_t cap = a->types ? 2 * (a->types_mask + 1) : 64;
  type_slot *types = rehash(a->types, &a->types_mask, cap, sizeof *types);
  if (types)
    a->types = types;
  return types != NULL;
}

/* Appends the static sizes of t's dims (-1: dynamic) to type_sizes. */
static bool add_sizes(analyzer *a, MlirType t, int rank, int32_t *first) {
  if (a->num_type_sizes + (size_t)rank > a->cap_type_sizes) {
    size_t cap =
        grown_capacity(a->cap_type_sizes, a->num_type_sizes + (size_t)rank, 64);
    int64_t *sizes = realloc(a->type_sizes, cap * sizeof *sizes);
    if (!sizes)
      return false;
    a->type_sizes = sizes;
    a->cap_type_sizes = cap;
  }
  *first = (int32_t)a->num_type_sizes;
  for (int d = 0; d < rank; d++) {
    int64_t size = mlirShapedTypeGetDimSize(t, d);
    a->type_sizes[a->num_type_sizes++] =
        size == mlirShapedTypeGetDynamicSize() ? -1 : size;
  }
  return true;
}

/* The dims of `v` (rank -1 for values that are not ranked shaped values).
 * Creates its nodes, reading its type, on first sight. */
static dims dims_of(analyzer *a, MlirValue v) {
  const dims none = {-1, -1};
  if (a->oom || mlirValueIsNull(v))
    return none;
  if (!a->slots || 2 * (a->num_values + 1) > a->mask + 1) {
    if (!grow_slots(a)) {
      a->oom = true;
      return none;
    }
  }
  size_t j = npuc_hash_ptr(v.ptr) & a->mask;
  while (a->slots[j].key && a->slots[j].key != v.ptr)
    j = (j + 1) & a->mask;
  if (a->slots[j].key)
    return (dims){a->slots[j].base, a->slots[j].rank};
  const type_slot *t = shape_of(a, mlirValueGetType(v));
  int rank = t ? t->rank : -1;
  if (!t || (rank >= 0 && !reserve_nodes(a, (size_t)rank))) {
    a->oom = true;
    return none;
  }
  int32_t base = rank < 0 ? -1 : (int32_t)a->num_nodes;
  for (int d = 0; d < rank; d++) {
    a->parent[base + d] = base + d;
    a->size[base + d] = a->type_sizes[t->first + d];
    a->reduced[base + d] = false;
  }
  if (rank > 0)
    a->num_nodes += (size_t)rank;
  a->slots[j] = (value_slot){v.ptr, base, rank};
  a->num_values++;
  return (dims){base, rank};
}

/* The first node of `v`, or -1 for values that are not ranked shaped
 * values. */
static int32_t node_of(analyzer *a, MlirValue v) { return dims_of(a, v).base; }

/* The static size of dim d of a value (-1: dynamic). */
static int64_t dim_size(const analyzer *a, dims x, int d) {
  return a->size[x.base + d];
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

/* Joins dim dv of x with dim dw of y. */
static void join_dims(analyzer *a, dims x, int dv, dims y, int dw) {
  if (x.base < 0 || y.base < 0 || dv < 0 || dw < 0 || dv >= x.rank ||
      dw >= y.rank)
    return;
  a->mixed_dims |= dv != dw;
  unite(a, x.base + dv, y.base + dw);
}

/* Joins every dim of v with the same dim of w when their ranks agree. */
static void join_all(analyzer *a, MlirValue v, MlirValue w) {
  dims x = dims_of(a, v), y = dims_of(a, w);
  if (x.rank < 0 || x.rank != y.rank)
    return;
  for (int d = 0; d < x.rank; d++)
    unite(a, x.base + d, y.base + d);
}

/* ---- connecting dims across ops ------------------------------------------ */

static intptr_t i64_list_of(MlirAttribute a, int64_t *out, intptr_t cap);

/* The i64 list attribute `name` of op (-1: none or not a list). */
static intptr_t i64_list(MlirOperation op, const char *name, int64_t *out,
                         intptr_t cap) {
  return i64_list_of(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)),
      out, cap);
}

/* The same for an op of our tables (npuc_table_op_attr). */
static intptr_t table_i64_list(MlirOperation op, const char *name, int64_t *out,
                               intptr_t cap) {
  return i64_list_of(npuc_table_op_attr(op, name, strlen(name)), out, cap);
}

static intptr_t i64_list_of(MlirAttribute a, int64_t *out, intptr_t cap) {
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

static void connect_hivm(analyzer *a, MlirOperation op, const name_facts *f);
static void connect_reshape(analyzer *a, MlirOperation op, bool expand);
static void connect_slice(analyzer *a, MlirOperation op, MlirValue whole,
                          MlirValue part);
static void connect_region_values(analyzer *a, MlirOperation op, op_kind k);

static void connect_op(analyzer *a, MlirOperation op) {
  const name_facts *f = facts_of(a, op);
  switch (f->kind) {
  case K_HIVM: connect_hivm(a, op, f); break;
  case K_EXPAND:
  case K_COLLAPSE: connect_reshape(a, op, f->kind == K_EXPAND); break;
  case K_EXTRACT_SLICE:
  case K_SUBVIEW:
    connect_slice(a, op, mlirOperationGetOperand(op, 0),
                  mlirOperationGetResult(op, 0));
    break;
  case K_INSERT_SLICE:
    connect_slice(a, op, mlirOperationGetOperand(op, 1),
                  mlirOperationGetOperand(op, 0));
    join_all(a, mlirOperationGetOperand(op, 1), mlirOperationGetResult(op, 0));
    break;
  case K_SAME_SHAPE:
    join_all(a, mlirOperationGetOperand(op, 0), mlirOperationGetResult(op, 0));
    break;
  case K_FOR:
  case K_IF:
  case K_WHILE: connect_region_values(a, op, f->kind); break;
  case K_OTHER: break;
  }
}

static void connect_elementwise(analyzer *a, MlirOperation op, MlirValue out,
                                intptr_t first, intptr_t count);
static void connect_broadcast(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out);
static void connect_reduce(analyzer *a, MlirOperation op, MlirValue in,
                           MlirValue out);
static void connect_transpose(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out);

static void connect_hivm(analyzer *a, MlirOperation op, const name_facts *f) {
  /* Operand groups `src` and `dst`: first index and count (0 if none). */
  int32_t sizes[64];
  intptr_t src = 0, nsrc = 0, dst = 0, ndst = 0;
  if (npuc_operand_group_sizes_cached(&a->groups, f->def, op, sizes)) {
    for (int g = 0; g < f->src; g++)
      src += sizes[g];
    for (int g = 0; g < f->dst; g++)
      dst += sizes[g];
    nsrc = f->src >= 0 ? sizes[f->src] : 0;
    ndst = f->dst >= 0 ? sizes[f->dst] : 0;
  }
  /* Destination style: each result is its init. */
  for (intptr_t i = 0; i < ndst && i < mlirOperationGetNumResults(op); i++)
    join_all(a, mlirOperationGetOperand(op, dst + i),
             mlirOperationGetResult(op, i));
  if (nsrc < 1 || ndst < 1)
    return;
  MlirValue in = mlirOperationGetOperand(op, src);
  MlirValue out = mlirOperationGetOperand(op, dst);
  const npuc_op_def *def = f->def;
  if (npuc_op_has_trait(def, NPUC_TRAIT_ELEMENTWISE))
    connect_elementwise(a, op, out, src, nsrc);
  else if (f->broadcast)
    connect_broadcast(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_REDUCTION))
    connect_reduce(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_TRANSPOSE))
    connect_transpose(a, op, in, out);
  else if (npuc_op_has_trait(def, NPUC_TRAIT_LOAD_LIKE) ||
           npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE) || f->same_dims)
    for (intptr_t i = 0; i < nsrc; i++) /* indirect_store: offsets, mask */
      join_all(a, mlirOperationGetOperand(op, src + i), out);
}

/* Elementwise: a dim of an operand joins the output's unless the operand
 * broadcasts it (static size 1 where the output's is not). */
static void connect_elementwise(analyzer *a, MlirOperation op, MlirValue out,
                                intptr_t first, intptr_t count) {
  int64_t perm[MAX_RANK];
  if (table_i64_list(op, "transpose", perm, MAX_RANK) > 0)
    return; /* an implicit transpose: no bubbling through it either */
  dims o = dims_of(a, out);
  for (intptr_t i = first; i < first + count; i++) {
    dims x = dims_of(a, mlirOperationGetOperand(op, i));
    if (x.rank != o.rank)
      continue;
    for (int d = 0; d < o.rank; d++) {
      bool unit_in = dim_size(a, x, d) == 1, unit_out = dim_size(a, o, d) == 1;
      if (!unit_in || unit_out)
        unite(a, x.base + d, o.base + d);
    }
  }
}

static void connect_broadcast(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out) {
  dims x = dims_of(a, in), o = dims_of(a, out);
  if (x.rank != o.rank || o.rank < 0)
    return; /* a scalar broadcast carries no dims */
  int64_t bdims[MAX_RANK];
  intptr_t n = table_i64_list(op, "broadcast_dims", bdims, MAX_RANK);
  for (int d = 0; d < o.rank; d++) {
    /* a dynamic output dim counts as not 1 */
    bool broadcast = n >= 0 ? in_list(bdims, n, d)
                            : dim_size(a, x, d) == 1 && dim_size(a, o, d) != 1;
    if (!broadcast)
      unite(a, x.base + d, o.base + d);
  }
}

static void connect_reduce(analyzer *a, MlirOperation op, MlirValue in,
                           MlirValue out) {
  dims x = dims_of(a, in), o = dims_of(a, out);
  if (x.base < 0 || o.rank != x.rank)
    return;
  int64_t rdims[MAX_RANK];
  intptr_t n = table_i64_list(op, "reduce_dims", rdims, MAX_RANK);
  bool needed = is_needed(a, op);
  for (int d = 0; d < x.rank; d++) {
    if (n >= 0 && in_list(rdims, n, d))
      a->reduced[x.base + d] = a->reduced[x.base + d] || needed;
    else
      join_dims(a, x, d, o, d);
  }
}

static void connect_transpose(analyzer *a, MlirOperation op, MlirValue in,
                              MlirValue out) {
  int64_t perm[MAX_RANK];
  intptr_t n = table_i64_list(op, "permutation", perm, MAX_RANK);
  dims x = dims_of(a, in), o = dims_of(a, out);
  if (n != o.rank)
    return;
  for (intptr_t d = 0; d < n; d++)
    join_dims(a, o, (int)d, x, (int)perm[d]);
}

/* expand_shape and collapse_shape: the dim of the lower-rank side joins the
 * outermost non-unit dim of its group on the higher-rank side (the dim a
 * half of it maps onto cleanly). */
static void connect_reshape(analyzer *a, MlirOperation op, bool expand) {
  dims low = dims_of(a, expand ? mlirOperationGetOperand(op, 0)
                               : mlirOperationGetResult(op, 0));
  dims high = dims_of(a, expand ? mlirOperationGetResult(op, 0)
                                : mlirOperationGetOperand(op, 0));
  MlirAttribute groups = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("reassociation"));
  if (mlirAttributeIsNull(groups) || !mlirAttributeIsAArray(groups) ||
      high.rank < 0)
    return;
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); g++) {
    MlirAttribute grp = mlirArrayAttrGetElement(groups, g);
    if (!mlirAttributeIsAArray(grp) || mlirArrayAttrGetNumElements(grp) < 1)
      continue;
    int pick = -1;
    for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(grp); k++) {
      int d = (int)mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(grp, k));
      if (d < 0 || d >= high.rank)
        break;
      if (pick < 0)
        pick = d;
      if (dim_size(a, high, d) != 1) {
        pick = d;
        break;
      }
    }
    join_dims(a, low, (int)g, high, pick);
  }
}

/* extract_slice / subview / insert_slice: `part` is the slice of `whole`,
 * possibly rank-reduced (unit dims of the slice dropped). */
static void connect_slice(analyzer *a, MlirOperation op, MlirValue whole,
                          MlirValue part) {
  dims w = dims_of(a, whole), p = dims_of(a, part);
  int64_t sizes[MAX_RANK];
  intptr_t n = i64_list(op, "static_sizes", sizes, MAX_RANK);
  if (w.rank < 0 || p.rank < 0 || p.rank > w.rank || n != w.rank)
    return;
  int j = 0;
  for (int d = 0; d < w.rank && j < p.rank; d++) {
    bool drop = w.rank - d > p.rank - j && sizes[d] == 1;
    if (!drop)
      join_dims(a, w, d, p, j++);
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
static void connect_region_values(analyzer *a, MlirOperation op, op_kind k) {
  intptr_t nres = mlirOperationGetNumResults(op);
  if (k == K_IF) {
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
  if (k == K_FOR) {
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
    n += a->stored[i] >= 0;
  out->leaves = n ? calloc(n, sizeof *out->leaves) : NULL;
  if (n && !out->leaves)
    return false;
  for (size_t i = 0; i < a->ops.count; i++) {
    intptr_t k = a->stored[i];
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
  const name_facts *f = facts_of(a, l->op);
  intptr_t dst = 0, count = 0;
  if (f->dst < 0 || !npuc_operand_group(f->def, l->op, f->dst, &dst, &count) ||
      count != 1 || !mlirValueIsAOpResult(l->value))
    return;
  MlirValue to = mlirOperationGetOperand(l->op, dst);
  if (!mlirValueIsAOpResult(to))
    return;
  MlirOperation slice = mlirOpResultGetOwner(l->value);
  MlirOperation view = mlirOpResultGetOwner(to);
  if (kind_of(a, slice) != K_EXTRACT_SLICE || kind_of(a, view) != K_SUBVIEW)
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
  if (a->narrow_columns && a->narrow_columns[root])
    return "is the columns of a tightly coupled buffer narrower than 32";
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
static void find_tcbs(analyzer *a, npuc_dim_result *out, const bool *chosen);
static void mark_narrow_columns(analyzer *a, size_t n);
static void add_debug_leaves(analyzer *a, npuc_dim_result *out,
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
  mark_narrow_columns(a, n);
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
  if (out->num_tiled > 0) {
    note_broadcast_across(a, out, chosen);
    find_tcbs(a, out, chosen);
    add_debug_leaves(a, out, chosen);
  } else if (!out->reason)
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
  for (size_t s = 0; a->mixed_dims && s <= a->mask; s++) {
    int32_t root;
    if (a->slots[s].rank >= 2 && two_dims_in(a, &a->slots[s], &root))
      a->across[root] = true;
  }
}

/* Per class: how many leaves it can halve, and the outermost dim it was
 * seen on. */
static void count_leaves(analyzer *a, const npuc_dim_result *out,
                         int32_t *count, int32_t *stamp, int8_t *outer) {
  for (size_t i = 0; i < out->num_leaves; i++) {
    const npuc_dim_leaf *l = &out->leaves[i];
    dims x = dims_of(a, l->value);
    int32_t base = x.base;
    for (int d = 0; base >= 0 && d < x.rank; d++) {
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
  dims x = dims_of(a, l->value);
  int32_t base = x.base, best = -1;
  for (int d = 0; base >= 0 && d < x.rank; d++) {
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

/* A `hivm.hir.debug` of a tensor that holds the chosen axis prints the
 * half each sub-block computes (as bishengir's, {tiled_op}): it becomes a
 * leaf cut along that dim, appended after the stores. It has no say in the
 * choice, and one without the axis prints the whole value on both. */
static void add_debug_leaves(analyzer *a, npuc_dim_result *out,
                             const bool *chosen) {
  for (size_t i = 0; i < a->ops.count; i++) {
    MlirOperation op = a->ops.ops[i];
    if (!npuc_op_is(op, "hivm.hir.debug") ||
        mlirOperationGetNumOperands(op) != 1)
      continue;
    npuc_dim_leaf l = {
        op, mlirOperationGetOperand(op, 0), -1, 0, false, {NULL}, {NULL}};
    dims x = dims_of(a, l.value);
    if (x.base < 0 || !mlirTypeIsATensor(mlirValueGetType(l.value)))
      continue;
    for (int d = 0; d < x.rank && l.dim < 0; d++) {
      bool window;
      if (!unfit(a, &l, d, x.base, &l.extent, &window) &&
          chosen[find(a, x.base + d)])
        l.dim = d;
    }
    if (l.dim < 0)
      continue;
    npuc_dim_leaf *grown =
        realloc(out->leaves, (out->num_leaves + 1) * sizeof *grown);
    if (!grown) {
      a->oom = true;
      return;
    }
    out->leaves = grown;
    out->leaves[out->num_leaves++] = l;
    out->num_tiled++;
  }
}

/* A leaf left whole runs on sub-block 0 only. That is kept for leaves whose
 * axes hold nothing to split (every class all size 1), not for a leaf
 * with an axis that cannot be halved. */
static bool whole_ok(analyzer *a, const npuc_dim_leaf *l,
                     const int64_t *widest) {
  dims x = dims_of(a, l->value);
  for (int d = 0; x.base >= 0 && d < x.rank; d++) {
    int64_t w = widest[find(a, x.base + d)];
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
  dims x = dims_of(a, l->value);
  int32_t base = x.base;
  int rank = x.rank;
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
  for (size_t s = 0; a->mixed_dims && s <= a->mask; s++) {
    const value_slot *v = &a->slots[s];
    int32_t root;
    if (v->rank >= 2 && two_dims_in(a, v, &root) && chosen[root] &&
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

/* The id of a tightly coupled buffer mark, or -1. */
int64_t npuc_dim_tcb_id(MlirOperation op) {
  if (!npuc_op_is(op, "annotation.mark") || mlirOperationGetNumOperands(op) < 1)
    return -1;
  MlirAttribute t = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("hivm.tightly_coupled_buffer"));
  if (mlirAttributeIsNull(t) || !mlirAttributeIsAOpaque(t))
    return -1;
  MlirStringRef data = mlirOpaqueAttrGetData(t);
  const char *lt = memchr(data.data, '<', data.length);
  int64_t id = 0;
  if (!lt)
    return -1;
  for (const char *c = lt + 1; c < data.data + data.length && *c != '>'; c++) {
    if (*c < '0' || *c > '9' || id > INT32_MAX)
      return -1;
    id = id * 10 + (*c - '0');
  }
  return id;
}

bool npuc_dim_ub_memref(MlirType t) {
  MlirAttribute space = mlirTypeIsAMemRef(t) ? mlirMemRefTypeGetMemorySpace(t)
                                             : (MlirAttribute){NULL};
  return !mlirAttributeIsNull(space) && mlirAttributeIsAString(space) &&
         npuc_strref_contains(mlirStringAttrGetValue(space),
                              "#hivm.address_space<ub>");
}

bool npuc_dim_target_950(MlirOperation op, bool or_310b) {
  for (MlirOperation p = op; !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirAttribute t = mlirOperationGetAttributeByName(
        p, mlirStringRefCreateFromCString("hacc.target"));
    if (!mlirAttributeIsNull(t))
      return npuc_opaque_attr_contains(t, "\"Ascend910_95") ||
             npuc_opaque_attr_contains(t, "\"Ascend950") ||
             (or_310b && npuc_opaque_attr_contains(t, "\"Ascend310B"));
  }
  return false;
}

/* bishengir's analyzer refuses, on its register-based targets, the
 * columns of a 2-D tightly coupled UB buffer narrower than 32: the cube's
 * fixpipe could not deliver them split. */
static void mark_narrow_columns(analyzer *a, size_t n) {
  for (size_t i = 0; i < a->ops.count; i++) {
    MlirOperation op = a->ops.ops[i];
    if (npuc_dim_tcb_id(op) < 0)
      continue;
    MlirValue buf = mlirOperationGetOperand(op, 0);
    MlirType t = mlirValueGetType(buf);
    dims x = dims_of(a, buf);
    if (x.rank != 2 || !npuc_dim_ub_memref(t) ||
        mlirShapedTypeIsDynamicDim(t, 1) ||
        mlirShapedTypeGetDimSize(t, 1) >= 32)
      continue;
    if (!a->narrow_columns) {
      if (!npuc_dim_target_950(op, true))
        return;
      a->narrow_columns = calloc(n, sizeof *a->narrow_columns);
      if (!a->narrow_columns) {
        a->oom = true;
        return;
      }
    }
    a->narrow_columns[find(a, x.base + 1)] = true;
  }
}

/* The tightly coupled buffers with a dim in a chosen class. */
static void find_tcbs(analyzer *a, npuc_dim_result *out, const bool *chosen) {
  for (size_t i = 0; i < a->ops.count; i++) {
    int64_t id = npuc_dim_tcb_id(a->ops.ops[i]);
    if (id < 0)
      continue;
    dims x = dims_of(a, mlirOperationGetOperand(a->ops.ops[i], 0));
    for (int d = 0; x.base >= 0 && d < x.rank; d++) {
      if (!chosen[find(a, x.base + d)])
        continue;
      npuc_dim_tcb *grown =
          realloc(out->tcbs, (out->num_tcbs + 1) * sizeof *out->tcbs);
      if (!grown) {
        a->oom = true;
        return;
      }
      out->tcbs = grown;
      out->tcbs[out->num_tcbs++] = (npuc_dim_tcb){a->ops.ops[i], id, d};
      break;
    }
  }
}

static void analyzer_free(analyzer *a) {
  free(a->op_keys);
  free(a->op_index);
  free(a->needed);
  free(a->across);
  free(a->narrow_columns);
  free(a->slots);
  free(a->names);
  free(a->stored);
  free(a->types);
  free(a->type_sizes);
  free(a->parent);
  free(a->size);
  free(a->reduced);
  npuc_op_list_free(&a->ops);
}
