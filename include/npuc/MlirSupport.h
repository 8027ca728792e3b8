/* The MLIR-level basics every layer from Dialect up uses: an op's error,
 * and text from MLIR's printers into our string builder. In the Dialect
 * layer because the table verifier needs both. */
#ifndef NPUC_MLIRSUPPORT_H
#define NPUC_MLIRSUPPORT_H

#include "npuc/StringBuilder.h"
#include <mlir-c/IR.h>
#include <stdbool.h>

/* An MlirStringCallback appending to the npuc_sb `sb`:
 * mlirOperationPrint(op, npuc_sb_append_mlir, &sb). */
void npuc_sb_append_mlir(MlirStringRef s, void *sb);

/* Does `s` hold the text `part`? */
bool npuc_strref_contains(MlirStringRef s, const char *part);
/* Is `a` an opaque attribute (`#dialect<data>`) whose data holds `part`?
 * False for a null attribute. */
bool npuc_opaque_attr_contains(MlirAttribute a, const char *part);

/* The error of an op, at its location, through MLIR's diagnostics (which
 * the tools route to their sink). Passes use npuc_pass_error (Pass.h),
 * which adds the pass's name. */
/* mlirEmitError at the op's location, with printf formatting. */
void npuc_op_error(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
