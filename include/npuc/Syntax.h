/* The syntax engine: moves text between the custom syntax of table-described
 * ops (and IR printed by older MLIR) and what MLIR 22 parses and prints.
 *
 * To MLIR: custom syntax of our ops becomes MLIR's generic op form, each op
 * still starting on its original line, with an explicit loc(file:line:col),
 * so every MLIR diagnostic points at the user's source. Legacy upstream forms
 * are modernised (see npuc_source_form).
 * From MLIR: the generic printout of our ops becomes their custom syntax
 * again, and legacy forms are restored when the input used them. */
#ifndef NPUC_SYNTAX_H
#define NPUC_SYNTAX_H

#include "npuc/Diagnostics.h"
#include "npuc/OpTable.h"
#include <stdbool.h>
#include <stddef.h>

/* Which older-MLIR forms the input used, so they are printed back alike. */
typedef struct {
  /* `bufferization.to_tensor %m ... : memref<..>` without `to tensor<..>` */
  bool legacy_to_tensor;
  /* `#dlti.target_system_spec<"NPU" : #hacc.target_device_spec<
   *    #dlti.dl_entry<"K", V>, ...>>` */
  bool legacy_target_spec;
  /* Upstream ops older MLIR had (LegacyOps.c): linalg.elemwise_unary/
   * binary, linalg.[batch_]matmul_transpose_a/b, bufferization.to_memref,
   * vector.extractelement/insertelement/splat. */
  bool legacy_elemwise;
  bool legacy_matmul_transpose;
  bool legacy_to_memref;
  bool legacy_vector;
  /* scf.forall {mapping = [#hivm.block]}, which MLIR 22 reads only as
   * npuc.forall_mapping (MLIR wants a device-mapping attribute). */
  bool forall_mapping;
  /* A type written without its prefix where the format allows it
   * (stripped-type: ascend_dpx.store's `: <1>, ...` for `!llvm.ptr<1>`). */
  bool stripped_types;
} npuc_source_form;

/* Maps positions in the rewritten text back to the user's source. */
typedef struct npuc_srcmap npuc_srcmap;

typedef struct {
  const npuc_op_registry *registry;
  const char *filename; /* for loc() and diagnostics */
  int first_line;       /* line of the first byte of `text` in the file */
  const npuc_diag_sink *sink;
  /* Optional: does `text` parse on its own, as a type (`is_type`) or an
   * attribute, without any diagnostic? Types and attributes with
   * parameters that the engine writes for MLIR and that do are defined
   * once, as aliases before the first line's text, and referred to by
   * name: MLIR then parses each distinct one once, not at every op
   * (docs/syntax-engine.md, "Performance"). */
  bool (*parses_alone)(void *user, const char *text, size_t len, bool is_type);
  void *parses_alone_user;
} npuc_syntax_options;

/* Returns malloc'd, NUL-terminated text for MLIR, or NULL after reporting
 * errors on the sink. `form` and `map` (optional) receive what was seen. */
char *npuc_syntax_to_mlir(const npuc_syntax_options *opts, const char *text,
                          size_t len, npuc_source_form *form,
                          npuc_srcmap **map);

/* Returns malloc'd text with our ops in custom syntax. Never fails on MLIR's
 * own output; an op it cannot render stays in generic form. */
char *npuc_syntax_from_mlir(const npuc_op_registry *registry, const char *text,
                            size_t len, const npuc_source_form *form,
                            size_t *out_len);

/* Position in rewritten text -> position in the original source. */
void npuc_srcmap_lookup(const npuc_srcmap *map, int line, int col,
                        int *orig_line, int *orig_col);
void npuc_srcmap_free(npuc_srcmap *map);
/* The column a position of the rewritten text had before the alias
 * definitions were put in front of its first line (ToMLIR.c). */
int npuc_srcmap_unprefixed_col(const npuc_srcmap *map, int line, int col);

#endif
