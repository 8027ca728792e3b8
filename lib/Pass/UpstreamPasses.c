/* What npuc needs to know about MLIR's own passes, asked through the C API:
 * whether a pipeline element names one (with valid options), and which op
 * it runs on, so that it can be nested under that op implicitly as mlir-opt
 * does. The C API has no query for a pass's anchor, but MLIR refuses a pass
 * on a pass manager anchored on another op with "Can't add pass 'X'
 * restricted to 'func.func' on a PassManager intended to run on 'Y'". So
 * we add the pass to a pass manager anchored on an op no pass runs on and
 * read the anchor from the refusal; a pass that is accepted runs on any op.
 * The pass itself never runs. For a single pass the refusal is an ordinary
 * error, but registered pipelines (sparsifier, ...) add their passes
 * directly and MLIR makes it a fatal error, so the probe runs in a child
 * process that reports either. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* dup, fileno, fork, pipe, strndup */
#endif
#include "PassInternal.h"
#include "npuc/MlirSupport.h"

#include <errno.h>
#include <mlir-c/RegisterEverything.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* From llvm-c/ErrorHandling.h (LLVM's C API, linked with MLIR's). */
typedef void (*LLVMFatalErrorHandler)(const char *reason);
void LLVMInstallFatalErrorHandler(LLVMFatalErrorHandler handler);
void LLVMResetFatalErrorHandler(void);

/* The probe's pass manager is anchored on this op: no pass runs on it. */
#define PROBE_ANCHOR "npuc.anchor_probe"
#define ACCEPTED "accepted"

typedef struct {
  char *name;   /* pass name, without options */
  char *anchor; /* "" for any op, NULL when unknown */
} anchor_cache_entry;

/* LLVM's option parser prints some complaints straight to stderr; they are
 * caught and folded into our one error message. */
typedef struct {
  FILE *file;
  int saved_fd;
} stderr_capture;

static MlirContext scratch_context(void);
static char *probe_anchor(const char *element);
static void probe_in_child(int fd, const char *element);
static char *anchor_from_report(const char *report);
static char *read_all(int fd);
static char *explain_failure(const char *reported, const char *printed);
static bool capture_begin(stderr_capture *c);
static char *capture_end(stderr_capture *c);
static char *pass_name_of(const char *element);

static anchor_cache_entry *anchor_cache;
static size_t anchor_cache_len;

void npuc_upstream_register(void) {
  static bool done;
  if (!done) {
    mlirRegisterAllPasses();
    done = true;
  }
}

bool npuc_run_upstream(MlirOperation op, const char *pipeline) {
  npuc_upstream_register();
  MlirContext ctx = mlirOperationGetContext(op);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirIdentifierStr(mlirOperationGetName(op)));
  MlirLogicalResult added = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), NULL, NULL);
  bool ok = mlirLogicalResultIsSuccess(added) &&
            mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  if (!ok)
    npuc_pass_error(op, "the upstream pipeline '%s' failed", pipeline);
  return ok;
}

bool npuc_upstream_check(const char *element, char **error) {
  npuc_upstream_register();
  /* Not anchored: accepts every pass, whatever op it runs on. */
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      scratch_context(), mlirStringRefCreateFromCString("any"));
  npuc_sb m = {0};
  stderr_capture capture;
  bool capturing = capture_begin(&capture);
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(element), npuc_sb_append_mlir, &m);
  char *printed = capturing ? capture_end(&capture) : NULL;
  mlirPassManagerDestroy(pm);
  bool ok = mlirLogicalResultIsSuccess(r);
  if (!ok && error)
    *error = explain_failure(m.data, printed);
  free(m.data);
  free(printed);
  return ok;
}

const char *npuc_upstream_anchor_of(const char *element) {
  char *name = pass_name_of(element);
  if (!name)
    return NULL;
  for (size_t i = 0; i < anchor_cache_len; i++)
    if (strcmp(anchor_cache[i].name, name) == 0) {
      free(name);
      return anchor_cache[i].anchor;
    }
  char *anchor = probe_anchor(element);
  anchor_cache_entry *grown =
      realloc(anchor_cache, (anchor_cache_len + 1) * sizeof *grown);
  if (!grown) {
    free(name);
    free(anchor);
    return NULL;
  }
  anchor_cache = grown;
  anchor_cache[anchor_cache_len++] = (anchor_cache_entry){name, anchor};
  return anchor;
}

/* ---- The anchor probe ----------------------------------------------- */

/* "" for passes that run on any op, the op name otherwise, NULL when the
 * probe could not tell (then the caller leaves the pass where it was
 * written). malloc'd. */
static char *probe_anchor(const char *element) {
  npuc_upstream_register();
  (void)scratch_context(); /* created here, inherited by the child */
  int fds[2];
  if (pipe(fds) != 0)
    return NULL;
  fflush(NULL); /* nothing buffered may be written twice */
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  if (pid == 0) {
    close(fds[0]);
    probe_in_child(fds[1], element); /* does not return */
  }
  close(fds[1]);
  char *report = read_all(fds[0]);
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  char *anchor = report ? anchor_from_report(report) : NULL;
  free(report);
  return anchor;
}

static int child_report_fd = -1;

static void write_report(const char *text) {
  size_t len = text ? strlen(text) : 0;
  while (len > 0) {
    ssize_t n = write(child_report_fd, text, len);
    if (n <= 0)
      break;
    text += n;
    len -= (size_t)n;
  }
}

static void report_fatal_error_and_exit(const char *reason) {
  write_report(reason);
  _exit(2);
}

/* Runs in the child: only _exit leaves it, so nothing of the parent's
 * (buffers, atexit handlers, leak checks) runs twice. */
static void probe_in_child(int fd, const char *element) {
  child_report_fd = fd;
  LLVMResetFatalErrorHandler();
  LLVMInstallFatalErrorHandler(report_fatal_error_and_exit);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      scratch_context(), mlirStringRefCreateFromCString(PROBE_ANCHOR));
  npuc_sb m = {0};
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(element), npuc_sb_append_mlir, &m);
  write_report(mlirLogicalResultIsSuccess(r) ? ACCEPTED : m.data);
  _exit(0);
}

/* "Can't add pass 'X' restricted to 'func.func' on a PassManager intended
 * to run on 'npuc.anchor_probe', did you intend to nest?" -> "func.func" */
static char *anchor_from_report(const char *report) {
  if (strcmp(report, ACCEPTED) == 0)
    return strdup("");
  static const char key[] = "' restricted to '";
  const char *start = strstr(report, key);
  if (!start)
    return NULL;
  start += sizeof key - 1;
  const char *end = strchr(start, '\'');
  return end ? strndup(start, (size_t)(end - start)) : NULL;
}

static char *read_all(int fd) {
  size_t cap = 256, len = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (len + 1 == cap) {
      char *grown = realloc(buf, cap * 2);
      if (!grown)
        break;
      buf = grown;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      buf[len] = '\0';
      return buf;
    }
    len += (size_t)n;
  }
  free(buf);
  return NULL;
}

/* ---- Helpers -------------------------------------------------------- */

/* Created once and kept: pass creation needs a context, and checks are
 * rare enough that one is plenty. */
static MlirContext scratch_context(void) {
  static MlirContext ctx;
  if (mlirContextIsNull(ctx))
    ctx = mlirContextCreateWithThreading(false);
  return ctx;
}

/* MLIR's callback says what is wrong on its first non-empty line, unless
 * LLVM's option parser already said it on stderr (bad option values); the
 * "failed to add `cse` with options `x`" line only repeats the input. */
static char *explain_failure(const char *reported, const char *printed) {
  const char *text = reported ? reported : "";
  while (*text == '\n' || *text == ' ')
    text++;
  if (strstr(text, "failed to add") == text && printed && *printed)
    text = printed;
  static const char *const prefixes[] = {"<Pass-Options-Parser>: ", ": ", NULL};
  for (const char *const *p = prefixes; *p; p++)
    if (strncmp(text, *p, strlen(*p)) == 0)
      text += strlen(*p);
  return strndup(text, strcspn(text, "\n"));
}

static bool capture_begin(stderr_capture *c) {
  fflush(stderr);
  c->file = tmpfile();
  c->saved_fd = c->file ? dup(STDERR_FILENO) : -1;
  if (c->saved_fd < 0 || dup2(fileno(c->file), STDERR_FILENO) < 0) {
    if (c->saved_fd >= 0)
      close(c->saved_fd);
    if (c->file)
      fclose(c->file);
    return false;
  }
  return true;
}

static char *capture_end(stderr_capture *c) {
  fflush(stderr);
  dup2(c->saved_fd, STDERR_FILENO);
  close(c->saved_fd);
  char *text = NULL;
  long size = fseek(c->file, 0, SEEK_END) == 0 ? ftell(c->file) : -1;
  if (size >= 0 && (text = malloc((size_t)size + 1))) {
    rewind(c->file);
    text[fread(text, 1, (size_t)size, c->file)] = '\0';
  }
  fclose(c->file);
  return text;
}

static char *pass_name_of(const char *element) {
  return strndup(element, strcspn(element, "{ "));
}

/* The passes `mlir-opt --help` of MLIR 22 lists, minus test passes: only
 * for "did you mean" suggestions, which are checked against MLIR before
 * they are offered. */
const char *const npuc_upstream_pass_names[] = {
    "acc-if-clause-lowering",
    "acc-implicit-data",
    "acc-implicit-declare",
    "acc-implicit-routine",
    "acc-legalize-serial",
    "acc-loop-tiling",
    "acc-specialize-for-device",
    "acc-specialize-for-host",
    "affine-data-copy-generate",
    "affine-expand-index-ops",
    "affine-expand-index-ops-as-affine",
    "affine-fold-memref-alias-ops",
    "affine-loop-coalescing",
    "affine-loop-fusion",
    "affine-loop-invariant-code-motion",
    "affine-loop-normalize",
    "affine-loop-tile",
    "affine-loop-unroll",
    "affine-loop-unroll-jam",
    "affine-parallelize",
    "affine-pipeline-data-transfer",
    "affine-raise-from-memref",
    "affine-scalrep",
    "affine-simplify-min-max",
    "affine-simplify-structures",
    "affine-super-vectorize",
    "amdgpu-emulate-atomics",
    "amdgpu-fold-memrefs-ops",
    "amdgpu-maskedload-to-load",
    "amdgpu-resolve-strided-metadata",
    "arith-emulate-unsupported-floats",
    "arith-emulate-wide-int",
    "arith-expand",
    "arith-int-range-narrowing",
    "arith-unsigned-when-equivalent",
    "arm-neon-2d-to-intr",
    "arm-sme-outer-product-fusion",
    "arm-sme-vector-legalization",
    "arm-sve-legalize-vector-storage",
    "async-func-to-async-runtime",
    "async-parallel-for",
    "async-runtime-policy-based-ref-counting",
    "async-runtime-ref-counting",
    "async-runtime-ref-counting-opt",
    "async-to-async-runtime",
    "bubble-down-memory-space-casts",
    "buffer-deallocation-pipeline",
    "buffer-deallocation-simplification",
    "buffer-hoisting",
    "buffer-loop-hoisting",
    "buffer-results-to-out-params",
    "bufferization-lower-deallocations",
    "canonicalize",
    "composite-fixed-point-pass",
    "control-flow-sink",
    "convert-affine-for-to-gpu",
    "convert-amdgpu-to-rocdl",
    "convert-arith-to-amdgpu",
    "convert-arith-to-apfloat",
    "convert-arith-to-arm-sme",
    "convert-arith-to-emitc",
    "convert-arith-to-llvm",
    "convert-arith-to-spirv",
    "convert-arm-sme-to-llvm",
    "convert-arm-sme-to-scf",
    "convert-async-to-llvm",
    "convert-bufferization-to-memref",
    "convert-cf-to-llvm",
    "convert-cf-to-spirv",
    "convert-complex-to-libm",
    "convert-complex-to-llvm",
    "convert-complex-to-rocdl-library-calls",
    "convert-complex-to-spirv",
    "convert-complex-to-standard",
    "convert-elementwise-to-linalg",
    "convert-func-to-emitc",
    "convert-func-to-llvm",
    "convert-func-to-spirv",
    "convert-gpu-to-llvm-spv",
    "convert-gpu-to-nvvm",
    "convert-gpu-to-rocdl",
    "convert-gpu-to-spirv",
    "convert-index-to-llvm",
    "convert-index-to-spirv",
    "convert-linalg-to-affine-loops",
    "convert-linalg-to-loops",
    "convert-linalg-to-parallel-loops",
    "convert-linalg-to-std",
    "convert-math-to-apfloat",
    "convert-math-to-emitc",
    "convert-math-to-funcs",
    "convert-math-to-libm",
    "convert-math-to-llvm",
    "convert-math-to-rocdl",
    "convert-math-to-spirv",
    "convert-math-to-xevm",
    "convert-memref-to-emitc",
    "convert-memref-to-spirv",
    "convert-nvgpu-to-nvvm",
    "convert-nvvm-to-llvm",
    "convert-openacc-to-scf",
    "convert-openmp-to-llvm",
    "convert-parallel-loops-to-gpu",
    "convert-pdl-to-pdl-interp",
    "convert-scf-to-cf",
    "convert-scf-to-emitc",
    "convert-scf-to-openmp",
    "convert-scf-to-spirv",
    "convert-shape-constraints",
    "convert-shape-to-std",
    "convert-shard-to-mpi",
    "convert-spirv-to-llvm",
    "convert-tensor-to-linalg",
    "convert-tensor-to-spirv",
    "convert-to-emitc",
    "convert-to-llvm",
    "convert-ub-to-llvm",
    "convert-ub-to-spirv",
    "convert-vector-to-amx",
    "convert-vector-to-arm-sme",
    "convert-vector-to-gpu",
    "convert-vector-to-llvm",
    "convert-vector-to-scf",
    "convert-vector-to-spirv",
    "convert-vector-to-xegpu",
    "convert-xegpu-to-xevm",
    "convert-xevm-to-llvm",
    "cse",
    "decorate-spirv-composite-type-layout",
    "drop-equivalent-buffer-results",
    "duplicate-function-elimination",
    "eliminate-empty-tensors",
    "empty-tensor-to-alloc-tensor",
    "enable-arm-streaming",
    "ensure-debug-info-scope-on-llvm-func",
    "expand-realloc",
    "expand-strided-metadata",
    "finalize-memref-to-llvm",
    "flatten-memref",
    "fold-memref-alias-ops",
    "fold-tensor-subset-ops",
    "form-expressions",
    "generate-runtime-verification",
    "gpu-async-region",
    "gpu-decompose-memrefs",
    "gpu-eliminate-barriers",
    "gpu-kernel-outlining",
    "gpu-launch-sink-index-computations",
    "gpu-lower-to-nvvm-pipeline",
    "gpu-lower-to-xevm-pipeline",
    "gpu-map-parallel-loops",
    "gpu-module-to-binary",
    "gpu-to-llvm",
    "inline",
    "int-range-optimizations",
    "lift-cf-to-scf",
    "linalg-block-pack-matmul",
    "linalg-detensorize",
    "linalg-fold-into-elementwise",
    "linalg-fold-unit-extent-dims",
    "linalg-fuse-elementwise-ops",
    "linalg-generalize-named-ops",
    "linalg-inline-scalar-operands",
    "linalg-morph-ops",
    "linalg-specialize-generic-ops",
    "llvm-add-comdats",
    "llvm-legalize-for-export",
    "llvm-optimize-for-nvvm-target",
    "llvm-request-c-wrappers",
    "llvm-target-to-data-layout",
    "llvm-target-to-target-features",
    "llvm-use-default-visibility",
    "loop-invariant-code-motion",
    "loop-invariant-subset-hoisting",
    "lower-affine",
    "lower-host-to-llvm",
    "lower-quant-ops",
    "lower-sparse-foreach-to-scf",
    "lower-sparse-iteration-to-scf",
    "lower-sparse-ops-to-foreach",
    "lower-vector-mask",
    "lower-vector-multi-reduction",
    "lower-vector-to-from-elements-to-shuffle-tree",
    "map-memref-spirv-storage-class",
    "math-expand-ops",
    "math-extend-to-supported-types",
    "math-sincos-fusion",
    "math-uplift-to-fma",
    "mem2reg",
    "memref-emulate-wide-int",
    "memref-expand",
    "mlprogram-pipeline-globals",
    "normalize-memrefs",
    "normalize-quant-types",
    "nvgpu-optimize-shared-memory",
    "nvvm-attach-target",
    "offload-livein-value-canonicalization",
    "omp-offload-privatization-prepare",
    "one-shot-bufferize",
    "openacc-legalize-data-values",
    "optimize-allocation-liveness",
    "outline-shape-computation",
    "ownership-based-buffer-deallocation",
    "pre-sparsification-rewrite",
    "print-ir",
    "print-op-stats",
    "promote-buffers-to-stack",
    "reconcile-unrealized-casts",
    "reify-result-shapes",
    "remove-dead-values",
    "remove-shape-constraints",
    "resolve-ranked-shaped-type-result-dims",
    "resolve-shaped-type-result-dims",
    "rocdl-attach-target",
    "sccp",
    "scf-for-loop-canonicalization",
    "scf-for-loop-peeling",
    "scf-for-loop-range-folding",
    "scf-for-loop-specialization",
    "scf-for-to-while",
    "scf-forall-to-for",
    "scf-forall-to-parallel",
    "scf-parallel-for-to-nested-fors",
    "scf-parallel-loop-fusion",
    "scf-parallel-loop-specialization",
    "scf-parallel-loop-tiling",
    "set-llvm-module-datalayout",
    "shape-to-shape-lowering",
    "shard-partition",
    "sharding-propagation",
    "simplify-depthwise-conv",
    "snapshot-op-locations",
    "sparse-assembler",
    "sparse-buffer-rewrite",
    "sparse-gpu-codegen",
    "sparse-reinterpret-map",
    "sparse-space-collapse",
    "sparse-storage-specifier-to-llvm",
    "sparse-tensor-codegen",
    "sparse-tensor-conversion",
    "sparse-vectorization",
    "sparsification",
    "sparsification-and-bufferization",
    "sparsifier",
    "spirv-attach-target",
    "spirv-canonicalize-gl",
    "spirv-lower-abi-attrs",
    "spirv-promote-to-replicated-constants",
    "spirv-rewrite-inserts",
    "spirv-unify-aliased-resource",
    "spirv-update-vce",
    "spirv-webgpu-prepare",
    "sroa",
    "stage-sparse-ops",
    "strip-debuginfo",
    "strip-func-quant-types",
    "symbol-dce",
    "symbol-privatize",
    "topological-sort",
    "tosa-arith-const-to-tosa-const",
    "tosa-attach-target",
    "tosa-convert-integer-type-to-signless",
    "tosa-infer-shapes",
    "tosa-layerwise-constant-fold",
    "tosa-make-broadcastable",
    "tosa-narrow-f64-to-f32",
    "tosa-narrow-i64-to-i32",
    "tosa-optional-decompositions",
    "tosa-reduce-transposes",
    "tosa-to-arith",
    "tosa-to-linalg",
    "tosa-to-linalg-named",
    "tosa-to-linalg-pipeline",
    "tosa-to-mlprogram",
    "tosa-to-scf",
    "tosa-to-tensor",
    "tosa-validate",
    "transform-dialect-check-uses",
    "transform-infer-effects",
    "transform-interpreter",
    "transform-preload-library",
    "view-op-graph",
    "wrap-emitc-func-in-class",
    "xegpu-blocking",
    "xegpu-fold-alias-ops",
    "xegpu-optimize-block-loads",
    "xegpu-propagate-layout",
    "xegpu-subgroup-distribute",
    "xegpu-vector-linearize",
    "xegpu-wg-to-sg-distribute",
    "xevm-attach-target",
    NULL};
