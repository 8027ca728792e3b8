/* hivm-bubble-up-extract-slice: moves every tensor.extract_slice marked
 * {to_be_bubbled_slice} above its producer, repeatedly, until each reaches
 * a block argument, a tensor.empty or a load (include/npuc/BubbleUp.h; the
 * patterns are in BubbleUpHivm.c and BubbleUpStructural.c). A slice that
 * cannot move to such a stop point fails the pass, as for bishengir: the
 * 1:2 sub-block split it was placed for would not happen. bishengir fails
 * it without a word; so does this pass unless emit-remarks=true, which
 * names the op the slice is stuck below (an error at the slice). */
#include "npuc/BubbleUp.h"
#include "npuc/Pass.h"

#include <stddef.h>
#include <mlir-c/Diagnostics.h>
#include <stdio.h>
#include <string.h>

#define BUBBLE_OPTIONS(X, T)                                                   \
  X(T, bool, strict_mode, "strict-mode", NPUC_OPT_BOOL, "false", NULL,         \
    "refuse rewrites that are not exact from the IR alone (unaligned "         \
    "collapsed offsets, partly overlapping insert_slice windows)")             \
  X(T, int64_t, sub_blocks, "sub-blocks", NPUC_OPT_INT, "2", NULL,             \
    "buffer_size_in_byte hints of buffers made dynamic assume tiles of this "  \
    "many sub-blocks (1: the whole dimension)")                                \
  X(T, bool, emit_remarks, "emit-remarks", NPUC_OPT_BOOL, "false", NULL,       \
    "say why the pass fails (an error at the slice that cannot move); "        \
    "bishengir fails without a message")
NPUC_PASS_OPTIONS(bubble_options, BUBBLE_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_hivm_bubble_up_extract_slice, "hivm-bubble-up-extract-slice",
    "Bubble tensor.extract_slice {to_be_bubbled_slice} up to block "
    "arguments, "
    "tensor.empty and loads",
    "func.func", bubble_up, NPUC_PASS_OPTIONS_OF(bubble_options));

static bool bubble_up(MlirOperation func, const npuc_pass_options *opts,
                      const npuc_pass_context *ctx) {
  npuc_bubble_options bo = {NPUC_PASS_OPTS(bubble_options, opts)->strict_mode,
                            NPUC_PASS_OPTS(bubble_options, opts)->sub_blocks,
                            false, false};
  if (bo.sub_blocks < 1) {
    npuc_pass_error(func, "sub-blocks must be at least 1");
    return false;
  }
  npuc_bubble_report rep;
  if (npuc_bubble_up_slices(func, ctx->registry, &bo, &rep))
    return true;
  if (!NPUC_PASS_OPTS(bubble_options, opts)->emit_remarks)
    return false;
  char msg[512];
  if (mlirOperationIsNull(rep.blocker)) {
    snprintf(msg, sizeof msg,
             "cannot bubble up the slice of a loop-carried value: %s",
             rep.reason ? rep.reason : "the loop body uses it whole");
  } else {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(rep.blocker));
    snprintf(msg, sizeof msg, "cannot bubble up the slice through '%.*s'%s%s",
             (int)name.length, name.data, rep.reason ? ": " : "",
             rep.reason ? rep.reason : "");
  }
  if (rep.num_stuck > 1) {
    size_t len = strlen(msg);
    snprintf(msg + len, sizeof msg - len, " (and %zu more marked slices)",
             rep.num_stuck - 1);
  }
  /* Without the pass's name in front, unlike the pass's other messages:
   * the bubble-up conformance report (test/conformance/bubble_up.sh) quotes
   * this error as it stands. */
  mlirEmitError(mlirOperationGetLocation(rep.first_stuck), msg);
  return false;
}
