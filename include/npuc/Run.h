/* Run: executes HIVM kernels on this machine through the C model
 * (npuc-run). A YAML spec gives the arguments: buffers with shape, dtype and
 * how to fill them (seeded random, zeros, ones, iota, a .bin file), and
 * scalar values. Two kernels run on the same generated inputs can be
 * compared bit for bit.
 *
 * A run is checked before anything is written: the spec (values, limits),
 * then each kernel (compiled and built in a work directory, its argument
 * types against the spec). Only then are the inputs written and the kernel
 * run, in a run directory the caller moves into place when all went well. */
#ifndef NPUC_RUN_H
#define NPUC_RUN_H

#include "npuc/Diagnostics.h"
#include "npuc/OpTable.h"
#include <stdbool.h>
#include <stdint.h>

/* What a spec may ask for. Ascend's block dimension is at most 65535;
 * sub-blocks are the vector cores of a cube core (2 on hardware); the
 * buffers of one spec are generated, written and loaded whole. */
#define NPUC_RUN_MAX_BLOCKS 65535
#define NPUC_RUN_MAX_SUB_BLOCKS 64
#define NPUC_RUN_MAX_BYTES ((int64_t)1 << 30)

typedef enum {
  NPUC_FILL_RANDOM,
  NPUC_FILL_ZEROS,
  NPUC_FILL_ONES,
  NPUC_FILL_IOTA,
  NPUC_FILL_FILE
} npuc_fill;

/* A place in the spec file, for errors found after it was read. */
typedef struct {
  int line, col;
} npuc_run_loc;

typedef struct {
  bool is_buffer;
  char dtype[8]; /* i1 i8 i16 i32 i64 f16 bf16 f32 f64 (index: i64) */
  int rank;
  int64_t shape[8];
  int64_t bytes; /* of the buffer */
  npuc_fill fill;
  double lo, hi;    /* random range */
  char *file;       /* NPUC_FILL_FILE */
  char *value;      /* scalars: a decimal integer, or the float as written */
  npuc_run_loc loc; /* the argument's entry */
  npuc_run_loc shape_loc;
} npuc_run_arg;

typedef struct {
  char *file;   /* the spec's name in diagnostics */
  char *kernel; /* NULL: the first entry */
  uint64_t seed;
  int64_t blocks; /* < 0: computed by the kernel */
  /* Sub-blocks launched per block: [0] for a run or the first kernel of a
   * comparison, [1] for the second; 0: the kernel's own count (2 for the
   * vector half of a mix kernel, else 1). `sub_blocks: N` or `[A, B]`. */
  int64_t sub_blocks[2];
  npuc_run_arg args[64];
  int num_args;
  npuc_run_loc args_loc;
} npuc_run_spec;

/* Parses and checks a spec (read with NPUC_CONFIG_LIMIT); errors name spec
 * file:line:col and the field. */
bool npuc_run_spec_load(const char *path, npuc_run_spec *spec,
                        const npuc_diag_sink *sink);
void npuc_run_spec_free(npuc_run_spec *spec);

/* Writes the spec's inputs as DIR/argN.bin (buffers only). Deterministic in
 * the seed. */
bool npuc_run_write_inputs(const npuc_run_spec *spec, const char *dir,
                           const npuc_diag_sink *sink);

/* Compiles `kernel_path` (an .mlir file) with --target=ascend-cmodel in
 * work_dir (created), builds it with the C compiler, and checks its
 * arguments against the spec: count, kinds, dtypes, ranks and the sizes
 * its types give statically. Writes nothing outside work_dir. */
bool npuc_run_build(const npuc_op_registry *reg, const char *kernel_path,
                    const npuc_run_spec *spec, const char *work_dir,
                    const npuc_diag_sink *sink);

/* Runs the kernel built in work_dir with `sub_blocks` sub-blocks per block
 * (0: the kernel's own count), in run_dir: it reads run_dir/in/argN.bin
 * and writes argN.bin and summary.txt to run_dir/out_sub (an existing
 * directory; "." for run_dir itself). The kernel runs with run_dir as its
 * working directory, so no path reaches it as text. */
bool npuc_run_execute(const char *kernel_path, const npuc_run_spec *spec,
                      int64_t sub_blocks, const char *work_dir,
                      const char *run_dir, const char *out_sub,
                      const npuc_diag_sink *sink);

/* Compares argN.bin files of two output directories; prints each
 * difference (first mismatching element per buffer) to stdout. Returns the
 * number of buffers that differ, or -1 on error. */
int npuc_run_compare(const npuc_run_spec *spec, const char *out_a,
                     const char *out_b, const npuc_diag_sink *sink);

#endif
