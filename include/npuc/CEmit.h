/* CEmit: the C emitter the C-model targets share (lib/Target/CEmit). It
 * writes scalars (arith, math, affine), control flow (scf, func) and
 * buffers (memref, tensor, bufferization) as C over the prelude headers;
 * a target adds its own op families through the hooks of `emitter`
 * (ascend-cmodel: HIVM ops; aie1-cmodel: aievec ops). Internal to the
 * compiler's targets: not an API of the library. */
#ifndef NPUC_CEMIT_H
#define NPUC_CEMIT_H

#include "npuc/OpTable.h"

#include <mlir-c/IR.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuc/PtrSet.h"
#include "npuc/StringBuilder.h"

typedef char npuc_value_name[16];

typedef struct emitter {
  const npuc_op_registry *reg;
  npuc_sb *out; /* the function body being written */
  int indent;
  int next_id;
  npuc_ptr_map names; /* MlirValue.ptr -> its C name, in name_chunks */
  /* The names live apart from the table, so a name handed out stays valid
   * when the table grows. */
  npuc_value_name **name_chunks;
  size_t num_name_chunks;
  bool failed;
  bool has_sync;
  bool uses_sub_block;
  /* The target using the emitter: its name for error messages, and its op
   * families (each returns false for an op it does not know). `first_op`
   * sees each op before the shared families, so it can take over the
   * vector forms of arith ops (aie1-cmodel); `last_op` sees what they
   * leave (ascend-cmodel's HIVM ops). Either may be NULL. */
  const char *target_name;
  bool (*first_op)(struct emitter *em, MlirOperation op, const char *name);
  bool (*last_op)(struct emitter *em, MlirOperation op, const char *name);
} emitter;

/* ---- values ------------------------------------------------------------- */

/* The C name of a value, creating it on first use. */
const char *npuc_em_name(emitter *em, MlirValue v);
/* Declares a fresh C variable for `v` (a result or block argument). */
const char *npuc_em_define(emitter *em, MlirValue v);
/* Forgets every value's name (before the next function); names restart
 * at v0. */
void npuc_em_reset_values(emitter *em);
/* Frees the value table and names (the emitter itself is the caller's). */
void npuc_em_free_values(emitter *em);

/* ---- types -------------------------------------------------------------- */

typedef enum {
  NPUC_VAL_INT,
  NPUC_VAL_FLOAT,
  NPUC_VAL_BUF,
  NPUC_VAL_OTHER
} npuc_val_class;

npuc_val_class npuc_em_class(MlirType t);
/* Integer width (index: 64), or float kind via npuc_em_dtype. */
int npuc_em_int_bits(MlirType t);
/* The runtime dtype of a scalar type or of a shaped type's element. */
bool npuc_em_dtype(MlirType t, int *dtype);
const char *npuc_em_dtype_name(int dtype);
/* "int64_t", "float", "double", "npuc_buf", and "npuc_aie1_vec" for
 * vectors (only aie1-cmodel has them) */
const char *npuc_em_ctype(MlirType t);

/* ---- writing ------------------------------------------------------------ */

void npuc_em_line(emitter *em, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "file:line:col" of the op, as a C string literal. */
void npuc_em_loc(emitter *em, MlirOperation op, char *buf, size_t cap);
/* Reports an error at the op (through MLIR's diagnostics) and fails. */
void npuc_em_error(emitter *em, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Emits one op through the family that knows it; false after an error. */
bool npuc_em_op(emitter *em, MlirOperation op);
/* Emits every op of a block, in order; block arguments must be defined. */
bool npuc_em_block(emitter *em, MlirBlock block);
bool npuc_em_region(emitter *em, MlirRegion region);

/* The name of the target using the emitter (target_name). */
const char *npuc_em_target(const emitter *em);

/* ---- op families: each returns false if it does not know the op --------- */

bool npuc_em_scalar_op(emitter *em, MlirOperation op, const char *name);
bool npuc_em_control_op(emitter *em, MlirOperation op, const char *name);
bool npuc_em_buffer_op(emitter *em, MlirOperation op, const char *name);

/* Helpers shared by the families. */
MlirAttribute npuc_em_attr(MlirOperation op, const char *name);
bool npuc_em_name_is(const char *name, const char *want);
/* The symbol in buf (truncated to cap - 1), with every character C does not
 * allow in a name made '_'. */
void npuc_em_c_identifier(MlirStringRef sym, char *buf, size_t cap);

#endif
