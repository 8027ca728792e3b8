/* Tx8Group: what one tx8be.group of the post-grouping IR (the TX8
 * pipeline contract, docs/tx8.md) asks of a tile: the SPM buffers it
 * fills (one per load_var, channel_norm and compute op result, plus the
 * parts of a buffer an op reads when it reads less than the buffer holds),
 * in which layout, which part of each one slice of the anchor output
 * reads, the steps a slice runs (loads, channel_norms, compute ops,
 * stores, in the group's order) and each buffer's lifetime over them, and
 * how many SPM bytes one temporal slice takes. A group holds a DAG of
 * compute ops: intermediates stay in SPM. The tx8-sharding pass sizes the
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
  NPUC_TX8_BUF_LOAD,    /* tx8be.load_var of a group input */
  NPUC_TX8_BUF_NORM,    /* tx8be.channel_norm of another buffer */
  NPUC_TX8_BUF_RESULT,  /* a compute op's result */
  NPUC_TX8_BUF_EXTRACT, /* the part of `source` one reader needs (SPM copy) */
  /* fp32 partial sums of the reduce-split gemm (`op`) across its K slices,
   * of its result's shape and windows; lives over every step. */
  NPUC_TX8_BUF_PSUM,
} npuc_tx8_buf_kind;

typedef struct {
  npuc_tx8_buf_kind kind;
  MlirOperation op; /* the op defining the buffer's value */
  MlirValue value;
  npuc_tx8_shape shape; /* the whole tensor */
  npuc_tx8_dtype dtype;
  npuc_tx8_layout_mode mode;                  /* its layout in SPM */
  npuc_tx8_window windows[NPUC_TX8_MAX_RANK]; /* from an anchor slice */
  int source; /* LOAD: the group operand; NORM, EXTRACT: the buffer read */
  bool has_windows;
  /* The same in every slice (a load or channel_norm whose windows are all
   * whole: weights, [C] vectors): the code generator fills it once,
   * before the slice loop. */
  bool invariant;
  /* The same in every slice of a tile under the group's decision: a load
   * or channel_norm (or extract) whose windows follow only anchor
   * dimensions a tile does not split in time (the weight of a gemm split
   * in time along its rows only). Filled once per tile before the slice
   * loop, like an invariant one; set by npuc_tx8_group_plan_build from the
   * decision written on the anchor's op (tile_parallel, dev_info), else
   * false. */
  bool resident;
  /* Lifetime over the plan's steps (for an SPM allocator): written at
   * step `first_step`, last read at `last_step` (a store included); an
   * invariant buffer lives over every step (0 to num_steps - 1). */
  int first_step, last_step;
  /* A buffer whose bytes this one may take over (-1: none): the operand
   * 0 of a mem_inplace op, dead after it, of the same size and layout. */
  int inplace_of;
  /* A load whose only reader is a channel_norm: the channel_norm's buffer
   * its DMA fills directly (the DMA converts layouts; no SPM copy), whose
   * lifetime then starts at the load; -1 otherwise. The load's own
   * buffer is then unused and takes no bytes. */
  int load_into;
} npuc_tx8_buffer;

/* One compute op of the group. */
typedef struct {
  MlirOperation op;
  char name[64]; /* "tx8be.add" */
  npuc_tx8_slice_op slice;
  int operand_buffer[NPUC_TX8_MAX_OPERANDS]; /* tensor operand -> buffer */
  bool has_bias; /* gemm/conv: operand 2 is a tensor, not tx8be.none */
  int result;    /* its buffer */
  float epsilon; /* batchnorm */
} npuc_tx8_group_op;

typedef enum {
  NPUC_TX8_STEP_LOAD,    /* index: the buffer loaded */
  NPUC_TX8_STEP_NORM,    /* index: the buffer converted into */
  NPUC_TX8_STEP_EXTRACT, /* index: the buffer copied into */
  NPUC_TX8_STEP_COMPUTE, /* index: the op (ops[]) */
  NPUC_TX8_STEP_STORE,   /* index: the store (stores[]) */
} npuc_tx8_step_kind;

typedef struct {
  npuc_tx8_step_kind kind;
  int index;
} npuc_tx8_step;

#define NPUC_TX8_MAX_BUFFERS 128
#define NPUC_TX8_MAX_GROUP_OPS 64
#define NPUC_TX8_MAX_STORES 16
#define NPUC_TX8_MAX_STEPS                                                     \
  (NPUC_TX8_MAX_BUFFERS + NPUC_TX8_MAX_GROUP_OPS + NPUC_TX8_MAX_STORES)

typedef struct {
  MlirOperation group;
  /* The anchor: the stored buffer defined last (without stores, the last
   * op's result). Its shape drives the temporal loop; its compute op
   * carries the sharding decision (tile_parallel, dev_info). */
  int anchor;
  MlirOperation compute; /* the anchor's compute op */
  char compute_name[64];
  npuc_tx8_shape out; /* the anchor's shape */
  /* Anchor dimensions every op allows to split across tiles (shard) and
   * in time (split): a dimension some op needs whole is in neither. */
  uint32_t shard_axes, split_axes;
  int num_ops;
  npuc_tx8_group_op ops[NPUC_TX8_MAX_GROUP_OPS];
  int num_buffers;
  npuc_tx8_buffer buffers[NPUC_TX8_MAX_BUFFERS];
  int num_steps;
  npuc_tx8_step steps[NPUC_TX8_MAX_STEPS];
  /* The reduce (K) split: the gemm or conv (ops[]) whose K (a conv's
   * input channels) goes in slices of
   * reduce_slice (of reduce_len) inside each anchor slice, -1 for none.
   * The windows of its K-split operands (and the loads / channel_norms
   * that fill them) follow a virtual anchor dimension out.rank, the K
   * slice; their steps run in a K loop ending at the gemm, which
   * accumulates into the PSUM buffer `psum`; what follows the gemm runs
   * on the last K slice. */
  int reduce_op, psum;
  int32_t reduce_len, reduce_slice;
  /* The reduce split across tiles (the gemm's i64 `reduce_sharding`; 1:
   * none): a team of reduce_ways consecutive tiles shares each part of
   * the output, tile t of the team computing K part t (ceil(reduce_len /
   * reduce_ways) long) in K slices; their partial sums are summed into
   * the team's first tile (op_psum_reduce), which runs the rest. */
  int32_t reduce_ways;
  int num_stores;
  struct {
    MlirOperation op;
    int buffer; /* what is stored */
    int result; /* into which group result */
  } stores[NPUC_TX8_MAX_STORES];
} npuc_tx8_group_plan;

/* Analyses `group`. False after a located error naming the op and the
 * reason: an op the code generator does not support, an unsupported
 * dtype or shape, an operand not in SPM, a layout conflict. */
bool npuc_tx8_group_plan_build(MlirOperation group, npuc_tx8_group_plan *p);

/* Whether buffer `i` is the same in every temporal slice of a tile when
 * the anchor is sharded `sharding` ways and cut into slices of `slice`
 * (per anchor dimension): invariant, or a load / channel_norm / extract of
 * such buffers whose windows follow only anchor dimensions whose slice
 * covers the tile's part, when a tile has several slices. Such a buffer
 * is loaded once per tile. */
bool npuc_tx8_buffer_resident(const npuc_tx8_group_plan *p, int i,
                              const int32_t *sharding, const int32_t *slice);

/* How many of the group's tiles read load buffer `i` the same under
 * `sharding` and `slice` (0: it is not shared): the tiles whose parts
 * differ only along sharded anchor dimensions none of its windows follows
 * (a weight every tile needs whole: all of them; under rows x columns, a
 * row slice of `a`: the tiles of its rows, a weight's column part: the
 * tiles of its columns). Those dimensions must be consecutive among the
 * sharded ones, so the tiles' numbers are `*stride` apart
 * (npuc_tx8_tile_region numbers them with the last dimension fastest).
 * A buffer filled per slice is shared only when every tile walks the same
 * slices (each sharded dimension divides evenly). Such a load is read once
 * from DDR and shared over the NoC (op_dma_load_shared_among). */
int32_t npuc_tx8_buffer_shared(const npuc_tx8_group_plan *p, int i,
                               const int32_t *sharding, const int32_t *slice,
                               int32_t *stride);

/* Filled once per tile, before the slice loop (invariant or resident). */
static inline bool npuc_tx8_buffer_once(const npuc_tx8_buffer *b) {
  return b->invariant || b->resident;
}

/* The gemm or conv of `p` (built without a reduce split) whose K may be
 * split with partial sums: the group's only NE op — a gemm not batched
 * nor transpose_a (K: a's columns), or a conv not grouped (K: its input
 * channels, the weight's I) — its operands 0 and 1 each filled by a load
 * (through channel_norms) nothing else reads, a result of rank below 8;
 * -1 if none. */
int npuc_tx8_group_reduce_candidate(const npuc_tx8_group_plan *p);

/* Which dimension of operand `operand` (0 or 1) of a gemm or conv is K:
 * a's last, b's first (its last transposed); a conv's input's and
 * weight's last (NHWC's C, HWOI's I). */
int npuc_tx8_reduce_dim(const npuc_tx8_slice_op *s, int operand);

/* npuc_tx8_group_plan_build with gemm `op` (npuc_tx8_group_reduce_
 * candidate's) reduce-split in slices of `k_slice` (below its K), as the
 * gemm's i64 attribute `reduce_split` says once tx8-sharding chose it. */
bool npuc_tx8_group_plan_build_reduce(MlirOperation group, int op,
                                      int32_t k_slice, npuc_tx8_group_plan *p);

/* A tile's part of K under the reduce split across tiles, and how many
 * K slices a tile runs. */
int32_t npuc_tx8_reduce_part(const npuc_tx8_group_plan *p);
int32_t npuc_tx8_reduce_slices(const npuc_tx8_group_plan *p);

/* Whether buffer `i` is filled once per K slice (its windows follow the
 * virtual K dimension). */
bool npuc_tx8_buffer_in_reduce(const npuc_tx8_group_plan *p, int i);

/* Reads the attributes of compute op `op` (named `name`) that its slice
 * rule and runtime call need into `s` (reduce axes, softmax axis,
 * transpose permutation, clip bounds) and `epsilon` (layernorm; 1e-5 when
 * absent). s->kind, operands and result must be set. False after a
 * located error. lib/TX8/OpParams.c. */
bool npuc_tx8_read_op_params(MlirOperation op, const char *name,
                             npuc_tx8_slice_op *s, float *epsilon);
/* The op's i64 array attribute `name` if it has exactly n entries. */
bool npuc_tx8_read_i64_array(MlirOperation op, const char *name, int n,
                             int64_t *out);
/* Whether one of those ops has an i8 form in the op library: the moves
 * (transpose, broadcast, concat, slice), clip, reduce_max, reduce_min and
 * max_pool. */
bool npuc_tx8_op_takes_i8(const npuc_tx8_slice_op *s, const char *name);

/* SPM bytes one temporal slice of `out_slice` (per anchor dimension)
 * takes: every buffer at its largest, plus the largest scratch of its ops
 * (batchnorm's), each on its own 2048-bit boundary (no reuse: the SPM
 * allocator's job). `offsets` (may be NULL, else num_buffers + 1 entries)
 * receives each buffer's start; offsets[num_buffers] is the scratch's. */
int64_t npuc_tx8_group_spm_bytes(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets);

/* Which entry of its defining op's dev_info.mem_addr holds buffer `i`:
 * an op may define several buffers (its result and extracts of it); the
 * k-th of them in buffer order is entry k. */
int npuc_tx8_buffer_addr_slot(const npuc_tx8_group_plan *p, int i);

/* The decision tx8-sharding wrote on the group's anchor op: its
 * tile_parallel shape_spatial_sharding and dev_info temporal_mem_slice,
 * copied unchecked into `sharding` and `slice` (out.rank entries each).
 * ABSENT when either is missing or not of the output's rank; MALFORMED
 * after a located error. */
npuc_tx8_attr_status npuc_tx8_group_decision(const npuc_tx8_group_plan *p,
                                             int64_t *sharding, int64_t *slice);

/* Where the buffers of one temporal slice of `out_slice` sit: the
 * offsets tx8-spm-alloc chose — each buffer's entry of its defining
 * op's dev_info.mem_addr (npuc_tx8_buffer_addr_slot) and the anchor's
 * compute op's imm_addr for the scratch —
 * when every buffer's op has one, else npuc_tx8_group_spm_bytes's bump
 * placement. `offsets` as there (num_buffers + 1 entries). Returns the
 * bytes the placement spans; -1 after a located error (a malformed
 * dev_info, an offset negative or off a 2048-bit boundary). */
int64_t npuc_tx8_group_placement(const npuc_tx8_group_plan *p,
                                 const int32_t *out_slice, int64_t *offsets);

/* SPM bytes buffer `i` takes at its largest for anchor slices of
 * `out_slice` (2048-bit aligned): what an SPM allocator places; 0 for a
 * load filled straight into its channel_norm's buffer (load_into). */
int64_t npuc_tx8_group_buffer_bytes(const npuc_tx8_group_plan *p, int i,
                                    const int32_t *out_slice);

/* A group of group_tag 2 without a compute op works in DDR (no load, no
 * store: tx8-group-ldst's reshape groups); nothing to shard or emit. */
bool npuc_tx8_group_is_ddr_only(MlirOperation group);

/* The group's first compute op (one the slice rules know), or a null
 * op. */
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
/* The shape and dtype of a value TX8 keeps in SPM or DDR: a static tensor
 * of rank 1 to 8 of f16, bf16, f32 or i8. False after an error at `where`
 * "<who>: unsupported shape<what>: ..." (or dtype). */
bool npuc_tx8_value_layout_type(MlirOperation where, MlirValue v,
                                const char *who, const char *what,
                                npuc_tx8_shape *s, npuc_tx8_dtype *dt);

#endif
