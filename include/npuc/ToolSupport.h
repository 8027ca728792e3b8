/* What the command-line tools share: reading the input, refusing what is
 * not text, splitting at `// -----` as mlir-opt does, and writing the
 * output so that a failed run leaves no output file behind. */
#ifndef NPUC_TOOL_SUPPORT_H
#define NPUC_TOOL_SUPPORT_H

#include "npuc/Diagnostics.h"
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The largest input file read (1 GiB), and the largest configuration or
 * spec (1 MiB): beyond them a read is an error, so `/dev/zero` or a
 * runaway pipe ends. */
#define NPUC_INPUT_LIMIT ((size_t)1 << 30)
#define NPUC_CONFIG_LIMIT ((size_t)1 << 20)

/* The whole file, or stdin for "-", NUL-terminated (the NUL is not counted
 * in *len). NULL after reporting why on `sink`: cannot open or read, a
 * directory, larger than NPUC_INPUT_LIMIT, or a NUL byte in it (not text:
 * reading stops at the chunk that holds it). */
char *npuc_read_input(const char *path, size_t *len,
                      const npuc_diag_sink *sink);
/* The same with another size limit (NPUC_CONFIG_LIMIT for configs). */
char *npuc_read_input_limited(const char *path, size_t limit, size_t *len,
                              const npuc_diag_sink *sink);

/* The name diagnostics use for `path`: "<stdin>" for "-". */
const char *npuc_input_display_name(const char *path);

/* Text means valid UTF-8 without NUL bytes. Otherwise reports
 * "file:L:C: error: input is not text (...)" on `sink` and returns false. */
/* How deep brackets of any kind may nest in an input. MLIR's parser,
 * verifier and printer recurse on nesting and overflow the stack some
 * thousands of regions deep; real IR nests a few dozen levels. */
#define NPUC_NESTING_LIMIT 1000
/* Brackets (regions, types, attributes, locations) nest at most
 * NPUC_NESTING_LIMIT deep; else an error at the bracket that goes past.
 * Strings and comments are skipped. `first_line` is the file line of
 * buf[0]. */
bool npuc_check_nesting(const char *buf, size_t len, const char *filename,
                        int first_line, const npuc_diag_sink *sink);
bool npuc_check_text(const char *buf, size_t len, const char *filename,
                     const npuc_diag_sink *sink);

/* A piece of a split input and the file line its first byte is on. */
typedef struct {
  const char *text;
  size_t len;
  int first_line;
} npuc_chunk;

/* Splits at `marker` ("// -----"), exactly like mlir-opt's
 * --split-input-file: a marker followed by one more '-' is a near miss,
 * warned about on `sink` and not split at. Returns the number of chunks
 * (at least 1) in a malloc'd array, or 0 when out of memory. */
size_t npuc_split_input(const char *buf, size_t len, const char *marker,
                        const char *filename, const npuc_diag_sink *sink,
                        npuc_chunk **out);

/* Output to stdout ("-" or NULL) or to a file that appears, complete, only
 * when committed: the text goes to a temporary file next to it first, and
 * an existing file keeps its mode. A symlink is followed (its target is
 * replaced, not the link); a device, FIFO or /dev/stdout is written
 * directly. */
typedef struct npuc_output npuc_output;
npuc_output *npuc_output_open(const char *path, const npuc_diag_sink *sink);
bool npuc_output_write(npuc_output *out, const char *data, size_t len);
/* Renames the temporary file into place (or flushes stdout) and frees. */
bool npuc_output_commit(npuc_output *out, const npuc_diag_sink *sink);
/* Removes the temporary file and frees; the target is left untouched. */
void npuc_output_discard(npuc_output *out);
/* Removes every temporary output still open and every tracked directory,
 * after killing the tracked child: on SIGINT, SIGTERM, SIGHUP, SIGPIPE and
 * crashes (handlers installed by the first npuc_output_open or tracking
 * call) and on LLVM's fatal errors. Async-signal-safe. */
void npuc_remove_temp_files(void);

/* A scratch directory (with everything below it) that a signal or fatal
 * error removes, until untracked. `path` must stay valid meanwhile. */
void npuc_temp_dir_track(const char *path);
void npuc_temp_dir_untrack(const char *path);
/* The child process a signal kills (SIGKILL, then reaped) before the
 * directories go; 0 for none. One at a time: tools run children in turn. */
void npuc_temp_child_track(pid_t pid);

/* rm -rf `path` (symlinks removed, not followed; at most 16 levels deep).
 * Async-signal-safe: no allocation. */
void npuc_remove_tree(const char *path);

/* An output directory built whole, then moved into place: a fresh
 * ".DIR.tmp.XXXXXX" beside `dir` (its parents made, tracked as a temporary
 * directory), the files written there, then commit renames it to `dir`
 * (or, when `dir` exists, each file into it) and removes what is left;
 * remove drops it on failure. */
char *npuc_staging_dir_create(const char *dir, const npuc_diag_sink *sink);
bool npuc_staging_dir_commit(const char *staging, const char *dir,
                             const npuc_diag_sink *sink);
void npuc_staging_dir_remove(const char *staging);

/* mkdir -p: creates the directory and missing parents. */
bool npuc_make_dirs(const char *path, const npuc_diag_sink *sink);

/* Makes LLVM's fatal errors (report_fatal_error inside MLIR) print
 * "<tool>: error: <reason>" and exit with status 1 instead of aborting. */
void npuc_install_fatal_error_handler(const char *tool);

/* Keeps memory the tool frees for its next allocations (glibc: no mmap
 * of mid-size blocks, no trimming of the heap). A pass's tables, a few
 * hundred KB on a large function, otherwise come as fresh pages each run,
 * at a page fault per 4 KB (about 2 us each on a VM), while the parser has
 * just freed more than that. Call first in main. */
void npuc_keep_freed_memory(void);

/* Edit distance between two names, for "did you mean" suggestions. */
size_t npuc_edit_distance(const char *a, const char *b);
size_t npuc_edit_distance_n(const char *a, size_t la, const char *b, size_t lb);

#endif
