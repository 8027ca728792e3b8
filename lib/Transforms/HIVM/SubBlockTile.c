/* Tile and slice: the rewrite of one store-like leaf in 1:2 sub-block
 * tiling (hivm-bind-sub-block; docs/passes/hivm-bind-sub-block.md). Each
 * leaf stores only the half of its value one sub-block owns: marked
 * `tensor.extract_slice` / `memref.subview` of the value and of the
 * destination at %i * size/2, size size/2, which the bubble-up patterns
 * then move up; a store into a tensor is rebuilt with the half result; a
 * window store writes the part of its window inside the half. */
#include "npuc/BuildOps.h"
#include "SubBlock.h"
#include "npuc/BubbleUp.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#define MAX_RANK 16

static MlirValue half_offset(npuc_sub_block_offsets *c, int64_t half,
                             MlirValue *half_v);
static void tile_window(const npuc_dim_leaf *l, npuc_builder *b,
                        MlirValue offset, int64_t half, MlirOperation loop);
static MlirValue half_of(MlirValue v, int dim, MlirValue offset, int64_t half,
                         MlirOperation loop, MlirLocation loc);
static MlirValue part_of(npuc_builder *b, MlirValue v, int dim,
                         MlirValue offset, MlirValue size, int64_t static_size);
static void halve_result(const npuc_dim_leaf *l, MlirValue init,
                         MlirValue offset);
static bool marks_take_half(MlirValue old, MlirValue half);
static void destination_operands(MlirOperation op, const npuc_op_registry *reg,
                                 intptr_t *first, intptr_t *count);

/* Every operand of the leaf shaped like the stored value (the value, the
 * destination; offsets and mask of an indirect store, whose destination
 * stays whole) is cut to the sub-block's half: offset %i * extent/2, size
 * extent/2 (a window: tile_window). The leaf gets {tiled_op}. */
void npuc_sub_block_tile_leaf(const npuc_dim_leaf *l,
                              npuc_sub_block_offsets *offsets,
                              const npuc_op_registry *reg) {
  MlirContext ctx = mlirOperationGetContext(l->op);
  MlirValue init = {NULL}; /* the whole tensor a store with a result writes */
  if (mlirOperationGetNumResults(l->op) == 1)
    npuc_sub_block_inits(l->op, reg, &init);
  npuc_builder b = npuc_builder_before(l->op);
  MlirType vt = mlirValueGetType(l->value);
  int64_t half = l->extent / 2;
  MlirValue half_v;
  MlirValue offset = half_offset(offsets, half, &half_v);
  if (l->window) {
    offsets->tensor_slices += mlirTypeIsATensor(
        mlirValueGetType(mlirOperationGetOperand(l->slice, 0)));
    tile_window(l, &b, offset, half, offsets->top);
    mlirOperationSetDiscardableAttributeByName(
        l->op, mlirStringRefCreateFromCString("tiled_op"),
        mlirUnitAttrGet(ctx));
    return;
  }
  intptr_t dst_first = 0, dst_count = 0; /* kept whole: a scatter's */
  if (npuc_sub_block_scatters(l->op))
    destination_operands(l->op, reg, &dst_first, &dst_count);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(l->op); i++) {
    MlirValue v = mlirOperationGetOperand(l->op, i);
    if (i >= dst_first && i < dst_first + dst_count)
      continue;
    if (!npuc_sub_block_like_value(mlirValueGetType(v), vt, l->dim))
      continue;
    offsets->tensor_slices += mlirTypeIsATensor(mlirValueGetType(v));
    mlirOperationSetOperand(l->op, i,
                            half_of(v, l->dim, offset, half, offsets->top,
                                    mlirOperationGetLocation(l->op)));
  }
  mlirOperationSetDiscardableAttributeByName(
      l->op, mlirStringRefCreateFromCString("tiled_op"), mlirUnitAttrGet(ctx));
  if (mlirOperationGetNumResults(l->op) == 1)
    halve_result(l, init, offset);
}

bool npuc_sub_block_scatters(MlirOperation op) {
  return npuc_op_is(op, "hivm.hir.indirect_store");
}

/* The operands of the leaf's `dst` group. */
static void destination_operands(MlirOperation op, const npuc_op_registry *reg,
                                 intptr_t *first, intptr_t *count) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  int g = def ? npuc_op_find_operand(def, "dst") : -1;
  if (g < 0 || !npuc_operand_group(def, op, g, first, count))
    *first = *count = 0;
}

/* Is `t` shaped like the stored value type `vt` (dim d may be dynamic in
 * both: a window)? */
bool npuc_sub_block_like_value(MlirType t, MlirType vt, int d) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t) ||
      mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(vt))
    return false;
  for (intptr_t k = 0; k < mlirShapedTypeGetRank(vt); k++) {
    bool dyn = mlirShapedTypeIsDynamicDim(vt, k);
    if (dyn != mlirShapedTypeIsDynamicDim(t, k) || (dyn && k != d) ||
        (!dyn &&
         mlirShapedTypeGetDimSize(t, k) != mlirShapedTypeGetDimSize(vt, k)))
      return false;
  }
  return true;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* The type of a part of shaped type `t` with `sizes`: a tensor keeps its
 * encoding, a memref view gets a strided layout with a dynamic offset. */
static MlirType part_type(MlirType t, const int64_t *sizes) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  MlirType element = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsATensor(t))
    return mlirRankedTensorTypeGet(rank, sizes, element,
                                   mlirRankedTensorTypeGetEncoding(t));
  int64_t strides[MAX_RANK], whole_offset;
  mlirMemRefTypeGetStridesAndOffset(t, strides, &whole_offset);
  MlirAttribute layout = mlirStridedLayoutAttrGet(
      mlirTypeGetContext(t), mlirShapedTypeGetDynamicStrideOrOffset(), rank,
      strides);
  return mlirMemRefTypeGet(element, rank, sizes, layout,
                           mlirMemRefTypeGetMemorySpace(t));
}

/* Is `op` inside `loop`? */
static bool inside(MlirOperation op, MlirOperation loop) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, loop))
      return true;
  return false;
}

/* The half of `v` (part_of, static size `half`), where bishengir puts it:
 * right after the op that defines `v` inside the sub-block loop, at the
 * top of a block of the loop for its arguments, at the top of the loop's
 * body (after the offsets, made there last) for a value from outside.
 * It has the location `loc` of the leaf it is cut for. */
static MlirValue half_of(MlirValue v, int dim, MlirValue offset, int64_t half,
                         MlirOperation loop, MlirLocation loc) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  npuc_builder b = {body, mlirBlockGetFirstOperation(body), loc, {NULL}};
  if (mlirValueIsAOpResult(v) && inside(mlirOpResultGetOwner(v), loop)) {
    b.block = mlirOperationGetBlock(mlirOpResultGetOwner(v));
    b.before = mlirOperationGetNextInBlock(mlirOpResultGetOwner(v));
  } else if (mlirValueIsABlockArgument(v)) {
    MlirBlock owner = mlirBlockArgumentGetOwner(v);
    MlirOperation parent = mlirBlockGetParentOperation(owner);
    if (mlirOperationEqual(parent, loop) || inside(parent, loop)) {
      b.block = owner;
      b.before = mlirBlockGetFirstOperation(owner);
    }
  }
  return part_of(&b, v, dim, offset, (MlirValue){NULL}, half);
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
  sizes[dim] =
      mlirValueIsNull(size) ? static_size : mlirShapedTypeGetDynamicSize();
  bool tensor = mlirTypeIsATensor(t);
  MlirType part = part_type(t, sizes);
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

MlirValue npuc_sub_block_insert_half(npuc_builder *b, MlirValue half,
                                     MlirValue whole, MlirValue offset,
                                     int dim) {
  MlirType part = mlirValueGetType(half), t = mlirValueGetType(whole);
  MlirContext ctx = mlirTypeGetContext(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t sizes[MAX_RANK], offs[MAX_RANK], ones[MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) {
    sizes[d] = mlirShapedTypeGetDimSize(part, d);
    offs[d] = d == dim ? mlirShapedTypeGetDynamicSize() : 0;
    ones[d] = 1;
  }
  int32_t segments[5] = {1, 1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offs)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, ones)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segments)),
  };
  MlirValue ins[3] = {half, whole, offset};
  return mlirOperationGetResult(
      npuc_build_op(b, "tensor.insert_slice", 3, ins, 1, &t, 4, attrs), 0);
}

/* `annotation.mark` readers of the whole result `old` mark the `half`
 * instead (as bishengir's): nothing reads the whole any more, so the
 * destination's tensor is only sliced and its buffer can be narrowed.
 * Returns whether no other reader is left. */
static bool marks_take_half(MlirValue old, MlirValue half) {
  MlirOpOperand use = mlirValueGetFirstUse(old);
  bool only_marks = true;
  while (!mlirOpOperandIsNull(use)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(use);
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (npuc_op_is(user, "annotation.mark"))
      mlirOperationSetOperand(user, mlirOpOperandGetOperandNumber(use), half);
    else
      only_marks = false;
    use = next;
  }
  return only_marks;
}

/* A store into a tensor now writes half of it: the op is rebuilt with the
 * half result type, and the users of the whole result see the half
 * inserted into the whole destination (the other sub-block writes the
 * other half of the memory behind it). */
static void halve_result(const npuc_dim_leaf *l, MlirValue init,
                         MlirValue offset) {
  MlirOperation op = l->op;
  MlirValue old = mlirOperationGetResult(op, 0);
  MlirType whole = mlirValueGetType(old);
  intptr_t rank = mlirShapedTypeGetRank(whole);
  int64_t sizes[MAX_RANK];
  for (intptr_t d = 0; d < rank; d++)
    sizes[d] = mlirShapedTypeGetDimSize(whole, d) / (d == l->dim ? 2 : 1);
  MlirType part =
      mlirRankedTensorTypeGet(rank, sizes, mlirShapedTypeGetElementType(whole),
                              mlirRankedTensorTypeGetEncoding(whole));
  MlirOperationState st =
      mlirOperationStateGet(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirOperationGetLocation(op));
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
  MlirValue half = mlirOperationGetResult(tiled, 0);
  if (marks_take_half(old, half)) {
    mlirOperationDestroy(op);
    return;
  }
  npuc_builder b = npuc_builder_before(op);
  MlirValue merged = npuc_sub_block_insert_half(&b, half, init, offset, l->dim);
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
static MlirValue window_part(npuc_builder *b, MlirValue src, const ofr *offs,
                             const ofr *sizes) {
  MlirType t = mlirValueGetType(src);
  MlirContext ctx = mlirTypeGetContext(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t so[MAX_RANK], ss[MAX_RANK], ones[MAX_RANK];
  MlirValue operands[1 + 2 * MAX_RANK];
  intptr_t n = 0, noffs = 0, nsizes = 0;
  operands[n++] = src;
  for (intptr_t d = 0; d < rank; d++) {
    so[d] =
        mlirValueIsNull(offs[d].v) ? offs[d].c : mlirShapedTypeGetDynamicSize();
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
  bool tensor = mlirTypeIsATensor(t);
  MlirType part = part_type(t, ss);
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

/* Index arithmetic on offsets and sizes that folds constants and the
 * identities the window formulas meet (o = 0 in masked tails), so the
 * output stays readable without a canonicalization run. */
static bool ofr_is(ofr x, int64_t c) {
  return mlirValueIsNull(x.v) && x.c == c;
}

static bool ofr_same(ofr x, ofr y) {
  return mlirValueIsNull(x.v)
             ? mlirValueIsNull(y.v) && x.c == y.c
             : !mlirValueIsNull(y.v) && mlirValueEqual(x.v, y.v);
}

static ofr ofr_op(npuc_builder *b, MlirType index, const char *op, ofr x,
                  ofr y) {
  MlirValue v =
      npuc_build_binary(b, op, ofr_value(b, index, x), ofr_value(b, index, y));
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
static ofr ofr_minmax(npuc_builder *b, MlirType index, bool max, ofr x, ofr y,
                      bool nonneg_y) {
  if (ofr_same(x, y))
    return x;
  if (max && nonneg_y && ofr_is(x, 0))
    return y;
  if (!max && nonneg_y && ofr_is(x, 0))
    return x;
  if (mlirValueIsNull(x.v) && mlirValueIsNull(y.v))
    return (ofr){{NULL},
                 max ? (x.c > y.c ? x.c : y.c) : (x.c < y.c ? x.c : y.c)};
  return ofr_op(b, index, max ? "arith.maxsi" : "arith.minsi", x, y);
}

/* Where the window [o, o+n) meets the half [off, off+h): `at` inside the
 * half, `size` long (possibly 0). bishengir's formulas, in its order: with
 * o a static 0, at = 0 and size = min(n - min(off, n), h); otherwise
 * lo = max(o, off), hi = max(lo, min(o+n, off+h)), at = lo - off and
 * size = hi - lo. */
static void window_in_half(npuc_builder *b, MlirType index, ofr o, ofr n,
                           ofr off, ofr h, ofr *at, ofr *size) {
  if (ofr_is(o, 0)) {
    *at = o;
    ofr before = ofr_minmax(b, index, false, off, n, false);
    *size = ofr_minmax(b, index, false, ofr_sub(b, index, n, before), h, false);
    return;
  }
  ofr half_end = ofr_add(b, index, off, h);
  ofr end = ofr_add(b, index, o, n);
  ofr lo = ofr_minmax(b, index, true, o, off, false);
  ofr hi = ofr_minmax(b, index, true, lo,
                      ofr_minmax(b, index, false, end, half_end, false), false);
  *size = ofr_sub(b, index, hi, lo);
  *at = ofr_sub(b, index, lo, off);
}

static void tile_window_apart(const npuc_dim_leaf *l, npuc_builder *b,
                              MlirValue offset, int64_t half,
                              MlirOperation loop, ofr *offs, ofr *sizes,
                              ofr *to, ofr *to_sizes);
static void store_window_parts(const npuc_dim_leaf *l, npuc_builder *b,
                               MlirValue x, const ofr *offs, const ofr *sizes,
                               MlirValue dst, const ofr *to,
                               const ofr *to_sizes);

/* A window store: `tensor.extract_slice %x[o][n]` stored into
 * `memref.subview %d[o2][n]`. When both windows sit at the same place of
 * sources of the same extent (o2 is o), both sources are halved (marked:
 * the halves bubble up) and the store writes the part of the window inside
 * the half, from and to the same place of each half (window_in_half), as
 * bishengir does. Otherwise tile_window_apart. */
static void tile_window(const npuc_dim_leaf *l, npuc_builder *b,
                        MlirValue offset, int64_t half, MlirOperation loop) {
  MlirType index = mlirValueGetType(offset);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(l->value));
  ofr offs[MAX_RANK], sizes[MAX_RANK], to[MAX_RANK], to_sizes[MAX_RANK];
  read_window(l->slice, rank, offs, sizes);
  read_window(l->view, rank, to, to_sizes);
  int d = l->dim;
  MlirValue dst = mlirOperationGetOperand(l->view, 0);
  MlirType dt = mlirValueGetType(dst);
  if (!ofr_same(offs[d], to[d]) || mlirShapedTypeIsDynamicDim(dt, d) ||
      mlirShapedTypeGetDimSize(dt, d) != l->extent) {
    tile_window_apart(l, b, offset, half, loop, offs, sizes, to, to_sizes);
    return;
  }
  MlirValue x = half_of(mlirOperationGetOperand(l->slice, 0), d, offset, half,
                        loop, mlirOperationGetLocation(l->op));
  MlirValue dh =
      half_of(dst, d, offset, half, loop, mlirOperationGetLocation(l->op));
  window_in_half(b, index, offs[d], sizes[d], (ofr){offset, 0},
                 (ofr){{NULL}, half}, &offs[d], &sizes[d]);
  to[d] = offs[d];
  to_sizes[d] = sizes[d];
  store_window_parts(l, b, x, offs, sizes, dh, to, to_sizes);
}

/* The leaf stores the part of `x` at `offs`/`sizes` into the part of `dst`
 * at `to`/`to_sizes`, in place of its window's value and view. */
static void store_window_parts(const npuc_dim_leaf *l, npuc_builder *b,
                               MlirValue x, const ofr *offs, const ofr *sizes,
                               MlirValue dst, const ofr *to,
                               const ofr *to_sizes) {
  MlirValue value = mlirOperationGetResult(l->slice, 0);
  MlirValue view = mlirOperationGetResult(l->view, 0);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(l->op); i++) {
    MlirValue v = mlirOperationGetOperand(l->op, i);
    if (mlirValueEqual(v, value))
      mlirOperationSetOperand(l->op, i, window_part(b, x, offs, sizes));
    else if (mlirValueEqual(v, view))
      mlirOperationSetOperand(l->op, i, window_part(b, dst, to, to_sizes));
  }
}

/* Windows at different places (o2 is not o), or a destination of another
 * extent: the half of the whole %x is taken (marked), and the store
 * writes the part of the window [o, o+n) inside the half [off, off+h):
 * lo = max(o, off), hi = max(lo, min(o+n, off+h)); from the half at
 * min(lo - off, h), into %d at o2 + (lo - o), hi - lo long. The windows
 * are tile_window's, read there. */
static void tile_window_apart(const npuc_dim_leaf *l, npuc_builder *b,
                              MlirValue offset, int64_t half,
                              MlirOperation loop, ofr *offs, ofr *sizes,
                              ofr *to, ofr *to_sizes) {
  MlirType index = mlirValueGetType(offset);
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
  MlirValue x = half_of(mlirOperationGetOperand(l->slice, 0), d, offset, half,
                        loop, mlirOperationGetLocation(l->op));
  store_window_parts(l, b, x, offs, sizes, mlirOperationGetOperand(l->view, 0),
                     to, to_sizes);
}

/* The offset %i * half of this half size, made once in front of the loop
 * (`c->top`) and shared (see npuc_sub_block_offsets); `half_v` is the
 * constant. */
static MlirValue half_offset(npuc_sub_block_offsets *c, int64_t half,
                             MlirValue *half_v) {
  MlirType index = mlirValueGetType(c->sub_block);
  for (int i = 0; i < c->count; i++)
    if (c->half[i] == half) {
      *half_v = mlirOperationGetOperand(mlirOpResultGetOwner(c->offset[i]), 1);
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

/* The inits the results of a destination-style op mirror. */
void npuc_sub_block_inits(MlirOperation op, const npuc_op_registry *reg,
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
