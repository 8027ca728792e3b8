/* memref, tensor and bufferization ops. A tensor value is a buffer that no
 * op writes after producing it: slices are views, and every op that
 * "modifies" a tensor (insert, insert_slice) works on a fresh copy. */
#include "npuc/CEmit.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool emit_alloc(emitter *em, MlirOperation op);
static bool emit_slice(emitter *em, MlirOperation op, bool insert);
static bool emit_reinterpret(emitter *em, MlirOperation op);
static bool emit_access(emitter *em, MlirOperation op, const char *name);
static bool emit_reshape(emitter *em, MlirOperation op, bool expand);
static bool emit_byte_view(emitter *em, MlirOperation op, bool workspace);

bool npuc_em_buffer_op(emitter *em, MlirOperation op, const char *name) {
  if (npuc_em_name_is(name, "memref.alloc") ||
      npuc_em_name_is(name, "memref.alloca") ||
      npuc_em_name_is(name, "tensor.empty"))
    return emit_alloc(em, op);
  if (npuc_em_name_is(name, "memref.subview") ||
      npuc_em_name_is(name, "tensor.extract_slice"))
    return emit_slice(em, op, false);
  if (npuc_em_name_is(name, "tensor.insert_slice"))
    return emit_slice(em, op, true);
  if (npuc_em_name_is(name, "memref.reinterpret_cast"))
    return emit_reinterpret(em, op);
  if (npuc_em_name_is(name, "tensor.expand_shape") ||
      npuc_em_name_is(name, "memref.expand_shape"))
    return emit_reshape(em, op, true);
  if (npuc_em_name_is(name, "tensor.collapse_shape") ||
      npuc_em_name_is(name, "memref.collapse_shape"))
    return emit_reshape(em, op, false);
  if (npuc_em_name_is(name, "memref.view"))
    return emit_byte_view(em, op, false);
  if (npuc_em_name_is(name, "memref_ext.alloc_workspace"))
    return emit_byte_view(em, op, true);
  return emit_access(em, op, name);
}

/* ---- helpers ------------------------------------------------------------ */

static const char *operand(emitter *em, MlirOperation op, intptr_t i) {
  return npuc_em_name(em, mlirOperationGetOperand(op, i));
}

static MlirType result_type(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

/* "{a, b}" from a static array attribute whose dynamic entries take the
 * op's operands in order from *next. */
static void mixed_list(emitter *em, npuc_sb *sb, MlirOperation op,
                       MlirAttribute statics, intptr_t *next) {
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  intptr_t n = mlirDenseArrayGetNumElements(statics);
  npuc_sb_printf(sb, "{");
  for (intptr_t i = 0; i < n; ++i) {
    int64_t v = mlirDenseI64ArrayGetElement(statics, i);
    if (v == dyn)
      npuc_sb_printf(sb, "%s%s", i ? ", " : "", operand(em, op, (*next)++));
    else
      npuc_sb_printf(sb, "%s%lldLL", i ? ", " : "", (long long)v);
  }
  npuc_sb_printf(sb, "%s}", n ? "" : "0");
}

/* Sizes of a shaped type; dynamic ones take operands from *next. */
static void type_sizes(emitter *em, npuc_sb *sb, MlirOperation op, MlirType t,
                       intptr_t *next) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  npuc_sb_printf(sb, "{");
  for (intptr_t d = 0; d < rank; ++d) {
    if (mlirShapedTypeIsDynamicDim(t, d))
      npuc_sb_printf(sb, "%s%s", d ? ", " : "", operand(em, op, (*next)++));
    else
      npuc_sb_printf(sb, "%s%lldLL", d ? ", " : "",
                     (long long)mlirShapedTypeGetDimSize(t, d));
  }
  npuc_sb_printf(sb, "%s}", rank ? "" : "0");
}

/* Which source dimensions a rank-reducing slice drops: unit dimensions,
 * matched greedily as MLIR does. */
static bool dropped_mask(MlirAttribute static_sizes, MlirType reduced,
                         uint32_t *mask) {
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  intptr_t n = mlirDenseArrayGetNumElements(static_sizes);
  intptr_t rank = mlirShapedTypeGetRank(reduced), j = 0;
  *mask = 0;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t s = mlirDenseI64ArrayGetElement(static_sizes, i);
    int64_t r = j < rank ? mlirShapedTypeGetDimSize(reduced, j) : -2;
    bool fits = j < rank &&
                (s == dyn || mlirShapedTypeIsDynamicDim(reduced, j) || s == r);
    if (fits && !(s == 1 && n - i > rank - j && r != 1)) {
      ++j;
    } else if (s == 1) {
      *mask |= 1u << i;
    } else {
      return false;
    }
  }
  return j == rank;
}

static bool dtype_of(emitter *em, MlirOperation op, MlirType t, int *dt) {
  if (npuc_em_dtype(t, dt))
    return true;
  npuc_em_error(em, op, "element type not supported by --target=%s",
                npuc_em_target(em));
  return false;
}

/* ---- ops --------------------------------------------------------------------
 */

static bool emit_alloc(emitter *em, MlirOperation op) {
  MlirType t = result_type(op);
  int dt;
  if (!dtype_of(em, op, t, &dt))
    return true;
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  intptr_t next = 0;
  npuc_sb sizes = {0};
  type_sizes(em, &sizes, op, t, &next);
  npuc_em_line(
      em, "npuc_buf %s = npuc_rt_alloc(%s, %zd, (const int64_t[])%s, %s);",
      npuc_em_define(em, mlirOperationGetResult(op, 0)), npuc_em_dtype_name(dt),
      (ssize_t)mlirShapedTypeGetRank(t), sizes.data, loc);
  npuc_sb_free(&sizes);
  return true;
}

/* subview / extract_slice: a view. insert_slice: a copy of the destination
 * with the source written into the slice. */
static bool emit_slice(emitter *em, MlirOperation op, bool insert) {
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  MlirAttribute sizes_attr = npuc_em_attr(op, "static_sizes");
  MlirType reduced = insert ? mlirValueGetType(mlirOperationGetOperand(op, 0))
                            : result_type(op);
  uint32_t mask;
  if (!dropped_mask(sizes_attr, reduced, &mask)) {
    npuc_em_error(em, op, "cannot match the slice's rank reduction");
    return true;
  }
  intptr_t next = insert ? 2 : 1;
  npuc_sb off = {0}, sz = {0}, st = {0};
  mixed_list(em, &off, op, npuc_em_attr(op, "static_offsets"), &next);
  mixed_list(em, &sz, op, sizes_attr, &next);
  mixed_list(em, &st, op, npuc_em_attr(op, "static_strides"), &next);
  const char *r = npuc_em_define(em, mlirOperationGetResult(op, 0));
  intptr_t rank = mlirShapedTypeGetRank(reduced);
  if (!insert) {
    npuc_em_line(em,
                 "npuc_buf %s = npuc_rt_subview(&%s, (const int64_t[])%s, "
                 "(const int64_t[])%s, (const int64_t[])%s, %zd, 0x%xu, %s);",
                 r, operand(em, op, 0), off.data, sz.data, st.data,
                 (ssize_t)rank, mask, loc);
  } else {
    npuc_em_line(em, "npuc_buf %s = npuc_rt_clone(&%s, %s);", r,
                 operand(em, op, 1), loc);
    npuc_em_line(em, "{");
    npuc_em_line(em,
                 "  npuc_buf slot = npuc_rt_subview(&%s, (const int64_t[])%s, "
                 "(const int64_t[])%s, (const int64_t[])%s, %zd, 0x%xu, %s);",
                 r, off.data, sz.data, st.data, (ssize_t)rank, mask, loc);
    npuc_em_line(em, "  npuc_rt_copy(&slot, &%s, %s);", operand(em, op, 0),
                 loc);
    npuc_em_line(em, "}");
  }
  npuc_sb_free(&off);
  npuc_sb_free(&sz);
  npuc_sb_free(&st);
  return true;
}

static bool emit_reinterpret(emitter *em, MlirOperation op) {
  intptr_t next = 1;
  npuc_sb off = {0}, sz = {0}, st = {0};
  mixed_list(em, &off, op, npuc_em_attr(op, "static_offsets"), &next);
  mixed_list(em, &sz, op, npuc_em_attr(op, "static_sizes"), &next);
  mixed_list(em, &st, op, npuc_em_attr(op, "static_strides"), &next);
  const char *r = npuc_em_define(em, mlirOperationGetResult(op, 0));
  npuc_em_line(
      em,
      "npuc_buf %s = npuc_rt_reinterpret(&%s, ((const int64_t[])%s)[0], "
      "%zd, (const int64_t[])%s, (const int64_t[])%s);",
      r, operand(em, op, 0), off.data,
      (ssize_t)mlirShapedTypeGetRank(result_type(op)), sz.data, st.data);
  npuc_sb_free(&off);
  npuc_sb_free(&sz);
  npuc_sb_free(&st);
  return true;
}

/* expand_shape takes its result sizes from the result type and output_shape
 * operands; collapse_shape multiplies the source sizes of each group. */
static bool emit_reshape(emitter *em, MlirOperation op, bool expand) {
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  MlirType t = result_type(op);
  intptr_t rank = mlirShapedTypeGetRank(t);
  const char *src = operand(em, op, 0);
  npuc_sb sizes = {0};
  if (expand) {
    intptr_t next = 1;
    type_sizes(em, &sizes, op, t, &next);
  } else {
    MlirAttribute groups = npuc_em_attr(op, "reassociation");
    npuc_sb_printf(&sizes, "{");
    for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); ++g) {
      MlirAttribute dims = mlirArrayAttrGetElement(groups, g);
      npuc_sb_printf(&sizes, "%s1", g ? ", " : "");
      for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(dims); ++k)
        npuc_sb_printf(&sizes, " * %s.sizes[%lld]", src,
                       (long long)mlirIntegerAttrGetValueInt(
                           mlirArrayAttrGetElement(dims, k)));
    }
    npuc_sb_printf(&sizes, "%s}", rank ? "" : "0");
  }
  npuc_em_line(
      em, "npuc_buf %s = npuc_rt_reshape(&%s, %zd, (const int64_t[])%s, %s);",
      npuc_em_define(em, mlirOperationGetResult(op, 0)), src, (ssize_t)rank,
      sizes.data, loc);
  npuc_sb_free(&sizes);
  return true;
}

/* memref.view %bytes[%shift][sizes] and memref_ext.alloc_workspace(sizes)
 * from %ws offset = [%shift]: a typed, contiguous view at a byte offset. */
static bool emit_byte_view(emitter *em, MlirOperation op, bool workspace) {
  MlirType t = result_type(op);
  int dt;
  if (!dtype_of(em, op, t, &dt))
    return true;
  intptr_t rank = mlirShapedTypeGetRank(t);
  const char *src, *shift;
  intptr_t next;
  if (workspace) {
    /* operands: dynamic sizes, workspace, offset */
    intptr_t nops = mlirOperationGetNumOperands(op);
    src = operand(em, op, nops - 2);
    shift = operand(em, op, nops - 1);
    next = 0;
  } else {
    src = operand(em, op, 0);
    shift = operand(em, op, 1);
    next = 2;
  }
  npuc_sb sizes = {0};
  type_sizes(em, &sizes, op, t, &next);
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  npuc_em_line(em,
               "npuc_buf %s = npuc_rt_byte_view(&%s, %s, %s, %zd, "
               "(const int64_t[])%s, %s);",
               npuc_em_define(em, mlirOperationGetResult(op, 0)), src, shift,
               npuc_em_dtype_name(dt), (ssize_t)rank, sizes.data, loc);
  npuc_sb_free(&sizes);
  return true;
}

/* ---- element access and aliases
 * -------------------------------------------------- */

static void index_array(emitter *em, npuc_sb *sb, MlirOperation op,
                        intptr_t first) {
  intptr_t n = mlirOperationGetNumOperands(op);
  npuc_sb_printf(sb, "(const int64_t[]){");
  for (intptr_t i = first; i < n; ++i)
    npuc_sb_printf(sb, "%s%s", i > first ? ", " : "", operand(em, op, i));
  npuc_sb_printf(sb, "%s}", n > first ? "" : "0");
}

static void load_into(emitter *em, MlirOperation op, const char *buf,
                      const char *idx, const char *loc) {
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  const char *name = npuc_em_define(em, r);
  if (npuc_em_class(t) == NPUC_VAL_INT)
    npuc_em_line(
        em,
        "int64_t %s = npuc_sext((uint64_t)npuc_rt_load_i(&%s, %s, %s), %d);",
        name, buf, idx, loc, npuc_em_int_bits(t));
  else
    npuc_em_line(em, "%s %s = (%s)npuc_rt_load_f(&%s, %s, %s);",
                 npuc_em_ctype(t), name, npuc_em_ctype(t), buf, idx, loc);
}

static void store_from(emitter *em, MlirValue v, const char *buf,
                       const char *idx, const char *loc) {
  bool is_int = npuc_em_class(mlirValueGetType(v)) == NPUC_VAL_INT;
  npuc_em_line(em, "npuc_rt_store_%s(&%s, %s, %s, %s);", is_int ? "i" : "f",
               buf, idx, npuc_em_name(em, v), loc);
}

static bool emit_access(emitter *em, MlirOperation op, const char *name) {
  char loc[600];
  bool alias = npuc_em_name_is(name, "memref.cast") ||
               npuc_em_name_is(name, "tensor.cast") ||
               npuc_em_name_is(name, "memref.memory_space_cast") ||
               npuc_em_name_is(name, "bufferization.to_tensor");
  bool copy_out = npuc_em_name_is(name, "bufferization.to_buffer") ||
                  npuc_em_name_is(name, "bufferization.to_memref") ||
                  npuc_em_name_is(name, "bufferization.clone");
  bool load = npuc_em_name_is(name, "memref.load") ||
              npuc_em_name_is(name, "tensor.extract");
  bool dim = npuc_em_name_is(name, "memref.dim") ||
             npuc_em_name_is(name, "tensor.dim");
  if (!alias && !copy_out && !load && !dim &&
      !npuc_em_name_is(name, "memref.store") &&
      !npuc_em_name_is(name, "tensor.insert") &&
      !npuc_em_name_is(name, "memref.copy") &&
      !npuc_em_name_is(name, "memref.dealloc"))
    return false;
  npuc_em_loc(em, op, loc, sizeof loc);
  if (npuc_em_name_is(name, "memref.dealloc"))
    return true; /* the arena frees at the end of the kernel */
  if (alias) {
    npuc_em_line(em, "npuc_buf %s = %s;",
                 npuc_em_define(em, mlirOperationGetResult(op, 0)),
                 operand(em, op, 0));
    return true;
  }
  if (copy_out) {
    /* The buffer may be written; the tensor it came from must not change. */
    npuc_em_line(em, "npuc_buf %s = npuc_rt_clone(&%s, %s);",
                 npuc_em_define(em, mlirOperationGetResult(op, 0)),
                 operand(em, op, 0), loc);
    return true;
  }
  if (dim) {
    npuc_em_line(em, "int64_t %s = %s.sizes[%s];",
                 npuc_em_define(em, mlirOperationGetResult(op, 0)),
                 operand(em, op, 0), operand(em, op, 1));
    return true;
  }
  if (npuc_em_name_is(name, "memref.copy")) {
    npuc_em_line(em, "npuc_rt_copy(&%s, &%s, %s);", operand(em, op, 1),
                 operand(em, op, 0), loc);
    return true;
  }
  npuc_sb idx = {0};
  if (load) {
    index_array(em, &idx, op, 1);
    load_into(em, op, operand(em, op, 0), idx.data, loc);
  } else if (npuc_em_name_is(name, "memref.store")) {
    index_array(em, &idx, op, 2);
    store_from(em, mlirOperationGetOperand(op, 0), operand(em, op, 1), idx.data,
               loc);
  } else { /* tensor.insert %v into %t[...] */
    index_array(em, &idx, op, 2);
    const char *r = npuc_em_define(em, mlirOperationGetResult(op, 0));
    npuc_em_line(em, "npuc_buf %s = npuc_rt_clone(&%s, %s);", r,
                 operand(em, op, 1), loc);
    store_from(em, mlirOperationGetOperand(op, 0), r, idx.data, loc);
  }
  npuc_sb_free(&idx);
  return true;
}
