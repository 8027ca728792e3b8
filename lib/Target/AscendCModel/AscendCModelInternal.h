/* Shared by the files of the ascend-cmodel target. Not public. */
#ifndef NPUC_ASCEND_CMODEL_INTERNAL_H
#define NPUC_ASCEND_CMODEL_INTERNAL_H

#include "npuc/AscendCModel.h"
#include "npuc/CEmit.h"

/* The HIVM and annotation ops, as calls into libnpuc_hivm_rt: the
 * emitter's last_op family (false for an op it does not know). */
bool npuc_em_hivm_op(emitter *em, MlirOperation op, const char *name);
/* The ops the ascend-cmodel emitter takes before the shared families: an
 * alloc of a tightly coupled buffer (first_op). */
bool npuc_em_hivm_first_op(emitter *em, MlirOperation op, const char *name);

#endif
