/* TX8: what the tx8be passes and code generator ask of the target, kept
 * out of the passes (docs/tx8.md):
 *   - the target description: tile mesh, memories, engine rates
 *     (lib/TX8/tx8_target.yaml spells out the built-in one);
 *   - the op library's per-op metadata, the seed's queryOpAttr, read from
 *     the `library:` entries of the tx8be op table;
 *   - shape and layout inference, by the rule each op's `infer:` entry
 *     names;
 *   - reading and printing the structured attributes (dev_attr, ...).
 * Plain C and libyaml; no MLIR. */
#ifndef NPUC_TX8_H
#define NPUC_TX8_H

#include "npuc/Diagnostics.h"
#include "npuc/Tx8Runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- target description -----------------------------------------------------
 */

/* NPUC_TX8_TARGET_DEFAULT. */
npuc_tx8_target npuc_tx8_target_builtin(void);

/* Overrides the fields of *t that a target YAML (the schema of
 * tx8_target.yaml; any subset of its keys) sets. False, with a diagnostic
 * at the offending line, on malformed YAML, an unknown key or a value that
 * is not a positive number; *t is then unchanged. */
bool npuc_tx8_target_load_yaml(npuc_tx8_target *t, const char *yaml, size_t len,
                               const char *filename,
                               const npuc_diag_sink *sink);
bool npuc_tx8_target_load_file(npuc_tx8_target *t, const char *path,
                               const npuc_diag_sink *sink);

/* ---- op library metadata (queryOpAttr)
 * ---------------------------------------- */

typedef enum {
  NPUC_TX8_ALIGN_UNKNOWN, /* does not care how its data is laid out */
  NPUC_TX8_ALIGN_COMPACT, /* Tensor/NTensor only */
  NPUC_TX8_ALIGN_ALIGNED, /* Cx/NCx only (the seed's NPU_ALIGN) */
  NPUC_TX8_ALIGN_BOTH,
} npuc_tx8_align_mode;

typedef enum {
  NPUC_TX8_ENGINE_CT,    /* CGRA tensor engine */
  NPUC_TX8_ENGINE_NE,    /* neural engine */
  NPUC_TX8_ENGINE_LOAD,  /* RDMA */
  NPUC_TX8_ENGINE_STORE, /* WDMA */
  NPUC_TX8_ENGINE_TDMA,
  NPUC_TX8_ENGINE_NONE, /* structure, no code of its own */
} npuc_tx8_engine;

typedef enum {
  NPUC_TX8_DEFAULT_TENSOR,
  NPUC_TX8_DEFAULT_NTENSOR,
  NPUC_TX8_DEFAULT_BY_BATCH, /* Tensor when operand 0's dim 0 is 1, else NTensor
                              */
} npuc_tx8_default_layout;

/* How an op's result shape follows from its operands (npuc_tx8_infer_shape). */
typedef enum {
  NPUC_TX8_SHAPE_SAME,      /* operand 0's */
  NPUC_TX8_SHAPE_BROADCAST, /* numpy broadcast of operands 0 and 1 */
  NPUC_TX8_SHAPE_GEMM,
  NPUC_TX8_SHAPE_CONV,
  NPUC_TX8_SHAPE_TRANSPOSE,
  NPUC_TX8_SHAPE_GIVEN, /* stated by the op (reshape, constant, call) */
  NPUC_TX8_SHAPE_TUPLE,
  NPUC_TX8_SHAPE_NONE, /* no tensor result */
} npuc_tx8_shape_rule;

/* How an op's layout_str follows (layoutTransmitPass). */
typedef enum {
  NPUC_TX8_LAYOUT_SAME,    /* operand 0's */
  NPUC_TX8_LAYOUT_SOURCE,  /* set by layoutInitPass (gemm, conv); propagation
                              starts here */
  NPUC_TX8_LAYOUT_STOP,    /* propagation stops (reshape, broadcast) */
  NPUC_TX8_LAYOUT_PERMUTE, /* operand 0's, permuted (transpose) */
  NPUC_TX8_LAYOUT_NONE,
} npuc_tx8_layout_rule;

typedef struct {
  bool known; /* false: no such tx8be op; the rest are the seed's defaults */
  npuc_tx8_align_mode align_mode;
  npuc_tx8_default_layout default_layout;
  bool need_preset_to_npu;
  npuc_tx8_engine engine;
  bool mem_inplace;
  uint64_t need_load;  /* bit i: operand i needs a load */
  uint64_t need_store; /* bit i: result i needs a store */
  bool parallel;
  bool align_cx;
  npuc_tx8_shape_rule shape_rule;
  npuc_tx8_layout_rule layout_rule;
} npuc_tx8_op_attr;

/* The metadata of op `name` ("tx8be.gemm") in the built-in tx8be table.
 * The table is read once; a table error is reported on stderr and every
 * op then reads as unknown. */
npuc_tx8_op_attr npuc_tx8_query_op_attr(const char *name);

/* The layout an op's data takes by default, given operand 0's dim 0. */
npuc_tx8_layout_mode npuc_tx8_default_layout_of(const npuc_tx8_op_attr *a,
                                                int64_t batch);

/* A library read from an op table's text (tests, --op-table overrides). */
typedef struct npuc_tx8_op_library npuc_tx8_op_library;
npuc_tx8_op_library *npuc_tx8_op_library_load(const char *yaml, size_t len,
                                              const char *filename,
                                              const npuc_diag_sink *sink);
npuc_tx8_op_attr npuc_tx8_op_library_query(const npuc_tx8_op_library *lib,
                                           const char *name);
size_t npuc_tx8_op_library_size(const npuc_tx8_op_library *lib);
void npuc_tx8_op_library_destroy(npuc_tx8_op_library *lib);

/* ---- structured attributes
 * ------------------------------------------------------- The opaque attributes
 * tx8be ops carry in their attribute dictionary, in the seed's ODS
 * `struct(params)` form: every field, `name = value`, comma-separated, in any
 * order when read and in the order below when printed (docs/tx8.md):
 *   #tx8be.parallel_attr<parallel = dp, is_dp_inner = true, dp_dim_x = 1,
 *     dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1,
 *     sharding_is_given = false, shape_spatial_sharding = [1, 1, 1, 1]>
 *   #tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = false,
 *     multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [1, 64],
 *     source_type = 0, imm_addr = 0, mem_addr = [0]>
 *   #tx8be.region_attr<tile_dx = 4, tile_dy = 4>  (GroupOp's dev_region) */

#define NPUC_TX8_MAX_LIST 8

typedef struct {
  int32_t len;
  int64_t v[NPUC_TX8_MAX_LIST];
} npuc_tx8_list;

typedef enum {
  NPUC_TX8_PAR_NONE,  /* none */
  NPUC_TX8_PAR_DP,    /* dp: data parallel */
  NPUC_TX8_PAR_TP,    /* tp: tensor parallel */
  NPUC_TX8_PAR_DP_TP, /* dp_tp: both */
} npuc_tx8_parallel_mode;

typedef struct {
  npuc_tx8_parallel_mode parallel;
  bool is_dp_inner;  /* the dp dimension is inner, else tp */
  int32_t dp_dim[3]; /* data parallel ways along x, y, z */
  int32_t tp_dim[3]; /* tensor parallel ways along x, y, z */
  bool sharding_is_given;
  npuc_tx8_list shape_spatial_sharding; /* ways per tensor dimension */
} npuc_tx8_parallel_attr;

typedef struct {
  uint64_t imm_size; /* scratch bytes the op needs */
  npuc_tx8_layout_mode mem_layout;
  bool multi_buf_en; /* double buffering */
  int32_t multi_buf_num;
  npuc_tx8_list out_shape_buf_idx;
  npuc_tx8_list temporal_mem_slice; /* the shape one tile handles per step */
  int32_t source_type;              /* software pipeline stage */
  int64_t imm_addr;
  npuc_tx8_list mem_addr; /* one address per buffer */
} npuc_tx8_dev_attr;

typedef struct {
  int32_t tile_dx, tile_dy; /* the tile mesh a group runs on */
} npuc_tx8_region_attr;

/* Parse the attribute's text (with or without its `#tx8be.name` prefix).
 * False with a message in `err` on a missing, unknown, repeated or
 * malformed field. */
bool npuc_tx8_parse_parallel_attr(const char *text, size_t len,
                                  npuc_tx8_parallel_attr *out, char *err,
                                  size_t err_cap);
bool npuc_tx8_parse_dev_attr(const char *text, size_t len,
                             npuc_tx8_dev_attr *out, char *err, size_t err_cap);
bool npuc_tx8_parse_region_attr(const char *text, size_t len,
                                npuc_tx8_region_attr *out, char *err,
                                size_t err_cap);
/* Print the full attribute; like snprintf, returns the length needed. */
size_t npuc_tx8_print_parallel_attr(const npuc_tx8_parallel_attr *a, char *buf,
                                    size_t cap);
size_t npuc_tx8_print_dev_attr(const npuc_tx8_dev_attr *a, char *buf,
                               size_t cap);
size_t npuc_tx8_print_region_attr(const npuc_tx8_region_attr *a, char *buf,
                                  size_t cap);

/* ---- shape and layout inference
 * -------------------------------------------------- */

#define NPUC_TX8_MAX_RANK 8

typedef struct {
  int rank;
  int64_t dims[NPUC_TX8_MAX_RANK];
} npuc_tx8_shape;

/* Same rank and dimensions. */
bool npuc_tx8_shape_equal(const npuc_tx8_shape *a, const npuc_tx8_shape *b);

/* The attributes the rules read; unused ones may be left zero/NULL. */
typedef struct {
  bool transpose_a, transpose_b; /* gemm */
  const int64_t *strides;        /* conv: [h, w] */
  const int64_t *pads;           /* conv: [top, bottom, left, right] */
  const int64_t *dilations;      /* conv: [h, w] */
  int64_t group;                 /* conv; 0 means 1 */
  const int64_t *permutation;    /* transpose, rank entries */
} npuc_tx8_infer_attrs;

/* The result shape of an op of `rule` on operand shapes `ops`. False with
 * a message in `err` when the operands do not fit the rule or the rule
 * does not infer (GIVEN, TUPLE, NONE). */
bool npuc_tx8_infer_shape(npuc_tx8_shape_rule rule, const npuc_tx8_shape *ops,
                          int num_ops, const npuc_tx8_infer_attrs *attrs,
                          npuc_tx8_shape *result, char *err, size_t err_cap);

/* The result layout_str of an op of `rule` whose operand 0 has `in`
 * ("NCHW", "Tensor", ...): SAME copies it, PERMUTE permutes the letters
 * of a one-letter-per-dimension layout, SOURCE gives the op's initial
 * layout's last component ("Tensor-Tensor-Tensor" -> "Tensor"; `in` is
 * the op's own layout_str). False when the rule does not propagate. */
bool npuc_tx8_infer_layout(npuc_tx8_layout_rule rule, const char *in,
                           const int64_t *permutation, int rank, char *out,
                           size_t out_cap);

/* ---- layout_str: names, components and memory layouts
 * ---------------------------- layout_str is the middle end's layout of an op's
 * data: `Tensor`/`NTensor`, a CNN layout of one letter per dimension (`NHWC`,
 * `NCHW`, `HWOI`, ...), or for gemm/conv one such name per operand and the
 * result joined by `-`
 * (`NHWC-HWOI-NHWC`: input, weight, result; the bias is not named). */

/* Component `index` of a `-`-joined layout_str (0 when it has no `-`);
 * false when there is no such component or it does not fit `out`. */
bool npuc_tx8_layout_component(const char *layout_str, int index, char *out,
                               size_t out_cap);
int npuc_tx8_layout_num_components(const char *layout_str);

/* Does `name` (one component) name a layout of a rank-`rank` tensor:
 * Tensor, NTensor, or distinct letters of NCHWDOI, one per dimension? */
bool npuc_tx8_layout_name_valid(const char *name, int rank);

/* The memory layout data of layout `name` takes on device: NTensor and
 * layouts whose first letter is N (the batch) take dimension 0 as N
 * (NTensor/NCx), the others fold it (Tensor/Cx); `aligned` picks Cx/NCx.
 * The name must be valid (npuc_tx8_layout_name_valid). */
npuc_tx8_layout_mode npuc_tx8_mem_layout_of(const char *name, bool aligned);

/* `Tensor`, `NTensor`, `Cx` or `NCx` (of `len` bytes) as a mode. */
bool npuc_tx8_layout_mode_parse(const char *text, size_t len,
                                npuc_tx8_layout_mode *out);

/* Do modes a and b place a tensor of `shape` at the same bytes? Tensor and
 * NTensor always do (both compact row-major); Cx and NCx when dimension 0
 * is 1 (or rank < 2), so that there is one batch. */
bool npuc_tx8_layouts_coincide(npuc_tx8_layout_mode a, npuc_tx8_layout_mode b,
                               const int64_t *shape, int rank);

/* Backward layout inference (layoutTransmitPass propagates both ways): the
 * layout operand `operand` of an op of `rule` has when the op's layout_str
 * is `op_layout`. SAME gives the op's layout (for the operands of the
 * result's rank: a lower-rank operand broadcasts and gets none), PERMUTE
 * the inverse permutation, SOURCE the operand's component (gemm/conv
 * name input and weight). False when the rule says nothing about it. */
bool npuc_tx8_infer_operand_layout(npuc_tx8_layout_rule rule,
                                   const char *op_layout, int operand,
                                   int operand_rank, int result_rank,
                                   const int64_t *permutation, char *out,
                                   size_t out_cap);
/* ---- slice rules (the seed's tileShardingSplit / backWindow)
 * --------------------- Which output dimensions of a compute op may be split
 * across tiles (sharding) and in time (split), and which part of each operand
 * one slice of the output reads, as npuc_tx8_window's (Tx8Runtime.h). The
 * tx8-sharding pass and the code generator both use these; lib/TX8/
 * Slice.c has one rule per op family, npuc/Tx8Ops.def each op's family. */

typedef enum {
  NPUC_TX8_KIND_UNARY,     /* relu, gelu, ...: same shape in and out */
  NPUC_TX8_KIND_BINARY,    /* add, sub, mul, div: a rank-1 operand is [C] */
  NPUC_TX8_KIND_BATCHNORM, /* input, then four [C] vectors */
  NPUC_TX8_KIND_GEMM,      /* a, b[, bias] */
  NPUC_TX8_KIND_CONV,      /* input NHWC, weight HWOI[, bias] */
  NPUC_TX8_KIND_CLIP,      /* elementwise with min/max attributes */
  NPUC_TX8_KIND_REDUCE,    /* reduce_*: keepdims over `axes` (whole there) */
  NPUC_TX8_KIND_SOFTMAX,   /* along `axes`' one axis (whole there) */
  NPUC_TX8_KIND_LAYERNORM, /* input, [C] scale, [C] bias; last axis whole */
  NPUC_TX8_KIND_TRANSPOSE, /* out dim i is in dim perm[i] */
  NPUC_TX8_KIND_BROADCAST, /* in dim i is out dim perm[i] (same size or 1) */
  NPUC_TX8_KIND_CONCAT,    /* inputs along `axes`' one axis (whole there) */
  NPUC_TX8_KIND_SLICE,     /* static offsets and strides (sizes: result) */
  NPUC_TX8_KIND_POOL,      /* NHWC; kernel, strides, pads as conv's */

} npuc_tx8_op_kind;

#define NPUC_TX8_MAX_OPERANDS 5

/* What the rules need of one compute op. */
typedef struct {
  npuc_tx8_op_kind kind;
  int num_operands; /* tensor operands; an absent (none) bias is not one */
  npuc_tx8_shape operands[NPUC_TX8_MAX_OPERANDS];
  npuc_tx8_shape result;
  bool transpose_a, transpose_b;                     /* gemm */
  int64_t strides[2], pads[4], dilations[2], groups; /* conv; pads t, b, l, r */
  uint32_t axes; /* reduce: bit d reduces dimension d; softmax: its axis */
  int64_t perm[NPUC_TX8_MAX_RANK]; /* transpose; broadcast: its dims */
  int64_t offsets[NPUC_TX8_MAX_RANK], steps[NPUC_TX8_MAX_RANK]; /* slice */
  int64_t kernel[2]; /* pool (strides and pads above) */

  double clip_min, clip_max; /* clip */
} npuc_tx8_slice_op;

/* A row of npuc/Tx8Ops.def: a tx8be compute op, its family and, for an
 * elementwise op, the C model's enum the code generator passes to
 * op_unary / op_binary (NULL otherwise). */
typedef struct {
  const char *name; /* "tx8be.add" */
  npuc_tx8_op_kind kind;
  const char *runtime_enum; /* "NPUC_TX8_ADD" */
} npuc_tx8_op_def;

/* The row of the tx8be compute op `name`; NULL for any other op. */
const npuc_tx8_op_def *npuc_tx8_op_def_of(const char *name);

/* The op family of a tx8be compute op name; false for any other op. */
bool npuc_tx8_op_kind_of(const char *name, npuc_tx8_op_kind *kind);

/* Checks the operand and result shapes fit the rules (ranks, [C]
 * vectors, matching dimensions). False with the reason in `err`. */
bool npuc_tx8_slice_check(const npuc_tx8_slice_op *op, char *err,
                          size_t err_cap);

/* Bit d: output dimension d may be split across tiles (shard) / into
 * temporal slices (split). BatchNorm shards only C and splits all but C
 * (the seed's tileShardingSplit); gemm shards any dimension of the result
 * (its rows and N) and splits the rows; conv shards N, H and W, splits N
 * and H, and both its output channels unless it is a grouped conv that is
 * not depthwise; elementwise ops any dimension. */
uint32_t npuc_tx8_shard_axes(const npuc_tx8_slice_op *op);
uint32_t npuc_tx8_split_axes(const npuc_tx8_slice_op *op);

/* A conv of as many groups as input and output channels (one channel
 * each): its slices take groups = their channel count. */
bool npuc_tx8_conv_is_depthwise(const npuc_tx8_slice_op *op);

/* The window of each dimension of operand `i` (operands[i].rank of them)
 * for a slice of the output. */
void npuc_tx8_operand_windows(const npuc_tx8_slice_op *op, int i,
                              npuc_tx8_window *w);

#endif
