/* Equal values computed once: a step of hivm-bind-sub-block after the
 * bubble-up (docs/passes/hivm-bind-sub-block.md). A value several ops read
 * is sliced once per reader, and the slice of each reader climbs through
 * the value's producer: each builds its own copy of the producer on the
 * half (the patterns cannot shrink an op others still read). The copies
 * compute equal values, and so do the copies above them. MLIR's CSE would
 * merge them, but our ops are unregistered for MLIR, so it takes them for
 * ops with unknown side effects (and we run no CSE). This merges the ops
 * of our tables that compute a value and nothing else, and the tensor
 * slices they read: in walk order, an op equal to an earlier one of its
 * block (name, operands, result types, attributes) is replaced by it.
 * Linear: ops are found by a hash of what makes them equal. */
#include "SubBlock.h"
#include "npuc/Alloc.h"
#include "npuc/OpList.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  MlirOperation *ops; /* NULL: empty slot */
  size_t mask;
} op_table;

typedef struct {
  npuc_op_def_cache defs;
  MlirIdentifier slice; /* tensor.extract_slice */
} merge_kinds;

static unsigned mergeable(MlirOperation op, void *user);
static size_t hash_op(MlirOperation op);
static bool equal_ops(MlirOperation a, MlirOperation b);
static void replace_by(MlirOperation op, MlirOperation by);

void npuc_sub_block_merge_equal(MlirOperation func,
                                const npuc_op_registry *reg) {
  merge_kinds k;
  npuc_op_def_cache_init(&k.defs, reg);
  k.slice =
      mlirIdentifierGet(mlirOperationGetContext(func),
                        mlirStringRefCreateFromCString("tensor.extract_slice"));
  npuc_op_list l = {0};
  op_table t = {NULL, 0};
  size_t cap = 16;
  npuc_op_list_collect(func, MlirWalkPreOrder, mergeable, &k, &l);
  while (cap < 2 * l.count)
    cap *= 2;
  t.ops = npuc_xcalloc(cap, sizeof *t.ops);
  t.mask = cap - 1;
  for (size_t i = 0; i < l.count; i++) {
    MlirOperation op = l.ops[i];
    size_t j = hash_op(op) & t.mask;
    while (t.ops[j].ptr && !equal_ops(t.ops[j], op))
      j = (j + 1) & t.mask;
    if (t.ops[j].ptr)
      replace_by(op, t.ops[j]);
    else
      t.ops[j] = op;
  }
  free(t.ops);
  npuc_op_list_free(&l);
}

/* Tensor slices, and ops of our tables that compute values and nothing
 * else: destination style, no side effects, no memory read or written (no
 * memref operand: a load from a tensor copies a value), no regions, not a
 * store. */
static unsigned mergeable(MlirOperation op, void *user) {
  merge_kinds *k = user;
  if (mlirIdentifierEqual(mlirOperationGetName(op), k->slice))
    return NPUC_OP_KEEP;
  const npuc_op_def *def = npuc_op_def_of(&k->defs, op);
  if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_DPS) ||
      npuc_op_has_trait(def, NPUC_TRAIT_SIDE_EFFECTS) ||
      npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE) ||
      mlirOperationGetNumResults(op) == 0 ||
      mlirOperationGetNumRegions(op) != 0)
    return NPUC_OP_PASS;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!mlirTypeIsATensor(mlirValueGetType(mlirOperationGetOperand(op, i))) &&
        mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return NPUC_OP_PASS;
  return NPUC_OP_KEEP;
}

static size_t mix(size_t h, const void *p) {
  h ^= (uintptr_t)p + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  return h;
}

/* Of what equal_ops compares, all but the attributes (equal ops share
 * their hash; ops of one kind differing only there share it too). */
static size_t hash_op(MlirOperation op) {
  size_t h = mix(0, mlirOperationGetBlock(op).ptr);
  h = mix(h, mlirOperationGetName(op).ptr);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    h = mix(h, mlirOperationGetOperand(op, i).ptr);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    h = mix(h, mlirValueGetType(mlirOperationGetResult(op, i)).ptr);
  return h;
}

static bool same_attrs(MlirOperation a, MlirOperation b);

/* The same op of the same block on the same operands, with results of the
 * same types and equal attributes. */
static bool equal_ops(MlirOperation a, MlirOperation b) {
  intptr_t n = mlirOperationGetNumOperands(a);
  intptr_t r = mlirOperationGetNumResults(a);
  if (!mlirBlockEqual(mlirOperationGetBlock(a), mlirOperationGetBlock(b)) ||
      !mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b)) ||
      n != mlirOperationGetNumOperands(b) || r != mlirOperationGetNumResults(b))
    return false;
  for (intptr_t i = 0; i < n; i++)
    if (!mlirValueEqual(mlirOperationGetOperand(a, i),
                        mlirOperationGetOperand(b, i)))
      return false;
  for (intptr_t i = 0; i < r; i++)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, i)),
                       mlirValueGetType(mlirOperationGetResult(b, i))))
      return false;
  return same_attrs(a, b);
}

/* Equal discardable attributes (all of a table op's: they are
 * unregistered), and for a slice its static offsets, sizes and strides. */
static bool same_attrs(MlirOperation a, MlirOperation b) {
  static const char *const parts[] = {"static_offsets", "static_sizes",
                                      "static_strides"};
  for (int k = 0; k < 3; k++) {
    MlirStringRef n = mlirStringRefCreateFromCString(parts[k]);
    MlirAttribute x = mlirOperationGetInherentAttributeByName(a, n);
    MlirAttribute y = mlirOperationGetInherentAttributeByName(b, n);
    if (mlirAttributeIsNull(x) != mlirAttributeIsNull(y) ||
        (!mlirAttributeIsNull(x) && !mlirAttributeEqual(x, y)))
      return false;
  }
  intptr_t na = mlirOperationGetNumDiscardableAttributes(a);
  if (na != mlirOperationGetNumDiscardableAttributes(b))
    return false;
  for (intptr_t i = 0; i < na; i++) {
    MlirNamedAttribute x = mlirOperationGetDiscardableAttribute(a, i);
    MlirAttribute y = mlirOperationGetDiscardableAttributeByName(
        b, mlirIdentifierStr(x.name));
    if (mlirAttributeIsNull(y) || !mlirAttributeEqual(x.attribute, y))
      return false;
  }
  return true;
}

/* `by` is earlier in the same block: it dominates every reader of `op`. */
static void replace_by(MlirOperation op, MlirOperation by) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                  mlirOperationGetResult(by, i));
  mlirOperationDestroy(op);
}
