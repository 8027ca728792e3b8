/* Run: executes HIVM kernels on this machine through the C model
 * (npuc-run). A YAML spec gives the arguments: buffers with shape, dtype and
 * how to fill them (seeded random, zeros, ones, iota, a .bin file), and
 * scalar values. Two kernels run on the same generated inputs can be
 * compared bit for bit. */
#ifndef NPUC_RUN_H
#define NPUC_RUN_H

#include "npuc/Diagnostics.h"
#include "npuc/OpTable.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum { NPUC_FILL_RANDOM, NPUC_FILL_ZEROS, NPUC_FILL_ONES, NPUC_FILL_IOTA,
               NPUC_FILL_FILE } npuc_fill;

typedef struct {
  bool is_buffer;
  char dtype[8];        /* i1 i8 i16 i32 i64 index f16 bf16 f32 f64 */
  int rank;
  int64_t shape[8];
  npuc_fill fill;
  double lo, hi;        /* random range */
  char *file;           /* NPUC_FILL_FILE */
  char *value;          /* scalars, as written */
} npuc_run_arg;

typedef struct {
  char *kernel;         /* NULL: the first entry */
  uint64_t seed;
  int64_t blocks;       /* < 0: computed by the kernel */
  /* Sub-blocks launched per block: [0] for a run or the first kernel of a
   * comparison, [1] for the second; 0: the kernel's own count (2 for the
   * vector half of a mix kernel, else 1). `sub_blocks: N` or `[A, B]`. */
  int64_t sub_blocks[2];
  npuc_run_arg args[64];
  int num_args;
} npuc_run_spec;

/* Parses a spec; errors name spec file:line:col. */
bool npuc_run_spec_load(const char *path, npuc_run_spec *spec,
                        const npuc_diag_sink *sink);
void npuc_run_spec_free(npuc_run_spec *spec);

/* Writes the spec's inputs as DIR/argN.bin (buffers only). Deterministic in
 * the seed. */
bool npuc_run_write_inputs(const npuc_run_spec *spec, const char *dir,
                           const npuc_diag_sink *sink);

/* Compiles `kernel_path` (an .mlir file) with --target=ascend-cmodel in
 * work_dir, builds it with the C compiler, runs it on the inputs in
 * in_dir with `sub_blocks` sub-blocks per block (0: the kernel's own
 * count), and writes outputs (argN.bin, summary.txt) to out_dir. */
bool npuc_run_kernel(const npuc_op_registry *reg, const char *kernel_path,
                     const npuc_run_spec *spec, int64_t sub_blocks,
                     const char *in_dir, const char *work_dir,
                     const char *out_dir, const npuc_diag_sink *sink);

/* Compares argN.bin files of two output directories; prints each
 * difference (first mismatching element per buffer) to stdout. Returns the
 * number of buffers that differ, or -1 on error. */
int npuc_run_compare(const npuc_run_spec *spec, const char *out_a,
                     const char *out_b, const npuc_diag_sink *sink);

#endif
