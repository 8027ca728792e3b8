/* The cube side of the 1:2 sub-block split (hivm-bind-sub-block run on a
 * module; docs/passes/hivm-bind-sub-block.md, "The cube side"). The cube
 * (AIC) function's fixpipe writes its result into a UB buffer both vector
 * sub-blocks read (the tightly coupled buffer, paired across the functions
 * by its `hivm.tightly_coupled_buffer<id>` mark). When the vector (AIV)
 * function was cut along an axis of that buffer, the fixpipe gets
 * `dual_dst_mode = <ROW_SPLIT>` or `<COLUMN_SPLIT>`: each sub-block's UB
 * then receives only its half, at offset 0 of a buffer of half the size.
 * So the buffer is halved on both sides: in the AIC function with its
 * views, in the AIV function where the half is put back at the sub-block's
 * offset of a whole-size tensor, which the halves tiling cut read from.
 *
 * A fixpipe with no split for the axis (neither rows nor columns of its
 * destination) is left alone, as bishengir's pattern does not apply: it
 * writes the whole result into both sub-blocks' UB, which the AIV split
 * reads right. One that cannot take its split (a size the dual destination
 * cannot halve, views or reads that cannot follow) changes nothing here,
 * and the caller restores the AIV functions and falls back, as bishengir. */
#include "SubBlock.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/MlirSupport.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 16
#define MAX_VIEWS 32

static MlirAttribute attr_of(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/* The ops reading a tightly coupled buffer, found from its alloc through
 * casts and subviews. */
typedef struct {
  MlirOperation views[MAX_VIEWS]; /* in def order: each reads an earlier */
  MlirOperation fixpipes[MAX_VIEWS], reads[MAX_VIEWS];
  int num_views, num_fixpipes, num_reads;
} buffer_uses;

static bool is_view(MlirOperation op) {
  return npuc_op_is(op, "memref.memory_space_cast") ||
         npuc_op_is(op, "memref.subview");
}

/* Sorts the users of `v` into views, fixpipes writing it, to_tensor reads
 * and marks; false on any other user or too many. */
static bool collect_uses(MlirValue v, buffer_uses *u) {
  for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    MlirOperation op = mlirOpOperandGetOwner(use);
    unsigned at = mlirOpOperandGetOperandNumber(use);
    if (npuc_op_is(op, "annotation.mark"))
      continue;
    if (u->num_views == MAX_VIEWS || u->num_fixpipes == MAX_VIEWS ||
        u->num_reads == MAX_VIEWS)
      return false;
    if (is_view(op) && at == 0) {
      u->views[u->num_views++] = op;
      if (!collect_uses(mlirOperationGetResult(op, 0), u))
        return false;
    } else if (npuc_op_is(op, "hivm.hir.fixpipe") && at == 1) {
      u->fixpipes[u->num_fixpipes++] = op;
    } else if (npuc_op_is(op, "bufferization.to_tensor")) {
      u->reads[u->num_reads++] = op;
    } else {
      return false;
    }
  }
  return true;
}

static bool static_shape(MlirType t, int64_t *shape, int *rank) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) > MAX_RANK)
    return false;
  *rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < *rank; i++)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  return true;
}

/* The tightly coupled UB buffer a mark is on: a statically shaped
 * memref.alloc in UB. */
static MlirValue ub_alloc(MlirOperation mark, int64_t *shape, int *rank) {
  MlirValue v = mlirOperationGetOperand(mark, 0);
  MlirType t = mlirValueGetType(v);
  if (!mlirValueIsAOpResult(v) ||
      !npuc_op_is(mlirOpResultGetOwner(v), "memref.alloc") ||
      !static_shape(t, shape, rank) || !npuc_dim_ub_memref(t))
    return (MlirValue){NULL};
  return v;
}

/* bishengir's rule for the dual destination of a fixpipe writing a buffer
 * of `rank` cut along `dim`: ROW_SPLIT (rows M to one sub-block each) or
 * COLUMN_SPLIT, and the multiple the cut size must be of; NULL when the
 * axis is not one the fixpipe can split. The layout decides: nz2nd writes
 * [.., M, N], nz2dn [.., N, M], a fractal destination (nz2nz, the default)
 * [N1, M1, 16, 16] split by blocks. */
static const char *split_mode(MlirOperation fixpipe, int rank, int dim,
                              int64_t *multiple) {
  MlirAttribute dma = attr_of(fixpipe, "dma_mode");
  bool dn = npuc_opaque_attr_contains(dma, "nz2dn");
  bool fractal =
      mlirAttributeIsNull(dma) || npuc_opaque_attr_contains(dma, "nz2nz");
  bool row = dim == rank - 2, column = dim == rank - 1;
  if (fractal && (dim == 0 || dim == 1)) {
    *multiple = 2;
    return dim == rank - 4 ? "COLUMN_SPLIT" : "ROW_SPLIT";
  }
  if (!row && !column)
    return NULL;
  if (dn)
    row = !row;
  *multiple = row ? 2 : 32;
  return row ? "ROW_SPLIT" : "COLUMN_SPLIT";
}

/* The dims of a subview's source its result keeps (a rank-reducing subview
 * drops unit dims), as MLIR matches them; false if they do not match. */
static bool kept_dims(const int64_t *sizes, int rank, MlirType result,
                      bool *kept) {
  int r = (int)mlirShapedTypeGetRank(result), j = 0;
  for (int i = 0; i < rank; i++) {
    kept[i] = j < r && mlirShapedTypeGetDimSize(result, j) == sizes[i];
    if (kept[i])
      j++;
    else if (sizes[i] != 1)
      return false;
  }
  return j == r;
}

/* Can the view be halved along source dim `dim`: a cast, or a subview
 * taking the whole dim at 0 with unit strides? The dim of the result is
 * returned in `*out_dim` (-1: dropped). */
static bool view_halvable(MlirOperation view, int dim, int *out_dim) {
  if (npuc_op_is(view, "memref.memory_space_cast")) {
    *out_dim = dim;
    return true;
  }
  MlirType src = mlirValueGetType(mlirOperationGetOperand(view, 0));
  MlirAttribute offs = attr_of(view, "static_offsets"),
                sizes = attr_of(view, "static_sizes"),
                strides = attr_of(view, "static_strides");
  int rank = (int)mlirShapedTypeGetRank(src);
  if (mlirAttributeIsNull(sizes) || rank > MAX_RANK ||
      mlirDenseArrayGetNumElements(sizes) != rank)
    return false;
  int64_t s[MAX_RANK], strides_of_src[MAX_RANK], offset;
  bool kept[MAX_RANK];
  if (mlirLogicalResultIsFailure(
          mlirMemRefTypeGetStridesAndOffset(src, strides_of_src, &offset)))
    return false; /* halve_subview needs the source's strides */
  for (int i = 0; i < rank; i++) {
    s[i] = mlirDenseI64ArrayGetElement(sizes, i);
    if (mlirDenseI64ArrayGetElement(strides, i) != 1)
      return false;
  }
  if (s[dim] != mlirShapedTypeGetDimSize(src, dim) ||
      mlirDenseI64ArrayGetElement(offs, dim) != 0 ||
      !kept_dims(s, rank, mlirValueGetType(mlirOperationGetResult(view, 0)),
                 kept) ||
      !kept[dim])
    return false;
  *out_dim = 0;
  for (int i = 0; i < dim; i++)
    *out_dim += kept[i];
  return true;
}

/* A read of the buffer in the AIC function (bishengir's preload reads the
 * fixpipe's destination back for a mark): each use is a mark, or the yield
 * of an scf.if whose results only marks read. */
static bool read_detachable(MlirOperation read) {
  for (MlirOpOperand use =
           mlirValueGetFirstUse(mlirOperationGetResult(read, 0));
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation op = mlirOpOperandGetOwner(use);
    if (npuc_op_is(op, "annotation.mark"))
      continue;
    MlirOperation parent = mlirOperationGetParentOperation(op);
    if (!npuc_op_is(op, "scf.yield") || !npuc_op_is(parent, "scf.if"))
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumResults(parent); i++)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(parent, i));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        if (!npuc_op_is(mlirOpOperandGetOwner(u), "annotation.mark"))
          return false;
  }
  return true;
}

static MlirType memref_like(MlirType old, const int64_t *shape, int rank,
                            MlirAttribute layout) {
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(old), rank, shape,
                           layout, mlirMemRefTypeGetMemorySpace(old));
}

static void halve_value(MlirValue v, int dim) {
  MlirType t = mlirValueGetType(v);
  int64_t shape[MAX_RANK];
  int rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < rank; i++)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  shape[dim] /= 2;
  if (mlirTypeIsAMemRef(t))
    mlirValueSetType(v,
                     memref_like(t, shape, rank, mlirMemRefTypeGetLayout(t)));
  else
    mlirValueSetType(
        v, mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(t),
                                   mlirRankedTensorTypeGetEncoding(t)));
}

/* The subview's sizes and result type after its source was halved along
 * `dim`: the kept dims' sizes and strides of the new source, and the
 * offset (dynamic unless the source's and the view's offsets are
 * static). */
static void halve_subview(MlirOperation view, int dim) {
  MlirContext ctx = mlirOperationGetContext(view);
  MlirType src = mlirValueGetType(mlirOperationGetOperand(view, 0));
  MlirValue res = mlirOperationGetResult(view, 0);
  MlirType old = mlirValueGetType(res);
  MlirAttribute sizes_attr = attr_of(view, "static_sizes"),
                offs_attr = attr_of(view, "static_offsets");
  int rank = (int)mlirShapedTypeGetRank(src), r = 0;
  int64_t sizes[MAX_RANK], strides[MAX_RANK], shape[MAX_RANK],
      kept_strides[MAX_RANK], offset;
  bool kept[MAX_RANK];
  for (int i = 0; i < rank; i++)
    sizes[i] = mlirDenseI64ArrayGetElement(sizes_attr, i);
  kept_dims(sizes, rank, old, kept);
  sizes[dim] /= 2;
  mlirMemRefTypeGetStridesAndOffset(src, strides, &offset);
  int64_t dynamic = mlirShapedTypeGetDynamicStrideOrOffset();
  for (int i = 0; i < rank; i++) {
    int64_t o = mlirDenseI64ArrayGetElement(offs_attr, i);
    if (offset != dynamic)
      offset = mlirShapedTypeIsDynamicStrideOrOffset(o)
                   ? dynamic
                   : offset + o * strides[i];
    if (kept[i]) {
      shape[r] = sizes[i];
      kept_strides[r++] = strides[i];
    }
  }
  MlirAttribute layout = mlirStridedLayoutAttrGet(ctx, offset, r, kept_strides);
  mlirOperationSetAttributeByName(
      view, mlirStringRefCreateFromCString("static_sizes"),
      mlirDenseI64ArrayGet(ctx, rank, sizes));
  mlirValueSetType(res, memref_like(old, shape, r, layout));
}

static MlirValue empty_before(MlirOperation op, MlirType t) {
  npuc_builder b = npuc_builder_before(op);
  return mlirOperationGetResult(
      npuc_build_op(&b, "tensor.empty", 0, NULL, 1, &t, 0, NULL), 0);
}

/* Every user of `v` (a mark) reads a tensor.empty of its type instead. */
static void mark_empty(MlirValue v) {
  for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use);
       use = mlirValueGetFirstUse(v)) {
    MlirOperation op = mlirOpOperandGetOwner(use);
    mlirOperationSetOperand(op, mlirOpOperandGetOperandNumber(use),
                            empty_before(op, mlirValueGetType(v)));
  }
}

/* The read-backs go: the marks they fed mark a tensor.empty of their type
 * (the AIC function never reads the values, as bishengir's detaching of
 * the preload's read does), and the reads, the scf.ifs and the views left
 * without users are erased. */
static void detach_reads(buffer_uses *u) {
  for (int k = 0; k < u->num_reads; k++) {
    MlirValue t = mlirOperationGetResult(u->reads[k], 0);
    for (MlirOpOperand use = mlirValueGetFirstUse(t); !mlirOpOperandIsNull(use);
         use = mlirValueGetFirstUse(t)) {
      MlirOperation op = mlirOpOperandGetOwner(use);
      if (!npuc_op_is(op, "scf.yield")) {
        mlirOperationSetOperand(op, mlirOpOperandGetOperandNumber(use),
                                empty_before(op, mlirValueGetType(t)));
        continue;
      }
      MlirOperation parent = mlirOperationGetParentOperation(op);
      for (intptr_t i = 0; i < mlirOperationGetNumResults(parent); i++)
        mark_empty(mlirOperationGetResult(parent, i));
      mlirOperationDestroy(parent); /* read_detachable: an scf.if */
    }
    mlirOperationDestroy(u->reads[k]);
  }
  for (int k = u->num_views; k-- > 0;)
    if (npuc_op_results_unused(u->views[k]))
      mlirOperationDestroy(u->views[k]);
}

static void mark_tiled(MlirOperation mark, int dim) {
  MlirContext ctx = mlirOperationGetContext(mark);
  mlirOperationSetAttributeByName(
      mark, mlirStringRefCreateFromCString("hivm.tiling_dim"),
      mlirIntegerAttrGet(mlirIndexTypeGet(ctx), dim));
  mlirOperationSetAttributeByName(
      mark, mlirStringRefCreateFromCString("tiledAlloc"), mlirUnitAttrGet(ctx));
}

/* What the cube side does with one buffer: nothing (no fixpipe writes it,
 * or its dual destination is set already: as bishengir, whose pattern then
 * does not apply), the split, or it fails (bishengir's tiling failure: every
 * AIV function falls back). A fixpipe with no split for the axis (e.g. an
 * outer batch dim) fails too, where bishengir keeps the AIV split: its
 * NO_DUAL write fills one sub-block's UB only, so the other would read a
 * buffer nobody wrote. */
typedef enum { CUBE_SKIP, CUBE_SPLIT, CUBE_FAIL } cube_plan;

/* The fixpipes' modes, when every fixpipe into the buffer can take the
 * split along `dim` and every read can be detached. */
static cube_plan plan_cube(MlirValue alloc, const int64_t *shape, int rank,
                           int dim, buffer_uses *u, const char **modes) {
  if (!collect_uses(alloc, u))
    return CUBE_FAIL;
  if (u->num_fixpipes == 0)
    return CUBE_SKIP;
  for (int k = 0; k < u->num_fixpipes; k++) {
    int64_t multiple = 1;
    MlirAttribute dual = attr_of(u->fixpipes[k], "dual_dst_mode");
    if (!mlirAttributeIsNull(dual) &&
        !npuc_opaque_attr_contains(dual, "NO_DUAL"))
      return CUBE_SKIP;
    modes[k] = split_mode(u->fixpipes[k], rank, dim, &multiple);
    if (!modes[k] || shape[dim] % multiple != 0)
      return CUBE_FAIL;
  }
  for (int k = 0; k < u->num_reads; k++)
    if (!read_detachable(u->reads[k]))
      return CUBE_FAIL;
  return CUBE_SPLIT;
}

/* The dim the cut follows in each view's source (`in`) and result
 * (`out`), by view; false if a view cannot follow. */
static bool plan_views(const buffer_uses *u, MlirValue alloc, int dim, int *in,
                       int *out) {
  for (int k = 0; k < u->num_views; k++) {
    MlirValue src = mlirOperationGetOperand(u->views[k], 0);
    in[k] = mlirValueEqual(src, alloc) ? dim : -1;
    for (int j = 0; j < k; j++) /* collect_uses: sources come first */
      if (mlirValueEqual(src, mlirOperationGetResult(u->views[j], 0)))
        in[k] = out[j];
    if (in[k] < 0 || !view_halvable(u->views[k], in[k], &out[k]))
      return false;
  }
  return true;
}

static void split_cube_buffer(MlirOperation mark, MlirValue alloc, int dim,
                              buffer_uses *u, const char **modes, const int *in,
                              const int *out) {
  MlirContext ctx = mlirOperationGetContext(mark);
  halve_value(alloc, dim);
  for (int k = 0; k < u->num_views; k++) {
    if (npuc_op_is(u->views[k], "memref.subview"))
      halve_subview(u->views[k], in[k]);
    else
      halve_value(mlirOperationGetResult(u->views[k], 0), out[k]);
  }
  for (int k = 0; k < u->num_fixpipes; k++) {
    char text[64];
    snprintf(text, sizeof text, "#hivm.fixpipe_dual_dst_mode<%s>", modes[k]);
    mlirOperationSetAttributeByName(
        u->fixpipes[k], mlirStringRefCreateFromCString("dual_dst_mode"),
        mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text)));
  }
  mark_tiled(mark, dim);
  detach_reads(u);
}

/* ---- the AIV side ------------------------------------------------------ */

/* The sub-block loop's induction variable around `op`. */
static MlirValue sub_block_index(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (npuc_op_is(p, "scf.for") &&
        !mlirAttributeIsNull(attr_of(p, SUB_BLOCK_LOOP_MARK)))
      return mlirBlockGetArgument(
          mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0)), 0);
  return (MlirValue){NULL};
}

/* The AIV function's reads of the buffer can follow when the alloc is read
 * only through casts and to_tensor inside the sub-block loop. */
static bool plan_vector(MlirValue alloc, buffer_uses *u) {
  if (!collect_uses(alloc, u) || u->num_fixpipes > 0 || u->num_reads == 0)
    return false;
  for (int k = 0; k < u->num_views; k++)
    if (!npuc_op_is(u->views[k], "memref.memory_space_cast"))
      return false;
  for (int k = 0; k < u->num_reads; k++)
    if (mlirValueIsNull(sub_block_index(u->reads[k])))
      return false;
  return true;
}

/* The buffer holds the sub-block's half at 0; each read becomes the half
 * put back at the sub-block's offset of a whole-size tensor (the other
 * half, which this sub-block's halves never read, left empty). */
static void split_vector_buffer(MlirOperation mark, MlirValue alloc, int dim,
                                buffer_uses *u) {
  MlirContext ctx = mlirOperationGetContext(mark);
  halve_value(alloc, dim);
  for (int k = 0; k < u->num_views; k++)
    halve_value(mlirOperationGetResult(u->views[k], 0), dim);
  for (int k = 0; k < u->num_reads; k++) {
    MlirValue half = mlirOperationGetResult(u->reads[k], 0);
    MlirType whole = mlirValueGetType(half);
    MlirValue sb = sub_block_index(u->reads[k]);
    halve_value(half, dim);
    npuc_builder b =
        npuc_builder_before(mlirOperationGetNextInBlock(u->reads[k]));
    MlirValue empty = mlirOperationGetResult(
        npuc_build_op(&b, "tensor.empty", 0, NULL, 1, &whole, 0, NULL), 0);
    MlirValue at = npuc_build_binary(
        &b, "arith.muli", sb,
        npuc_build_int_constant(
            &b, mlirIndexTypeGet(ctx),
            mlirShapedTypeGetDimSize(mlirValueGetType(half), dim)));
    MlirValue put = npuc_sub_block_insert_half(&b, half, empty, at, dim);
    MlirOperation put_op = mlirOpResultGetOwner(put);
    mlirValueReplaceAllUsesExcept(half, put, 1, &put_op);
  }
  mark_tiled(mark, dim);
}

/* ---- pairing ------------------------------------------------------------ */

/* The marked buffer of `id` in `func` (the first mark), or null. */
static MlirOperation find_mark(MlirOperation func, int64_t id) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPreOrder, NULL, NULL, &l);
  MlirOperation found = {NULL};
  for (size_t i = 0; i < l.count && mlirOperationIsNull(found); i++)
    if (npuc_dim_tcb_id(l.ops[i]) == id)
      found = l.ops[i];
  npuc_op_list_free(&l);
  return found;
}

/* One buffer to split: both functions' marks and allocs, and the plan. */
typedef struct {
  MlirOperation mark, vmark;
  MlirValue alloc, valloc;
  int dim;
  buffer_uses cube, vector;
  const char *modes[MAX_VIEWS];
  int in[MAX_VIEWS], out[MAX_VIEWS];
} buffer_split;

/* The plan for the buffer of `t` in `aic`. */
static cube_plan plan(MlirOperation aic, const npuc_sub_block_tcb *t,
                      buffer_split *b) {
  int64_t shape[MAX_RANK], vshape[MAX_RANK];
  int rank, vrank;
  *b = (buffer_split){.dim = t->dim};
  b->mark = find_mark(aic, t->id);
  b->vmark = find_mark(t->aiv, t->id);
  if (mlirOperationIsNull(b->mark) || mlirOperationIsNull(b->vmark))
    return CUBE_SKIP;
  b->alloc = ub_alloc(b->mark, shape, &rank);
  MlirValue v = mlirOperationGetOperand(b->vmark, 0);
  if (mlirValueIsNull(b->alloc) || t->dim >= rank)
    return CUBE_SKIP;
  cube_plan p = plan_cube(b->alloc, shape, rank, t->dim, &b->cube, b->modes);
  if (p != CUBE_SPLIT)
    return p;
  /* The AIV side must follow, or neither may split. */
  if (!mlirValueIsAOpResult(v) ||
      !npuc_op_is(mlirOpResultGetOwner(v), "memref.alloc") ||
      !static_shape(mlirValueGetType(v), vshape, &vrank) || vrank != rank ||
      memcmp(shape, vshape, (size_t)rank * sizeof *shape) != 0 ||
      !plan_views(&b->cube, b->alloc, t->dim, b->in, b->out) ||
      !plan_vector(v, &b->vector))
    return CUBE_FAIL;
  b->valloc = v;
  return CUBE_SPLIT;
}

int npuc_sub_block_split_cube(const MlirOperation *aics, size_t num_aics,
                              const npuc_sub_block_tcb *tcbs, size_t n) {
  if (n == 0 || num_aics == 0 || num_aics > SIZE_MAX / n)
    return 0;
  size_t count = 0;
  buffer_split *plans = npuc_xcalloc(num_aics * n, sizeof *plans);
  int result = 0;
  for (size_t a = 0; a < num_aics && result >= 0; a++)
    for (size_t i = 0; i < n && result >= 0; i++) {
      cube_plan p = plan(aics[a], &tcbs[i], &plans[count]);
      if (p == CUBE_FAIL)
        result = -1;
      else if (p == CUBE_SPLIT)
        count++;
    }
  for (size_t k = 0; result >= 0 && k < count; k++) {
    buffer_split *b = &plans[k];
    split_cube_buffer(b->mark, b->alloc, b->dim, &b->cube, b->modes, b->in,
                      b->out);
    split_vector_buffer(b->vmark, b->valloc, b->dim, &b->vector);
    result = 1;
  }
  free(plans);
  return result;
}
