/* The options several TX8 passes take, as rows for their option lists
 * (NPUC_PASS_OPTIONS in npuc/Pass.h): one spelling, field and help text
 * each, so `--tx8-x=target-config=...` means the same in every pass. */
#ifndef NPUC_TRANSFORMS_TX8_OPTIONS_H
#define NPUC_TRANSFORMS_TX8_OPTIONS_H

#include "npuc/Pass.h"

#define TX8_OPTION_TARGET_CONFIG(X, T)                                         \
  X(T, const char *, target_config, "target-config", NPUC_OPT_STRING, "",      \
    NULL, "TX8 target description (YAML) overriding the built-in one")

#define TX8_OPTION_SPM_BYTES(X, T)                                             \
  X(T, int64_t, spm_bytes, "spm-bytes", NPUC_OPT_INT, "0", NULL,               \
    "SPM bytes per tile (0: the target description's)")

/* `what` completes "store a constant ...": which constants it keeps in
 * their aligned layout. */
#define TX8_OPTION_ALIGNED_DATA(X, T, what)                                    \
  X(T, bool, aligned_data, "aligned-data", NPUC_OPT_BOOL, "false", NULL,       \
    "store a constant " what " as that layout's image (DDR holds aligned "     \
    "data) instead of compact (the load converts)")

#endif
