/* What the four tx8-layout passes share: which ops carry a layout, reading
 * and writing layout_str, setting dev_info's mem_layout, tensor shapes,
 * and building tx8be.channel_norm (dev_info itself, op metadata and dtypes
 * are npuc/Tx8Ir.h's). The layout rules themselves are the op
 * table's (`library:`/`infer:`, npuc/TX8.h); nothing here decides one. */
#ifndef NPUC_TRANSFORMS_TX8_LAYOUT_SUPPORT_H
#define NPUC_TRANSFORMS_TX8_LAYOUT_SUPPORT_H

#include "npuc/BuildOps.h"
#include "npuc/OpTable.h"
#include "npuc/Pass.h"
#include "npuc/TX8.h"
#include "npuc/Tx8Ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>
#include <stdbool.h>
#include <stddef.h>

/* The definition of a layout pass: it runs `run` on each func.func and
 * takes no options. Declares `run`. */
#define TX8L_PASS(symbol, flag, what, entry)                                   \
  NPUC_PASS_DEFINE(symbol, flag, what, "func.func", entry)

/* What layoutInitPass gives every op but gemm and conv. */
#define TX8L_UNKNOWN "UNKNOWN"
/* Room for one layout_str ("NHWC-HWOI-NHWC") or op name. */
#define TX8L_NAME_CAP 64

/* The ops of `func` (not `func` itself) in program order: a malloc'd
 * array of *count. Passes collect first because they insert ops. */
MlirOperation *tx8l_collect_ops(MlirOperation func, size_t *count);

/* The op's name as a C string ("tx8be.relu"). */
void tx8l_op_name(MlirOperation op, char *buf, size_t cap);

/* Does `op` carry a layout: a tx8be op whose table entry declares
 * layout_str (the compute, data-movement and constant ops; not none,
 * tuple, group, call or the terminators)? */
bool tx8l_is_layout_op(const npuc_op_registry *reg, MlirOperation op);

/* layout_str, if present (false when absent or too long). */
bool tx8l_layout_str(MlirOperation op, char *out, size_t cap);
void tx8l_set_layout_str(MlirOperation op, const char *layout);
/* Present and not UNKNOWN. */
bool tx8l_layout_known(MlirOperation op, char *out, size_t cap);

/* The layout of the value result 0 holds: the last component of a gemm or
 * conv layout_str, the layout_str of any other op. */
bool tx8l_result_layout(MlirOperation op, char *out, size_t cap);

/* Is `layout` a valid layout_str for `op`: a gemm/conv one names input,
 * weight and result (three components, each fitting that tensor's rank),
 * any other one names a layout of the result's rank. On failure `why`
 * says what is wrong. */
bool tx8l_layout_valid(MlirOperation op, const char *layout, char *why,
                       size_t why_cap);

/* Static shape of a ranked tensor type; false for anything else (none,
 * tuple, unranked, dynamic or rank above NPUC_TX8_MAX_RANK). */
bool tx8l_static_shape(MlirType t, npuc_tx8_shape *out);
bool tx8l_is_ranked_tensor(MlirType t);
int tx8l_rank(MlirType t); /* -1 when not a ranked tensor */
/* Can Cx/NCx hold the elements of tensor type `t` (f16, bf16, f32, i8)? */
bool tx8l_alignable(MlirType t);

/* Sets mem_layout in the op's dev_info (created when absent, other fields
 * kept). The op's dev_info must have been read without error. */
void tx8l_set_mem_layout(MlirOperation op, npuc_tx8_layout_mode mode);

/* The `layout` of a tx8be.channel_norm. */
bool tx8l_channel_norm_target(MlirOperation op, npuc_tx8_layout_mode *out);

/* A tx8be.channel_norm of `v` to `mode` before `before`, its dev_info
 * saying `mode` and its layout_str `layout_str`; returns its result. */
MlirValue tx8l_build_channel_norm(MlirOperation before, MlirValue v,
                                  npuc_tx8_layout_mode mode,
                                  const char *layout_str);

#endif
