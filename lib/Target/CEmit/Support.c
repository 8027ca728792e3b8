/* The emitter's plumbing: text, value names, types, op dispatch. */
#include "npuc/CEmit.h"
#include "npuc/Alloc.h"
#include "npuc/Dtype.h"
#include "npuc/IR.h"

#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ------------------------------------------------------------- */

void npuc_em_line(emitter *em, const char *fmt, ...) {
  for (int i = 0; i < em->indent; ++i)
    npuc_sb_printf(em->out, "  ");
  va_list ap;
  va_start(ap, fmt);
  npuc_sb_vprintf(em->out, fmt, ap);
  va_end(ap);
  npuc_sb_printf(em->out, "\n");
}

void npuc_em_loc(emitter *em, MlirOperation op, char *buf, size_t cap) {
  (void)em;
  char file[512];
  int line = 0, col = 0;
  if (!npuc_location_file_line_col(mlirOperationGetLocation(op), file,
                                   sizeof file, &line, &col)) {
    snprintf(buf, cap, "\"<unknown>\"");
    return;
  }
  /* A C string literal: escape what C would read otherwise. */
  size_t at = 0;
  buf[at++] = '"';
  for (const char *p = file; *p && at + 4 < cap; ++p) {
    if (*p == '"' || *p == '\\')
      buf[at++] = '\\';
    buf[at++] = (*p >= 32 && *p < 127) ? *p : '?';
  }
  snprintf(buf + at, cap - at, ":%d:%d\"", line, col);
}

void npuc_em_error(emitter *em, MlirOperation op, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  npuc_op_error(op, "%s", msg);
  em->failed = true;
}

/* ---- values ------------------------------------------------------------- */

#define NAMES_PER_CHUNK 1024

static const char *new_name(emitter *em) {
  size_t id = (size_t)em->next_id++;
  size_t chunk = id / NAMES_PER_CHUNK;
  if (chunk >= em->num_name_chunks) {
    em->name_chunks =
        npuc_xreallocarray(em->name_chunks, chunk + 1, sizeof *em->name_chunks);
    em->name_chunks[chunk] =
        npuc_xmalloc(NAMES_PER_CHUNK * sizeof(npuc_value_name));
    em->num_name_chunks = chunk + 1;
  }
  char *name = em->name_chunks[chunk][id % NAMES_PER_CHUNK];
  snprintf(name, sizeof(npuc_value_name), "v%zu", id);
  return name;
}

const char *npuc_em_define(emitter *em, MlirValue v) {
  const char *name = new_name(em);
  if (!npuc_ptr_map_put(&em->names, v.ptr, (uintptr_t)name))
    npuc_die("out of memory");
  return name;
}

void npuc_em_reset_values(emitter *em) {
  npuc_ptr_map_free(&em->names);
  em->next_id = 0;
}

void npuc_em_free_values(emitter *em) {
  for (size_t i = 0; i < em->num_name_chunks; ++i)
    free(em->name_chunks[i]);
  free(em->name_chunks);
  npuc_ptr_map_free(&em->names);
  em->name_chunks = NULL;
  em->num_name_chunks = 0;
}

const char *npuc_em_name(emitter *em, MlirValue v) {
  uintptr_t name;
  if (!npuc_ptr_map_get(&em->names, v.ptr, &name))
    return npuc_em_define(em, v);
  return (const char *)name;
}

/* ---- types -------------------------------------------------------------- */

npuc_val_class npuc_em_class(MlirType t) {
  if (mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t))
    return NPUC_VAL_INT;
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
      mlirTypeIsAF64(t))
    return NPUC_VAL_FLOAT;
  if (mlirTypeIsATensor(t) || mlirTypeIsAMemRef(t))
    return mlirShapedTypeHasRank(t) ? NPUC_VAL_BUF : NPUC_VAL_OTHER;
  return NPUC_VAL_OTHER;
}

int npuc_em_int_bits(MlirType t) {
  if (mlirTypeIsAIndex(t))
    return 64;
  return mlirTypeIsAInteger(t) ? (int)mlirIntegerTypeGetWidth(t) : 0;
}

/* The names of npuc_dtype (npuc/Dtype.h), kept by name in emitted code. */
static const char *const dtype_names[] = {
    [NPUC_DT_I1] = "NPUC_DT_I1",     [NPUC_DT_I8] = "NPUC_DT_I8",
    [NPUC_DT_I16] = "NPUC_DT_I16",   [NPUC_DT_I32] = "NPUC_DT_I32",
    [NPUC_DT_I64] = "NPUC_DT_I64",   [NPUC_DT_F16] = "NPUC_DT_F16",
    [NPUC_DT_BF16] = "NPUC_DT_BF16", [NPUC_DT_F32] = "NPUC_DT_F32",
    [NPUC_DT_F64] = "NPUC_DT_F64"};

const char *npuc_em_dtype_name(int dtype) { return dtype_names[dtype]; }

bool npuc_em_dtype(MlirType t, int *dtype) {
  if (mlirTypeIsATensor(t) || mlirTypeIsAMemRef(t))
    t = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAIndex(t)) {
    *dtype = NPUC_DT_I64;
    return true;
  }
  if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: *dtype = NPUC_DT_I1; return true;
    case 8: *dtype = NPUC_DT_I8; return true;
    case 16: *dtype = NPUC_DT_I16; return true;
    case 32: *dtype = NPUC_DT_I32; return true;
    case 64: *dtype = NPUC_DT_I64; return true;
    default: return false;
    }
  }
  if (mlirTypeIsAF16(t)) {
    *dtype = NPUC_DT_F16;
    return true;
  }
  if (mlirTypeIsABF16(t)) {
    *dtype = NPUC_DT_BF16;
    return true;
  }
  if (mlirTypeIsAF32(t)) {
    *dtype = NPUC_DT_F32;
    return true;
  }
  if (mlirTypeIsAF64(t)) {
    *dtype = NPUC_DT_F64;
    return true;
  }
  return false;
}

const char *npuc_em_ctype(MlirType t) {
  switch (npuc_em_class(t)) {
  case NPUC_VAL_INT: return "int64_t";
  case NPUC_VAL_FLOAT: return mlirTypeIsAF64(t) ? "double" : "float";
  case NPUC_VAL_BUF: return "npuc_buf";
  default: return mlirTypeIsAVector(t) ? "npuc_aie1_vec" : "void *";
  }
}

/* ---- dispatch ----------------------------------------------------------- */

MlirAttribute npuc_em_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

bool npuc_em_name_is(const char *name, const char *want) {
  return strcmp(name, want) == 0;
}

/* The symbol with every character C does not allow in a name made '_'. */
void npuc_em_c_identifier(MlirStringRef sym, char *buf, size_t cap) {
  size_t len = sym.length < cap - 1 ? sym.length : cap - 1;
  for (size_t i = 0; i < len; ++i) {
    char c = sym.data[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    buf[i] = ok ? c : '_';
  }
  buf[len] = '\0';
}

const char *npuc_em_target(const emitter *em) { return em->target_name; }

bool npuc_em_op(emitter *em, MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
  bool known = (em->first_op && em->first_op(em, op, name)) ||
               npuc_em_scalar_op(em, op, name) ||
               npuc_em_control_op(em, op, name) ||
               npuc_em_buffer_op(em, op, name) ||
               (em->last_op && em->last_op(em, op, name));
  if (known)
    return !em->failed;
  npuc_em_error(em, op, "unsupported op %s for --target=%s", name,
                npuc_em_target(em));
  return false;
}

bool npuc_em_block(emitter *em, MlirBlock block) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!npuc_em_op(em, op))
      return false;
  return true;
}

bool npuc_em_region(emitter *em, MlirRegion region) {
  MlirBlock b = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(b))
    return true;
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(b))) {
    npuc_em_error(em, mlirBlockGetParentOperation(b),
                  "regions with several blocks are not supported by "
                  "--target=%s",
                  npuc_em_target(em));
    return false;
  }
  return npuc_em_block(em, b);
}
