/* libFuzzer harness for the ONNX reader (lib/Onnx/Reader.c): any bytes
 * must give a model or an error, never a crash, a leak or a sanitizer
 * report. The reader needs no MLIR; the importer, which does, is
 * exercised on mutated models by test/onnx/cut.py. */
#include "npuc/Onnx.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void discard(void *user, npuc_severity sev, const char *file, int line,
                    int col, const char *message) {
  (void)user, (void)sev, (void)file, (void)line, (void)col, (void)message;
}

static const npuc_diag_sink quiet = {discard, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* An exact-size copy, so ASan sees any read past `size`. */
  unsigned char *copy = malloc(size ? size : 1);
  if (size)
    memcpy(copy, data, size);
  npuc_onnx_model *m = npuc_onnx_read_bytes(copy, size, "fuzz.onnx", &quiet);
  npuc_onnx_model_free(m);
  free(copy);
  return 0;
}
