/* Shared state of the aie-vectorize pass (AieVectorize*.c). The pass works
 * on the output of affine-super-vectorize: vector.transfer_read, vector
 * arith ops and vector.transfer_write inside affine.for nests. */
#ifndef NPUC_AIE_VECTORIZE_INTERNAL_H
#define NPUC_AIE_VECTORIZE_INTERNAL_H

#include "npuc/IntervalReuse.h"
#include "npuc/BuildOps.h"
#include "npuc/Pass.h" /* npuc_pass_error, _warning, _remark */
#include "npuc/PtrSet.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The index `key` maps to in `m` (op -> index maps), SIZE_MAX when
 * absent. */
static inline size_t aie_index_of(const npuc_ptr_map *m, const void *key) {
  uintptr_t v;
  return npuc_ptr_map_get(m, key, &v) ? (size_t)v : SIZE_MAX;
}

/* ---- Reads and compute nodes ----------------------------------------- */

typedef struct {
  MlirOperation op;   /* vector.transfer_read */
  MlirOperation loop; /* innermost enclosing affine.for, or null */
  bool splat;         /* permutation_map broadcasts one element */
  int64_t elem_bits, lanes;
  bool mul_operand;    /* an X or Z operand of some mul/fma */
  bool lhs_only;       /* only ever an X operand */
  int64_t extra_elems; /* fused columns read this much further */
  bool analysed;       /* part of the reuse analysis (in a loop) */
  bool absorbed;       /* only read by a multiply fused into another */
  bool broadcast_src;  /* aieml: a splat an element-wise multiply takes */
  uint32_t epoch;      /* writes to memory before it (walk order): reads
                          apart by a write never share a load */
  /* After upd generation: */
  MlirValue vec; /* the upd result holding this read's data */
  int64_t start; /* element position of the read within `vec` */
} aie_read;

typedef enum { AIE_MUL, AIE_FMA, AIE_ADD, AIE_SUB } aie_node_kind;

typedef struct {
  MlirOperation op;  /* the op the node replaces (add/sub for an fma) */
  MlirOperation mul; /* for an fma: the fused mul (erased too) */
  aie_node_kind kind;
  bool fmsub; /* fma from sub(acc, mul) */
  bool is_float;
  bool dead; /* fused into another node (column fusion) */
  int64_t elem_bits, lanes;
  MlirValue x, z, acc;  /* operands, sext/trunc looked through */
  int32_t col_offset_x; /* column fusion: distance of the fused reads */
  int32_t col_offset_z;
  bool fused;               /* carries a second column (16-bit/8-bit) */
  bool narrowed;            /* aieml: computes on sign-extended narrow reads */
  size_t rep;               /* absorbed by column fusion into this node */
  int cols;                 /* columns fused into this node (8-bit: <= 8) */
  MlirValue last_x, last_z; /* operands of the last fused column */
  /* After generation: */
  MlirOperation new_op;
  MlirValue acc_value; /* result in accumulator form */
  MlirValue srs_value; /* result converted back (lazily) */
  /* 8-bit: each node is a pair of ops, for output lanes 0..7 and 8..15. */
  MlirOperation new_op2;
  MlirValue acc_value2;
  /* 8-bit: the chain's initial value, added in pixel order after the srs
   * (the pair's lanes are not in pixel order, so it cannot be ups'ed). */
  MlirValue init8;
} aie_node;

typedef struct {
  MlirContext ctx;
  MlirOperation func;
  int64_t shift, zero_offset, dup_factor;
  bool unaligned_check, aieml;
  aie_read *reads;
  size_t num_reads;
  aie_node *nodes;
  size_t num_nodes;
  npuc_ptr_map read_of; /* transfer_read op -> read index */
  npuc_ptr_map node_of; /* op -> node index (the fma's add/sub and mul) */
  npuc_reuse *reuse;
  npuc_ptr_map filter_base; /* aieml: filter upd -> its concat/shuffle */
} aie_state;

/* AieVectorizeAnalysis.c: collects reads and nodes, checks alignment and
 * support, reassociates and fuses. False: the function is left alone (a
 * diagnostic was emitted). */
bool aie_collect(aie_state *s);
bool aie_check_alignment(aie_state *s);
bool aie_check_supported(aie_state *s);
void aie_reassociate(aie_state *s);
void aie_fuse_fma(aie_state *s);
void aie_fuse_columns(aie_state *s);
/* aieml: a multiply of sign-extended i8/i16 reads is done at their width. */
void aie_narrow(aie_state *s);
/* aieml (AieVectorizeAieml.c): the taps of a node's conv op; whether the
 * node is element-wise instead (mac_elem/mul_elem: i32 x 16 lanes, i16 x
 * 32 lanes); the width of its accumulator elements. */
int64_t aie_conv_columns(const aie_node *n);
bool aie_ml_elementwise(const aie_node *n);
int64_t aie_ml_acc_bits(const aie_node *n);

/* AieVectorizeForward.c: within each block, a transfer_read of what the
 * last transfer_write wrote takes the written vector, and a write
 * overwritten before anything reads its memref is erased. */
void aie_forward_stores(MlirOperation func);
/* A block argument or a fresh allocation: no view of another memref (the
 * forwarding and the accumulator carry assume distinct ones don't alias). */
bool aie_plain_memref(MlirValue memref);

/* AieVectorizeUpd.c: reuse analysis and aievec.upd generation. */
bool aie_compute_reuse(aie_state *s);
bool aie_generate_upds(aie_state *s);
/* Do the intervals give every operand a vector the scheme can use? False:
 * a remark was emitted and nothing was rewritten. */
bool aie_check_operands(aie_state *s);

/* AieVectorizeSchemes.c: aievec ops for each node. */
bool aie_generate_ops(aie_state *s);

/* Shared by the scheme files (AieVectorizeSchemes.c, AieVectorizeAieml.c):
 * an operand as the new ops take it, the accumulator type and conversions. */
typedef struct {
  MlirValue v;
  int64_t start; /* element position of the data in v */
  bool splat;
} aie_operand;
aie_operand aie_plain_operand(aie_state *s, MlirValue orig);
/* The accumulator operand of an fma node; a null value for a mul. */
MlirValue aie_acc_operand(aie_state *s, aie_node *n, npuc_builder *b);
MlirType aie_acc_type(aie_state *s, const aie_node *n);
MlirValue aie_concat_self(aie_state *s, npuc_builder *b, MlirValue v);
int64_t aie_lanes_of(MlirValue v);

/* AieVectorizeOddTap.c: a 16-bit multiply that fused no second column
 * pairs it with a filter zero only where the layout proves one; otherwise
 * it is done lane-wise on operands moved so lane L holds its element. */
int64_t aie_i16_zstep(const aie_state *s, aie_operand z);
bool aie_i16_may_pair(const aie_state *s, const aie_node *n);
bool aie_i16_pairs_with_zero(const aie_state *s, const aie_node *n,
                             aie_operand z);
MlirValue aie_i16_lanes_from(aie_state *s, npuc_builder *b, aie_operand o,
                             int64_t lanes);

/* AieVectorizeAieml.c: the AIE-ML op of a node (conv, or element-wise
 * with broadcast splats); whether the intervals suit the element-wise
 * form (else a remark); its result brought down to `out`; a narrowed
 * node's truncations replaced by that. */
void aie_generate_aieml(aie_state *s, aie_node *n);
bool aie_check_operands_elem(aie_state *s, aie_node *n);
MlirValue aie_plain_value_ml(aie_state *s, aie_node *n, MlirType out);
void aie_replace_narrowed_uses(aie_state *s, aie_node *n, MlirValue old);

/* AieVectorizeLicm.c: the post-pass clean-up (canonicalize, cse, LICM that
 * knows aievec ops are pure, lower-affine). */
bool aie_post_canonicalize(MlirOperation module, bool aieml);

/* AieVectorizeAccum.c: a reduction loop's read and write of one output
 * vector become one read before it, an iter_arg and one write after it. */
bool aie_carry_accumulators(MlirOperation func, int64_t load_bits);

/* Helpers (AieVectorize.c). */
bool aie_op_in_dialect(MlirOperation op, const char *prefix);
/* The read or node behind a value, looking through extsi/trunci. */
size_t aie_read_of_value(const aie_state *s, MlirValue v);
size_t aie_node_of_value(const aie_state *s, MlirValue v);
/* The node that computes `v` now: follows column fusion. */
size_t aie_live_node_of_value(const aie_state *s, MlirValue v);
/* A 16-bit multiply of two whole streaming vectors: lane-wise, no
 * attributes (decided before the reuse analysis). */
bool aie_simple_candidate(const aie_state *s, const aie_node *n);
MlirValue aie_strip_casts(MlirValue v);
MlirNamedAttribute aie_named(MlirContext ctx, const char *name,
                             MlirAttribute a);
MlirAttribute aie_str_attr(MlirContext ctx, const char *s);

#endif
