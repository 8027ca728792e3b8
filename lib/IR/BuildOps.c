/* Generic-form builders for the upstream ops the passes create. */
#include "npuc/BuildOps.h"
#include "npuc/OpList.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

static MlirOperation create(npuc_builder *b, MlirOperationState *st);
static MlirRegion region_with_block(MlirLocation loc, intptr_t num_args,
                                    const MlirType *arg_types);
static void append_yield(MlirBlock block, MlirLocation loc);

npuc_builder npuc_builder_before(MlirOperation op) {
  npuc_builder b = {
      mlirOperationGetBlock(op), op, mlirOperationGetLocation(op), {NULL}};
  return b;
}

npuc_builder npuc_builder_in_body(MlirOperation op, intptr_t region) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
  npuc_builder b = {
      body, mlirBlockGetTerminator(body), mlirOperationGetLocation(op), {NULL}};
  return b;
}

MlirOperation npuc_build_op(npuc_builder *b, const char *name,
                            intptr_t num_operands, const MlirValue *operands,
                            intptr_t num_results, const MlirType *results,
                            intptr_t num_attrs,
                            const MlirNamedAttribute *attrs) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  mlirOperationStateAddOperands(&st, num_operands, operands);
  mlirOperationStateAddResults(&st, num_results, results);
  mlirOperationStateAddAttributes(&st, num_attrs, attrs);
  return create(b, &st);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), value);
}

MlirValue npuc_build_int_constant(npuc_builder *b, MlirType type,
                                  int64_t value) {
  MlirNamedAttribute attr =
      named(mlirTypeGetContext(type), "value", mlirIntegerAttrGet(type, value));
  MlirOperation op =
      npuc_build_op(b, "arith.constant", 0, NULL, 1, &type, 1, &attr);
  return mlirOperationGetResult(op, 0);
}

MlirValue npuc_build_binary(npuc_builder *b, const char *name, MlirValue lhs,
                            MlirValue rhs) {
  MlirValue operands[2] = {lhs, rhs};
  MlirType type = mlirValueGetType(lhs);
  return mlirOperationGetResult(
      npuc_build_op(b, name, 2, operands, 1, &type, 0, NULL), 0);
}

MlirValue npuc_build_cmpi(npuc_builder *b, int predicate, MlirValue lhs,
                          MlirValue rhs) {
  MlirContext ctx = mlirTypeGetContext(mlirValueGetType(lhs));
  MlirValue operands[2] = {lhs, rhs};
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirNamedAttribute attr =
      named(ctx, "predicate",
            mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), predicate));
  return mlirOperationGetResult(
      npuc_build_op(b, "arith.cmpi", 2, operands, 1, &i1, 1, &attr), 0);
}

MlirValue npuc_build_int_cast(npuc_builder *b, MlirValue v, MlirType to) {
  MlirType from = mlirValueGetType(v);
  if (mlirTypeEqual(from, to))
    return v;
  const char *name;
  if (mlirTypeIsAIndex(from) || mlirTypeIsAIndex(to))
    name = "arith.index_cast";
  else if (mlirIntegerTypeGetWidth(from) < mlirIntegerTypeGetWidth(to))
    name = "arith.extsi";
  else
    name = "arith.trunci";
  return mlirOperationGetResult(npuc_build_op(b, name, 1, &v, 1, &to, 0, NULL),
                                0);
}

MlirOperation npuc_build_for(npuc_builder *b, MlirValue lb, MlirValue ub,
                             MlirValue step) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  MlirValue operands[3] = {lb, ub, step};
  mlirOperationStateAddOperands(&st, 3, operands);
  MlirType iv = mlirValueGetType(lb);
  MlirRegion body = region_with_block(b->loc, 1, &iv);
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  return create(b, &st);
}

void npuc_move_block_arguments(MlirBlock from, MlirBlock to) {
  intptr_t n = mlirBlockGetNumArguments(from);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue a = mlirBlockGetArgument(from, i);
    MlirValue b =
        mlirBlockAddArgument(to, mlirValueGetType(a), mlirValueGetLocation(a));
    mlirValueReplaceAllUsesOfWith(a, b);
  }
  for (intptr_t i = n; i-- > 0;)
    mlirBlockEraseArgument(from, (unsigned)i);
}

MlirOperation npuc_build_if(npuc_builder *b, MlirValue cond) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), b->loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  /* scf.if always has two regions; an empty else region means none. */
  MlirRegion regions[2] = {region_with_block(b->loc, 0, NULL),
                           mlirRegionCreate()};
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  return create(b, &st);
}

MlirOperation npuc_build_if_else(npuc_builder *b, MlirValue cond,
                                 intptr_t num_results, const MlirType *types) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), b->loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  mlirOperationStateAddResults(&st, num_results, types);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  for (int i = 0; i < 2; i++)
    mlirRegionAppendOwnedBlock(regions[i], mlirBlockCreate(0, NULL, NULL));
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  return create(b, &st);
}

/* Function bodies hold no further functions: they are skipped. */
static unsigned device_entry(MlirOperation op, void *user) {
  (void)user;
  if (!npuc_op_is(op, "func.func"))
    return NPUC_OP_PASS;
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("hacc.entry"))))
    return NPUC_OP_SKIP_REGIONS;
  return NPUC_OP_KEEP | NPUC_OP_SKIP_REGIONS;
}

MlirOperation *npuc_device_entries(MlirOperation root, size_t *count) {
  npuc_op_list l = {0};
  npuc_op_list_collect(root, MlirWalkPreOrder, device_entry, NULL, &l);
  *count = l.count;
  return l.ops;
}

bool npuc_op_results_unused(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return false;
  return true;
}

bool npuc_constant_int(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!npuc_op_is(def, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirOperation create(npuc_builder *b, MlirOperationState *st) {
  MlirOperation op = mlirOperationCreate(st);
  if (mlirOperationIsNull(b->first))
    b->first = op;
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  return op;
}

/* A region of one block ending in scf.yield. */
static MlirRegion region_with_block(MlirLocation loc, intptr_t num_args,
                                    const MlirType *arg_types) {
  MlirLocation locs[1] = {loc};
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(num_args, arg_types, locs);
  mlirRegionAppendOwnedBlock(region, block);
  append_yield(block, loc);
  return region;
}

static void append_yield(MlirBlock block, MlirLocation loc) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.yield"), loc);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
}
