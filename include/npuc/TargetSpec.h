/* TargetSpec: reads entries of a module's DLTI target system spec, e.g.
 * VECTOR_CORE_COUNT or UB_SIZE, whichever form the input used (the legacy
 * #hacc.target_device_spec is modernised on parse, so one reader serves
 * both). The DLTI C API offers no queries, so this reads the attribute's
 * printed form. */
#ifndef NPUC_TARGETSPEC_H
#define NPUC_TARGETSPEC_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* The integer entry `key` of device `device` ("NPU"; NULL: the first device
 * that has it) in the `dlti.target_system_spec` attribute of `module`, or
 * of the nearest enclosing op that has one. False when absent. */
bool npuc_target_spec_int(MlirOperation op, const char *device, const char *key,
                          int64_t *value);

#endif
