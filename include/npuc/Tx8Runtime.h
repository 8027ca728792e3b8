/* Tx8Runtime: libnpuc_tx8_rt, a C model of the TX8 op library that code
 * generated for TX8 (main.c: load -> compute -> store per group) calls. It
 * runs on the host: SPM and DDR are host memory, one call models one tile.
 *
 * The entry points keep the vendor library's names (op_dma_load, op_gemm,
 * ...) so generated code reads like the seed's main.c. Each returns the
 * op's cycle estimate (the seed's getOpClockCycle) under the target set by
 * npuc_tx8_rt_set_target; docs/tx8.md gives the cycle model.
 *
 * Tensors are npuc_tx8_tsr: data plus a placement in one of the layouts of
 * Tx8Layout.h. The CGRA ops (batchnorm, binary, unary) take any layout but
 * require their inputs and output to share one; a rank-1 [C] operand is
 * the exception: it broadcasts over every row, like the CGRA's VuV
 * instructions. The neural-engine ops gather each operand from its own
 * layout. Floating-point ops compute in fp32 (fp16/bf16 are converted on
 * the way in and rounded to nearest even on the way out), int8 ops exactly
 * in int32 and saturate.
 *
 * The reference ("compute interface") functions compute the same ops
 * naively in double on compact (Tensor/NTensor) tensors; tests compare the
 * model against them.
 *
 * Misuse (mismatched shapes, dtypes or layouts) goes to npuc_tx8_fail,
 * which prints `tx8 <op>: error: ...` and exits with status 3. */
#ifndef NPUC_TX8_RUNTIME_H
#define NPUC_TX8_RUNTIME_H

#include "npuc/Tx8DdrCost.h"
#include "npuc/Tx8Layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the target -----------------------------------------------------------
 */

/* What the cycle model needs of the hardware; per chip unless noted.
 * lib/TX8/tx8_target.yaml spells the same numbers (the compiler
 * loads it; test_tx8_target checks it equals NPUC_TX8_TARGET_DEFAULT). */
typedef struct {
  int32_t chips;
  int32_t tiles_x, tiles_y; /* the tile mesh of one chip */
  int64_t spm_bytes;        /* per tile */
  int64_t ddr_bytes;
  int64_t ddr_bank_bytes;
  double ddr_gbytes_per_s;
  double clock_ghz;
  int32_t ne_m, ne_k, ne_n; /* one neural-engine instruction: MxKxN */
  double ne_tflops_int8, ne_tflops_fp16, ne_tflops_bf16, ne_tflops_fp32;
  int64_t ct_bytes_per_cycle;   /* CGRA tensor engine, per tile */
  int64_t tdma_bytes_per_cycle; /* SPM to SPM moves, per tile */
  int64_t op_overhead_cycles;   /* issuing one op */
  /* The mesh NoC between the tiles' SPMs (the seed's DTE streams): bytes
   * one link carries a cycle and the cycles a hop adds. */
  int64_t noc_link_bytes_per_cycle;
  int64_t noc_hop_cycles;
  /* Copies of a per-slice SPM buffer at most (tx8-spm-alloc's
   * multi-buffering for the software pipeline; 1: none). */
  int32_t multi_buf;
} npuc_tx8_target;

/* The seed's figures (16 tiles, 200 GB/s DDR in 4096-byte banks, NE
 * 8x16x8 at 256/128/128/21 TFLOP/s for int8/fp16/bf16/fp32) plus the
 * assumptions docs/tx8.md lists (clock, SPM size, CT/TDMA widths). */
#define NPUC_TX8_TARGET_DEFAULT                                                \
  {                                                                            \
    .chips = 1, .tiles_x = 4, .tiles_y = 4, .spm_bytes = 3 << 20,              \
    .ddr_bytes = 64ll << 30, .ddr_bank_bytes = 4096,                           \
    .ddr_gbytes_per_s = 200.0, .clock_ghz = 1.0, .ne_m = 8, .ne_k = 16,        \
    .ne_n = 8, .ne_tflops_int8 = 256.0, .ne_tflops_fp16 = 128.0,               \
    .ne_tflops_bf16 = 128.0, .ne_tflops_fp32 = 21.0,                           \
    .ct_bytes_per_cycle = 256, .tdma_bytes_per_cycle = 256,                    \
    .op_overhead_cycles = 32, .noc_link_bytes_per_cycle = 64,                  \
    .noc_hop_cycles = 4, .multi_buf = 3                                        \
  }

/* The target the cycle estimates use (a copy is kept). Not thread-safe:
 * set it before running ops. */
void npuc_tx8_rt_set_target(const npuc_tx8_target *t);
const npuc_tx8_target *npuc_tx8_rt_target(void);

/* ---- traffic counters
 * --------------------------------------------------------------------- */

/* The engines an op's cost is charged to. */
typedef enum {
  NPUC_TX8_BUSY_RDMA, /* DDR -> SPM */
  NPUC_TX8_BUSY_WDMA, /* SPM -> DDR */
  NPUC_TX8_BUSY_NE,   /* neural engine: gemm, conv */
  NPUC_TX8_BUSY_CT,   /* CGRA tensor engine: elementwise, batchnorm */
  NPUC_TX8_BUSY_TDMA, /* SPM -> SPM: channel_norm */
  NPUC_TX8_BUSY_NOC,  /* SPM -> SPM of another tile over the mesh */
  NPUC_TX8_NUM_BUSY
} npuc_tx8_busy_engine;

/* What the ops run on this thread (one tile) have moved and kept busy
 * since the last reset: the DDR bytes the RDMA read and the WDMA wrote,
 * counted as the cycle model charges them, and each engine's busy cycles
 * (each op's whole estimate, overhead included, so the engines' cycles
 * add up to the sum of the ops' returns). The cost functions ("cycle
 * model" below) charge them: npuc_tx8_cycles_rdma/wdma/ne/ct/tdma/noc each
 * add what they return (npuc_tx8_cycles_ddr, direction unknown, charges
 * nothing). Per thread, so tiles running as threads count apart. */
typedef struct {
  uint64_t ddr_read_bytes, ddr_write_bytes;
  uint64_t busy[NPUC_TX8_NUM_BUSY];
} npuc_tx8_counters;

void npuc_tx8_counters_reset(void);
npuc_tx8_counters npuc_tx8_counters_get(void);
/* "rdma", "wdma", "ne", "ct", "tdma", "noc". */
const char *npuc_tx8_busy_name(npuc_tx8_busy_engine e);
/* A DDR transfer of `bytes` as RDMA (read) or WDMA (write): the cycles of
 * npuc_tx8_cycles_ddr, charged with the bytes to this thread's counters. */
uint64_t npuc_tx8_cycles_rdma(int64_t bytes);
uint64_t npuc_tx8_cycles_wdma(int64_t bytes);
/* npuc_tx8_cycles_noc_gather's cycles, charged to the NoC. */
uint64_t npuc_tx8_cycles_noc(int64_t bytes, int32_t parts);
uint64_t npuc_tx8_cycles_noc_among(int64_t bytes, int32_t members,
                                   int32_t first, int32_t stride);

/* ---- DDR placement (opt_ddr; docs/tx8.md, "DDR placement") -------------
 * The host places every DDR tensor in one arena and names it here: a DMA
 * whose DDR side lies in [base, base + bytes) is charged for where it
 * lies, its addresses counted from base (npuc_tx8_ddr_penalty_cycles).
 * Outside it (no arena set: unit tests, host-side copies) a DMA costs
 * what npuc_tx8_cycles_rdma/wdma say. Set before the tiles run. */
void npuc_tx8_rt_set_ddr_arena(const void *base, int64_t bytes);
/* NPUC_TX8_DDR_BURST_BYTES, _BANK_OPEN_CYCLES, _OPEN_BANKS and the walk
 * over a transfer's runs: Tx8DdrCost.h (tx8-sharding's estimate charges
 * the same). */
/* The extra cycles of one DMA transfer whose DDR side is the contiguous
 * runs [addr[i], addr[i] + len[i]) (arena offsets, in order; a run
 * starting where the previous one ends continues it): the bytes of the partial
 * bursts at unaligned run ends at the DDR rate, plus
 * NPUC_TX8_DDR_BANK_OPEN_CYCLES per bank opened beyond the ceil(bytes /
 * ddr_bank_bytes) an aligned contiguous transfer of the runs' total bytes
 * opens (a bank among the NPUC_TX8_DDR_OPEN_BANKS most recently used is
 * still open). 0 for such a transfer. Pure: charges nothing. */
uint64_t npuc_tx8_ddr_penalty_cycles(const int64_t *addr, const int64_t *len,
                                     int64_t runs);
/* Charges `cycles` (a DMA's DDR placement penalty) to the RDMA (read) or
 * WDMA engine of this thread's counters; returns them. */
uint64_t npuc_tx8_cycles_ddr_extra(bool write, uint64_t cycles);

/* ---- tensors
 * ----------------------------------------------------------------- */

typedef struct {
  void *data;
  npuc_tx8_layout layout;
} npuc_tx8_tsr;

npuc_tx8_tsr npuc_tx8_tsr_make(void *data, npuc_tx8_dims dims,
                               npuc_tx8_dtype dt, npuc_tx8_layout_mode mode);

/* Element (n, hw, c) as a double, and stored from a double (floats round
 * to nearest even, int8 rounds to nearest even and saturates). Scalar
 * access for tests and host code; ops work on contiguous runs. */
double npuc_tx8_get(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c);
void npuc_tx8_set(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c,
                  double v);

/* ---- data movement
 * -------------------------------------------------------------- */

/* DDR -> SPM (RDMA) and SPM -> DDR (WDMA): copy every element of src to
 * dst, converting the layout; dims and dtype must match. Padding of an
 * aligned dst is zeroed. */
uint64_t op_dma_load(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src);
uint64_t op_dma_store(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src);
/* SPM -> SPM layout conversion (TDMA), compact <-> aligned. */
uint64_t op_channel_norm(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src);

/* ---- slices: L_SHAPE, G_SHAPE and windows
 * ------------------------------------ Code generated for a group runs, on each
 * tile, a loop over the temporal slices of that tile's part of the output, as
 * the seed's main.c does: G_SHAPE walks the tile's region of the output in
 * slices, L_SHAPE describes one slice of one tensor (the whole tensor's shape,
 * where the slice starts, its nominal and its real length per dimension), and a
 * window per input dimension says which part of the input one output
 * slice reads (the seed's backWindow). The compiler's slice rules
 * (include/npuc/TX8.h) produce the windows; these functions only apply
 * them. */

#define NPUC_TX8_MAX_SHAPE_DIM 8

typedef struct npuc_tx8_l_shape {
  int32_t shape_whole[NPUC_TX8_MAX_SHAPE_DIM]; /* the whole tensor */
  int32_t shape_start[NPUC_TX8_MAX_SHAPE_DIM]; /* first index of the slice */
  int32_t shape_slice[NPUC_TX8_MAX_SHAPE_DIM]; /* nominal slice length */
  int32_t
      shape_real[NPUC_TX8_MAX_SHAPE_DIM]; /* real length (edges are shorter) */
  int32_t dim;
} L_SHAPE;

typedef struct npuc_tx8_g_shape {
  int32_t spatial_start[NPUC_TX8_MAX_SHAPE_DIM]; /* this tile's region: [start,
                                                    end) */
  int32_t spatial_end[NPUC_TX8_MAX_SHAPE_DIM];
  int32_t dynamic_offset[NPUC_TX8_MAX_SHAPE_DIM]; /* start of the next slice */
  int32_t shape[NPUC_TX8_MAX_SHAPE_DIM];          /* the whole output */
  int32_t dim;
  int32_t done;     /* every slice has been handed out */
  int32_t balanced; /* npuc_tx8_gshape_balance: even slices, short first */
} G_SHAPE;

typedef npuc_tx8_tsr TSR;

/* The part of a `dim`-dimensional output of `shape` that tile `tile`
 * computes when dimension d is split `sharding[d]` ways (chunks of
 * ceil(shape[d] / sharding[d]), tiles numbered row-major over the split
 * dimensions, the last fastest). False when the tile has no part. */
bool npuc_tx8_tile_region(const int32_t *shape, const int32_t *sharding,
                          int32_t dim, int32_t tile, int32_t *start,
                          int32_t *end);
/* Starts g on tile `tile`'s region; g->done is set when it has none. */
void npuc_tx8_gshape_init(G_SHAPE *g, const int32_t *shape,
                          const int32_t *sharding, int32_t dim, int32_t tile);
/* The next slice of at most `slice` per dimension of g's region into out,
 * row-major (the last dimension fastest); false when done. */
bool npuc_tx8_gshape_next(G_SHAPE *g, const int32_t *slice, L_SHAPE *out);
/* Makes g hand out its region in balanced slices: along each dimension
 * the fewest slices of at most `slice` (ceil(part / slice) of them), their
 * lengths differing by one at most, the shorter ones first (28 rows in
 * slices of at most 6: 5, 5, 6, 6, 6 rather than 6, 6, 6, 6, 4), where the
 * nominal slices overrun the part by two or more (by one the lengths are
 * the plain walk's: it is kept, the short slice last). The staged loop
 * walks its slices so: its pipeline fills sooner behind short first
 * slices, and no slice is longer than the nominal one the buffers hold. */
void npuc_tx8_gshape_balance(G_SHAPE *g, const int32_t *slice);
/* The slice of an input of shape `whole` (dim dimensions) that the output
 * slice `out` reads through `windows` (one per input dimension).
 * `clipped[d]`, if not NULL, receives how many leading indices of
 * dimension d fell outside the tensor (a convolution's padding). */
void npuc_tx8_lshape_window(const L_SHAPE *out, const npuc_tx8_window *windows,
                            const int32_t *whole, int32_t dim, L_SHAPE *in,
                            int32_t *clipped);
/* A tensor whose shape is l's real slice (l->dim dimensions) in `mode`. */
TSR npuc_tx8_tsr_of_lshape(void *data, const L_SHAPE *l, npuc_tx8_dtype dt,
                           npuc_tx8_layout_mode mode);
/* A whole tensor of `dim` dimensions `shape` in `mode`. */
TSR npuc_tx8_tsr_of_shape(void *data, const int32_t *shape, int32_t dim,
                          npuc_tx8_dtype dt, npuc_tx8_layout_mode mode);

/* RDMA / WDMA of one slice: the slice `l` of the whole DDR tensor `whole`
 * (l's shape_whole, in whole's layout) into the SPM tensor `spm` of l's
 * real shape, and back. Layouts convert as in op_dma_load. */
uint64_t op_dma_load_slice(const TSR *spm, const TSR *whole, const L_SHAPE *l);
uint64_t op_dma_store_slice(const TSR *whole, const TSR *spm, const L_SHAPE *l);
/* op_dma_load_slice of slice `l` when the slice before it, `prev_l`, of
 * the same tensor, is still in SPM at `prev`: where the two windows agree
 * in every dimension but one, and in that one the new window starts
 * inside the old one (a convolution's halo rows as the slices step down
 * a column), the rows they share are copied from `prev` in SPM (TDMA)
 * and only the rest read from DDR (RDMA: its bytes). Otherwise a plain
 * op_dma_load_slice. The same values either way. */
uint64_t op_dma_load_slice_after(const TSR *spm, const TSR *whole,
                                 const L_SHAPE *l, const TSR *prev,
                                 const L_SHAPE *prev_l);
/* op_dma_load_slice_after's two halves, for a schedule that issues them
 * apart (the copy with the next slice's head, off the DMA's way: on the
 * in-order TDMA queue it would wait for this DMA and hold back the ops
 * behind it). op_dma_load_slice_rest zeroes `spm`'s padding and reads the
 * rows `prev` does not hold (RDMA; all of them when it holds none: a plain
 * op_dma_load_slice); op_copy_kept_rows, called after it while `prev`
 * still holds slice prev_l, copies the rows it holds (TDMA; nothing when
 * none). Together: op_dma_load_slice_after's values and cycles. */
uint64_t op_dma_load_slice_rest(const TSR *spm, const TSR *whole,
                                const L_SHAPE *l, const TSR *prev,
                                const L_SHAPE *prev_l);
uint64_t op_copy_kept_rows(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                           const L_SHAPE *prev_l);
/* op_dma_load_slice of a slice every one of `parts` tiles reads the same
 * (a tensor a group reads whole: weights, [C] vectors), run by tile
 * `part` (0 <= part < parts) of them: when cheaper than each tile
 * reading it all (npuc_tx8_cycles_shared_load), each tile reads its
 * 1/parts of the bytes from DDR and the tiles pass the parts round a ring
 * over the mesh NoC (an all-gather), so DDR sees the tensor once. The C
 * model copies every byte from DDR (the bytes the other tiles forward are
 * the same); it charges RDMA with the tile's share and the NoC with the
 * gather. */
uint64_t op_dma_load_shared(const TSR *spm, const TSR *whole, const L_SHAPE *l,
                            int32_t part, int32_t parts);
/* op_dma_load_shared among the `members` tiles that differ from `tile`
 * only in the digit (tile / stride) % members of its number: the tiles
 * that read the same slice when the sharding splits dimensions the load
 * does not follow (a row of `a` shared by the tiles of its rows, a
 * column part of a weight by the tiles of its columns). The ring is
 * theirs; `tile` is member (tile / stride) % members of it. */
uint64_t op_dma_load_shared_among(const TSR *spm, const TSR *whole,
                                  const L_SHAPE *l, int32_t tile,
                                  int32_t members, int32_t stride);

/* ---- neural engine
 * ----------------------------------------------------------------- */

typedef struct {
  bool transpose_a, transpose_b;
  /* Matrices per batch of a and out (attention's heads); 0 means 1. */
  int32_t heads;
} npuc_tx8_gemm_param;

/* out[n] = op(a[n]) x op(b) (+ bias): a is N batches of M x K (rows x
 * channels; K x M with transpose_a), b one K x N matrix (N x K with
 * transpose_b), bias a rank-1 [N] tensor or NULL, out N batches of M x N.
 * Batched (attention's [B,H,S,D] x [B,H,D,S]): with `heads` H, a batch of
 * a and out holds H matrices one after the other (H*M rows), and b may
 * hold one matrix per matrix of out (N*H of them, K rows each, one after
 * the other over its rows in any layout) instead of one shared; not with
 * transpose_a. Accumulates in fp32 (int8: int32) in 8x16x8 instruction
 * tiles. */
uint64_t op_gemm(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                 const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                 const npuc_tx8_tsr *out);

/* op_gemm of one K slice of a reduce split (a's columns and b's rows
 * [k0, k0 + len)), accumulated into `psum`, an fp32 tensor of out's dims
 * kept in SPM across the slices (the NE's partial sums): with
 * NPUC_TX8_PSUM_FIRST psum starts from zero, with NPUC_TX8_PSUM_LAST
 * out = psum (+ bias) in out's dtype and layout afterwards. Both: op_gemm.
 * Costs the slice's NE instructions and, on the last, a CT pass over out
 * (int8 partial sums are exact in fp32 up to 2^24). */
enum { NPUC_TX8_PSUM_FIRST = 1, NPUC_TX8_PSUM_LAST = 2 };
uint64_t op_gemm_psum(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                      const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *psum, const npuc_tx8_tsr *out,
                      int phase);

/* The reduce split across tiles (lib/Runtime/tx8/psum_team.c): the
 * `members` tiles first, first + 1, ... (a team) each hold fp32 partial
 * sums `psum` of the same output slice over their part of K; every member
 * calls this once per slice, and on return the owner's (`first`'s) psum
 * holds the team's sum (the members' added in member order). Costs the
 * NoC's ring reduce-scatter and gather to the owner
 * (npuc_tx8_noc_reduce_cycles) and the CT's adds. */
uint64_t op_psum_reduce(const npuc_tx8_tsr *psum, int32_t tile, int32_t first,
                        int32_t members);
/* out = psum (+ bias) in out's dtype and layout: op_gemm_psum's last
 * phase, for the owner of a team after op_psum_reduce. */
uint64_t op_psum_out(const npuc_tx8_tsr *psum, const npuc_tx8_tsr *bias,
                     const npuc_tx8_tsr *out);

typedef struct {
  int32_t in_h, in_w; /* input rows per batch = in_h * in_w */
  int32_t kernel_h, kernel_w;
  int32_t stride_h, stride_w;
  int32_t pad_top, pad_left; /* bottom/right padding follows from out_h/w */
  int32_t dilation_h, dilation_w;
  int32_t out_h, out_w;
  int32_t groups;
} npuc_tx8_conv_param;

/* 2-D convolution: in is NHWC (N batches of in_h*in_w rows of Cin), weight
 * HWOI (one batch of kernel_h*kernel_w*Cout rows of Cin/groups), bias
 * rank-1 [Cout] or NULL, out NHWC (out_h*out_w rows of Cout). */
uint64_t op_conv(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                 const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                 const npuc_tx8_tsr *out);

/* op_conv of one slice of the input channels of a reduce split (in's
 * channels and the weight's I [k0, k0 + len); groups 1), accumulated into
 * `psum` as op_gemm_psum does (the phases, the bias, the costs). */
uint64_t op_conv_psum(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *psum, const npuc_tx8_tsr *out,
                      int phase);

/* ---- CGRA tensor engine
 * ------------------------------------------------------------- */

typedef struct {
  float epsilon; /* the seed uses 1e-6 */
} npuc_tx8_batchnorm_param;

/* The seed's 10-step flow: convert in to fp32 into imm, subtract mean,
 * add epsilon to variance, rsqrt, multiply, scale, shift, convert back to
 * out. scale, shift, mean and var are rank-1 [C] tensors (any float
 * dtype); imm is scratch of npuc_tx8_batchnorm_imm_bytes(in) bytes. */
uint64_t op_batchnorm_inference(const npuc_tx8_batchnorm_param *p,
                                const npuc_tx8_tsr *in,
                                const npuc_tx8_tsr *scale,
                                const npuc_tx8_tsr *shift,
                                const npuc_tx8_tsr *mean,
                                const npuc_tx8_tsr *var, void *imm,
                                const npuc_tx8_tsr *out);
int64_t npuc_tx8_batchnorm_imm_bytes(const npuc_tx8_tsr *in);

/* The elementwise ops, one per row of npuc/Tx8Ops.def. */
typedef enum {
#define TX8_BINARY(op, ENUM, PASSES) NPUC_TX8_##ENUM,
#include "npuc/Tx8Ops.def"
} npuc_tx8_binary_op;

typedef enum {
#define TX8_UNARY(op, ENUM, PASSES) NPUC_TX8_##ENUM,
#include "npuc/Tx8Ops.def"
} npuc_tx8_unary_op;

/* out = a op b; either input may be rank-1 [C] (broadcast over rows).
 * int8 supports add, sub and mul. */
uint64_t op_binary(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                   const npuc_tx8_tsr *b, const npuc_tx8_tsr *out);
/* out = op(in). gelu is the exact 0.5 x (1 + erf(x / sqrt 2)). int8
 * supports relu and abs. cast's in and out are floats of two types. */
uint64_t op_unary(npuc_tx8_unary_op op, const npuc_tx8_tsr *in,
                  const npuc_tx8_tsr *out);

/* ---- the ops networks use (issue 17)
 * ------------------------------------------------------------------ */

/* out = min(max(in, lo), hi) (relu6: 0..6). Any float dtype and i8. */
typedef struct {
  float lo, hi;
} npuc_tx8_clip_param;
uint64_t op_clip(const npuc_tx8_clip_param *p, const npuc_tx8_tsr *in,
                 const npuc_tx8_tsr *out);

/* The ops below see their tensors as `dim`-dimensional, row-major over
 * `shape` (the input's; the slice a generated loop hands them), each
 * element placed by the tensor's own layout: element i of the row-major
 * order is (n, hw, c) = (i / (HW*C), i / C % HW, i % C) of its dims. */
#define NPUC_TX8_SHAPED_PARAM                                                  \
  int32_t shape[NPUC_TX8_MAX_SHAPE_DIM];                                       \
  int32_t dim

typedef enum {
#define TX8_REDUCE(op, ENUM, PASSES) NPUC_TX8_##ENUM,
#include "npuc/Tx8Ops.def"
} npuc_tx8_reduce_op;

/* Reduces the axes of bit mask `axes` (bit d: dimension d); out has the
 * input's shape with those dimensions 1 (keepdims). Floats accumulate in
 * fp32 in row-major order; max/min also take i8. */
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  uint32_t axes;
} npuc_tx8_reduce_param;
uint64_t op_reduce(npuc_tx8_reduce_op op, const npuc_tx8_reduce_param *p,
                   const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);

/* Softmax along `axis`, numerically stable: exp(x - max) / sum. Floats. */
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  int32_t axis;
} npuc_tx8_softmax_param;
uint64_t op_softmax(const npuc_tx8_softmax_param *p, const npuc_tx8_tsr *in,
                    const npuc_tx8_tsr *out);

/* Layer normalization over the last axis (C): (x - mean) / sqrt(var +
 * epsilon) * scale + bias, var the biased variance; scale and bias rank-1
 * [C] (any float dtype). Floats, fp32 inside. */
typedef struct {
  float epsilon;
} npuc_tx8_layernorm_param;
uint64_t op_layernorm(const npuc_tx8_layernorm_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *scale, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *out);

/* out dimension i is input dimension perm[i] (`shape` is the input's).
 * A TDMA move; any dtype. */
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  int32_t perm[NPUC_TX8_MAX_SHAPE_DIM];
} npuc_tx8_transpose_param;
uint64_t op_transpose(const npuc_tx8_transpose_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *out);

/* Input dimension i is output dimension dims[i] (of the same size, or 1:
 * repeated); output dimensions no input dimension names are repeats.
 * `shape` is the input's, out_shape the output's. A CGRA pass; any
 * dtype. */
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  int32_t out_shape[NPUC_TX8_MAX_SHAPE_DIM];
  int32_t out_dim;
  int32_t dims[NPUC_TX8_MAX_SHAPE_DIM];
} npuc_tx8_broadcast_param;
uint64_t op_broadcast(const npuc_tx8_broadcast_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *out);

/* `count` inputs one after the other along `axis`: input i has the
 * output's `shape` but lengths[i] along the axis (they add up to
 * shape[axis]). A TDMA move; any dtype. */
#define NPUC_TX8_MAX_CONCAT 5
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  int32_t axis, count;
  int32_t lengths[NPUC_TX8_MAX_CONCAT];
} npuc_tx8_concat_param;
uint64_t op_concat(const npuc_tx8_concat_param *p,
                   const npuc_tx8_tsr *const *ins, const npuc_tx8_tsr *out);

/* Output index o reads input index offsets + o * strides; `shape` is the
 * output's, in_shape the input's (generated code hands over the input
 * slice that starts at the first element read: offsets 0). A TDMA move;
 * any dtype. */
typedef struct {
  NPUC_TX8_SHAPED_PARAM;
  int32_t in_shape[NPUC_TX8_MAX_SHAPE_DIM];
  int32_t offsets[NPUC_TX8_MAX_SHAPE_DIM];
  int32_t strides[NPUC_TX8_MAX_SHAPE_DIM];
} npuc_tx8_slice_param;
uint64_t op_slice(const npuc_tx8_slice_param *p, const npuc_tx8_tsr *in,
                  const npuc_tx8_tsr *out);

/* 2-D max or average pooling of NHWC `in` (N batches of in_h*in_w rows of
 * C) into NHWC `out` (out_h*out_w rows of C), the window placed as a
 * convolution's (npuc_tx8_conv_param's fields; dilations and groups are
 * not used). Taps in the padding are skipped: max ignores them and
 * average divides by the valid taps only (ONNX's count_include_pad = 0).
 * Floats compute in fp32; max also takes i8. */
typedef enum { NPUC_TX8_POOL_MAX, NPUC_TX8_POOL_AVG } npuc_tx8_pool_op;
uint64_t op_pool(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                 const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);

/* ---- the reference (compute interface)
 * ------------------------------------------------ */

/* The same ops, naive, in double, on compact tensors, rounding only when
 * storing out. Same argument conventions as the ops above. */
void npuc_tx8_ref_gemm(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                       const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out);
void npuc_tx8_ref_conv(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                       const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out);
void npuc_tx8_ref_batchnorm_inference(
    const npuc_tx8_batchnorm_param *p, const npuc_tx8_tsr *in,
    const npuc_tx8_tsr *scale, const npuc_tx8_tsr *shift,
    const npuc_tx8_tsr *mean, const npuc_tx8_tsr *var, const npuc_tx8_tsr *out);
void npuc_tx8_ref_binary(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                         const npuc_tx8_tsr *b, const npuc_tx8_tsr *out);
void npuc_tx8_ref_unary(npuc_tx8_unary_op op, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *out);

void npuc_tx8_ref_clip(const npuc_tx8_clip_param *p, const npuc_tx8_tsr *in,
                       const npuc_tx8_tsr *out);
void npuc_tx8_ref_reduce(npuc_tx8_reduce_op op, const npuc_tx8_reduce_param *p,
                         const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);
void npuc_tx8_ref_softmax(const npuc_tx8_softmax_param *p,
                          const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);
void npuc_tx8_ref_layernorm(const npuc_tx8_layernorm_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *scale,
                            const npuc_tx8_tsr *bias, const npuc_tx8_tsr *out);
void npuc_tx8_ref_transpose(const npuc_tx8_transpose_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);
void npuc_tx8_ref_broadcast(const npuc_tx8_broadcast_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);
void npuc_tx8_ref_concat(const npuc_tx8_concat_param *p,
                         const npuc_tx8_tsr *const *ins,
                         const npuc_tx8_tsr *out);
void npuc_tx8_ref_slice(const npuc_tx8_slice_param *p, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *out);
void npuc_tx8_ref_pool(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                       const npuc_tx8_tsr *in, const npuc_tx8_tsr *out);

/* ---- cycle model
 * ------------------------------------------------------------------------ */

/* The estimates the ops return, by their inputs, under the current target:
 * DDR transfers share the chip's bandwidth among its tiles, neural-engine
 * ops count 8x16x8 instructions at the dtype's rate, CT and TDMA ops move
 * ct/tdma_bytes_per_cycle per pass. Each adds op_overhead_cycles. The
 * NE, CT and TDMA estimates are charged to this thread's counters (see
 * "traffic counters" above). */
uint64_t npuc_tx8_cycles_ddr(int64_t bytes);
/* A ring all-gather of `bytes` over tiles 0 .. parts-1 of the mesh
 * (positions row-major, tiles_x wide; the ring visits them row by row,
 * every other row reversed): parts - 1 steps, each moving one share
 * (ceil(bytes / parts)) over every link of the ring at once, so a step
 * takes the share's link time plus the hops of the ring's longest link.
 * Plus op_overhead_cycles; 0 for parts <= 1. Charges nothing. */
uint64_t npuc_tx8_cycles_noc_gather(int64_t bytes, int32_t parts);
/* Whether tile `part` of `parts` reads a shared load of `bytes` as a
 * share plus a NoC gather (true) or whole from DDR (false): the gather
 * when its cycles (the share's DDR read plus the gather) are fewer. The
 * same answer on every tile. */
bool npuc_tx8_cycles_shared_load(int64_t bytes, int32_t parts);
/* The same over the ring of `members` tiles first, first + stride, ...
 * (a row or a column of the mesh: the tiles that share a load under a
 * two-dimensional sharding; npuc/Tx8NocCost.h). */
uint64_t npuc_tx8_cycles_noc_gather_among(int64_t bytes, int32_t members,
                                          int32_t first, int32_t stride);
bool npuc_tx8_cycles_shared_load_among(int64_t bytes, int32_t members,
                                       int32_t first, int32_t stride);
uint64_t npuc_tx8_cycles_tdma(int64_t bytes);
uint64_t npuc_tx8_cycles_ct(int64_t bytes, int passes);
uint64_t npuc_tx8_cycles_ne(int64_t batches, int64_t m, int64_t k, int64_t n,
                            npuc_tx8_dtype dt);

/* The issue-17 ops' costs (cycles.c): reduce `passes` CT passes over the
 * input's bytes; softmax five over the input (max, subtract, exp, sum,
 * divide); layernorm seven (mean, subtract, square-sum, rsqrt,
 * normalize, scale, shift); transpose, concat and slice a TDMA move of
 * source plus destination (npuc_tx8_cycles_move); broadcast one CT pass
 * over the output. */
uint64_t npuc_tx8_cycles_reduce(int64_t in_bytes, int passes);
uint64_t npuc_tx8_cycles_softmax(int64_t bytes);
uint64_t npuc_tx8_cycles_layernorm(int64_t bytes);
uint64_t npuc_tx8_cycles_transpose(int64_t src_bytes, int64_t dst_bytes);
uint64_t npuc_tx8_cycles_move(int64_t src_bytes, int64_t dst_bytes);
uint64_t npuc_tx8_cycles_broadcast(int64_t out_bytes);
/* Pooling: one CT pass over the output per kernel tap (a vector max or
 * add), average one more (the divide). */
uint64_t npuc_tx8_cycles_pool(int64_t out_bytes, int64_t taps, bool avg);

/* ---- the timeline (timeline.c)
 * ------------------------------------------------------------------------
 * Per tile (thread), the cycle model places every op on its engines over
 * time instead of adding the ops up: an op starts when its engines are
 * free and its inputs are written and its outputs' previous readers and
 * writers are done, tracked by SPM address range. RDMA and WDMA share the
 * tile's DDR channel, CT and TDMA the SPM port, NE and the NoC are one
 * each: an engine (and its partner) runs its ops in issue order. The
 * generated code opens each step with npuc_tx8_tl_step naming the ranges
 * it reads and writes; the cost functions charge the engines until the
 * next step (or npuc_tx8_tl_close) places it (an op may use several
 * engines, one after the other). A charge outside a step is an op after
 * everything before it (serial). */
typedef struct {
  const void *at;
  int64_t bytes; /* <= 0: nothing (not tracked) */
} npuc_tx8_tl_range;

static inline npuc_tx8_tl_range npuc_tx8_tl_tsr(const npuc_tx8_tsr *t) {
  return (npuc_tx8_tl_range){t->data, t->layout.total_bytes};
}

/* Starts group `group` (named `name`, a string that outlives the run) at
 * time 0 with every engine free; ends it (closing its last step),
 * returning its span: when its last op ends. */
void npuc_tx8_tl_group_begin(int32_t group, const char *name);
uint64_t npuc_tx8_tl_group_end(void);
/* Closes the open step and opens one named `name` (a string that
 * outlives the run) reading `reads` and writing `writes` (at most
 * NPUC_TX8_TL_MAX_RANGES of each are tracked). */
#define NPUC_TX8_TL_MAX_RANGES 16
void npuc_tx8_tl_step(const char *name, const npuc_tx8_tl_range *reads,
                      int num_reads, const npuc_tx8_tl_range *writes,
                      int num_writes);
/* Places the open step's charges (if a step is open); returns the
 * group's span so far (the latest end). */
uint64_t npuc_tx8_tl_close(void);
/* The ranges of `spm` (slice l) that op_copy_kept_rows writes (`kept`)
 * or op_dma_load_slice_rest does (the rest), by rows, a row's padding
 * with it, into out[NPUC_TX8_TL_MAX_RANGES]; returns their count. So on
 * the timeline the copy need not wait for the DMA, nor the DMA for the
 * copy (the C model still calls the copy after the DMA, which zeroes an
 * aligned buffer's padding by clearing it whole). All of spm when the
 * rows are not runs of each block (or too many). */
int npuc_tx8_tl_kept_rows(const npuc_tx8_tsr *spm, const L_SHAPE *l,
                          const npuc_tx8_tsr *prev, const L_SHAPE *prev_l,
                          bool kept, npuc_tx8_tl_range *out);

/* One span of the trace: an engine busy with an op, or (engine ==
 * NPUC_TX8_NUM_BUSY) a whole group on its tile. Times from the group's
 * start. */
typedef struct {
  int32_t group;
  int32_t engine;
  uint64_t start, cycles;
  const char *name;
} npuc_tx8_tl_event;

/* Whether this thread records its spans (off by default). */
void npuc_tx8_tl_trace(bool on);
/* This thread's recorded spans, in the order placed; the caller owns the
 * array (free()) and the thread's record starts over. */
npuc_tx8_tl_event *npuc_tx8_tl_take_events(size_t *count);

/* A lower bound on a tile's span for the work in `c`: max(rdma + wdma,
 * ne, ct + tdma, noc), the busiest of the timeline's shared resources. */
uint64_t npuc_tx8_cycles_bound(const npuc_tx8_counters *c);

/* Writes the spans of `tiles` tiles (events[t], counts[t] of them) to
 * `path` as Chrome trace-event JSON (chrome://tracing, Perfetto): one
 * process per tile, one thread per engine plus one for its groups, one
 * complete ("X") event per span at group_start[group] + its start, in
 * microseconds at the target's clock, the cycles in args. Returns 0 with
 * a message on stderr when the file cannot be written (trace.c). */
int npuc_tx8_write_trace(const char *path,
                         const npuc_tx8_tl_event *const *events,
                         const size_t *counts, int tiles,
                         const uint64_t *group_start, int groups);

/* Prints "tx8 <op>: error: message" to stderr and exits with status 3. */
void npuc_tx8_fail(const char *op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

#endif
