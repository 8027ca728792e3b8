/* Tx8Group: what one tx8be.group of the post-grouping IR (the TX8
 * pipeline contract, docs/tx8.md) asks of a tile: the SPM buffers it
 * fills (one per load_var, channel_norm and the compute op's result), in
 * which layout, which part of each one output slice reads, and how many
 * SPM bytes one temporal slice takes. The tx8-sharding pass sizes the
 * split with it and the code generator emits the tile loop from it, so
 * both agree on every buffer. Reads MLIR (through Tx8Ir.h); errors are
 * located at the op. */
#ifndef NPUC_TX8_GROUP_H
#define NPUC_TX8_GROUP_H

#include "npuc/Tx8Ir.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  NPUC_TX8_BUF_LOAD,   /* tx8be.load_var of a group input */
  NPUC_TX8_BUF_NORM,   /* tx8be.channel_norm of another buffer */
  NPUC_TX8_BUF_RESULT, /* the compute op's result */
} npuc_tx8_buf_kind;

typedef struct {
  npuc_tx8_buf_kind kind;
  MlirOperation op; /* the op defining the buffer's value */
  MlirValue value;
  npuc_tx8_shape shape; /* the whole tensor */
  npuc_tx8_dtype dtype;
  npuc_tx8_layout_mode mode;                  /* its layout in SPM */
  npuc_tx8_window windows[NPUC_TX8_MAX_RANK]; /* from an output slice */
  int source; /* LOAD: the group operand; NORM: the buffer converted */
  bool has_windows;
} npuc_tx8_buffer;

#define NPUC_TX8_MAX_BUFFERS 16
#define NPUC_TX8_MAX_STORES 4

typedef struct {
  MlirOperation group, compute;
  char compute_name[64]; /* "tx8be.add" */
  npuc_tx8_slice_op slice;
  int num_buffers;
  npuc_tx8_buffer buffers[NPUC_TX8_MAX_BUFFERS];
  int operand_buffer[NPUC_TX8_MAX_OPERANDS]; /* tensor operand -> buffer */
  bool has_bias; /* gemm/conv: operand 2 is a tensor, not tx8be.none */
  int result_buffer;
  int num_stores;
  struct {
    MlirOperation op;
    int buffer; /* what is stored */
    int result; /* into which group result */
  } stores[NPUC_TX8_MAX_STORES];
  float epsilon; /* batchnorm */
} npuc_tx8_group_plan;

/* Analyses `group`. False after a located error naming the op and the
 * reason: an op the code generator does not support, an unsupported
 * dtype or shape, an operand not in SPM, a layout conflict. */
bool npuc_tx8_group_plan_build(MlirOperation group, npuc_tx8_group_plan *p);

/* Reads the attributes of compute op `op` (named `name`) that its slice
 * rule and runtime call need into `s` (reduce axes, softmax axis,
 * transpose permutation, clip bounds) and `epsilon` (layernorm; 1e-5 when
 * absent). s->kind, operands and result must be set. False after a
 * located error. lib/TX8/OpParams.c. */
bool npuc_tx8_read_op_params(MlirOperation op, const char *name,
                             npuc_tx8_slice_op *s, float *epsilon);
/* Whether one of those ops has an i8 form in the op library: the moves
 * (transpose, broadcast, concat, slice), clip, reduce_max, reduce_min and
 * max_pool. */
bool npuc_tx8_op_takes_i8(const npuc_tx8_slice_op *s, const char *name);

/* SPM bytes one temporal slice of `out_slice` (per output dimension)
 * takes: every buffer at its largest, plus the compute op's scratch, each
 * on a 2048-bit boundary. `offsets` (may be NULL) receives each buffer's
 * start; offsets[num_buffers] is the scratch's. */
int64_t npuc_tx8_group_spm_bytes(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets);

/* Where the buffers of one temporal slice of `out_slice` sit: the
 * offsets tx8-spm-alloc chose — each buffer's defining op's
 * dev_info.mem_addr[0] and the compute op's imm_addr for its scratch —
 * when every buffer's op has one, else npuc_tx8_group_spm_bytes's bump
 * placement. `offsets` as there (num_buffers + 1 entries). Returns the
 * bytes the placement spans; -1 after a located error (a malformed
 * dev_info, an offset negative or off a 2048-bit boundary). */
int64_t npuc_tx8_group_placement(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets);

/* A group of group_tag 2 without a compute op works in DDR (no load, no
 * store: tx8-group-ldst's reshape groups); nothing to shard or emit. */
bool npuc_tx8_group_is_ddr_only(MlirOperation group);

/* The group's compute op in `group` (the one op the slice rules know),
 * or a null op. */
MlirOperation npuc_tx8_group_compute_op(MlirOperation group);

/* The tiles a group runs on: its dev_region, else the module's
 * tx8be.tile_dx x tx8be.tile_dy, else the target's mesh. 0 after an error
 * (a malformed mesh). */
int32_t npuc_tx8_group_tiles(MlirOperation group, const npuc_tx8_target *t);

/* ---- small MLIR helpers the TX8 passes and emitter share
 * ---------------------- */

/* The op's name as a NUL-terminated copy in `buf`. */
const char *npuc_tx8_op_name(MlirOperation op, char *buf, size_t cap);
/* A ranked tensor type's shape; false for anything else or rank > 8. */
bool npuc_tx8_shape_of(MlirType t, npuc_tx8_shape *s);

#endif
