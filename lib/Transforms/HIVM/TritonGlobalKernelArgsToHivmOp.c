/* triton-global-kernel-args-to-hivm-op: a Triton kernel lowered for Ascend
 * ends its argument list with the grid, six i32 arguments:
 *
 *   ..., num_programs(x, y, z), program_id(x, y, z)
 *
 * On the device the program ids come from the block index instead. This
 * pass drops the three id arguments and, at the top of each device entry,
 * computes
 *
 *   %n = num_x * num_y * num_z          annotation.mark %n {logical_block_num}
 *   %b = trunci(hivm.hir.get_block_idx)
 *   pid_d = (%b / (product of the faster dims' counts)) % num_d
 *
 * which is what auto-blockify-parallel-loop needs to find. Which dimension
 * varies fastest follows the target, as triton-ascend's launcher numbers
 * blocks: x on register-based targets (Ascend950, "A5"), z everywhere else
 * (the legacy memory-based decode). See
 * docs/passes/triton-global-kernel-args-to-hivm-op.md. */
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdlib.h>
#include <string.h>

static const char *const orders[] = {"auto", "x-fastest", "z-fastest", NULL};

#define TRITON_ARGS_OPTIONS(X, T)                                              \
  X(T, const char *, order, "order", NPUC_OPT_ENUM, "auto", orders,            \
    "which program id varies fastest with the block index; auto: x on "        \
    "register-based targets (Ascend950), z otherwise")
NPUC_PASS_OPTIONS(triton_args_options, TRITON_ARGS_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_triton_global_kernel_args_to_hivm_op,
    "triton-global-kernel-args-to-hivm-op",
    "Turn a Triton kernel's program-id arguments into get_block_idx and "
    "mark its logical block count",
    "builtin.module", grid_args_to_hivm,
    NPUC_PASS_OPTIONS_OF(triton_args_options));

enum { GRID_ARGS = 6, DIMS = 3 };

typedef struct {
  MlirValue num[DIMS]; /* program counts, x y z */
  MlirValue id[DIMS];  /* program ids, x y z: the arguments to drop */
} grid_args;

static bool convert_entry(MlirOperation func, const char *order);

static bool grid_args_to_hivm(MlirOperation module,
                              const npuc_pass_options *opts,
                              const npuc_pass_context *ctx) {
  (void)ctx;
  const char *order = NPUC_PASS_OPTS(triton_args_options, opts)->order;
  size_t n;
  MlirOperation *entries = npuc_device_entries(module, &n);
  bool ok = true;
  for (size_t i = 0; i < n; i++)
    ok = convert_entry(entries[i], order) && ok;
  free(entries);
  return ok;
}

static bool has_logical_mark(MlirOperation func);
static bool find_grid_args(MlirOperation func, MlirBlock entry, grid_args *g);
static bool x_fastest(MlirOperation func, const char *order);
static void decode_program_ids(MlirOperation func, MlirBlock entry,
                               const grid_args *g, bool x_first,
                               MlirValue pid[DIMS]);
static void drop_id_args(MlirOperation func, MlirBlock entry);

static bool convert_entry(MlirOperation func, const char *order) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  /* A declaration has nothing to convert; a marked kernel was converted
   * already, and converting again would drop three more arguments. */
  if (mlirBlockIsNull(entry) || has_logical_mark(func))
    return true;
  grid_args g;
  if (!find_grid_args(func, entry, &g))
    return false;
  MlirValue pid[DIMS];
  decode_program_ids(func, entry, &g, x_fastest(func, order), pid);
  for (int d = 0; d < DIMS; d++)
    mlirValueReplaceAllUsesOfWith(g.id[d], pid[d]);
  drop_id_args(func, entry);
  return true;
}

static MlirWalkResult find_mark(MlirOperation op, void *user) {
  if (npuc_op_is(op, "annotation.mark") &&
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("logical_block_num")))) {
    *(bool *)user = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool has_logical_mark(MlirOperation func) {
  bool found = false;
  mlirOperationWalk(func, find_mark, &found, MlirWalkPreOrder);
  return found;
}

/* The six trailing arguments, all i32. */
static bool find_grid_args(MlirOperation func, MlirBlock entry, grid_args *g) {
  intptr_t n = mlirBlockGetNumArguments(entry);
  if (n < GRID_ARGS) {
    npuc_pass_error(func, "arguments program id or program num are missing: "
                          "a Triton kernel ends with three program counts "
                          "and three program ids");
    return false;
  }
  for (intptr_t i = n - GRID_ARGS; i < n; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, i));
    if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 32) {
      npuc_pass_error(func, "incompatible types of arguments program id or "
                            "program num: the last six arguments must be "
                            "i32");
      return false;
    }
  }
  for (int d = 0; d < DIMS; d++) {
    g->num[d] = mlirBlockGetArgument(entry, n - GRID_ARGS + d);
    g->id[d] = mlirBlockGetArgument(entry, n - DIMS + d);
  }
  return true;
}

/* The hacc.target of the nearest enclosing op that has one decides,
 * unless the option does. */
static bool x_fastest(MlirOperation func, const char *order) {
  if (strcmp(order, "auto") != 0)
    return strcmp(order, "x-fastest") == 0;
  for (MlirOperation p = func; !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirAttribute target = mlirOperationGetAttributeByName(
        p, mlirStringRefCreateFromCString("hacc.target"));
    if (!mlirAttributeIsNull(target))
      return npuc_opaque_attr_contains(target, "\"Ascend95");
  }
  return false;
}

static MlirValue build_mark_and_index(npuc_builder *b, const grid_args *g);

/* At the top of the body: the logical count and its mark, the block index,
 * then each program id from it, fastest dimension first. */
static void decode_program_ids(MlirOperation func, MlirBlock entry,
                               const grid_args *g, bool x_first,
                               MlirValue pid[DIMS]) {
  npuc_builder b = {entry,
                    mlirBlockGetFirstOperation(entry),
                    mlirOperationGetLocation(func),
                    {NULL}};
  MlirValue block = build_mark_and_index(&b, g);
  MlirValue stride = npuc_build_int_constant(&b, mlirValueGetType(block), 1);
  for (int i = 0; i < DIMS; i++) {
    int d = x_first ? i : DIMS - 1 - i;
    MlirValue above = npuc_build_binary(&b, "arith.divsi", block, stride);
    pid[d] = npuc_build_binary(&b, "arith.remsi", above, g->num[d]);
    if (i + 1 < DIMS)
      stride = npuc_build_binary(&b, "arith.muli", stride, g->num[d]);
  }
}

static MlirValue build_mark_and_index(npuc_builder *b, const grid_args *g) {
  MlirContext ctx = mlirLocationGetContext(b->loc);
  MlirValue logical = npuc_build_binary(
      b, "arith.muli", npuc_build_binary(b, "arith.muli", g->num[0], g->num[1]),
      g->num[2]);
  MlirNamedAttribute mark = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx,
                        mlirStringRefCreateFromCString("logical_block_num")),
      mlirUnitAttrGet(ctx));
  npuc_build_op(b, "annotation.mark", 1, &logical, 0, NULL, 1, &mark);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirValue idx = mlirOperationGetResult(
      npuc_build_op(b, "hivm.hir.get_block_idx", 0, NULL, 1, &i64, 0, NULL), 0);
  return npuc_build_int_cast(b, idx, mlirValueGetType(logical));
}

static void set_attr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

static MlirAttribute get_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

static void trim_per_arg_attrs(MlirOperation func, intptr_t keep);

/* The ids are unused now: erase them from the block, the function type and
 * the per-argument attributes. */
static void drop_id_args(MlirOperation func, MlirBlock entry) {
  intptr_t keep = mlirBlockGetNumArguments(entry) - DIMS;
  for (intptr_t i = keep + DIMS - 1; i >= keep; i--)
    mlirBlockEraseArgument(entry, (unsigned)i);
  MlirType type = mlirTypeAttrGetValue(get_attr(func, "function_type"));
  intptr_t nres = mlirFunctionTypeGetNumResults(type);
  MlirType *types = npuc_xmalloc((size_t)(keep + nres + 1) * sizeof *types);
  for (intptr_t i = 0; i < keep; i++)
    types[i] = mlirFunctionTypeGetInput(type, i);
  for (intptr_t i = 0; i < nres; i++)
    types[keep + i] = mlirFunctionTypeGetResult(type, i);
  set_attr(
      func, "function_type",
      mlirTypeAttrGet(mlirFunctionTypeGet(mlirOperationGetContext(func), keep,
                                          types, nres, types + keep)));
  free(types);
  trim_per_arg_attrs(func, keep);
}

/* arg_attrs, and hacc's func_dyn_memref_args (one i1 per argument). */
static void trim_per_arg_attrs(MlirOperation func, intptr_t keep) {
  MlirAttribute args = get_attr(func, "arg_attrs");
  if (!mlirAttributeIsNull(args) && mlirAttributeIsAArray(args) &&
      mlirArrayAttrGetNumElements(args) == keep + DIMS) {
    MlirAttribute *elems = npuc_xmalloc((size_t)(keep + 1) * sizeof *elems);
    for (intptr_t i = 0; i < keep; i++)
      elems[i] = mlirArrayAttrGetElement(args, i);
    set_attr(func, "arg_attrs",
             mlirArrayAttrGet(mlirOperationGetContext(func), keep, elems));
    free(elems);
  }
  MlirAttribute dyn = get_attr(func, "func_dyn_memref_args");
  if (mlirAttributeIsNull(dyn) || !mlirAttributeIsADenseElements(dyn) ||
      mlirElementsAttrGetNumElements(dyn) != keep + DIMS)
    return;
  MlirType t = mlirAttributeGetType(dyn);
  MlirType i1 = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAInteger(i1) || mlirIntegerTypeGetWidth(i1) != 1)
    return;
  int *bits = npuc_xmalloc((size_t)(keep + 1) * sizeof *bits);
  for (intptr_t i = 0; i < keep; i++)
    bits[i] = mlirDenseElementsAttrGetBoolValue(dyn, i);
  int64_t shape[1] = {keep};
  set_attr(func, "func_dyn_memref_args",
           mlirDenseElementsAttrBoolGet(mlirVectorTypeGet(1, shape, i1), keep,
                                        bits));
  free(bits);
}
