/* Table-driven verification of our dialects' ops: operand and result counts
 * and kinds, required attributes and their kinds, destination-style result
 * types equal to the tensor `outs` types. Errors are emitted through MLIR's
 * diagnostic engine at the op's location. */
#ifndef NPUC_VERIFY_H
#define NPUC_VERIFY_H

#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <stdbool.h>

/* Verifies every table-described op nested under `root` (inclusive).
 * Returns false if any failed. */
bool npuc_verify_table_ops(const npuc_op_registry *reg, MlirOperation root);

/* Operands of group `group` of `op` (per operandSegmentSizes when present).
 * Sets *first and *count; false if the op's operands do not fit its table. */
bool npuc_operand_group(const npuc_op_def *def, MlirOperation op, int group,
                        intptr_t *first, intptr_t *count);
/* The operand count of every group of `op` at once, into
 * sizes[def->num_operands] (at most 64 groups); false as above. */
bool npuc_operand_group_sizes(const npuc_op_def *def, MlirOperation op,
                              int32_t *sizes);

#endif
