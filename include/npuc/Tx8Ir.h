/* Tx8Ir: the tx8be facts the TX8 passes read off MLIR operations — the
 * structured attributes (dev_info) as C structs, an op's library metadata
 * (queryOpAttr), element types as layout dtypes, the module's tile mesh
 * and the target description a pass runs for. TX8.h has the MLIR-free
 * parts these build on. */
#ifndef NPUC_TX8_IR_H
#define NPUC_TX8_IR_H

#include "npuc/TX8.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  NPUC_TX8_ATTR_ABSENT,
  NPUC_TX8_ATTR_PRESENT,
  NPUC_TX8_ATTR_MALFORMED, /* an error is emitted at the op */
} npuc_tx8_attr_status;

/* The op's `dev_info`. */
npuc_tx8_attr_status npuc_tx8_op_dev_attr(MlirOperation op,
                                          npuc_tx8_dev_attr *out);
void npuc_tx8_op_set_dev_attr(MlirOperation op, const npuc_tx8_dev_attr *a);
/* A dev_attr saying only where the data lives: `mem_layout`, one buffer,
 * everything else zero or empty. */
npuc_tx8_dev_attr npuc_tx8_dev_attr_with_layout(npuc_tx8_layout_mode mode);
/* The op's #tx8be.parallel_attr named `name` (tile_parallel,
 * chip_parallel). */
npuc_tx8_attr_status npuc_tx8_op_parallel_attr(MlirOperation op,
                                               const char *name,
                                               npuc_tx8_parallel_attr *out);
void npuc_tx8_op_set_parallel_attr(MlirOperation op, const char *name,
                                   const npuc_tx8_parallel_attr *a);
/* The memory layout of an op's result: its dev_info's; without one, the
 * layout a channel_norm converts to, else Tensor. */
npuc_tx8_layout_mode npuc_tx8_op_mem_layout(MlirOperation op);
/* The `layout` (#tx8be.layout_mode<NCx>) of a tx8be.channel_norm. */
bool npuc_tx8_channel_norm_layout(MlirOperation op, npuc_tx8_layout_mode *out);

/* The function argument attribute saying a graph input lies in DDR in an
 * aligned layout, tx8be.ddr_layout = "Cx" (tx8-const-norm sets it on
 * gemm weights; the host lays the compact file out so). */
#define NPUC_TX8_ARG_DDR_LAYOUT_ATTR "tx8be.ddr_layout"
/* The DDR layout of a value a group reads, as the code generator places
 * it: a graph input's tx8be.ddr_layout (compact without one), a
 * load_const's container entry (its dev_info's aligned layout when the
 * entry is that layout's image, else compact); anything else compact (a
 * group's result: its store_var says). */
npuc_tx8_layout_mode npuc_tx8_value_ddr_layout(MlirValue v);

/* The library metadata of `op` by its name; .known is false for ops that
 * are not tx8be ops. */
npuc_tx8_op_attr npuc_tx8_query_op(MlirOperation op);
/* Bit `index` of a need_load/need_store mask (the masks cover 64 operands;
 * later ones read bit 63). */
bool npuc_tx8_mask_bit(uint64_t mask, intptr_t index);

/* The layout dtype of an element type (f16, bf16, f32, i8/si8/ui8). */
bool npuc_tx8_dtype_of_type(MlirType element, npuc_tx8_dtype *out);

/* The module's tile mesh, `tx8be.tile_dx`/`tx8be.tile_dy`, each defaulting
 * to the target's mesh when absent. False, with an error at the module, if
 * one is not a positive integer. */
bool npuc_tx8_module_tile_mesh(MlirOperation module, const npuc_tx8_target *t,
                               int32_t *dx, int32_t *dy);

/* The target description of a pass: the built-in one, overridden by the
 * YAML file `config_path` unless it is empty. False, with an error at
 * `anchor` naming the file's first problem, when the file is unusable. */
bool npuc_tx8_pass_target(MlirOperation anchor, const char *pass,
                          const char *config_path, npuc_tx8_target *out);

#endif
