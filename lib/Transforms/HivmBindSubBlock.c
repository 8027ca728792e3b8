/* hivm-bind-sub-block: cube:vector 1:2 sub-tiling. An AIV function of a mix
 * kernel runs on two vector sub-blocks for each cube core; written for one,
 * both would compute and store everything. This pass splits its work:
 *
 *   1. the dimension analyzer (HivmDimensionAnalyzer.c) picks one parallel
 *      axis shared by the store-like leaves;
 *   2. the body goes into `scf.for %sb = 0 to 2 {map_for_to_forall,
 *      mapping = [#hivm.sub_block<x>]}`;
 *   3. each leaf stores only its half: `tensor.extract_slice` of the stored
 *      value and `memref.subview` of the destination at offset
 *      %sb * size/2, size size/2, both {to_be_bubbled_slice}; the leaf gets
 *      {tiled_op}. Leaves without the axis stay whole, guarded to run on
 *      sub-block 0 only;
 *   4. the bubble-up patterns (include/npuc/BubbleUp.h) move the slices up
 *      to block arguments, tensor.empty and loads, so each sub-block
 *      computes only its half;
 *   5. the loop is bound: its body reads hivm.hir.get_sub_block_idx
 *      (HivmMapForToSubBlock.c).
 *
 * When any step fails the function is restored and falls back to 1:1: each
 * store-like op runs on sub-block 0 only (`scf.if %sb == 0 {...}
 * {limit_sub_block_id0}`), with a remark naming the reason at the op that
 * caused it. docs/passes/hivm-bind-sub-block.md has the details. */
#include "BubbleUpInternal.h" /* BUB_UNSLICE */
#include "BuildOps.h"
#include "SubBlock.h"
#include "npuc/BubbleUp.h"
#include "npuc/DimensionAnalyzer.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 16
#define DISABLE_ATTR "hivm.disable_auto_tile_and_bind_subblock"

static bool bind_sub_block(MlirOperation func, const npuc_pass_options *opts,
                           const npuc_pass_context *ctx);

static const npuc_pass_option_def options[] = {
    {"enable-tile", NPUC_OPT_BOOL, "true",
     "split the work of the two sub-blocks (false: only sub-block 0 stores, "
     "1:1)",
     NULL},
    {"strict-mode", NPUC_OPT_BOOL, "false",
     "bubble slices only where the rewrite is exact from the IR alone "
     "(turned off when the chosen axis crosses a broadcast)",
     NULL},
    {"all-vector-kernels", NPUC_OPT_BOOL, "false",
     "also split pure AIV kernels, not only the AIV functions of mix kernels",
     NULL},
};

const npuc_pass_def npuc_pass_hivm_bind_sub_block = {
    "hivm-bind-sub-block",
    "Split AIV functions of mix kernels over the two vector sub-blocks (1:2), "
    "or run their stores on sub-block 0 only (1:1)",
    "func.func",
    options,
    sizeof options / sizeof options[0],
    bind_sub_block,
};

/* Why tiling a function failed, and at which op. */
typedef struct {
  bool failed;
  MlirLocation loc;
  char why[320];
} failure;

static void fail(failure *f, MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool applies(MlirOperation func, bool all_vector_kernels);
static bool check_shape(MlirOperation func, const npuc_dim_result *dims,
                        const npuc_op_registry *reg, failure *f);
static bool check_memory(MlirOperation func, const npuc_dim_result *dims,
                         const npuc_op_registry *reg, failure *f);
static void tile(MlirOperation func, const npuc_dim_result *dims,
                 bool strict, const npuc_pass_context *ctx, failure *f);
static void fall_back(MlirOperation func, const npuc_op_registry *reg);

static bool bind_sub_block(MlirOperation func, const npuc_pass_options *opts,
                           const npuc_pass_context *ctx) {
  if (!applies(func, npuc_pass_opt_bool(opts, "all-vector-kernels")))
    return true;
  npuc_dim_result dims;
  if (!npuc_dim_analyze(func, ctx->registry, &dims)) {
    npuc_op_error(func, "hivm-bind-sub-block: out of memory");
    return false;
  }
  if (dims.num_leaves == 0) { /* nothing is stored: nothing to split */
    npuc_dim_result_free(&dims);
    return true;
  }
  failure f = {0};
  if (!npuc_pass_opt_bool(opts, "enable-tile"))
    fail(&f, mlirOperationGetLocation(func),
         "sub-block tiling is disabled (enable-tile=false)");
  else if (dims.num_tiled == 0)
    fail(&f, mlirOperationGetLocation(dims.culprit), "%s", dims.reason);
  else if (check_shape(func, &dims, ctx->registry, &f) &&
           check_memory(func, &dims, ctx->registry, &f))
    tile(func, &dims, npuc_pass_opt_bool(opts, "strict-mode"), ctx, &f);
  npuc_dim_result_free(&dims);
  if (f.failed) {
    npuc_emit_diagnostic(f.loc, NPUC_SEV_REMARK,
                         "cannot split the work over two vector sub-blocks, "
                         "falling back to 1:1 (stores on sub-block 0 only): "
                         "%s",
                         f.why);
    fall_back(func, ctx->registry);
  }
  return true;
}

static void fail(failure *f, MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->why, sizeof f->why, fmt, ap);
  va_end(ap);
  f->failed = true;
  f->loc = loc;
}

/* ---- which functions -------------------------------------------------------- */

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

typedef struct {
  char text[64];
  size_t len;
} short_text;

static void append_text(MlirStringRef s, void *user) {
  short_text *t = user;
  for (size_t i = 0; i < s.length && t->len + 1 < sizeof t->text; i++)
    t->text[t->len++] = s.data[i];
  t->text[t->len] = '\0';
}

static bool is_aiv(MlirOperation func) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("hivm.func_core_type"));
  if (mlirAttributeIsNull(a))
    return false;
  short_text t = {{0}, 0};
  mlirAttributePrint(a, append_text, &t);
  return strcmp(t.text, "#hivm.func_core_type<AIV>") == 0;
}

static MlirWalkResult find_split_mark(MlirOperation op, void *user) {
  if (!has_attr(op, "tiled_op") && !has_attr(op, SUB_BLOCK_GUARD_MARK))
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

/* AIV functions of mix kernels (all AIV functions with all-vector-kernels),
 * unless the module opts out or the function was split already (its
 * {tiled_op} and {limit_sub_block_id0} marks: a second run would split the
 * halves again). */
static bool applies(MlirOperation func, bool all_vector_kernels) {
  if (!is_aiv(func) ||
      (!all_vector_kernels && !has_attr(func, "hivm.part_of_mix")))
    return false;
  MlirOperation parent = mlirOperationGetParentOperation(func);
  if (!mlirOperationIsNull(parent) && has_attr(parent, DISABLE_ATTR))
    return false;
  bool split = false;
  mlirOperationWalk(func, find_split_mark, &split, MlirWalkPreOrder);
  return !split;
}

/* ---- what tiling needs ------------------------------------------------------ */


/* Is `t` shaped like the stored value type `vt` (dim d may be dynamic in
 * both: a window)? */
static bool like_value(MlirType t, MlirType vt, int d) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t) ||
      mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(vt))
    return false;
  for (intptr_t k = 0; k < mlirShapedTypeGetRank(vt); k++) {
    bool dyn = mlirShapedTypeIsDynamicDim(vt, k);
    if (dyn != mlirShapedTypeIsDynamicDim(t, k) || (dyn && k != d) ||
        (!dyn && mlirShapedTypeGetDimSize(t, k) != mlirShapedTypeGetDimSize(vt, k)))
      return false;
  }
  return true;
}

/* Can tiling halve the destination? It must have the stored value's shape:
 * a memref with a strided layout, or a tensor init mirrored by the op's one
 * result. */
static bool leaf_ok(const npuc_dim_leaf *l, const npuc_op_registry *reg,
                    failure *f) {
  MlirLocation loc = mlirOperationGetLocation(l->op);
  intptr_t nres = mlirOperationGetNumResults(l->op);
  if (nres > 1 || (nres == 1 && (l->window || !mlirTypeIsATensor(mlirValueGetType(
                                                    mlirOperationGetResult(l->op, 0)))))) {
    fail(f, loc, "a store-like op with several results, or a window stored "
                 "into a tensor, is not tiled");
    return false;
  }
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(l->op));
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  int g = npuc_op_find_operand(def, "dst");
  intptr_t first = 0, count = 0;
  if (g >= 0)
    npuc_operand_group(def, l->op, g, &first, &count);
  if (l->window) /* the analyzer matched the window's subview */
    return true;
  MlirType vt = mlirValueGetType(l->value);
  bool gathers = npuc_op_is(l->op, "hivm.hir.indirect_store");
  for (intptr_t i = first; i < first + count && !gathers; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(l->op, i));
    int64_t strides[MAX_RANK], offset;
    bool tensor_init = nres == 1 && mlirTypeIsATensor(t);
    if (!like_value(t, vt, l->dim) ||
        (!tensor_init &&
         (!mlirTypeIsAMemRef(t) ||
          mlirLogicalResultIsFailure(
              mlirMemRefTypeGetStridesAndOffset(t, strides, &offset))))) {
      fail(f, loc,
           "the destination of the store does not have the stored value's "
           "static shape and a strided layout");
      return false;
    }
  }
  return true;
}

/* The body must be one block ending in a return without values (it moves
 * into the sub-block loop), and every leaf to halve must be halvable. */
static bool check_shape(MlirOperation func, const npuc_dim_result *dims,
                        const npuc_op_registry *reg, failure *f) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock block = mlirRegionGetFirstBlock(body);
  MlirOperation ret = mlirBlockGetTerminator(block);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(block)) ||
      mlirOperationIsNull(ret) || mlirOperationGetNumOperands(ret) > 0) {
    fail(f, mlirOperationGetLocation(func),
         "the function body is not one block ending in a return without "
         "values");
    return false;
  }
  for (size_t i = 0; i < dims->num_leaves; i++) {
    const npuc_dim_leaf *l = &dims->leaves[i];
    if (l->dim >= 0 && !leaf_ok(l, reg, f))
      return false;
    if (l->dim < 0 && mlirOperationGetNumResults(l->op) > 1) {
      fail(f, mlirOperationGetLocation(l->op),
           "a store-like op with several results cannot be guarded");
      return false;
    }
  }
  return true;
}

/* The memref a view is taken of, through view-like ops, up to a block
 * argument (or the op that allocates it). */
static MlirValue memory_root(MlirValue v) {
  static const char *const views[] = {
      "memref.subview",       "memref.reinterpret_cast",
      "memref.cast",          "memref.memory_space_cast",
      "memref.collapse_shape", "memref.expand_shape",
      "memref.view",          NULL};
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    bool view = false;
    for (const char *const *n = views; *n && !view; n++)
      view = npuc_op_is(def, *n);
    if (!view || mlirOperationGetNumOperands(def) < 1)
      break;
    v = mlirOperationGetOperand(def, 0);
  }
  return v;
}

typedef struct {
  const npuc_op_registry *reg;
  MlirValue *roots; /* memory the function loads from (arguments) */
  size_t count, cap;
} load_roots;

static MlirWalkResult collect_load_root(MlirOperation op, void *user) {
  load_roots *lr = user;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(lr->reg, n.data, n.length);
  intptr_t first, count;
  int g = def && npuc_op_has_trait(def, NPUC_TRAIT_LOAD_LIKE)
              ? npuc_op_find_operand(def, "src")
              : -1;
  if (g < 0 || !npuc_operand_group(def, op, g, &first, &count) || count < 1)
    return MlirWalkResultAdvance;
  MlirValue src = mlirOperationGetOperand(op, first);
  if (!mlirTypeIsAMemRef(mlirValueGetType(src)))
    return MlirWalkResultAdvance;
  MlirValue root = memory_root(src);
  if (!mlirValueIsABlockArgument(root))
    return MlirWalkResultAdvance;
  if (lr->count == lr->cap) {
    size_t cap = lr->cap ? 2 * lr->cap : 16;
    MlirValue *roots = realloc(lr->roots, cap * sizeof *roots);
    if (!roots)
      return MlirWalkResultInterrupt;
    lr->roots = roots;
    lr->cap = cap;
  }
  lr->roots[lr->count++] = root;
  return MlirWalkResultAdvance;
}

/* A store into global memory the function also loads from: once the
 * sub-blocks work on different halves, one may overwrite what the other
 * still reads (in 1:1 both write the same values). Kernel arguments are
 * few, so the roots are compared pairwise. */
static bool check_memory(MlirOperation func, const npuc_dim_result *dims,
                         const npuc_op_registry *reg, failure *f) {
  load_roots lr = {reg, NULL, 0, 0};
  mlirOperationWalk(func, collect_load_root, &lr, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; ok && i < dims->num_leaves; i++) {
    const npuc_dim_leaf *l = &dims->leaves[i];
    if (l->dim < 0) /* whole, on sub-block 0 only: as in 1:1 */
      continue;
    for (intptr_t k = 0; ok && k < mlirOperationGetNumOperands(l->op); k++) {
      MlirValue v = mlirOperationGetOperand(l->op, k);
      if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
        continue;
      MlirValue root = memory_root(v);
      for (size_t j = 0; ok && j < lr.count; j++)
        if (mlirValueEqual(root, lr.roots[j])) {
          fail(f, mlirOperationGetLocation(l->op),
               "the kernel stores to memory it also loads from (argument "
               "%d); the sub-blocks could overwrite what the other reads",
               (int)mlirBlockArgumentGetArgNumber(root));
          ok = false;
        }
    }
  }
  free(lr.roots);
  return ok;
}

/* ---- tiling ------------------------------------------------------------------- */

static MlirOperation wrap_in_loop(MlirOperation func);
/* The offsets %sb * half, one per half size, at the top of the loop body:
 * leaves cut along the same axis share them, so the bubble-up patterns see
 * equal windows (an insert_slice of one half read back by another leaf
 * composes exactly). */
typedef struct {
  MlirValue sub_block;
  MlirOperation top; /* the first op of the loop body as wrapped */
  int count;
  int64_t half[16];
  MlirValue offset[16];
} offset_cache;

static void tile_leaf(const npuc_dim_leaf *l, offset_cache *offsets,
                      const npuc_op_registry *reg);
static void dps_inits(MlirOperation op, const npuc_op_registry *reg,
                      MlirValue *inits);
static void guard_leaf(MlirOperation op, MlirValue sub_block,
                       const npuc_op_registry *reg);
static bool bubble(MlirOperation func, bool strict,
                   const npuc_pass_context *ctx, failure *f);
static bool verify_quietly(MlirOperation func, const npuc_op_registry *reg,
                           failure *f);
static void erase_dead_values(MlirOperation func, const npuc_op_registry *reg);

static void tile(MlirOperation func, const npuc_dim_result *dims,
                 bool strict, const npuc_pass_context *ctx, failure *f) {
  if (dims->broadcast_across) {
    npuc_emit_diagnostic(mlirOperationGetLocation(func), NPUC_SEV_REMARK,
                         "the chosen tiling axis joins two different axes of "
                         "one value (a broadcast); strict mode is turned off");
    strict = false;
  }
  /* The patterns may leave placeholders behind on failure: keep the
   * original to restore. */
  MlirOperation backup = mlirOperationClone(func);
  MlirOperation loop = wrap_in_loop(func);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirValue sub_block = mlirBlockGetArgument(body, 0);
  offset_cache offsets = {sub_block, mlirBlockGetFirstOperation(body), 0,
                          {0}, {{NULL}}};
  for (size_t i = 0; i < dims->num_leaves; i++) {
    if (dims->leaves[i].dim >= 0)
      tile_leaf(&dims->leaves[i], &offsets, ctx->registry);
    else
      guard_leaf(dims->leaves[i].op, sub_block, ctx->registry);
  }
  bool ok = bubble(func, strict, ctx, f) &&
            verify_quietly(func, ctx->registry, f);
  if (ok) {
    erase_dead_values(func, ctx->registry);
    ok = npuc_map_sub_block_loops(func);
  }
  if (!ok)
    mlirRegionTakeBody(mlirOperationGetRegion(func, 0),
                       mlirOperationGetRegion(backup, 0));
  mlirOperationDestroy(backup);
}

/* Moves the body (but the return) into the sub-block loop. */
static MlirOperation wrap_in_loop(MlirOperation func) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(block);
  MlirOperation first = mlirBlockGetFirstOperation(block);
  npuc_builder b = npuc_builder_before(first);
  b.loc = mlirOperationGetLocation(func);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirValue c0 = npuc_build_int_constant(&b, index, 0);
  MlirValue c1 = npuc_build_int_constant(&b, index, 1);
  MlirValue c2 = npuc_build_int_constant(&b, index, 2);
  MlirOperation loop = npuc_build_for(&b, c0, c2, c1);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation op = first; !mlirOperationEqual(op, ret);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, yield);
    op = next;
  }
  mlirOperationSetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString(SUB_BLOCK_LOOP_MARK),
      mlirUnitAttrGet(ctx));
  mlirOperationSetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString("mapping"),
      mlirAttributeParseGet(ctx,
                            mlirStringRefCreateFromCString(SUB_BLOCK_MAPPING)));
  return loop;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* The part of shaped value `v` along `dim` at `offset`, of `size` (null:
 * the static `static_size`), marked to bubble: tensor.extract_slice of a
 * tensor, memref.subview of a memref. */
static MlirValue part_of(npuc_builder *b, MlirValue v, int dim,
                         MlirValue offset, MlirValue size,
                         int64_t static_size) {
  MlirType t = mlirValueGetType(v);
  MlirContext ctx = mlirTypeGetContext(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t offs[MAX_RANK], sizes[MAX_RANK], ones[MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) {
    offs[d] = d == dim ? mlirShapedTypeGetDynamicSize() : 0;
    sizes[d] = mlirShapedTypeGetDimSize(t, d);
    ones[d] = 1;
  }
  sizes[dim] = mlirValueIsNull(size) ? static_size
                                     : mlirShapedTypeGetDynamicSize();
  MlirType part;
  bool tensor = mlirTypeIsATensor(t);
  if (tensor) {
    part = mlirRankedTensorTypeGet(rank, sizes, mlirShapedTypeGetElementType(t),
                                   mlirRankedTensorTypeGetEncoding(t));
  } else {
    int64_t strides[MAX_RANK], whole_offset;
    mlirMemRefTypeGetStridesAndOffset(t, strides, &whole_offset);
    MlirAttribute layout = mlirStridedLayoutAttrGet(
        ctx, mlirShapedTypeGetDynamicStrideOrOffset(), rank, strides);
    part = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, sizes,
                             layout, mlirMemRefTypeGetMemorySpace(t));
  }
  int32_t segments[4] = {1, 1, mlirValueIsNull(size) ? 0 : 1, 0};
  MlirNamedAttribute attrs[5] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offs)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, ones)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)),
      named(ctx, NPUC_BUBBLE_MARK, mlirUnitAttrGet(ctx)),
  };
  MlirValue operands[3] = {v, offset, size};
  return mlirOperationGetResult(
      npuc_build_op(b, tensor ? "tensor.extract_slice" : "memref.subview",
                    mlirValueIsNull(size) ? 2 : 3, operands, 1, &part, 5,
                    attrs),
      0);
}

/* A store into a tensor now writes half of it: the op is rebuilt with the
 * half result type, and the users of the whole result see the half
 * inserted into the whole destination (the other sub-block writes the
 * other half of the memory behind it). */
static void halve_result(const npuc_dim_leaf *l, MlirValue init,
                         MlirValue offset) {
  MlirOperation op = l->op;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue old = mlirOperationGetResult(op, 0);
  MlirType whole = mlirValueGetType(old);
  intptr_t rank = mlirShapedTypeGetRank(whole);
  int64_t sizes[MAX_RANK], offs[MAX_RANK], ones[MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) {
    sizes[d] = mlirShapedTypeGetDimSize(whole, d) / (d == l->dim ? 2 : 1);
    offs[d] = d == l->dim ? mlirShapedTypeGetDynamicSize() : 0;
    ones[d] = 1;
  }
  MlirType part =
      mlirRankedTensorTypeGet(rank, sizes, mlirShapedTypeGetElementType(whole),
                              mlirRankedTensorTypeGetEncoding(whole));
  MlirOperationState st = mlirOperationStateGet(
      mlirIdentifierStr(mlirOperationGetName(op)), mlirOperationGetLocation(op));
  intptr_t nops = mlirOperationGetNumOperands(op);
  MlirValue operands[64];
  for (intptr_t i = 0; i < nops && i < 64; i++)
    operands[i] = mlirOperationGetOperand(op, i);
  mlirOperationStateAddOperands(&st, nops < 64 ? nops : 64, operands);
  mlirOperationStateAddResults(&st, 1, &part);
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    mlirOperationStateAddAttributes(&st, 1, &a);
  }
  MlirOperation tiled = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, tiled);
  npuc_builder b = npuc_builder_before(op);
  int32_t segments[5] = {1, 1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offs)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, ones)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segments)),
  };
  MlirValue ins[3] = {mlirOperationGetResult(tiled, 0), init, offset};
  MlirValue merged = mlirOperationGetResult(
      npuc_build_op(&b, "tensor.insert_slice", 3, ins, 1, &whole, 4, attrs),
      0);
  mlirValueReplaceAllUsesOfWith(old, merged);
  mlirOperationDestroy(op);
}

/* An offset or size: a constant (`v` null) or an SSA value. */
typedef struct {
  MlirValue v;
  int64_t c;
} ofr;

/* Offsets and sizes of a slice-like op (extract_slice, subview). */
static void read_window(MlirOperation op, intptr_t rank, ofr *offs,
                        ofr *sizes) {
  MlirAttribute so = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("static_offsets"));
  MlirAttribute ss = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("static_sizes"));
  intptr_t next = 1; /* dynamic operands follow the source */
  for (intptr_t d = 0; d < rank; d++) {
    offs[d].c = mlirDenseI64ArrayGetElement(so, d);
    offs[d].v = offs[d].c == mlirShapedTypeGetDynamicSize()
                    ? mlirOperationGetOperand(op, next++)
                    : (MlirValue){NULL};
  }
  for (intptr_t d = 0; d < rank; d++) {
    sizes[d].c = mlirDenseI64ArrayGetElement(ss, d);
    sizes[d].v = sizes[d].c == mlirShapedTypeGetDynamicSize()
                     ? mlirOperationGetOperand(op, next++)
                     : (MlirValue){NULL};
  }
}

static MlirValue ofr_value(npuc_builder *b, MlirType index, ofr x) {
  return mlirValueIsNull(x.v) ? npuc_build_int_constant(b, index, x.c) : x.v;
}

/* A slice of `src` (tensor.extract_slice or memref.subview), unit strides,
 * not marked: the part of a window inside a half. */
static MlirValue window_part(npuc_builder *b, MlirValue src,
                             const ofr *offs, const ofr *sizes) {
  MlirType t = mlirValueGetType(src);
  MlirContext ctx = mlirTypeGetContext(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t so[MAX_RANK], ss[MAX_RANK], ones[MAX_RANK];
  MlirValue operands[1 + 2 * MAX_RANK];
  intptr_t n = 0, noffs = 0, nsizes = 0;
  operands[n++] = src;
  for (intptr_t d = 0; d < rank; d++) {
    so[d] = mlirValueIsNull(offs[d].v) ? offs[d].c
                                       : mlirShapedTypeGetDynamicSize();
    if (!mlirValueIsNull(offs[d].v))
      operands[n++] = offs[d].v, noffs++;
    ones[d] = 1;
  }
  for (intptr_t d = 0; d < rank; d++) {
    ss[d] = mlirValueIsNull(sizes[d].v) ? sizes[d].c
                                        : mlirShapedTypeGetDynamicSize();
    if (!mlirValueIsNull(sizes[d].v))
      operands[n++] = sizes[d].v, nsizes++;
  }
  MlirType part;
  bool tensor = mlirTypeIsATensor(t);
  if (tensor) {
    part = mlirRankedTensorTypeGet(rank, ss, mlirShapedTypeGetElementType(t),
                                   mlirRankedTensorTypeGetEncoding(t));
  } else {
    int64_t strides[MAX_RANK], whole_offset;
    mlirMemRefTypeGetStridesAndOffset(t, strides, &whole_offset);
    MlirAttribute layout = mlirStridedLayoutAttrGet(
        ctx, mlirShapedTypeGetDynamicStrideOrOffset(), rank, strides);
    part = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, ss,
                             layout, mlirMemRefTypeGetMemorySpace(t));
  }
  int32_t segments[4] = {1, (int32_t)noffs, (int32_t)nsizes, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, so)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, ss)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, ones)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)),
  };
  return mlirOperationGetResult(
      npuc_build_op(b, tensor ? "tensor.extract_slice" : "memref.subview", n,
                    operands, 1, &part, 4, attrs),
      0);
}

/* A window store: the half of the whole %x is taken (marked), and the
 * store writes the part of the window [o, o+n) inside the half
 * [off, off+h): lo = max(o, off), hi = max(lo, min(o+n, off+h)); from the
 * half at min(lo - off, h), into %d at o2 + (lo - o), hi - lo long. */
/* Index arithmetic on offsets and sizes that folds constants and the
 * identities the window formulas meet (o = 0 in masked tails), so the
 * output stays readable without a canonicalization run. */
static bool ofr_is(ofr x, int64_t c) { return mlirValueIsNull(x.v) && x.c == c; }

static bool ofr_same(ofr x, ofr y) {
  return mlirValueIsNull(x.v) ? mlirValueIsNull(y.v) && x.c == y.c
                              : !mlirValueIsNull(y.v) && mlirValueEqual(x.v, y.v);
}

static ofr ofr_op(npuc_builder *b, MlirType index, const char *op, ofr x,
                  ofr y) {
  MlirValue v = npuc_build_binary(b, op, ofr_value(b, index, x),
                                  ofr_value(b, index, y));
  return (ofr){v, 0};
}

static ofr ofr_add(npuc_builder *b, MlirType index, ofr x, ofr y) {
  if (ofr_is(x, 0))
    return y;
  if (ofr_is(y, 0))
    return x;
  if (mlirValueIsNull(x.v) && mlirValueIsNull(y.v))
    return (ofr){{NULL}, x.c + y.c};
  return ofr_op(b, index, "arith.addi", x, y);
}

static ofr ofr_sub(npuc_builder *b, MlirType index, ofr x, ofr y) {
  if (ofr_is(y, 0))
    return x;
  if (ofr_same(x, y))
    return (ofr){{NULL}, 0};
  if (mlirValueIsNull(x.v) && mlirValueIsNull(y.v))
    return (ofr){{NULL}, x.c - y.c};
  return ofr_op(b, index, "arith.subi", x, y);
}

/* min/max; `nonneg_y`: y is known to be at least 0 (max(0, y) = y). */
static ofr ofr_minmax(npuc_builder *b, MlirType index, bool max, ofr x,
                      ofr y, bool nonneg_y) {
  if (ofr_same(x, y))
    return x;
  if (max && nonneg_y && ofr_is(x, 0))
    return y;
  if (!max && nonneg_y && ofr_is(x, 0))
    return x;
  if (mlirValueIsNull(x.v) && mlirValueIsNull(y.v))
    return (ofr){{NULL}, max ? (x.c > y.c ? x.c : y.c) : (x.c < y.c ? x.c : y.c)};
  return ofr_op(b, index, max ? "arith.maxsi" : "arith.minsi", x, y);
}

static void tile_window(const npuc_dim_leaf *l, npuc_builder *b,
                        MlirValue offset, int64_t half) {
  MlirType index = mlirValueGetType(offset);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(l->value));
  ofr offs[MAX_RANK], sizes[MAX_RANK], to[MAX_RANK], to_sizes[MAX_RANK];
  read_window(l->slice, rank, offs, sizes);
  read_window(l->view, rank, to, to_sizes);
  int d = l->dim;
  ofr off = {offset, 0}, h = {{NULL}, half}, o = offs[d], n = sizes[d];
  ofr lo = ofr_minmax(b, index, true, o, off, true);
  ofr end = ofr_add(b, index, o, n);
  ofr half_end = ofr_add(b, index, off, h);
  ofr hi = ofr_minmax(b, index, true, lo,
                      ofr_minmax(b, index, false, end, half_end, false), false);
  sizes[d] = ofr_sub(b, index, hi, lo);
  to_sizes[d] = sizes[d];
  to[d] = ofr_add(b, index, to[d], ofr_sub(b, index, lo, o));
  offs[d] = ofr_minmax(b, index, false, ofr_sub(b, index, lo, off), h, false);
  MlirValue x = part_of(b, mlirOperationGetOperand(l->slice, 0), d, offset,
                        (MlirValue){NULL}, half);
  MlirValue value = mlirOperationGetResult(l->slice, 0);
  MlirValue view = mlirOperationGetResult(l->view, 0);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(l->op); i++) {
    MlirValue v = mlirOperationGetOperand(l->op, i);
    if (mlirValueEqual(v, value))
      mlirOperationSetOperand(l->op, i, window_part(b, x, offs, sizes));
    else if (mlirValueEqual(v, view))
      mlirOperationSetOperand(
          l->op, i,
          window_part(b, mlirOperationGetOperand(l->view, 0), to, to_sizes));
  }
}

static MlirValue half_offset(offset_cache *c, int64_t half,
                             MlirValue *half_v) {
  MlirType index = mlirValueGetType(c->sub_block);
  for (int i = 0; i < c->count; i++)
    if (c->half[i] == half) {
      *half_v = mlirOperationGetOperand(
          mlirOpResultGetOwner(c->offset[i]), 1);
      return c->offset[i];
    }
  npuc_builder b = npuc_builder_before(c->top);
  *half_v = npuc_build_int_constant(&b, index, half);
  MlirValue off = npuc_build_binary(&b, "arith.muli", c->sub_block, *half_v);
  if (c->count < 16) {
    c->half[c->count] = half;
    c->offset[c->count++] = off;
  }
  return off;
}

static void tile_leaf(const npuc_dim_leaf *l, offset_cache *offsets,
                      const npuc_op_registry *reg) {
  MlirContext ctx = mlirOperationGetContext(l->op);
  MlirValue init = {NULL}; /* the whole tensor a store with a result writes */
  if (mlirOperationGetNumResults(l->op) == 1)
    dps_inits(l->op, reg, &init);
  npuc_builder b = npuc_builder_before(l->op);
  MlirType vt = mlirValueGetType(l->value);
  int64_t half = l->extent / 2;
  MlirValue half_v;
  MlirValue offset = half_offset(offsets, half, &half_v);
  if (l->window) {
    tile_window(l, &b, offset, half);
    mlirOperationSetDiscardableAttributeByName(
        l->op, mlirStringRefCreateFromCString("tiled_op"),
        mlirUnitAttrGet(ctx));
    return;
  }
  MlirValue size = {NULL};
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(l->op); i++) {
    MlirValue v = mlirOperationGetOperand(l->op, i);
    if (like_value(mlirValueGetType(v), vt, l->dim))
      mlirOperationSetOperand(l->op, i,
                              part_of(&b, v, l->dim, offset, size, half));
  }
  mlirOperationSetDiscardableAttributeByName(
      l->op, mlirStringRefCreateFromCString("tiled_op"), mlirUnitAttrGet(ctx));
  if (mlirOperationGetNumResults(l->op) == 1)
    halve_result(l, init, offset);
}

/* The inits the results of a destination-style op mirror. */
static void dps_inits(MlirOperation op, const npuc_op_registry *reg,
                      MlirValue *inits) {
  intptr_t n = mlirOperationGetNumResults(op);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(reg, name.data, name.length);
  intptr_t first = 0, count = 0;
  if (def && def->dps_inits >= 0)
    npuc_operand_group(def, op, def->dps_inits, &first, &count);
  for (intptr_t i = 0; i < n; i++)
    inits[i] = mlirOperationGetOperand(op, i < count ? first + i : 0);
}

static void guard_leaf(MlirOperation op, MlirValue sub_block,
                       const npuc_op_registry *reg) {
  MlirValue inits[1];
  if (mlirOperationGetNumResults(op) > 0)
    dps_inits(op, reg, inits);
  npuc_guard_sub_block0(op, sub_block, inits);
}

typedef struct {
  MlirOperation blocker; /* a marked slice stuck below an op to narrow */
  MlirOperation kept;    /* a marked slice kept below a whole value */
  bool placeholder;      /* a loop placeholder survived */
} leftovers;

static MlirWalkResult find_leftover(MlirOperation op, void *user);

/* Runs the bubble-up patterns. Slices that stay below a buffer read as a
 * tensor or below an op with regions (a loop, an if, a scope whose results
 * the patterns could not narrow) are accepted: the op computes the whole
 * value on each sub-block and the slice takes its half, which is exact,
 * only less work is saved. A slice stuck below any other op falls back,
 * as does a loop placeholder (the IR would not be valid). */
static bool bubble(MlirOperation func, bool strict,
                   const npuc_pass_context *ctx, failure *f) {
  npuc_bubble_options bo = {strict, 2};
  npuc_bubble_report rep;
  if (npuc_bubble_up_slices(func, ctx->registry, &bo, &rep))
    return true;
  leftovers left = {{NULL}, {NULL}, false};
  mlirOperationWalk(func, find_leftover, &left, MlirWalkPreOrder);
  if (left.placeholder) {
    fail(f, mlirOperationGetLocation(rep.first_stuck),
         "cannot bubble the slice up through a loop-carried value: %s",
         rep.reason ? rep.reason : "the loop body uses it whole");
    return false;
  }
  if (!mlirOperationIsNull(left.blocker)) {
    const char *why = mlirOperationEqual(left.blocker, rep.blocker)
                          ? rep.reason
                          : NULL;
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(left.blocker));
    fail(f, mlirOperationGetLocation(left.blocker),
         "cannot bubble the slice up through '%.*s'%s%s", (int)n.length,
         n.data, why ? ": " : "", why ? why : "");
    return false;
  }
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(left.kept));
  npuc_emit_diagnostic(mlirOperationGetLocation(left.kept), NPUC_SEV_REMARK,
                       "'%.*s' stays whole on each sub-block; the slice of "
                       "its result is taken after it",
                       (int)n.length, n.data);
  return true;
}

static MlirWalkResult find_leftover(MlirOperation op, void *user) {
  leftovers *left = user;
  if (npuc_op_is(op, BUB_UNSLICE)) {
    left->placeholder = true;
    return MlirWalkResultInterrupt;
  }
  if (!npuc_bubble_is_marked(op))
    return MlirWalkResultAdvance;
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(src))
    return MlirWalkResultAdvance; /* a block argument: a stop point */
  MlirOperation owner = mlirOpResultGetOwner(src);
  if (npuc_op_is(owner, "bufferization.to_tensor") ||
      mlirOperationGetNumRegions(owner) > 0) {
    if (mlirOperationIsNull(left->kept))
      left->kept = owner;
  } else if (!npuc_op_is(owner, "tensor.empty") &&
             mlirOperationIsNull(left->blocker)) {
    left->blocker = owner;
  }
  return MlirWalkResultAdvance;
}

/* ---- dead whole values ---------------------------------------------------- */

typedef struct {
  MlirOperation *ops;
  size_t count, cap;
  bool oom;
} op_list;

static MlirWalkResult collect_any(MlirOperation op, void *user) {
  op_list *l = user;
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    MlirOperation *ops = realloc(l->ops, cap * sizeof *ops);
    if (!ops) {
      l->oom = true;
      return MlirWalkResultInterrupt;
    }
    l->ops = ops;
    l->cap = cap;
  }
  l->ops[l->count++] = op;
  return MlirWalkResultAdvance;
}

/* Computes a value and nothing else: tensor-semantics HIVM ops (no memref
 * operand, no side effects) and the tensor ops the tiling leaves behind.
 * The greedy driver does not erase the unregistered HIVM ops itself. */
static bool value_only(MlirOperation op, const npuc_op_registry *reg) {
  if (mlirOperationGetNumResults(op) == 0 || mlirOperationGetNumRegions(op))
    return false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  if (npuc_op_is(op, "tensor.empty") || npuc_op_is(op, "tensor.extract_slice") ||
      npuc_op_is(op, "tensor.expand_shape") ||
      npuc_op_is(op, "tensor.collapse_shape"))
    return true;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_DPS) ||
      npuc_op_has_trait(def, NPUC_TRAIT_SIDE_EFFECTS) ||
      npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE) ||
      npuc_op_has_trait(def, NPUC_TRAIT_LOAD_LIKE))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return false;
  return true;
}

/* The whole values the halves replaced (a window's producer keeps no user).
 * Backwards over the walk order, so a chain goes in one sweep. */
static void erase_dead_values(MlirOperation func, const npuc_op_registry *reg) {
  op_list l = {NULL, 0, 0, false};
  mlirOperationWalk(func, collect_any, &l, MlirWalkPreOrder);
  for (size_t i = l.count; !l.oom && i-- > 0;)
    if (value_only(l.ops[i], reg))
      mlirOperationDestroy(l.ops[i]);
  free(l.ops);
}

/* ---- verifying without reporting ------------------------------------------- */

typedef struct {
  bool seen;
  MlirLocation loc;
  char text[200];
} first_diag;

static void append_diag(MlirStringRef s, void *user) {
  first_diag *d = user;
  size_t len = strlen(d->text);
  snprintf(d->text + len, sizeof d->text - len, "%.*s", (int)s.length, s.data);
}

/* Takes every diagnostic while installed (handlers run newest first, and
 * one that succeeds stops the others): keeps the first. */
static MlirLogicalResult swallow(MlirDiagnostic diag, void *user) {
  first_diag *d = user;
  if (!d->seen) {
    d->seen = true;
    d->loc = mlirDiagnosticGetLocation(diag);
    mlirDiagnosticPrint(diag, append_diag, d);
  }
  return mlirLogicalResultSuccess();
}

static bool verify_quietly(MlirOperation func, const npuc_op_registry *reg,
                           failure *f) {
  MlirContext ctx = mlirOperationGetContext(func);
  first_diag d = {false, {NULL}, {0}};
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, swallow, &d, NULL);
  bool ok = mlirOperationVerify(func) && npuc_verify_table_ops(reg, func);
  mlirContextDetachDiagnosticHandler(ctx, id);
  if (!ok)
    fail(f, d.seen ? d.loc : mlirOperationGetLocation(func),
         "the tiled function does not verify: %s",
         d.seen ? d.text : "(no message)");
  return ok;
}

/* ---- the 1:1 fallback ------------------------------------------------------- */

typedef struct {
  const npuc_op_registry *reg;
  MlirOperation *ops;
  size_t count, cap;
} leaf_list;

static MlirWalkResult collect_leaf(MlirOperation op, void *user) {
  leaf_list *l = user;
  if (npuc_dim_stored_operand(l->reg, op) < 0)
    return MlirWalkResultAdvance;
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    MlirOperation *ops = realloc(l->ops, cap * sizeof *ops);
    if (!ops)
      abort(); /* out of memory before the rewrite: nothing to undo */
    l->ops = ops;
    l->cap = cap;
  }
  l->ops[l->count++] = op;
  return MlirWalkResultAdvance;
}

/* Every store-like op runs on sub-block 0 only. */
static void fall_back(MlirOperation func, const npuc_op_registry *reg) {
  leaf_list l = {reg, NULL, 0, 0};
  mlirOperationWalk(func, collect_leaf, &l, MlirWalkPreOrder);
  for (size_t i = 0; i < l.count; i++)
    if (mlirOperationGetNumResults(l.ops[i]) <= 1)
      guard_leaf(l.ops[i], (MlirValue){NULL}, reg);
  free(l.ops);
}
