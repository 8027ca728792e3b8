/* HIVM and annotation ops, as calls into libnpuc_hivm_rt. A destination-
 * style op with tensor outs writes a fresh buffer per result (tensor value
 * semantics); with memref outs it writes the memref in place. */
#include "AscendCModelInternal.h"
#include "npuc/DimensionAnalyzer.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  MlirOperation op;
  const npuc_op_def *def;
  const char *name; /* "hivm.hir.vadd" */
  const char *arg;  /* the table's argument for the op's emitter */
  char loc[600];
} hivm_op;

typedef void (*hivm_emit_fn)(emitter *em, hivm_op *h);

static void emit_no_op(emitter *em, hivm_op *h);
static void emit_dps(emitter *em, hivm_op *h);
static void emit_index_query(emitter *em, hivm_op *h);
static void emit_bitcast(emitter *em, hivm_op *h);
static void emit_indirect_load(emitter *em, hivm_op *h);
static void emit_indirect_store(emitter *em, hivm_op *h);
static void emit_lock_var(emitter *em, hivm_op *h);
static void emit_mmad(emitter *em, hivm_op *h);
static void emit_fixpipe(emitter *em, hivm_op *h);
static void emit_block_sync(emitter *em, hivm_op *h);

/* Every HIVM and annotation op the C model runs, with what emits it (and
 * that emitter's argument): the one list of them (docs/ascend-cmodel.md,
 * "Supported"). An op not here is unsupported. */
static const struct {
  const char *name;
  hivm_emit_fn emit;
  const char *arg;
} kHivmOps[] = {
    /* Ops that only steer hardware the host does not have. Cross-block
     * sync and the block lock among them: a kernel with any of these runs
     * its blocks and sub-blocks one after another on one thread (the
     * descriptor's has_sync), so a critical section between lock and
     * unlock already runs alone, in one of the orders hardware could
     * pick. */
    {"hivm.hir.set_mask_norm", emit_no_op, NULL},
    {"hivm.hir.set_ffts_base_addr", emit_no_op, NULL},
    {"hivm.hir.sync_block", emit_no_op, NULL},
    {"hivm.hir.sync_block_lock", emit_no_op, NULL},
    {"hivm.hir.sync_block_unlock", emit_no_op, NULL},
    {"hivm.hir.set_flag", emit_no_op, NULL},
    {"hivm.hir.wait_flag", emit_no_op, NULL},
    {"hivm.hir.pipe_barrier", emit_no_op, NULL},
    {"hivm.hir.set_ctrl", emit_no_op, NULL},
    {"hivm.hir.anchor", emit_no_op, NULL},
    {"hivm.hir.debug", emit_no_op, NULL},
    {"annotation.mark", emit_no_op, NULL},
    /* The halves of a mix kernel synchronise (mix.c). */
    {"hivm.hir.sync_block_set", emit_block_sync, NULL},
    {"hivm.hir.sync_block_wait", emit_block_sync, NULL},
    /* The launch (the field of npuc_launch). */
    {"hivm.hir.get_block_idx", emit_index_query, "block_idx"},
    {"hivm.hir.get_block_num", emit_index_query, "block_num"},
    {"hivm.hir.get_sub_block_idx", emit_index_query, "sub_block_idx"},
    {"hivm.hir.get_sub_block_num", emit_index_query, "sub_block_num"},
    {"hivm.hir.bitcast", emit_bitcast, NULL},
    {"hivm.hir.create_sync_block_lock", emit_lock_var, NULL},
    {"hivm.hir.indirect_load", emit_indirect_load, NULL},
    {"hivm.hir.indirect_store", emit_indirect_store, NULL},
    {"hivm.hir.mmadL1", emit_mmad, NULL},
    {"hivm.hir.fixpipe", emit_fixpipe, NULL},
    /* Destination-style ops (emit_compute); the elementwise ones with
     * their runtime op (npuc/HivmElementwise.def). */
    {"hivm.hir.vcmp", emit_dps, NULL},
    {"hivm.hir.vbrc", emit_dps, NULL},
    {"hivm.hir.vreduce", emit_dps, NULL},
    {"hivm.hir.vcast", emit_dps, NULL},
    {"hivm.hir.vtranspose", emit_dps, NULL},
    {"hivm.hir.varange", emit_dps, NULL},
    {"hivm.hir.vinterleave", emit_dps, NULL},
    {"hivm.hir.load", emit_dps, NULL},
    {"hivm.hir.store", emit_dps, NULL},
    {"hivm.hir.copy", emit_dps, NULL},
#define NPUC_EW(NAME, vop, arity, kinds, float_expr, int_expr)                 \
  {"hivm.hir." #vop, emit_dps, "NPUC_EW_" #NAME},
#include "npuc/HivmElementwise.def"
};

bool npuc_em_hivm_op(emitter *em, MlirOperation op, const char *name) {
  size_t i = 0, n = sizeof kHivmOps / sizeof *kHivmOps;
  while (i < n && strcmp(kHivmOps[i].name, name) != 0)
    ++i;
  if (i == n)
    return false; /* the emitter reports it unsupported */
  hivm_op h = {op, npuc_op_lookup(em->reg, name, strlen(name)),
               kHivmOps[i].name, kHivmOps[i].arg, ""};
  if (!h.def && kHivmOps[i].emit != emit_no_op) {
    npuc_em_error(em, op, "%s has no op table entry", name);
    return true;
  }
  npuc_em_loc(em, op, h.loc, sizeof h.loc);
  kHivmOps[i].emit(em, &h);
  return true;
}

static void emit_no_op(emitter *em, hivm_op *h) {
  npuc_em_line(em, "/* %s */", h->name);
}

/* ---- helpers ------------------------------------------------------------ */

static bool group(hivm_op *h, const char *name, intptr_t *first, intptr_t *n) {
  int g = npuc_op_find_operand(h->def, name);
  if (g < 0 || !npuc_operand_group(h->def, h->op, g, first, n)) {
    *first = *n = 0;
    return false;
  }
  return true;
}

static const char *operand(emitter *em, hivm_op *h, intptr_t i) {
  return npuc_em_name(em, mlirOperationGetOperand(h->op, i));
}

/* The value of an enum attribute: #hivm.reduce_op<sum> -> "sum". */
static bool enum_value(MlirOperation op, const char *attr, char *out,
                       size_t cap) {
  MlirAttribute a = npuc_em_attr(op, attr);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAOpaque(a))
    return false;
  MlirStringRef d = mlirOpaqueAttrGetData(a);
  const char *lt = memchr(d.data, '<', d.length);
  const char *gt = d.length ? d.data + d.length - 1 : NULL;
  if (!lt || !gt || *gt != '>')
    return false;
  snprintf(out, cap, "%.*s", (int)(gt - lt - 1), lt + 1);
  return true;
}

static int lookup(const char *const *names, size_t n, const char *want) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(names[i], want) == 0)
      return (int)i;
  return -1;
}

/* An npuc_operand initializer for operand i: a buffer or a scalar. */
static void operand_init(emitter *em, hivm_op *h, intptr_t i, npuc_sb *sb) {
  MlirValue v = mlirOperationGetOperand(h->op, i);
  MlirType t = mlirValueGetType(v);
  int dt = 0;
  npuc_em_dtype(t, &dt);
  const char *name = npuc_em_name(em, v);
  switch (npuc_em_class(t)) {
  case NPUC_VAL_BUF:
    npuc_sb_printf(sb, "{.is_scalar = false, .buf = %s, .dtype = %s}", name,
                   npuc_em_dtype_name(dt));
    break;
  case NPUC_VAL_INT:
    npuc_sb_printf(sb,
                   "{.is_scalar = true, .i = %s, .f = (double)%s, .dtype = %s}",
                   name, name, npuc_em_dtype_name(dt));
    break;
  default:
    npuc_sb_printf(
        sb, "{.is_scalar = true, .f = %s, .i = (int64_t)%s, .dtype = %s}", name,
        name, npuc_em_dtype_name(dt));
  }
}

/* Broadcasts operand i (declared as the npuc_operand `var`) into buffer
 * `dst`. */
static void emit_fill(emitter *em, hivm_op *h, intptr_t i, const char *var,
                      const char *dst) {
  npuc_sb sb = {0};
  operand_init(em, h, i, &sb);
  npuc_em_line(em, "const npuc_operand %s = %s;", var, sb.data);
  npuc_em_line(em, "npuc_rt_broadcast(&%s, &%s, %s);", dst, var, h->loc);
  npuc_sb_free(&sb);
}

/* ---- destination-style ops --------------------------------------------------
 */

static void emit_compute(emitter *em, hivm_op *h, const char *name,
                         const char *dst, intptr_t src_first, intptr_t nsrc);

/* Each tensor init gets a fresh result buffer of its shape; memref inits are
 * written in place. */
static void emit_dps(emitter *em, hivm_op *h) {
  const char *short_name = h->name + strlen("hivm.hir.");
  intptr_t src_first = 0, nsrc = 0, dst_first, ndst;
  group(h, "src", &src_first, &nsrc);
  if (!group(h, "dst", &dst_first, &ndst) || ndst != 1) {
    npuc_em_error(em, h->op,
                  "%s with %zd outs is not supported by "
                  "--target=ascend-cmodel",
                  h->name, (ssize_t)ndst);
    return;
  }
  MlirValue init = mlirOperationGetOperand(h->op, dst_first);
  const char *dst = npuc_em_name(em, init);
  if (mlirOperationGetNumResults(h->op) == 1) {
    const char *r = npuc_em_define(em, mlirOperationGetResult(h->op, 0));
    npuc_em_line(
        em, "npuc_buf %s = npuc_rt_alloc(%s.dtype, %s.rank, %s.sizes, %s);", r,
        dst, dst, dst, h->loc);
    dst = r;
  }
  npuc_em_line(em, "{");
  em->indent++;
  emit_compute(em, h, short_name, dst, src_first, nsrc);
  em->indent--;
  npuc_em_line(em, "}");
}

static uint32_t dims_mask(MlirOperation op, const char *attr) {
  MlirAttribute a = npuc_em_attr(op, attr);
  uint32_t mask = 0;
  if (!mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a))
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); ++i)
      mask |= 1u << mlirDenseI64ArrayGetElement(a, i);
  return mask;
}

static void emit_srcs(emitter *em, hivm_op *h, intptr_t first, intptr_t n) {
  npuc_sb sb = {0};
  for (intptr_t i = 0; i < n; ++i) {
    npuc_sb_printf(&sb, "%s", i ? ", " : "");
    operand_init(em, h, first + i, &sb);
  }
  npuc_em_line(em, "const npuc_operand s[] = {%s};", sb.data ? sb.data : "{0}");
  npuc_sb_free(&sb);
}

static void emit_reduce(emitter *em, hivm_op *h, const char *dst,
                        intptr_t src) {
  static const char *const names[] = {"sum", "prod", "max", "min", "any",
                                      "all", "xori", "ori", "andi"};
  static const char *const enums[] = {
      "NPUC_RED_SUM", "NPUC_RED_PROD", "NPUC_RED_MAX",
      "NPUC_RED_MIN", "NPUC_RED_ANY",  "NPUC_RED_ALL",
      "NPUC_RED_XOR", "NPUC_RED_OR",   "NPUC_RED_AND"};
  char kind[64] = "";
  enum_value(h->op, "arith", kind, sizeof kind);
  int k = lookup(names, 9, kind);
  if (k < 0) {
    npuc_em_error(em, h->op,
                  "vreduce <%s> is not supported by --target=ascend-cmodel",
                  kind);
    return;
  }
  npuc_em_line(em, "npuc_rt_reduce(%s, &%s, &%s, 0x%xu, %s);", enums[k], dst,
               operand(em, h, src), dims_mask(h->op, "reduce_dims"), h->loc);
}

static void emit_cast(emitter *em, hivm_op *h, const char *dst, intptr_t src) {
  static const char *const rounds[] = {"rint", "round", "floor", "ceil",
                                       "trunc"};
  static const char *const modes[] = {"NPUC_CAST_RINT", "NPUC_CAST_ROUND",
                                      "NPUC_CAST_FLOOR", "NPUC_CAST_CEIL",
                                      "NPUC_CAST_TRUNC"};
  char v[64];
  const char *mode = "NPUC_CAST_DEFAULT";
  if (enum_value(h->op, "cast", v, sizeof v) && strcmp(v, "cast_unsigned") == 0)
    mode = "NPUC_CAST_UNSIGNED";
  if (enum_value(h->op, "round_mode", v, sizeof v)) {
    int k = lookup(rounds, 5, v);
    if (k < 0) {
      npuc_em_error(em, h->op, "round_mode <%s> is not supported", v);
      return;
    }
    mode = modes[k];
  }
  npuc_em_line(em, "npuc_rt_cast(&%s, &%s, %s, %s);", dst, operand(em, h, src),
               mode, h->loc);
}

static void emit_compare(emitter *em, hivm_op *h, const char *dst,
                         intptr_t src) {
  static const char *const names[] = {"eq", "ne", "lt", "gt", "le", "ge"};
  static const char *const enums[] = {"NPUC_CMP_EQ", "NPUC_CMP_NE",
                                      "NPUC_CMP_LT", "NPUC_CMP_GT",
                                      "NPUC_CMP_LE", "NPUC_CMP_GE"};
  char v[64] = "eq";
  enum_value(h->op, "compare_mode", v, sizeof v);
  int k = lookup(names, 6, v);
  if (k < 0) {
    npuc_em_error(em, h->op, "compare_mode <%s> is not supported", v);
    return;
  }
  emit_srcs(em, h, src, 2);
  npuc_em_line(em, "npuc_rt_compare(%s, &%s, &s[0], &s[1], %s);", enums[k], dst,
               h->loc);
}

/* load/store/copy: plain copies, plus the padding a load may declare. */
static void emit_transfer(emitter *em, hivm_op *h, const char *dst,
                          intptr_t src) {
  intptr_t first, n;
  if (group(h, "left_padding_num", &first, &n) && n == 1)
    npuc_em_line(em,
                 "if (%s != 0) npuc_rt_fail(%s, \"a load with left padding "
                 "is outside the C model\");",
                 operand(em, h, first), h->loc);
  if (group(h, "right_padding_num", &first, &n) && n == 1)
    npuc_em_line(em,
                 "if (%s != 0) npuc_rt_fail(%s, \"a load with right padding "
                 "is outside the C model\");",
                 operand(em, h, first), h->loc);
  if (group(h, "pad_value", &first, &n) && n == 1)
    emit_fill(em, h, first, "pad", dst);
  npuc_em_line(em, "npuc_rt_copy(&%s, &%s, %s);", dst, operand(em, h, src),
               h->loc);
}

static void emit_compute(emitter *em, hivm_op *h, const char *name,
                         const char *dst, intptr_t src, intptr_t nsrc) {
  if (h->arg) { /* elementwise: the runtime op */
    emit_srcs(em, h, src, nsrc);
    npuc_em_line(em, "npuc_rt_elementwise(%s, &%s, s, %zd, %s);", h->arg, dst,
                 (ssize_t)nsrc, h->loc);
  } else if (strcmp(name, "vcmp") == 0) {
    emit_compare(em, h, dst, src);
  } else if (strcmp(name, "vbrc") == 0) {
    emit_srcs(em, h, src, 1);
    npuc_em_line(em, "npuc_rt_broadcast(&%s, &s[0], %s);", dst, h->loc);
  } else if (strcmp(name, "vreduce") == 0) {
    emit_reduce(em, h, dst, src);
  } else if (strcmp(name, "vcast") == 0) {
    emit_cast(em, h, dst, src);
  } else if (strcmp(name, "vtranspose") == 0) {
    MlirAttribute p = npuc_em_attr(h->op, "permutation");
    npuc_sb sb = {0};
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(p); ++i)
      npuc_sb_printf(&sb, "%s%lld", i ? ", " : "",
                     (long long)mlirDenseI64ArrayGetElement(p, i));
    npuc_em_line(em, "npuc_rt_transpose(&%s, &%s, (const int32_t[]){%s}, %s);",
                 dst, operand(em, h, src), sb.data ? sb.data : "0", h->loc);
    npuc_sb_free(&sb);
  } else if (strcmp(name, "varange") == 0) {
    intptr_t of, no, sf, ns;
    group(h, "offset", &of, &no);
    group(h, "strides", &sf, &ns);
    npuc_sb sb = {0};
    for (intptr_t i = 0; i < ns; ++i)
      npuc_sb_printf(&sb, "%s%s", i ? ", " : "", operand(em, h, sf + i));
    npuc_em_line(em, "npuc_rt_arange(&%s, %s, (const int64_t[]){%s}, %zd, %s);",
                 dst, no ? operand(em, h, of) : "0", sb.data ? sb.data : "0",
                 (ssize_t)ns, h->loc);
    npuc_sb_free(&sb);
  } else if (strcmp(name, "vinterleave") == 0) {
    npuc_sb sb = {0};
    for (intptr_t i = 0; i < nsrc; ++i)
      npuc_sb_printf(&sb, "%s%s", i ? ", " : "", operand(em, h, src + i));
    npuc_em_line(em, "const npuc_buf ins[] = {%s};", sb.data);
    npuc_em_line(em, "npuc_rt_interleave(&%s, ins, %zd, %s);", dst,
                 (ssize_t)nsrc, h->loc);
    npuc_sb_free(&sb);
  } else {
    emit_transfer(em, h, dst, src);
  }
}

/* ---- the rest
 * ----------------------------------------------------------------- */

/* The launch's field named by the table (h->arg). */
static void emit_index_query(emitter *em, hivm_op *h) {
  MlirValue r = mlirOperationGetResult(h->op, 0);
  npuc_em_line(em, "int64_t %s = npuc_sext((uint64_t)npuc_L->%s, %d);",
               npuc_em_define(em, r), h->arg,
               npuc_em_int_bits(mlirValueGetType(r)));
}

static void emit_bitcast(emitter *em, hivm_op *h) {
  MlirValue r = mlirOperationGetResult(h->op, 0);
  int dt;
  if (!npuc_em_dtype(mlirValueGetType(r), &dt)) {
    npuc_em_error(em, h->op, "bitcast to an element type the C model lacks");
    return;
  }
  const char *name = npuc_em_define(em, r);
  npuc_em_line(em, "npuc_buf %s = %s;", name, operand(em, h, 0));
  npuc_em_line(em,
               "if (npuc_rt_elem_size(%s) != npuc_rt_elem_size(%s.dtype)) "
               "npuc_rt_fail(%s, \"bitcast between element sizes\");",
               npuc_em_dtype_name(dt), name, h->loc);
  npuc_em_line(em, "%s.dtype = %s;", name, npuc_em_dtype_name(dt));
}

/* ---- gather and scatter
 * ------------------------------------------------------ */

/* The C expression for the address of optional operand group `name`, or
 * "NULL" when the op has none. */
static const char *optional_buf(emitter *em, hivm_op *h, const char *name,
                                char *buf, size_t cap) {
  intptr_t first, n;
  if (!group(h, name, &first, &n) || n != 1)
    return "NULL";
  snprintf(buf, cap, "&%s", operand(em, h, first));
  return buf;
}

/* Masked-off elements take `other` when given, else keep the init's value
 * (a tensor result starts as a copy of the init, as destination-style
 * semantics say). */
static void emit_indirect_load(emitter *em, hivm_op *h) {
  intptr_t src, offsets, dst, n;
  group(h, "src", &src, &n);
  group(h, "offsets", &offsets, &n);
  group(h, "dst", &dst, &n);
  const char *init = operand(em, h, dst);
  const char *out = init;
  bool fresh = mlirOperationGetNumResults(h->op) == 1;
  if (fresh) {
    out = npuc_em_define(em, mlirOperationGetResult(h->op, 0));
    npuc_em_line(
        em, "npuc_buf %s = npuc_rt_alloc(%s.dtype, %s.rank, %s.sizes, %s);",
        out, init, init, init, h->loc);
  }
  npuc_em_line(em, "{");
  em->indent++;
  intptr_t other;
  if (group(h, "other", &other, &n) && n == 1) {
    emit_fill(em, h, other, "other", out);
  } else if (fresh) {
    npuc_em_line(em, "npuc_rt_copy(&%s, &%s, %s);", out, init, h->loc);
  }
  char mask[300];
  npuc_em_line(em, "npuc_rt_indirect_load(&%s, &%s, &%s, %s, %s);", out,
               operand(em, h, src), operand(em, h, offsets),
               optional_buf(em, h, "mask", mask, sizeof mask), h->loc);
  em->indent--;
  npuc_em_line(em, "}");
}

static void emit_indirect_store(emitter *em, hivm_op *h) {
  intptr_t src, offsets, dst, n;
  group(h, "src", &src, &n);
  group(h, "offsets", &offsets, &n);
  group(h, "dst", &dst, &n);
  char mask[300];
  npuc_em_line(em, "npuc_rt_indirect_store(&%s, &%s, &%s, %s, %s);",
               operand(em, h, dst), operand(em, h, src),
               operand(em, h, offsets),
               optional_buf(em, h, "mask", mask, sizeof mask), h->loc);
}

/* ---- the block lock
 * ------------------------------------------------------------ */

/* The lock variable is a zeroed buffer of its static type; lock and unlock
 * never read it (see kNoOps), so each block may have its own. */
static void emit_lock_var(emitter *em, hivm_op *h) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(h->op, 0));
  int dt;
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      !npuc_em_dtype(t, &dt)) {
    npuc_em_error(em, h->op,
                  "a lock variable of a dynamic or unknown type is "
                  "outside the C model");
    return;
  }
  npuc_sb sizes = {0};
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < rank; ++d)
    npuc_sb_printf(&sizes, "%s%lld", d ? ", " : "",
                   (long long)mlirShapedTypeGetDimSize(t, d));
  npuc_em_line(
      em, "npuc_buf %s = npuc_rt_alloc(%s, %zd, (const int64_t[]){%s}, %s);",
      npuc_em_define(em, mlirOperationGetResult(h->op, 0)),
      npuc_em_dtype_name(dt), (ssize_t)rank, sizes.data ? sizes.data : "0",
      h->loc);
  npuc_sb_free(&sizes);
}

/* ---- mix kernels: the cube ops, block sync, tightly coupled buffers ------ */

/* The destination-style result of a cube op: a fresh copy of the tensor
 * init (the op accumulates into it), or the memref init itself. */
static const char *dps_result(emitter *em, hivm_op *h, const char *init) {
  if (mlirOperationGetNumResults(h->op) != 1)
    return init;
  const char *r = npuc_em_define(em, mlirOperationGetResult(h->op, 0));
  npuc_em_line(em, "npuc_buf %s = npuc_rt_clone(&%s, %s);", r, init, h->loc);
  return r;
}

static intptr_t operand_rank(hivm_op *h, intptr_t i) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(h->op, i));
  return mlirTypeIsAShaped(t) && mlirShapedTypeHasRank(t)
             ? mlirShapedTypeGetRank(t)
             : -1;
}

static bool refuse_attr(emitter *em, hivm_op *h, const char *attr,
                        const char *what) {
  if (mlirAttributeIsNull(npuc_em_attr(h->op, attr)))
    return false;
  npuc_em_error(em, h->op, "%s (%s) is outside the C model", what, attr);
  return true;
}

static void emit_mmad(emitter *em, hivm_op *h) {
  intptr_t a, b, init, m, k, n, c, count;
  group(h, "a", &a, &count);
  group(h, "b", &b, &count);
  group(h, "init_condition", &init, &count);
  group(h, "real_m", &m, &count);
  group(h, "real_k", &k, &count);
  group(h, "real_n", &n, &count);
  group(h, "c", &c, &count);
  if (group(h, "per_channel_bias", &count, &count) && count > 0) {
    npuc_em_error(em, h->op,
                  "mmadL1 with a per-channel bias is outside the "
                  "C model");
    return;
  }
  if (refuse_attr(em, h, "enable_HF32", "mmadL1 in HF32 mode") ||
      refuse_attr(em, h, "enable_I4", "mmadL1 on i4 data"))
    return;
  intptr_t ra = operand_rank(h, a), rb = operand_rank(h, b),
           rc = operand_rank(h, c);
  bool transposed = !mlirAttributeIsNull(npuc_em_attr(h->op, "a_transpose")) ||
                    !mlirAttributeIsNull(npuc_em_attr(h->op, "b_transpose"));
  if (!(ra == 2 && rb == 2 && rc == 2) &&
      !(ra == 4 && rb == 4 && rc == 4 && !transposed)) {
    npuc_em_error(em, h->op,
                  "mmadL1 on operands of rank %zd, %zd, %zd%s: the C model "
                  "runs 2-D (ND) operands, or fractal zN ones without "
                  "transposes",
                  (ssize_t)ra, (ssize_t)rb, (ssize_t)rc,
                  transposed ? " (transposed)" : "");
    return;
  }
  const char *dst = dps_result(em, h, operand(em, h, c));
  npuc_em_line(em,
               "npuc_rt_mmad(&%s, &%s, &%s, %s != 0, %s, %s, %s, %s%s, %s);",
               dst, operand(em, h, a), operand(em, h, b), operand(em, h, init),
               operand(em, h, m), operand(em, h, k), operand(em, h, n),
               mlirAttributeIsNull(npuc_em_attr(h->op, "a_transpose"))
                   ? "0"
                   : "NPUC_MMAD_A_TRANSPOSE",
               mlirAttributeIsNull(npuc_em_attr(h->op, "b_transpose"))
                   ? ""
                   : " | NPUC_MMAD_B_TRANSPOSE",
               h->loc);
}

/* The fixpipe's mode from its attributes, as an npuc_fixpipe_mode
 * initializer; false (after an error) for what the model does not run. */
static bool fixpipe_mode(emitter *em, hivm_op *h, char *out, size_t cap) {
  static const char *const layouts[] = {"nz2nd", "nz2dn", "normal"};
  static const char *const layout_enums[] = {
      "NPUC_FIXPIPE_NZ2ND", "NPUC_FIXPIPE_NZ2DN", "NPUC_FIXPIPE_NZ2NZ"};
  static const char *const duals[] = {"NO_DUAL", "ROW_SPLIT", "COLUMN_SPLIT"};
  static const char *const dual_enums[] = {"NPUC_DUAL_NONE", "NPUC_DUAL_ROW",
                                           "NPUC_DUAL_COL"};
  char v[64] = "normal";
  if (!mlirAttributeIsNull(npuc_em_attr(h->op, "enable_nz2nd")))
    strcpy(v, "nz2nd");
  enum_value(h->op, "dma_mode", v, sizeof v);
  int layout = lookup(layouts, 3, v);
  strcpy(v, "NO_DUAL");
  enum_value(h->op, "dual_dst_mode", v, sizeof v);
  int dual = lookup(duals, 3, v);
  char sub[64] = "sub_block_0", quant[64] = "NO_QUANT", relu[64] = "NO_RELU";
  enum_value(h->op, "sub_block_idx", sub, sizeof sub);
  enum_value(h->op, "pre_quant", quant, sizeof quant);
  enum_value(h->op, "pre_relu", relu, sizeof relu);
  static const char *const quants[] = {"NO_QUANT", "F322F16", "F322BF16"};
  static const char *const relus[] = {"NO_RELU", "NORMAL_RELU"};
  const char *bad = layout < 0                     ? "dma_mode"
                    : dual < 0                     ? "dual_dst_mode"
                    : lookup(quants, 3, quant) < 0 ? "pre_quant"
                    : lookup(relus, 2, relu) < 0   ? "pre_relu"
                                                   : NULL;
  MlirAttribute split = npuc_em_attr(h->op, "channel_split");
  if (!bad && !mlirAttributeIsNull(split) && mlirAttributeIsABool(split) &&
      mlirBoolAttrGetValue(split))
    bad = "channel_split";
  intptr_t first, count;
  if (!bad && group(h, "quant_scale", &first, &count) && count > 0)
    bad = "quant_scale";
  if (bad) {
    npuc_em_error(em, h->op, "fixpipe: this %s is outside the C model", bad);
    return false;
  }
  snprintf(out, cap, "{%s, %s, %d, %s}", layout_enums[layout], dual_enums[dual],
           strcmp(sub, "sub_block_1") == 0 ? 1 : 0,
           strcmp(relu, "NORMAL_RELU") == 0 ? "true" : "false");
  return true;
}

static void emit_fixpipe(emitter *em, hivm_op *h) {
  intptr_t src, nsrc, dst, ndst;
  group(h, "src", &src, &nsrc);
  group(h, "dst", &dst, &ndst);
  char mode[200];
  if (nsrc != 1 || ndst != 1) {
    npuc_em_error(em, h->op,
                  "fixpipe with %zd sources and %zd destinations "
                  "is outside the C model",
                  (ssize_t)nsrc, (ssize_t)ndst);
    return;
  }
  if (!fixpipe_mode(em, h, mode, sizeof mode))
    return;
  intptr_t rs = operand_rank(h, src), rd = operand_rank(h, dst);
  bool nd = strstr(mode, "NPUC_FIXPIPE_NZ2NZ") == NULL;
  if ((rs != 2 && rs != 4) || (nd ? rd != 2 : rd != rs)) {
    npuc_em_error(em, h->op,
                  "fixpipe from rank %zd to rank %zd: the C model moves a 2-D "
                  "or fractal [N1, M1, M0, N0] result into a 2-D destination "
                  "(nz2nd, nz2dn), or into one of its own layout",
                  (ssize_t)rs, (ssize_t)rd);
    return;
  }
  const char *out = dps_result(em, h, operand(em, h, dst));
  npuc_em_line(em, "{");
  npuc_em_line(em, "  const npuc_fixpipe_mode mode = %s;", mode);
  npuc_em_line(em, "  npuc_rt_fixpipe(&%s, &%s, &mode, %s);", out,
               operand(em, h, src), h->loc);
  npuc_em_line(em, "}");
}

/* sync_block_set/wait between the halves of a mix kernel (the default
 * INTRA_BLOCK mode); the other modes stay without effect, as blocks and
 * sub-blocks of such a kernel run one after another. */
static void emit_block_sync(emitter *em, hivm_op *h) {
  char mode[96] = "INTRA_BLOCK_SYNCHRONIZATION";
  enum_value(h->op, "tsync_instr_mode", mode, sizeof mode);
  const char *name = h->name + strlen("hivm.hir.");
  if (strcmp(mode, "INTRA_BLOCK_SYNCHRONIZATION") != 0) {
    npuc_em_line(em, "/* hivm.hir.%s <%s> */", name, mode);
    return;
  }
  intptr_t first, count;
  char flag[64];
  MlirAttribute f = npuc_em_attr(h->op, "flag");
  if (group(h, "flag_value", &first, &count) && count == 1) {
    snprintf(flag, sizeof flag, "%s", operand(em, h, first));
  } else if (!mlirAttributeIsNull(f) && mlirAttributeIsAInteger(f)) {
    snprintf(flag, sizeof flag, "%lldLL",
             (long long)mlirIntegerAttrGetValueInt(f));
  } else {
    npuc_em_error(em, h->op, "%s without a flag", name);
    return;
  }
  npuc_em_line(em, "npuc_rt_%s(%s, %s);", name, flag, h->loc);
}

/* memref.alloc of a buffer marked hivm.tightly_coupled_buffer<id>: the
 * storage the halves of a mix kernel share (per sub-block in UB). */
bool npuc_em_hivm_first_op(emitter *em, MlirOperation op, const char *name) {
  if (!npuc_em_name_is(name, "memref.alloc") ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirValue r = mlirOperationGetResult(op, 0);
  int64_t id = -1;
  for (MlirOpOperand u = mlirValueGetFirstUse(r);
       !mlirOpOperandIsNull(u) && id < 0; u = mlirOpOperandGetNextUse(u))
    id = npuc_dim_tcb_id(mlirOpOperandGetOwner(u));
  MlirType t = mlirValueGetType(r);
  int dt;
  if (id < 0 || !mlirShapedTypeHasStaticShape(t) || !npuc_em_dtype(t, &dt))
    return false;
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  npuc_sb sizes = {0};
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < rank; ++d)
    npuc_sb_printf(&sizes, "%s%lldLL", d ? ", " : "",
                   (long long)mlirShapedTypeGetDimSize(t, d));
  npuc_em_line(em,
               "npuc_buf %s = npuc_rt_coupled_alloc(%lldLL, %s, %s, %zd, "
               "(const int64_t[]){%s}, %s);",
               npuc_em_define(em, r), (long long)id,
               npuc_dim_ub_memref(t) ? "true" : "false", npuc_em_dtype_name(dt),
               (ssize_t)rank, sizes.data ? sizes.data : "0", loc);
  npuc_sb_free(&sizes);
  return true;
}
