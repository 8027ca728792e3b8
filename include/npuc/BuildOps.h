/* Building upstream ops (arith, scf) from passes through the C API, which
 * only offers the generic OperationState: these helpers give each op the
 * operands, attributes and regions its generic form needs, so MLIR's
 * verifier accepts what the passes create. */
#ifndef NPUC_BUILDOPS_H
#define NPUC_BUILDOPS_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Where new ops go: before `before` in `block`, or at its end when
 * `before` is null. Every op gets `loc`; `first` is the first op this
 * builder created (null before that). */
typedef struct {
  MlirBlock block;
  MlirOperation before;
  MlirLocation loc;
  MlirOperation first;
} npuc_builder;

/* arith.cmpi predicates, as the `predicate` attribute encodes them. */
enum { NPUC_CMPI_EQ = 0, NPUC_CMPI_NE = 1, NPUC_CMPI_SLT = 2 };

/* A builder inserting before `op`. */
npuc_builder npuc_builder_before(MlirOperation op);
/* A builder inserting before the terminator of the first block of region
 * `region` of `op` (an scf.for or scf.if body). */
npuc_builder npuc_builder_in_body(MlirOperation op, intptr_t region);

MlirOperation npuc_build_op(npuc_builder *b, const char *name,
                            intptr_t num_operands, const MlirValue *operands,
                            intptr_t num_results, const MlirType *results,
                            intptr_t num_attrs,
                            const MlirNamedAttribute *attrs);
/* arith.constant of an integer or index type. */
MlirValue npuc_build_int_constant(npuc_builder *b, MlirType type,
                                  int64_t value);
/* A binary arith op whose result has the type of `lhs` ("arith.muli"). */
MlirValue npuc_build_binary(npuc_builder *b, const char *name, MlirValue lhs,
                            MlirValue rhs);
MlirValue npuc_build_cmpi(npuc_builder *b, int predicate, MlirValue lhs,
                          MlirValue rhs);
/* `v` as integer or index type `to`: itself, arith.index_cast, extsi or
 * trunci. */
MlirValue npuc_build_int_cast(npuc_builder *b, MlirValue v, MlirType to);
/* scf.for %iv = lb to ub step step, with an empty body (just scf.yield). */
MlirOperation npuc_build_for(npuc_builder *b, MlirValue lb, MlirValue ub,
                             MlirValue step);
/* Appends the arguments of `from` (types and locations) to `to`, makes
 * them stand for the old ones everywhere, and erases those from `from`. */
void npuc_move_block_arguments(MlirBlock from, MlirBlock to);
/* scf.if %cond without results or else branch; the then block holds only
 * scf.yield. */
MlirOperation npuc_build_if(npuc_builder *b, MlirValue cond);
/* scf.if %cond -> (types) with then and else blocks that are still empty:
 * the caller fills them and ends each with scf.yield. */
MlirOperation npuc_build_if_else(npuc_builder *b, MlirValue cond,
                                 intptr_t num_results, const MlirType *types);

/* The device entries (func.func with hacc.entry) under `root`, in walk
 * order: a malloc'd array of *count ops. Collected before a pass rewrites
 * them, since rewriting during a walk would upset it. */
MlirOperation *npuc_device_entries(MlirOperation root, size_t *count);

/* Is `op` (possibly null) named exactly `name`? Inline, so the length of
 * a literal name is known at compile time and the lengths are compared
 * first: passes ask it of every op they look at (the HIVM bubble-up, of
 * every slice the greedy driver visits, measurably). */
static inline bool npuc_op_is(MlirOperation op, const char *name) {
  if (mlirOperationIsNull(op))
    return false;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t len = strlen(name);
  return n.length == len && memcmp(n.data, name, len) == 0;
}

/* The integer value of an arith.constant, if `v` is one. */
bool npuc_constant_int(MlirValue v, int64_t *out);

/* Has no result of `op` a use (so erasing it leaves no dangling value)? */
bool npuc_op_results_unused(MlirOperation op);

#endif
