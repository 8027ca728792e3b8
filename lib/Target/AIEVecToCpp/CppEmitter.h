/* Shared by the files of the aievec-to-cpp translation. Not public.
 *
 * The emitter writes the C++ source aie-translate --aievec-to-cpp writes:
 * C++ names for values ("v1", "m2" for dynamic memref sizes), allocated in
 * the order the anchor allocates them, so the output matches its text;
 * types as the AIE intrinsics' headers spell them (v16int16, v8acc80); one
 * statement per op, indented two spaces per nesting level. */
#ifndef NPUC_AIEVEC_TO_CPP_EMITTER_H
#define NPUC_AIEVEC_TO_CPP_EMITTER_H

#include "npuc/PtrSet.h"
#include "npuc/StringBuilder.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* The size parameter of one dynamic dimension of a memref argument. */
typedef struct {
  const void *memref; /* MlirValue.ptr */
  intptr_t dim;
  const char *name;
} cpp_dim_param;

typedef struct {
  npuc_sb *out;
  bool aie2;
  bool masked_writes;      /* npuc_translate_options.masked_writes */
  bool errors_as_warnings; /* npuc_translate_options.errors_as_warnings */
  int indent;              /* levels of two spaces */
  bool at_line_start;      /* the next text starts a line: indent it */
  int64_t counter;    /* the last number given to a name in this function */
  npuc_ptr_map names; /* MlirValue.ptr -> const char * (owned by `pool`) */
  char **pool;        /* every name string, freed at the end */
  size_t pool_len;
  cpp_dim_param *dims;
  size_t num_dims;
} cpp_emitter;

/* ---- text (CppEmitter.c) ------------------------------------------------ */

/* Appends text, indenting each line that has text; a line of blanks is
 * written as an empty line (as mlir::raw_indented_ostream does). */
void cpp_write(cpp_emitter *e, const char *text);
void cpp_printf(cpp_emitter *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports why the translation stops, at the op (a warning when the caller
 * asked for errors as warnings). */
void cpp_error(cpp_emitter *e, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- names -------------------------------------------------------------- */

bool cpp_has_name(const cpp_emitter *e, MlirValue v);
/* The value's name, given one ("<prefix><n>") on first use. */
const char *cpp_name(cpp_emitter *e, MlirValue v);
const char *cpp_name_prefixed(cpp_emitter *e, MlirValue v, const char *prefix);
/* A fresh name for no value. */
const char *cpp_new_name(cpp_emitter *e, const char *prefix);
/* The value takes `name` from now on (an accumulator updated in place, an
 * op translated to nothing). */
void cpp_set_name(cpp_emitter *e, MlirValue v, const char *name);
/* Forgets the names of a function when it ends; numbering restarts. */
void cpp_end_function(cpp_emitter *e);
void cpp_emitter_free(cpp_emitter *e);

/* Dynamic memref dimensions: the parameter holding their size. */
const char *cpp_dim_param_get(const cpp_emitter *e, MlirValue memref,
                              intptr_t dim);
void cpp_dim_param_set(cpp_emitter *e, MlirValue memref, intptr_t dim,
                       const char *name);

/* ---- types and values --------------------------------------------------- */

/* The C++ spelling of `t` into `sb`: int16_t (stdint) or int16 (a vector's
 * element), acc48, float, bfloat16, size_t, "int16_t * restrict" for a
 * memref, v16int16 / v8acc80 / v16accfloat for vectors (the element count,
 * flattened). `acc`: an AIE2 vector held in an accumulator. False when no
 * spelling exists. */
bool cpp_type_spelling(const cpp_emitter *e, MlirType t, bool stdint_type,
                       bool acc, npuc_sb *sb);
/* Writes the spelling, or reports "cannot emit type" at `op`. */
bool cpp_emit_type(cpp_emitter *e, MlirOperation op, MlirType t,
                   bool stdint_type, bool acc);
/* Writes a constant's value (integer, float, dense vector). */
bool cpp_emit_attribute(cpp_emitter *e, MlirOperation op, MlirAttribute a);
/* "<type> <name> = " for the op's result (a declaration), "std::tie(..) = "
 * for several; nothing for none. False (reported) if a result already has a
 * name or its type has no spelling. */
bool cpp_assign_prefix(cpp_emitter *e, MlirOperation op, bool acc);
/* "<type> <name>" (and ";\n" when `semicolon`). */
bool cpp_declare(cpp_emitter *e, MlirOperation op, MlirValue v, bool semicolon,
                 bool acc);
/* The operand's name, or a located error when it has none yet. */
const char *cpp_operand(cpp_emitter *e, MlirOperation op, intptr_t i);

/* Element count, innermost dimension, element bits of a vector type. */
int64_t cpp_vector_elements(MlirType t);
int64_t cpp_vector_lanes(MlirType t);
int64_t cpp_element_bits(MlirType t);
bool cpp_is_float(MlirType t);

/* An attribute of the op as a string ("" when absent or not a string). */
MlirStringRef cpp_string_attr(MlirOperation op, const char *name);
/* An integer (or bool) attribute, `fallback` when absent. */
int64_t cpp_int_attr(MlirOperation op, const char *name, int64_t fallback);

/* ---- translation (Translate.c, AievecOps.c) ----------------------------- */

/* Emits one op and its trailing ";\n" or "\n". */
bool cpp_emit_op(cpp_emitter *e, MlirOperation op, bool semicolon);
/* Does the op translate to nothing (its result renamed, or an unused
 * constant)? May name values, as the anchor does. */
bool cpp_skipped(cpp_emitter *e, MlirOperation op, bool check_liveness);
/* The element position of memref[indices] as the anchor writes it:
 * "2046*v10+v18", a dynamic size as its parameter ("m5*v16+v23"); the
 * memref is operand `memref_at`, its indices follow from `first_index`. */
bool cpp_linear_access(cpp_emitter *e, MlirOperation op, intptr_t memref_at,
                       intptr_t first_index, npuc_sb *access);
/* The aievec / aievec_aie1 ops: 1 emitted, 0 failed (reported), -1 when
 * `op` is none of them. */
int cpp_emit_aievec_op(cpp_emitter *e, MlirOperation op);

#endif
