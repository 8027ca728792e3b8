/* The error of an op, at its location, through MLIR's diagnostics (which
 * the tools route to their sink). In the Dialect layer because the table
 * verifier reports through it; everything above uses it too, and passes
 * use npuc_pass_error (Pass.h), which adds the pass's name. */
#ifndef NPUC_OPERROR_H
#define NPUC_OPERROR_H

#include <mlir-c/IR.h>

/* mlirEmitError at the op's location, with printf formatting. */
void npuc_op_error(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
