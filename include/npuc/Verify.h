/* Table-driven verification of our dialects' ops: operand and result counts
 * and kinds, required attributes and their kinds, destination-style result
 * types equal to the tensor `outs` types. Errors are emitted through MLIR's
 * diagnostic engine at the op's location. */
#ifndef NPUC_VERIFY_H
#define NPUC_VERIFY_H

#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Verifies every table-described op nested under `root` (inclusive).
 * Returns false if any failed. */
bool npuc_verify_table_ops(const npuc_op_registry *reg, MlirOperation root);

/* Operands of group `group` of `op` (per operandSegmentSizes when present).
 * Sets *first and *count; false if the op's operands do not fit its table. */
bool npuc_operand_group(const npuc_op_def *def, MlirOperation op, int group,
                        intptr_t *first, intptr_t *count);

/* The operand count of every group of `op` at once, into
 * sizes[def->num_operands] (at most 64 groups); false as above. Remembered
 * in `c` by what the sizes depend on: the op's definition, its
 * operandSegmentSizes attribute (uniqued) and its operand count. Ops of
 * one kind mostly share all three, and decoding the attribute costs more
 * than finding it. Zero-initialize; nothing to free; one per walk (not
 * shared between threads). A collision only costs a decoding. */
#define NPUC_GROUP_SIZES_CACHE_SIZE 16
typedef struct {
  struct {
    const npuc_op_def *def;
    const void *segments; /* the attribute's storage; NULL: none */
    intptr_t nops;
    int32_t sizes[16];
  } slots[NPUC_GROUP_SIZES_CACHE_SIZE];
} npuc_group_sizes_cache;
bool npuc_operand_group_sizes_cached(npuc_group_sizes_cache *c,
                                     const npuc_op_def *def, MlirOperation op,
                                     int32_t *sizes);

/* The attribute `name` (of `len` bytes) of an op of our dialects, or null.
 * MLIR does not register these ops, so all their attributes are
 * discardable: looking there alone saves mlirOperationGetAttributeByName's
 * first step, asking the op for an inherent attribute by string (a third
 * of its cost). Scanning the attributes by position costs more than either
 * (the C API filters or rebuilds the list on each call). Not for
 * registered ops, whose inherent attributes are not discardable. */
MlirAttribute npuc_table_op_attr(MlirOperation op, const char *name,
                                 size_t len);
/* The same for a string literal `name`. */
#define npuc_table_op_attr_lit(op, name)                                       \
  npuc_table_op_attr((op), (name), sizeof(name) - 1)

/* Does `op`, of table entry `def`, carry no attribute but what its operand
 * groups need (operandSegmentSizes, for an entry with segments)? Then
 * each of its optional attributes is absent: one count answers for all
 * the lookups (a count costs less than two lookups). For ops that verified
 * against `def`. */
bool npuc_table_op_bare(const npuc_op_def *def, MlirOperation op);
/* Which group each name of a `verify:` rule is, kept per (table entry,
 * name): rules name groups on every op they check. Zero-initialize; one
 * per walk over one registry (its keys point into the tables). */
#define NPUC_RULE_NAMES_CACHE_SIZE 256 /* a power of two */
typedef struct {
  struct {
    const npuc_op_def *def;
    const char *name;
    int group;
  } slots[NPUC_RULE_NAMES_CACHE_SIZE];
} npuc_rule_names_cache;

/* The `verify:` rules of `def` (lib/Dialect/VerifyRules.c) on an op whose
 * operand groups have `sizes`, in order; false after reporting the first
 * that fails at the op. Part of npuc_verify_table_ops. */
bool npuc_verify_rules_run(npuc_rule_names_cache *names, const npuc_op_def *def,
                           MlirOperation op, const int32_t *sizes);

/* The table entry of an op, cached by its name: op names are uniqued
 * identifiers, so a small cache keyed by the identifier's pointer saves
 * the lookup by string for most ops of a walk (a pass looking up the entry
 * of every op of a large function). Initialize with
 * npuc_op_def_cache_init; nothing to free. A name that collides with
 * another replaces it: the cache only saves lookups. */
#define NPUC_OP_DEF_CACHE_SIZE 64 /* a power of two */
typedef struct {
  const void *name; /* MlirIdentifier.ptr; NULL: empty */
  const npuc_op_def *def;
  bool owned; /* no entry, but the name is in a table dialect's namespace */
} npuc_op_def_slot;
typedef struct {
  const npuc_op_registry *reg;
  npuc_op_def_slot slots[NPUC_OP_DEF_CACHE_SIZE];
} npuc_op_def_cache;

void npuc_op_def_cache_init(npuc_op_def_cache *c, const npuc_op_registry *reg);
/* npuc_op_lookup of op's name, or NULL. */
const npuc_op_def *npuc_op_def_of(npuc_op_def_cache *c, MlirOperation op);
/* The cache slot of op's name (def, and whether a table dialect owns it). */
const npuc_op_def_slot *npuc_op_def_slot_of(npuc_op_def_cache *c,
                                            MlirOperation op);

#endif
