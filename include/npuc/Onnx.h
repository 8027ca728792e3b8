/* The ONNX front end (lib/Onnx, docs/onnx.md): reads a .onnx model with
 * protobuf-c and imports its graph as a flat tx8be graph in
 * `func.func @main`, built through the MLIR C API. The function takes and
 * returns the graph's tensors in the graph's own layout and element type
 * (NCHW f32); inside, conv-like ops work in NHWC / HWOI and the layout
 * changes the importer inserts cancel where they meet. */
#ifndef NPUC_ONNX_H
#define NPUC_ONNX_H

#include "npuc/Diagnostics.h"
#include "npuc/OpTable.h"
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest .onnx file read (protobuf's own limit is 2 GiB). */
#define NPUC_ONNX_FILE_LIMIT ((size_t)2 << 30)
/* How deep messages may nest (graphs inside attributes inside nodes...):
 * the check runs before protobuf-c unpacks, which recurses per level. */
#define NPUC_ONNX_NESTING_LIMIT 64
#define NPUC_ONNX_MAX_RANK 8

/* `--input-shape=name:1x3x224x224`: the static shape of a graph input
 * whose dimensions are symbolic or missing. */
typedef struct {
  char name[128];
  int rank;
  int64_t dims[NPUC_ONNX_MAX_RANK];
} npuc_onnx_input_shape;

typedef enum {
  NPUC_ONNX_DTYPE_MODEL, /* the model's element type (f32) */
  NPUC_ONNX_DTYPE_F16,
  NPUC_ONNX_DTYPE_BF16,
} npuc_onnx_dtype;

typedef struct {
  const npuc_onnx_input_shape *input_shapes;
  size_t num_input_shapes;
  /* Weights as dense_resource blobs (npuc-import's text keeps them out of
   * the IR body) instead of dense elements (what the TX8 pipeline reads). */
  bool resource_weights;
  npuc_onnx_dtype dtype;
  /* Node counts on the progress line (npuc/Progress.h; the tools set it
   * when npuc_progress_enabled()). */
  bool progress;
} npuc_onnx_import_options;

typedef struct npuc_onnx_model npuc_onnx_model;

/* Parses "name:1x3x224x224"; false with a reason in err. */
bool npuc_onnx_parse_input_shape(const char *arg, npuc_onnx_input_shape *out,
                                 char *err, size_t err_cap);

/* The import options the tools share, by name without dashes:
 * "input-shape" (appended to `shapes`, which holds `max_shapes`;
 * o->input_shapes points at it) and "tx8-dtype" (f32, f16 or bf16). false
 * with the whole message in err ("--tx8-dtype takes ..."). */
bool npuc_onnx_set_option(npuc_onnx_import_options *o,
                          npuc_onnx_input_shape *shapes, size_t max_shapes,
                          const char *name, const char *value, char *err,
                          size_t err_cap);

/* Reads and unpacks `path` ("-" is stdin). NULL after reporting on `sink`
 * (file:0:0-less "file: error: ...") why: unreadable, too large, nested too
 * deep, malformed or truncated protobuf, no graph. */
npuc_onnx_model *npuc_onnx_read_file(const char *path,
                                     const npuc_diag_sink *sink);
/* The same from bytes in memory (the fuzzer's entry); `name` is for
 * diagnostics. */
npuc_onnx_model *npuc_onnx_read_bytes(const unsigned char *data, size_t len,
                                      const char *name,
                                      const npuc_diag_sink *sink);
void npuc_onnx_model_free(npuc_onnx_model *m);

/* Imports the model into a new builtin.module in `ctx`; a null operation
 * after reporting every error (each names the node and the reason; every
 * unsupported op of the model at once). */
MlirOperation npuc_onnx_import(MlirContext ctx, const npuc_onnx_model *m,
                               const npuc_onnx_import_options *opts,
                               const npuc_diag_sink *sink);

/* Reads `path` and imports it (as the two above), then verifies the
 * module with MLIR's verifier and our op tables: what npuc-import and
 * npuc-compile call. */
MlirOperation npuc_onnx_import_file(MlirContext ctx,
                                    const npuc_op_registry *reg,
                                    const char *path,
                                    const npuc_onnx_import_options *opts,
                                    const npuc_diag_sink *sink);

#endif
