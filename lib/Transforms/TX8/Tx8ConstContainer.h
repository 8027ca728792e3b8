/* The TX8 constant container (the seed's ConstContainer): the data of every
 * constant of a module, in the module attribute
 *   tx8be.const_container = [dense<...> : tensor<...>, ...]
 * whose index is the const_map_id of the tx8be.load_const ops reading it.
 * An entry holds the bytes as they lie in DDR: a constant in a compact
 * layout (Tensor/NTensor) has its logical shape; one in an aligned layout
 * (Cx/NCx, its load_consts' dev_info says which) is the rank-1 image of
 * that layout, padding included (docs/passes/tx8-const-norm.md).
 * tx8-move-constant fills it, tx8-const-norm rewrites it. */
#ifndef NPUC_TRANSFORMS_TX8_CONST_CONTAINER_H
#define NPUC_TRANSFORMS_TX8_CONST_CONTAINER_H

#include "Tx8Graph.h"
#include "npuc/Tx8Ir.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TX8_CONST_CONTAINER_ATTR "tx8be.const_container"

typedef struct {
  MlirAttribute *values;
  size_t count, cap;
} tx8_const_container;

/* What the container passes start from: the target description `config`
 * names (the built-in one when empty), the module's tile mesh and its
 * container `c` (empty when it has none), and *threshold_bytes, the size
 * over which a constant is "large" and ordered first: a DDR bank per tile
 * of the mesh (4 KiB x 16 by default). False after a located error naming
 * `pass`, e.g. when the container is not an array of dense integer or
 * float elements. */
bool tx8_container_open(MlirOperation module, const char *pass,
                        const char *config, tx8_const_container *c,
                        int64_t *threshold_bytes);
/* Appends a value; returns its index. */
size_t tx8_container_add(tx8_const_container *c, MlirAttribute value);
/* Keeps the entries marked live, those over `threshold_bytes` first (the
 * seed's updateConstContainer), each class in its present order, and
 * stores the result on the module (a module that had no container and
 * has no entries is left without one). Returns the new index of every old one
 * (-1: dropped), malloc'd, or NULL when out of memory. */
int32_t *tx8_container_commit(MlirOperation module, tx8_const_container *c,
                              const bool *live, int64_t threshold_bytes);
void tx8_container_free(tx8_const_container *c);

/* Bytes an entry occupies in DDR. */
int64_t tx8_container_entry_bytes(MlirAttribute value);

int32_t tx8_load_const_id(MlirOperation load_const);
void tx8_set_load_const_id(MlirOperation load_const, int32_t id);

/* The bytes of `value` (the data of a tensor of `type`, laid out in
 * `from`) laid out in `to` instead: what op_channel_norm of the C model
 * gives. The result is of `type` for a compact `to`, else the rank-1
 * image. False with `why` set when the element type has no TX8 layout or
 * the sizes do not fit. */
bool tx8_relayout(MlirAttribute value, MlirType type, npuc_tx8_layout_mode from,
                  npuc_tx8_layout_mode to, MlirAttribute *out,
                  const char **why);

/* ---- Weights in DDR (opt_ddr, issue 18; docs/tx8.md "Weights in DDR"):
 * tx8-const-norm lays the weights a gemm reads out in Cx (64-column
 * blocks, each block's rows contiguous), the order a tile's column part
 * is read in; npuc_tx8_value_ddr_layout (Tx8Ir.h) reads the result. */

/* Sets the tx8be.ddr_layout of argument `arg` of function `func`. */
void tx8_set_arg_ddr_layout(MlirOperation func, intptr_t arg,
                            npuc_tx8_layout_mode mode);
/* True when every use of `v` (at least one) reads it as the weight of a
 * tx8be.gemm (operand 1, not transpose_b), directly or through
 * channel_norms to an aligned layout, and `v` is rank 2. */
bool tx8_value_is_gemm_weight(MlirValue v);

#endif
