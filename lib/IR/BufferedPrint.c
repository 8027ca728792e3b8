/* Prints a module through a buffered stream. MLIR's C API prints an
 * operation only into an unbuffered callback stream: one call through
 * std::function per token, about 50 an op at 80 instructions each, a
 * sixth of what npuc-opt spends reading and printing a module. The one
 * printer C can reach that writes through a buffered stream is the pass
 * manager's IR printing into a file tree (`treePrintingPath`): after a pass
 * that does nothing, MLIR prints the module with our flags into
 * DIR/builtin_module_no-symbol-name/0_npuc-print.mlir, behind one header
 * line and before two newlines. That path is a FIFO we made, drained by a
 * thread into memory while MLIR writes: nothing goes to disk, so a full
 * disk or a file size limit cannot stop MLIR's stream (which would end the
 * process).
 *
 * Only where it pays: a top-level builtin.module without a symbol name (the
 * directory name is then known) of at least MIN_OPS ops. Otherwise, or when
 * a step fails (no writable temporary directory, no thread), it returns
 * false having printed nothing, and the caller prints through the callback:
 * only the speed depends on it. Leaves nothing on disk (a signal while it
 * prints removes the directory as it removes temporary outputs). */
#include "npuc/Alloc.h"
#include "npuc/IR.h"
#include "npuc/StringBuilder.h"
#include "npuc/ToolSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <mlir-c/Pass.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PASS_ARGUMENT "npuc-print"
#define TREE_DIR "builtin_module_no-symbol-name"
#define TREE_FILE "0_" PASS_ARGUMENT ".mlir"
/* -DNPUC_PRINT_MIN_OPS=1 sends every module this way: to compare outputs. */
#ifndef NPUC_PRINT_MIN_OPS
#define NPUC_PRINT_MIN_OPS 2000
#endif
#define MIN_OPS NPUC_PRINT_MIN_OPS
#define PATH_CAP 4096

typedef struct {
  int fd;
  char *data;
  size_t len, cap;
} fifo_reader;

static bool worth_it(MlirOperation module);
static bool make_fifo(char *dir, char *sub, char *fifo);
static bool print_through(MlirOperation module, MlirOpPrintingFlags flags,
                          const char *dir, const char *fifo, fifo_reader *r);
static bool strip_dump_frame(fifo_reader *r, npuc_sb *out);

bool npuc_module_print_buffered(MlirOperation module, MlirOpPrintingFlags flags,
                                npuc_sb *out) {
  char dir[PATH_CAP], sub[PATH_CAP], fifo[PATH_CAP];
  if (!worth_it(module) || !make_fifo(dir, sub, fifo))
    return false;
  npuc_temp_dir_track(dir); /* a signal meanwhile removes it */
  fifo_reader r = {-1, NULL, 0, 0};
  bool ok = print_through(module, flags, dir, fifo, &r);
  npuc_remove_tree(dir);
  npuc_temp_dir_untrack(dir);
  ok = ok && strip_dump_frame(&r, out);
  if (!ok)
    free(r.data);
  return ok;
}

static MlirWalkResult count_op(MlirOperation op, void *user) {
  (void)op;
  return ++*(size_t *)user >= MIN_OPS ? MlirWalkResultInterrupt
                                      : MlirWalkResultAdvance;
}

static bool worth_it(MlirOperation module) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(module));
  if (!mlirOperationIsNull(mlirOperationGetParentOperation(module)) ||
      n.length != strlen("builtin.module") ||
      memcmp(n.data, "builtin.module", n.length) != 0 ||
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(
          module, mlirStringRefCreateFromCString("sym_name"))))
    return false;
  size_t ops = 0;
  mlirOperationWalk(module, count_op, &ops, MlirWalkPreOrder);
  return ops >= MIN_OPS;
}

/* $TMPDIR/npuc-print-XXXXXX/TREE_DIR/TREE_FILE, the last a FIFO. */
static bool make_fifo(char *dir, char *sub, char *fifo) {
  const char *tmp = getenv("TMPDIR");
  int n = snprintf(dir, PATH_CAP, "%s/npuc-print-XXXXXX",
                   tmp && *tmp ? tmp : "/tmp");
  if (n < 0 || n >= PATH_CAP - 128 || !mkdtemp(dir))
    return false;
  bool fits = snprintf(sub, PATH_CAP, "%s/" TREE_DIR, dir) < PATH_CAP &&
              snprintf(fifo, PATH_CAP, "%s/" TREE_FILE, sub) < PATH_CAP;
  if (fits && mkdir(sub, 0700) == 0) {
    if (mkfifo(fifo, 0600) == 0)
      return true;
    rmdir(sub);
  }
  rmdir(dir);
  return false;
}

/* ---- printing into the FIFO ---------------------------------------------- */

static void *drain(void *arg);
static bool run_printing_pass(MlirOperation module, MlirOpPrintingFlags flags,
                              const char *dir);

/* Runs the pass with the FIFO drained into r. We hold a write end of our
 * own for the whole run, so the reader sees the end of the text only after
 * MLIR has closed its end and we ours (never before MLIR opens it). */
static bool print_through(MlirOperation module, MlirOpPrintingFlags flags,
                          const char *dir, const char *fifo, fifo_reader *r) {
  r->fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int keep = r->fd >= 0 ? open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC) : -1;
  int fl = r->fd >= 0 ? fcntl(r->fd, F_GETFL) : -1;
  pthread_t reader;
  bool started = keep >= 0 && fl >= 0 &&
                 fcntl(r->fd, F_SETFL, fl & ~O_NONBLOCK) == 0 &&
                 pthread_create(&reader, NULL, drain, r) == 0;
  bool ok = started && run_printing_pass(module, flags, dir);
  if (keep >= 0)
    close(keep);
  if (started)
    pthread_join(reader, NULL);
  if (r->fd >= 0)
    close(r->fd);
  return ok;
}

/* Reads until every writer has closed the FIFO. It never closes its end
 * early: a writer would get SIGPIPE. */
static void *drain(void *arg) {
  fifo_reader *r = arg;
  for (;;) {
    if (r->cap - r->len < 65536) {
      r->cap = r->cap ? r->cap * 2 : 1 << 20;
      r->data = npuc_xrealloc(r->data, r->cap);
    }
    ssize_t got = read(r->fd, r->data + r->len, r->cap - r->len - 1);
    if (got > 0)
      r->len += (size_t)got;
    else if (got == 0 || errno != EINTR)
      break;
  }
  return NULL;
}

static alignas(8) char print_pass_type_id[8];

static void nothing(void *user) { (void)user; }
static void *same(void *user) { return user; }
static void run_nothing(MlirOperation op, MlirExternalPass pass, void *user) {
  (void)op;
  (void)pass;
  (void)user;
}

static bool run_printing_pass(MlirOperation module, MlirOpPrintingFlags flags,
                              const char *dir) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirExternalPassCallbacks callbacks = {nothing, nothing, NULL, same,
                                         run_nothing};
  mlirPassManagerAddOwnedPass(
      pm, mlirCreateExternalPass(
              mlirTypeIDCreate(print_pass_type_id),
              mlirStringRefCreateFromCString(PASS_ARGUMENT),
              mlirStringRefCreateFromCString(PASS_ARGUMENT),
              mlirStringRefCreateFromCString("prints the module"),
              mlirStringRefCreateFromCString("builtin.module"), 0, NULL,
              callbacks, NULL));
  mlirPassManagerEnableVerifier(pm, false);
  mlirPassManagerEnableIRPrinting(pm, false, true, false, false, false, flags,
                                  mlirStringRefCreateFromCString(dir));
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  return ok;
}

/* The module's text: what follows the header line, less the two newlines
 * after it (MLIR's own print ends without one). */
static bool strip_dump_frame(fifo_reader *r, npuc_sb *out) {
  const char *body = r->data ? memchr(r->data, '\n', r->len) : NULL;
  static const char header[] = "// -----// IR Dump After ";
  if (!body || r->len < sizeof header - 1 ||
      memcmp(r->data, header, sizeof header - 1) != 0 ||
      body + 2 >= r->data + r->len || r->data[r->len - 1] != '\n' ||
      r->data[r->len - 2] != '\n')
    return false;
  ++body;
  size_t n = (size_t)(r->data + r->len - 2 - body);
  memmove(r->data, body, n);
  r->data[n] = '\0';
  out->data = r->data;
  out->len = n;
  out->cap = r->cap;
  return true;
}
