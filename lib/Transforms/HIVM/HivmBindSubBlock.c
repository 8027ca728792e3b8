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
 *      computes only its half; the whole values left without readers are
 *      erased, and the copies made for readers of one value merged
 *      (SubBlockMerge.c);
 *   5. the loop is bound: its body reads hivm.hir.get_sub_block_idx
 *      (HivmMapForToSubBlock.c).
 *
 * When any step fails the function is restored and falls back to 1:1: each
 * store-like op runs on sub-block 0 only (`scf.if %sb == 0 {...}
 * {limit_sub_block_id0}`), with a remark naming the reason at the op that
 * caused it. A store marked {already_sub_block_bound} is left as it is, and
 * a distributed custom op without results (a barrier) is guarded like a
 * store. With enable-tile=false the cube function of a mix kernel loses its
 * tiling_dim_mapping marks. Run on a module, it then does the cube side
 * (SubBlockCube.c): the AIC functions' fixpipes into the tightly coupled
 * buffers the AIV functions cut get a dual destination. docs/passes/
 * hivm-bind-sub-block.md has the details. */
#include "BubbleUpInternal.h" /* BUB_UNSLICE */
#include "npuc/BuildOps.h"
#include "SubBlock.h"
#include "npuc/Alloc.h"
#include "npuc/BubbleUp.h"
#include "npuc/DimensionAnalyzer.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"
#include "npuc/Verify.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 16
#define DISABLE_ATTR "hivm.disable_auto_tile_and_bind_subblock"
#define BOUND_ATTR "already_sub_block_bound" /* set by a partition pass */
#define MAPPING_ATTR "tiling_dim_mapping"

#define BIND_OPTIONS(X, T)                                                     \
  X(T, bool, enable_tile, "enable-tile", NPUC_OPT_BOOL, "true", NULL,          \
    "split the work of the two sub-blocks (false: only sub-block 0 stores, "   \
    "1:1)")                                                                    \
  X(T, bool, strict_mode, "strict-mode", NPUC_OPT_BOOL, "false", NULL,         \
    "bubble slices only where the rewrite is exact from the IR alone "         \
    "(turned off when the chosen axis crosses a broadcast)")                   \
  X(T, bool, all_vector_kernels, "all-vector-kernels", NPUC_OPT_BOOL, "false", \
    NULL,                                                                      \
    "also split pure AIV kernels, not only the AIV functions of mix kernels")  \
  X(T, bool, emit_remarks, "emit-remarks", NPUC_OPT_BOOL, "false", NULL,       \
    "also remark on decisions bishengir does not report (a fallback to 1:1 "   \
    "and its reason, values kept whole)")
NPUC_PASS_OPTIONS(bind_options, BIND_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_hivm_bind_sub_block, "hivm-bind-sub-block",
                 "Split AIV functions of mix kernels over the two vector "
                 "sub-blocks (1:2), "
                 "or run their stores on sub-block 0 only (1:1)",
                 "any", bind_sub_block, NPUC_PASS_OPTIONS_OF(bind_options));

/* Why tiling a function failed, and at which op. `unrestorable`: no copy
 * of the function was kept (the bubble-up was certain to succeed), so it
 * cannot fall back: an internal error. */
typedef struct {
  bool failed, unrestorable;
  bool remarks; /* emit-remarks: report what bishengir keeps quiet about */
  MlirLocation loc;
  char why[320];
} failure;

static void fail(failure *f, MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool applies(MlirOperation func, bool all_vector_kernels);
static bool has_attr(MlirOperation op, const char *name);
static bool core_type_is(MlirOperation func, const char *kind);
static bool split_already(const npuc_dim_result *dims);
static bool check_shape(MlirOperation func, const npuc_dim_result *dims,
                        const npuc_op_registry *reg, failure *f);
static bool check_memory(const npuc_dim_result *dims, failure *f);
static void tile(MlirOperation func, npuc_dim_result *dims, bool strict,
                 const npuc_pass_context *ctx, failure *f);
static void fall_back(MlirOperation func, const npuc_op_registry *reg);
static bool has_distributed_effects(MlirOperation func);
static void drop_tiling_dim_mapping(MlirOperation func);

/* What tiling one function left: did the pass verify it, and the tightly
 * coupled buffers it cut (for the cube side; capacity `cap`). */
typedef struct {
  bool verified, tiled;
  bool collect; /* keep the tightly coupled buffers it cut */
  npuc_sub_block_tcb *tcbs;
  size_t num_tcbs, cap;
} function_result;

static bool bind_function(MlirOperation func, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx, function_result *out);
static bool bind_module(MlirOperation module, const npuc_pass_options *opts,
                        const npuc_pass_context *ctx);

/* On a function: the split of that function. On a module (or any op
 * holding functions): every function, then the cube side of the split. */
static bool bind_sub_block(MlirOperation op, const npuc_pass_options *opts,
                           const npuc_pass_context *ctx) {
  if (!npuc_op_is(op, "func.func"))
    return bind_module(op, opts, ctx);
  function_result r = {0};
  return bind_function(op, opts, ctx, &r);
}

static void keep_tcbs(MlirOperation func, const npuc_dim_result *dims,
                      function_result *out);

/* The AIC (cube) function of a mix kernel. */
static bool is_mix_aic(MlirOperation f) {
  return npuc_op_is(f, "func.func") &&
         core_type_is(f, "#hivm.func_core_type<AIC>") &&
         has_attr(f, "hivm.part_of_mix");
}

/* Does the module holding `func` have an AIC function of a mix kernel? */
static bool module_has_mix_aic(MlirOperation func) {
  MlirOperation m = mlirOperationGetParentOperation(func);
  if (mlirOperationIsNull(m) || mlirOperationGetNumRegions(m) == 0)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  if (mlirBlockIsNull(body))
    return false;
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    if (is_mix_aic(f))
      return true;
  return false;
}

/* The functions of the module's body, then, on targets whose fixpipe has
 * dual destinations, the cube side (SubBlockCube.c): the AIC functions'
 * fixpipes into the tightly coupled buffers the AIV functions cut. When one
 * cannot take the split, every AIV function that was cut is restored from
 * its copy and falls back to 1:1, as in bishengir. */
static bool bind_module(MlirOperation module, const npuc_pass_options *opts,
                        const npuc_pass_context *ctx) {
  if (mlirOperationGetNumRegions(module) == 0) {
    npuc_pass_verified(module);
    return true;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  if (mlirBlockIsNull(body)) {
    npuc_pass_verified(module);
    return true;
  }
  npuc_op_list aics = {0}, cut = {0}, copies = {0};
  bool cube = npuc_dim_target_950(module, false);
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       cube && !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    if (is_mix_aic(f))
      npuc_op_list_push(&aics, f);
  function_result r = {.verified = true};
  bool ok = true;
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       ok && !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!npuc_op_is(f, "func.func"))
      continue;
    MlirOperation copy =
        aics.count > 0 ? mlirOperationClone(f) : (MlirOperation){NULL};
    function_result one = {.collect = aics.count > 0,
                           .tcbs = r.tcbs,
                           .num_tcbs = r.num_tcbs,
                           .cap = r.cap};
    ok = bind_function(f, opts, ctx, &one);
    r.tcbs = one.tcbs, r.num_tcbs = one.num_tcbs, r.cap = one.cap;
    r.verified = r.verified && one.verified;
    if (!mlirOperationIsNull(copy) && one.tiled) {
      npuc_op_list_push(&cut, f);
      npuc_op_list_push(&copies, copy);
    } else if (!mlirOperationIsNull(copy)) {
      mlirOperationDestroy(copy);
    }
  }
  int split =
      ok ? npuc_sub_block_split_cube(aics.ops, aics.count, r.tcbs, r.num_tcbs)
         : 0;
  for (size_t i = 0; i < copies.count; i++) {
    if (split < 0) { /* the split functions go back, and fall back */
      mlirBlockInsertOwnedOperationBefore(body, cut.ops[i], copies.ops[i]);
      mlirOperationDestroy(cut.ops[i]);
      fall_back(copies.ops[i], ctx->registry);
    } else {
      mlirOperationDestroy(copies.ops[i]);
    }
  }
  if (split != 0)
    r.verified = false; /* the pass manager verifies the module */
  free(r.tcbs);
  npuc_op_list_free(&aics);
  npuc_op_list_free(&cut);
  npuc_op_list_free(&copies);
  if (ok && r.verified)
    npuc_pass_verified(module);
  return ok;
}

/* The tightly coupled buffers of a function that was cut. */
static void keep_tcbs(MlirOperation func, const npuc_dim_result *dims,
                      function_result *out) {
  for (size_t i = 0; i < dims->num_tcbs; i++) {
    if (out->num_tcbs == out->cap) {
      out->cap = out->cap ? 2 * out->cap : 4;
      out->tcbs = npuc_xreallocarray(out->tcbs, out->cap, sizeof *out->tcbs);
    }
    out->tcbs[out->num_tcbs++] =
        (npuc_sub_block_tcb){func, dims->tcbs[i].id, dims->tcbs[i].dim};
  }
}

static bool bind_function(MlirOperation func, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx, function_result *out) {
  if (!applies(func, NPUC_PASS_OPTS(bind_options, opts)->all_vector_kernels)) {
    if (!NPUC_PASS_OPTS(bind_options, opts)->enable_tile &&
        core_type_is(func, "#hivm.func_core_type<AIC>") &&
        has_attr(func, "hivm.part_of_mix"))
      drop_tiling_dim_mapping(func);
    npuc_pass_verified(func);
    out->verified = true;
    return true;
  }
  npuc_dim_result dims;
  if (!npuc_dim_analyze(func, ctx->registry, &dims)) {
    npuc_pass_error(func, "out of memory");
    return false;
  }
  if (dims.num_leaves == 0 && has_distributed_effects(func)) {
    npuc_dim_result_free(&dims); /* only a barrier or a put: 1:1, quietly */
    fall_back(func, ctx->registry);
    return true;
  }
  if (dims.num_leaves == 0 || split_already(&dims)) { /* nothing to split */
    npuc_dim_result_free(&dims);
    npuc_pass_verified(func); /* unchanged */
    out->verified = true;
    return true;
  }
  failure f = {0};
  f.remarks = NPUC_PASS_OPTS(bind_options, opts)->emit_remarks;
  if (!NPUC_PASS_OPTS(bind_options, opts)->enable_tile)
    fail(&f, mlirOperationGetLocation(func),
         "sub-block tiling is disabled (enable-tile=false)");
  else if (dims.num_tiled == 0)
    fail(&f, mlirOperationGetLocation(dims.culprit), "%s", dims.reason);
  else if (check_shape(func, &dims, ctx->registry, &f) &&
           check_memory(&dims, &f))
    tile(func, &dims, NPUC_PASS_OPTS(bind_options, opts)->strict_mode, ctx, &f);
  if (!f.failed && out->collect)
    keep_tcbs(func, &dims, out);
  npuc_dim_result_free(&dims);
  if (f.unrestorable) {
    npuc_pass_error_at(f.loc,
                       "internal error: the bubble-up "
                       "was certain to succeed, but %s",
                       f.why);
    return false;
  }
  if (f.failed && f.remarks) {
    npuc_pass_remark_at(f.loc,
                        "cannot split the work over two vector sub-blocks, "
                        "falling back to 1:1 (stores on sub-block 0 only): "
                        "%s",
                        f.why);
  }
  if (f.failed) {
    fall_back(func, ctx->registry);
  } else {
    npuc_pass_verified(func); /* tile() verified it last */
    out->verified = true;
    out->tiled = true;
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

/* ---- which functions --------------------------------------------------------
 */

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
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

/* `kind`: the printed hivm.func_core_type, e.g. "#hivm.func_core_type<AIV>". */
static bool core_type_is(MlirOperation func, const char *kind) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("hivm.func_core_type"));
  if (mlirAttributeIsNull(a))
    return false;
  short_text t = {{0}, 0};
  mlirAttributePrint(a, append_text, &t);
  return strcmp(t.text, kind) == 0;
}

static bool is_aiv(MlirOperation func) {
  return core_type_is(func, "#hivm.func_core_type<AIV>");
}

/* AIV functions of mix kernels (all AIV functions with all-vector-kernels),
 * unless the module opts out. */
static bool applies(MlirOperation func, bool all_vector_kernels) {
  if (!is_aiv(func) ||
      (!all_vector_kernels && !has_attr(func, "hivm.part_of_mix")))
    return false;
  MlirOperation parent = mlirOperationGetParentOperation(func);
  return mlirOperationIsNull(parent) || !has_attr(parent, DISABLE_ATTR);
}

/* Was the function split already? A second run would split the halves
 * again. The marks of a split sit on store-like ops: {tiled_op} on each
 * halved one, {limit_sub_block_id0} on the scf.if guarding each other one;
 * the analyzer has listed them all as leaves. */
static bool split_already(const npuc_dim_result *dims) {
  for (size_t i = 0; i < dims->num_leaves; i++) {
    MlirOperation op = dims->leaves[i].op;
    MlirOperation parent = mlirOperationGetParentOperation(op);
    if (has_attr(op, "tiled_op") || (npuc_op_is(parent, "scf.if") &&
                                     has_attr(parent, SUB_BLOCK_GUARD_MARK)))
      return true;
  }
  return false;
}

/* ---- what tiling needs ------------------------------------------------------
 */

/* Can tiling halve the destination? It must have the stored value's shape:
 * a memref with a strided layout, or a tensor init mirrored by the op's one
 * result. */
static bool leaf_ok(const npuc_dim_leaf *l, const npuc_op_registry *reg,
                    failure *f) {
  MlirLocation loc = mlirOperationGetLocation(l->op);
  intptr_t nres = mlirOperationGetNumResults(l->op);
  if (nres > 1 ||
      (nres == 1 && (l->window || !mlirTypeIsATensor(mlirValueGetType(
                                      mlirOperationGetResult(l->op, 0)))))) {
    fail(f, loc,
         "a store-like op with several results, or a window stored "
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
  if (npuc_sub_block_scatters(
          l->op)) /* its destination (a memref) stays whole */
    return true;
  for (intptr_t i = first; i < first + count; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(l->op, i));
    int64_t strides[MAX_RANK], offset;
    bool tensor_init = nres == 1 && mlirTypeIsATensor(t);
    if (!npuc_sub_block_like_value(t, vt, l->dim) ||
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
      "memref.subview",        "memref.reinterpret_cast",
      "memref.cast",           "memref.memory_space_cast",
      "memref.collapse_shape", "memref.expand_shape",
      "memref.view",           NULL};
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
  MlirValue *roots; /* memory the function loads from (arguments) */
  size_t count;
} load_roots;

static int by_address(const void *x, const void *y) {
  uintptr_t a = (uintptr_t)((const MlirValue *)x)->ptr;
  uintptr_t b = (uintptr_t)((const MlirValue *)y)->ptr;
  return a < b ? -1 : a > b;
}

/* A store into global memory the function also loads from: once the
 * sub-blocks work on different halves, one may overwrite what the other
 * still reads (in 1:1 both write the same values). The roots of what the
 * loads read (the analyzer lists it) are sorted once and each store's root
 * looked up: n log n. */
static bool check_memory(const npuc_dim_result *dims, failure *f) {
  load_roots lr = {malloc((dims->num_loads + 1) * sizeof *lr.roots), 0};
  if (!lr.roots)
    abort(); /* out of memory before the rewrite: nothing to undo */
  for (size_t i = 0; i < dims->num_loads; i++) {
    MlirValue root = memory_root(dims->loads[i]);
    if (mlirValueIsABlockArgument(root))
      lr.roots[lr.count++] = root;
  }
  if (lr.count)
    qsort(lr.roots, lr.count, sizeof *lr.roots, by_address);
  bool ok = true;
  for (size_t i = 0; ok && lr.count && i < dims->num_leaves; i++) {
    const npuc_dim_leaf *l = &dims->leaves[i];
    if (l->dim < 0) /* whole, on sub-block 0 only: as in 1:1 */
      continue;
    for (intptr_t k = 0; ok && k < mlirOperationGetNumOperands(l->op); k++) {
      MlirValue v = mlirOperationGetOperand(l->op, k);
      if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
        continue;
      MlirValue root = memory_root(v);
      if (bsearch(&root, lr.roots, lr.count, sizeof *lr.roots, by_address)) {
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

/* ---- tiling
 * ------------------------------------------------------------------- */

static MlirOperation wrap_in_loop(MlirOperation func, npuc_dim_result *dims);
static MlirBlock take_arguments(MlirBlock block, npuc_dim_result *dims);
static MlirValue read_sub_block(MlirOperation op);

static void guard_leaf(MlirOperation op, MlirValue sub_block,
                       const npuc_op_registry *reg);
static bool bubble_certain(MlirOperation func, const npuc_dim_result *dims,
                           const npuc_op_registry *reg);
static bool split_leaves(MlirOperation func, npuc_dim_result *dims,
                         const npuc_op_registry *reg,
                         npuc_sub_block_offsets *offsets);
static bool bubble(MlirOperation func, bool strict, bool marked,
                   const npuc_pass_context *ctx, failure *f, size_t *copies);
static bool verify_quietly(MlirOperation func, const npuc_op_registry *reg,
                           failure *f);
static void tidy_up(MlirOperation func, const npuc_op_registry *reg,
                    size_t copies, bool certain);
static void erase_dead_values(MlirOperation func, const npuc_op_registry *reg);

static void tile(MlirOperation func, npuc_dim_result *dims, bool strict,
                 const npuc_pass_context *ctx, failure *f) {
  if (dims->broadcast_across) {
    /* bishengir's words: its tests expect this remark. */
    npuc_pass_remark(func, "Selected tiling dim might have broadcast two "
                           "different axis. Automatically disables strict "
                           "mode.");
    strict = false;
  }
  /* The patterns may leave placeholders behind on failure: keep the
   * original to restore, unless the bubble-up is certain to succeed (the
   * copy and its destruction cost a fifth of the pass on a long chain). */
  bool certain = bubble_certain(func, dims, ctx->registry);
  MlirOperation backup =
      certain ? (MlirOperation){NULL} : mlirOperationClone(func);
  npuc_sub_block_offsets offsets;
  bool marked = split_leaves(func, dims, ctx->registry, &offsets);
  size_t copies = 0;
  bool ok = bubble(func, strict, marked, ctx, f, &copies);
  if (ok) {
    tidy_up(func, ctx->registry, copies, certain);
    npuc_sub_block_loop_form(&offsets);
    /* bishengir's pass ends its bubble-up with MLIR's CSE on the function
     * (its own pass manager): equal tensor.empty, slices and index
     * arithmetic merge, across regions too. Our HIVM ops are unregistered
     * for MLIR (unknown effects), so CSE leaves them to tidy_up. */
    ok = npuc_run_upstream(func, "cse");
  }
  /* Last, so the pass leaves the function verified as it is. Our ops are
   * checked against their tables here only to choose the fallback: with
   * no copy to restore, that check is the pipeline's, as after any other
   * pass (npuc-opt and npuc-compile check the tables after the passes). */
  ok = ok && verify_quietly(func, certain ? NULL : ctx->registry, f);
  if (certain) {
    f->unrestorable = !ok;
    return;
  }
  if (!ok)
    mlirRegionTakeBody(mlirOperationGetRegion(func, 0),
                       mlirOperationGetRegion(backup, 0));
  mlirOperationDestroy(backup);
}

typedef struct {
  MlirIdentifier slice, loop, placeholder;
  bool found;
} marks_search;

static bool cut_values(const npuc_dim_result *dims, MlirValue *cut, size_t cap,
                       size_t *n);
static MlirIdentifier identifier(MlirContext ctx, const char *name);
static bool is_marked(MlirOperation op, const marks_search *m);

/* Can the bubble-up of the slices tiling will make not fail? Each halved
 * leaf's value and destination are cut (SubBlockTile.c); their bubble-up
 * must be certain (npuc_bubble_certain), with nothing else in the function
 * marked for it or for the sub-block mapping. Leaves with results, windows
 * and scatters, and an axis joined across a broadcast, are not looked
 * into: the copy is kept. */
static bool bubble_certain(MlirOperation func, const npuc_dim_result *dims,
                           const npuc_op_registry *reg) {
  enum { MAX_CUT = 256 };
  MlirValue cut[MAX_CUT];
  size_t n = 0;
  if (dims->broadcast_across || !cut_values(dims, cut, MAX_CUT, &n))
    return false;
  MlirContext ctx = mlirOperationGetContext(func);
  marks_search m = {identifier(ctx, "tensor.extract_slice"),
                    identifier(ctx, "scf.for"), identifier(ctx, BUB_UNSLICE),
                    false};
  for (size_t i = 0; i < dims->ops.count && !m.found; i++)
    m.found = is_marked(dims->ops.ops[i], &m);
  return !m.found && npuc_bubble_certain(ctx, reg, cut, n);
}

/* The operands tiling will cut (as npuc_sub_block_tile_leaf does) into
 * cut[0 .. *n-1]; false for a leaf this does not look into (with results,
 * a window, a scatter) or more than `cap` of them. */
static bool cut_values(const npuc_dim_result *dims, MlirValue *cut, size_t cap,
                       size_t *n) {
  for (size_t i = 0; i < dims->num_leaves; i++) {
    const npuc_dim_leaf *l = &dims->leaves[i];
    if (l->dim < 0)
      continue;
    if (l->window || npuc_sub_block_scatters(l->op) ||
        mlirOperationGetNumResults(l->op) != 0)
      return false;
    MlirType vt = mlirValueGetType(l->value);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(l->op); k++) {
      MlirValue v = mlirOperationGetOperand(l->op, k);
      if (!npuc_sub_block_like_value(mlirValueGetType(v), vt, l->dim))
        continue;
      if (*n == cap)
        return false;
      cut[(*n)++] = v;
    }
  }
  return true;
}

static MlirIdentifier identifier(MlirContext ctx, const char *name) {
  return mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name));
}

/* Slices marked to bubble, loop placeholders, sub-block loops. Op names
 * are compared as identifiers: every op of the function is asked. */
static bool is_marked(MlirOperation op, const marks_search *m) {
  MlirIdentifier name = mlirOperationGetName(op);
  return (mlirIdentifierEqual(name, m->slice) && npuc_bubble_is_marked(op)) ||
         mlirIdentifierEqual(name, m->placeholder) ||
         (mlirIdentifierEqual(name, m->loop) &&
          has_attr(op, SUB_BLOCK_LOOP_MARK));
}

/* Wraps the body in the sub-block loop, halves each leaf with an axis and
 * guards the others; returns whether a leaf got a marked tensor slice.
 * `offsets` receives the loop and the offsets of the halves. */
static bool split_leaves(MlirOperation func, npuc_dim_result *dims,
                         const npuc_op_registry *reg,
                         npuc_sub_block_offsets *offsets) {
  MlirOperation loop = wrap_in_loop(func, dims);
  /* The offsets read the sub-block index in front of the loop, not from
   * its induction variable: both name the sub-block once the loop is
   * mapped, and values from outside the body the patterns rewrite keep
   * their dominance checks cheap (MLIR recomputes a block's op order after
   * every insertion into it; a value defined inside would make each
   * rewrite cost a walk of the body). */
  MlirValue sub_block = read_sub_block(loop);
  MlirOperation read = mlirOpResultGetOwner(
      mlirOperationGetOperand(mlirOpResultGetOwner(sub_block), 0));
  *offsets =
      (npuc_sub_block_offsets){sub_block, loop, read, 0, {0}, {{NULL}}, 0};
  for (size_t i = 0; i < dims->num_leaves; i++) {
    if (dims->leaves[i].dim >= 0)
      npuc_sub_block_tile_leaf(&dims->leaves[i], offsets, reg);
    else
      guard_leaf(dims->leaves[i].op, sub_block, reg);
  }
  return offsets->tensor_slices > 0;
}

/* %i = arith.index_cast (hivm.hir.get_sub_block_idx) before `op`. */
static MlirValue read_sub_block(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  npuc_builder b = npuc_builder_before(op);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirValue id =
      mlirOperationGetResult(npuc_build_op(&b, "hivm.hir.get_sub_block_idx", 0,
                                           NULL, 1, &i64, 0, NULL),
                             0);
  return npuc_build_int_cast(&b, id, mlirIndexTypeGet(ctx));
}

/* Moves the body (but the return) into the sub-block loop. The body's
 * block becomes the loop's, so its ops are not moved one by one (a walk
 * of the function, and each move renumbers the block): the function gets
 * a new entry block with its arguments, holding the bounds, the loop and
 * the return. check_shape accepted the body: one block ending in a
 * value-less return. */
static MlirOperation wrap_in_loop(MlirOperation func, npuc_dim_result *dims) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  MlirBlock entry = take_arguments(body, dims);
  MlirOperation ret = mlirBlockGetTerminator(body);
  mlirOperationRemoveFromParent(ret);
  mlirBlockAppendOwnedOperation(entry, ret);
  MlirRegion held = mlirRegionCreate();
  mlirRegionTakeBody(held, region);
  mlirRegionAppendOwnedBlock(region, entry);
  npuc_builder b = npuc_builder_before(ret);
  b.loc = loc;
  MlirType index = mlirIndexTypeGet(ctx);
  MlirValue c0 = npuc_build_int_constant(&b, index, 0);
  MlirValue c1 = npuc_build_int_constant(&b, index, 1);
  MlirValue c2 = npuc_build_int_constant(&b, index, 2);
  MlirOperation loop = npuc_build_for(&b, c0, c2, c1);
  MlirRegion loop_region = mlirOperationGetRegion(loop, 0);
  MlirOperation yield =
      mlirBlockGetTerminator(mlirRegionGetFirstBlock(loop_region));
  mlirOperationRemoveFromParent(yield);
  mlirBlockAppendOwnedOperation(body, yield);
  mlirBlockAddArgument(body, index, loc); /* the induction variable */
  mlirRegionTakeBody(loop_region, held);  /* drops the loop's own block */
  mlirRegionDestroy(held);
  mlirOperationSetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString(SUB_BLOCK_LOOP_MARK),
      mlirUnitAttrGet(ctx));
  mlirOperationSetDiscardableAttributeByName(
      loop, mlirStringRefCreateFromCString("mapping"),
      mlirAttributeParseGet(ctx,
                            mlirStringRefCreateFromCString(SUB_BLOCK_MAPPING)));
  return loop;
}

/* A new block with the arguments of `block`, which from now on stand for
 * them, in the IR and in the leaves' values; `block` is left without
 * arguments. */
static MlirBlock take_arguments(MlirBlock block, npuc_dim_result *dims) {
  MlirBlock entry = mlirBlockCreate(0, NULL, NULL);
  int *arg = malloc((dims->num_leaves + 1) * sizeof *arg);
  if (!arg)
    abort(); /* before the rewrite: nothing to undo */
  for (size_t k = 0; k < dims->num_leaves; k++) {
    MlirValue v = dims->leaves[k].value;
    arg[k] = mlirValueIsABlockArgument(v) &&
                     mlirBlockEqual(mlirBlockArgumentGetOwner(v), block)
                 ? (int)mlirBlockArgumentGetArgNumber(v)
                 : -1;
  }
  npuc_move_block_arguments(block, entry);
  for (size_t k = 0; k < dims->num_leaves; k++)
    if (arg[k] >= 0)
      dims->leaves[k].value = mlirBlockGetArgument(entry, arg[k]);
  free(arg);
  return entry;
}

static void guard_leaf(MlirOperation op, MlirValue sub_block,
                       const npuc_op_registry *reg) {
  MlirValue inits[1];
  if (mlirOperationGetNumResults(op) > 0)
    npuc_sub_block_inits(op, reg, inits);
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
 * as does a loop placeholder (the IR would not be valid). `marked`: tiling
 * made a marked tensor slice (the bubble-up need not look for one).
 * `copies`: how many ops the bubble-up built anew beside the original
 * (npuc_bubble_report.num_copies). */
static bool bubble(MlirOperation func, bool strict, bool marked,
                   const npuc_pass_context *ctx, failure *f, size_t *copies) {
  /* A tightly coupled buffer is narrowed here (and marked tiledAlloc for
   * the cube compiled elsewhere, as bishengir does) only when no cube
   * function of this module writes it: the cube side (SubBlockCube.c)
   * halves a paired one on both sides, or leaves it whole when the
   * fixpipe cannot split, which a narrowed AIV buffer would overrun. */
  npuc_bubble_options bo = {strict, 2, marked, !module_has_mix_aic(func)};
  npuc_bubble_report rep;
  bool done = npuc_bubble_up_slices(func, ctx->registry, &bo, &rep);
  *copies = rep.num_copies;
  if (done)
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
    const char *why =
        mlirOperationEqual(left.blocker, rep.blocker) ? rep.reason : NULL;
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(left.blocker));
    fail(f, mlirOperationGetLocation(left.blocker),
         "cannot bubble the slice up through '%.*s'%s%s", (int)n.length, n.data,
         why ? ": " : "", why ? why : "");
    return false;
  }
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(left.kept));
  if (f->remarks)
    npuc_pass_remark(left.kept,
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

/* ---- dead whole values ----------------------------------------------------
 */

/* Computes a value and nothing else: tensor-semantics HIVM ops (no memref
 * operand, no side effects) and the tensor ops the tiling leaves behind.
 * The greedy driver does not erase the unregistered HIVM ops itself. */
static bool value_only(MlirOperation op, const npuc_op_registry *reg) {
  if (mlirOperationGetNumResults(op) == 0 || mlirOperationGetNumRegions(op))
    return false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  if (npuc_op_is(op, "tensor.empty") ||
      npuc_op_is(op, "tensor.extract_slice") ||
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

/* Erases the whole values the halves replaced and merges equal copies
 * (npuc_bubble_report.num_copies). A certain bubble-up without copies
 * rewrote every op in place, and a pattern erases a producer with its
 * last user (bub_replace): nothing is left to erase or merge, and the
 * walks are skipped. */
static void tidy_up(MlirOperation func, const npuc_op_registry *reg,
                    size_t copies, bool certain) {
  if (copies == 0 && certain)
    return;
  erase_dead_values(func, reg);
  if (copies > 0)
    npuc_sub_block_merge_equal(func, reg);
}

/* The whole values the halves replaced (a window's producer keeps no user).
 * Backwards over the walk order, so a chain goes in one sweep. */
static void erase_dead_values(MlirOperation func, const npuc_op_registry *reg) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPreOrder, NULL, NULL, &l);
  for (size_t i = l.count; i-- > 0;)
    if (value_only(l.ops[i], reg))
      mlirOperationDestroy(l.ops[i]);
  npuc_op_list_free(&l);
}

/* ---- verifying without reporting -------------------------------------------
 */

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

/* MLIR's verifier, then (unless `reg` is NULL) our tables'. */
static bool verify_quietly(MlirOperation func, const npuc_op_registry *reg,
                           failure *f) {
  MlirContext ctx = mlirOperationGetContext(func);
  first_diag d = {false, {NULL}, {0}};
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, swallow, &d, NULL);
  bool ok =
      mlirOperationVerify(func) && (!reg || npuc_verify_table_ops(reg, func));
  mlirContextDetachDiagnosticHandler(ctx, id);
  if (!ok)
    fail(f, d.seen ? d.loc : mlirOperationGetLocation(func),
         "the tiled function does not verify: %s",
         d.seen ? d.text : "(no message)");
  return ok;
}

/* ---- the 1:1 fallback -------------------------------------------------------
 */

/* A distributed custom op without results (a barrier, a one-sided put)
 * acts on other cores once per call: like a store, it runs on sub-block 0
 * only, as bishengir has it. Those with results (a wait, a peer's
 * pointer, a token) feed the kernel's dataflow and run on both. */
static bool distributed_effect(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 0 &&
         npuc_op_is(op, "hivm.hir.custom") &&
         has_attr(op, "hivm.is_distributed");
}

static unsigned distributed_effect_op(MlirOperation op, void *user) {
  (void)user;
  return distributed_effect(op) ? NPUC_OP_KEEP : NPUC_OP_PASS;
}

/* Asked only of functions without store-like ops (most have some). */
static bool has_distributed_effects(MlirOperation func) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPreOrder, distributed_effect_op, NULL, &l);
  bool any = l.count > 0;
  npuc_op_list_free(&l);
  return any;
}

/* The table entry is found through the cache; only store-like ops pay
 * for the full check. Distributed side effects are guarded too. */
static unsigned store_like(MlirOperation op, void *user) {
  npuc_op_def_cache *defs = user;
  if (distributed_effect(op))
    return NPUC_OP_KEEP;
  if (has_attr(op, BOUND_ATTR)) /* already guarded by whoever bound it */
    return NPUC_OP_PASS;
  const npuc_op_def *def = npuc_op_def_of(defs, op);
  if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE))
    return NPUC_OP_PASS;
  return npuc_dim_stored_operand(defs->reg, op) < 0 ? NPUC_OP_PASS
                                                    : NPUC_OP_KEEP;
}

/* Every store-like op runs on sub-block 0 only. */
static void fall_back(MlirOperation func, const npuc_op_registry *reg) {
  npuc_op_list l = {0};
  npuc_op_def_cache defs;
  npuc_op_def_cache_init(&defs, reg);
  npuc_op_list_collect(func, MlirWalkPreOrder, store_like, &defs, &l);
  for (size_t i = 0; i < l.count; i++)
    if (mlirOperationGetNumResults(l.ops[i]) <= 1)
      guard_leaf(l.ops[i], (MlirValue){NULL}, reg);
  npuc_op_list_free(&l);
}

/* ---- the cube half when tiling is off ---------------------------------------
 */

/* annotation.mark {tiling_dim_mapping = ...} tells the cube function how the
 * vector half splits a tightly coupled value. With enable-tile=false the
 * vector half runs 1:1, so the hint is dropped (as bishengir does): the
 * attribute, and the mark when nothing else is left on it. */
static unsigned tiling_mark(MlirOperation op, void *user) {
  (void)user;
  return npuc_op_is(op, "annotation.mark") && has_attr(op, MAPPING_ATTR)
             ? NPUC_OP_KEEP
             : NPUC_OP_PASS;
}

static void drop_tiling_dim_mapping(MlirOperation func) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPreOrder, tiling_mark, NULL, &l);
  for (size_t i = 0; i < l.count; i++) {
    mlirOperationRemoveAttributeByName(
        l.ops[i], mlirStringRefCreateFromCString(MAPPING_ATTR));
    if (mlirOperationGetNumAttributes(l.ops[i]) == 0)
      mlirOperationDestroy(l.ops[i]);
  }
  npuc_op_list_free(&l);
}
