/* --target=aie1-cmodel: an AIE kernel (func.func on memrefs with affine
 * loops) vectorized to aievec / aievec_aie1, as C over the AIE1 lane
 * emulator (libnpuc_aie1_rt), next to the original scalar loop nest as C,
 * and a host program that runs both on the same random inputs and compares
 * every buffer. docs/aie1-cmodel.md.
 *
 * The target runs its pipeline itself, inside emit: it needs the module
 * both before vectorization (the reference) and after, so it clones the
 * module first. The driver's pipeline hook only checks the accesses
 * (check-static-bounds). */
#include "Aie1Internal.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Verify.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool collect_vectorized(const npuc_op_registry *reg,
                               MlirOperation module, MlirOperation reference,
                               const aie1_config *cfg, aie1_kernel **ks,
                               size_t *n);
static bool collect_prevectorized(const npuc_op_registry *reg,
                                  MlirOperation module, aie1_kernel **ks,
                                  size_t *n);
static bool emit_files(const npuc_op_registry *reg, const aie1_kernel *ks,
                       size_t n, const aie1_config *cfg,
                       const npuc_compile_options *o, npuc_emitted_files *out);

static bool aie1_pipeline(MlirOperation module, const npuc_compile_options *o,
                          char *buf, size_t size) {
  (void)module, (void)o;
  /* The rest runs inside emit; an access provably outside a static memref
   * is an error before it (the kernel and its reference would read past
   * the buffer, issue 15). */
  int n = snprintf(buf, size, "%s", "builtin.module(check-static-bounds)");
  return n >= 0 && (size_t)n < size;
}

static bool aie1_emit(const npuc_op_registry *reg, MlirOperation module,
                      const npuc_compile_options *o, npuc_emitted_files *out) {
  memset(out, 0, sizeof *out);
  aie1_config cfg;
  if (!aie1_config_read(o, &cfg))
    return false;
  aie1_kernel *ks = NULL;
  size_t n = 0;
  MlirOperation reference = {NULL};
  bool ok;
  if (cfg.vectorize) {
    reference = mlirOperationClone(module);
    ok = collect_vectorized(reg, module, reference, &cfg, &ks, &n);
  } else {
    ok = collect_prevectorized(reg, module, &ks, &n);
  }
  ok = ok && aie1_fixed_point_references(ks, n, cfg.shift);
  ok = ok && emit_files(reg, ks, n, &cfg, o, out);
  free(ks);
  if (!mlirOperationIsNull(reference))
    mlirOperationDestroy(reference);
  if (!ok)
    npuc_emitted_files_free(out);
  return ok;
}

const npuc_target_def npuc_target_aie1_cmodel = {
    "aie1-cmodel",
    "AIE kernels vectorized to aievec, as C over the AIE1 lane emulator, "
    "checked against the scalar loop nest (kernel.c, reference.c, host.c, "
    "Makefile; kernel.cc as aie-translate --aievec-to-cpp writes it)",
    aie1_pipeline, aie1_emit};

/* ---- kernels ----------------------------------------------------------- */

static MlirBlock module_body(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

/* Where module-wide errors point: the first op (an implicit module has no
 * position of its own). */
static MlirOperation first_op(MlirOperation module) {
  MlirOperation op = mlirBlockGetFirstOperation(module_body(module));
  return mlirOperationIsNull(op) ? module : op;
}

static bool has_body(MlirOperation func) {
  return !mlirBlockIsNull(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
}

static void add_kernel(aie1_kernel **ks, size_t *n, MlirOperation vec,
                       MlirOperation ref) {
  *ks = npuc_xreallocarray(*ks, *n + 1, sizeof **ks);
  aie1_kernel *k = &(*ks)[(*n)++];
  k->vec = vec;
  k->ref = ref;
  npuc_em_c_identifier(mlirStringAttrGetValue(npuc_em_attr(vec, "sym_name")),
                       k->name, sizeof k->name);
}

/* The host passes buffers only: every argument is a row-major memref (the
 * identity layout; `?` dimensions get the configured dynamic-size) whose
 * element the AIE1 vector unit knows. */
static bool check_signature(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  char name[128];
  npuc_em_c_identifier(mlirStringAttrGetValue(npuc_em_attr(func, "sym_name")),
                       name, sizeof name);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, i));
    MlirType e = mlirTypeIsAMemRef(t) ? mlirShapedTypeGetElementType(t) : t;
    bool data = aie1_elem_constant(e) &&
                !(mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) > 32);
    bool row_major = mlirTypeIsAMemRef(t) &&
                     mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t));
    if (!row_major || !data || mlirShapedTypeGetRank(t) > 8) {
      npuc_op_error(func,
                    "argument %lld of '%s' is not a row-major memref of i8, "
                    "i16, i32 or f32: the aie1-cmodel host cannot fill it",
                    (long long)i, name);
      return false;
    }
  }
  return true;
}

/* The narrowest element among the kernels' buffers sets the vector size:
 * 8 lanes of 32 bits, 16 of 16 bits, 16 of 8 bits (the anchor's AIE1 i8
 * tests; 32 is the AIE-ML one), unless the configuration says otherwise. */
static int64_t vector_size_for(MlirOperation module, const aie1_config *cfg) {
  if (cfg->virtual_vector_size > 0)
    return cfg->virtual_vector_size;
  unsigned narrowest = 32;
  for (MlirOperation f = mlirBlockGetFirstOperation(module_body(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!npuc_op_is(f, "func.func") || !has_body(f))
      continue;
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
      MlirType e = mlirShapedTypeGetElementType(
          mlirValueGetType(mlirBlockGetArgument(entry, i)));
      unsigned w = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e) : 32;
      if (w < narrowest)
        narrowest = w;
    }
  }
  /* AIE-ML: 512-bit vectors for i32 (mac_elem); i16 keeps the 16 lanes of
   * the conv scheme, i8 takes its 32. */
  if (cfg->aieml)
    return narrowest >= 16 ? 16 : 32;
  return narrowest >= 32 ? 8 : 16;
}

static void vectorize_pipeline(MlirOperation module, const aie1_config *cfg,
                               char *buf, size_t cap) {
  npuc_sb opts = {0}; /* " name=value" each */
  if (cfg->shift >= 0)
    npuc_sb_printf(&opts, " shift=%lld", (long long)cfg->shift);
  if (cfg->zero_offset >= 0)
    npuc_sb_printf(&opts, " zero-offset=%lld", (long long)cfg->zero_offset);
  if (cfg->dup_factor >= 0)
    npuc_sb_printf(&opts, " dup-factor=%lld", (long long)cfg->dup_factor);
  if (cfg->aieml)
    npuc_sb_printf(&opts, " aieml=true");
  if (cfg->unaligned_loads_check >= 0)
    npuc_sb_printf(&opts, " unaligned-loads-check=%s",
                   cfg->unaligned_loads_check ? "true" : "false");
  bool any = opts.data && opts.data[0];
  snprintf(buf, cap,
           "builtin.module(affine-super-vectorize{virtual-vector-size=%lld},"
           "aie-vectorize%s%s%s,lower-affine)",
           (long long)vector_size_for(module, cfg), any ? "{" : "",
           any ? opts.data + 1 : "", any ? "}" : "");
  npuc_sb_free(&opts);
}

/* Every func.func with a body is a kernel; `reference` is the module's
 * clone, taken before vectorization, whose functions are in the same
 * order. */
static bool collect_vectorized(const npuc_op_registry *reg,
                               MlirOperation module, MlirOperation reference,
                               const aie1_config *cfg, aie1_kernel **ks,
                               size_t *n) {
  for (MlirOperation f = mlirBlockGetFirstOperation(module_body(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    if (npuc_op_is(f, "func.func") && has_body(f) && !check_signature(f))
      return false;
  if (!npuc_pass_lookup("aie-vectorize")) {
    npuc_op_error(first_op(module),
                  "this npuc has no aie-vectorize pass; compile "
                  "hand-vectorized kernels with 'vectorize: false' in "
                  "--target-config");
    return false;
  }
  char pipeline[512];
  vectorize_pipeline(module, cfg, pipeline, sizeof pipeline);
  if (!npuc_pipeline_run(reg, reference, "builtin.module(lower-affine)",
                         NULL) ||
      !npuc_pipeline_run(reg, module, pipeline, NULL))
    return false;
  MlirOperation r = mlirBlockGetFirstOperation(module_body(reference));
  for (MlirOperation f = mlirBlockGetFirstOperation(module_body(module));
       !mlirOperationIsNull(f) && !mlirOperationIsNull(r);
       f = mlirOperationGetNextInBlock(f), r = mlirOperationGetNextInBlock(r))
    if (npuc_op_is(f, "func.func") && has_body(f))
      add_kernel(ks, n, f, r);
  if (*n == 0) {
    npuc_op_error(first_op(module),
                  "no kernel: the module has no func.func with a body");
    return false;
  }
  return true;
}

static MlirOperation lookup_func(MlirOperation module, MlirStringRef name) {
  for (MlirOperation f = mlirBlockGetFirstOperation(module_body(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!npuc_op_is(f, "func.func"))
      continue;
    MlirStringRef s = mlirStringAttrGetValue(npuc_em_attr(f, "sym_name"));
    if (s.length == name.length && memcmp(s.data, name.data, s.length) == 0)
      return f;
  }
  return (MlirOperation){NULL};
}

static bool pair_with_reference(MlirOperation module, MlirOperation f,
                                aie1_kernel **ks, size_t *n) {
  MlirAttribute a = npuc_em_attr(f, "npuc.aie1_reference");
  if (!mlirAttributeIsAFlatSymbolRef(a)) {
    npuc_op_error(f, "npuc.aie1_reference must name a function (@f)");
    return false;
  }
  MlirOperation ref = lookup_func(module, mlirFlatSymbolRefAttrGetValue(a));
  if (mlirOperationIsNull(ref) || !has_body(ref)) {
    npuc_op_error(f, "npuc.aie1_reference names no function with a body");
    return false;
  }
  MlirAttribute type = npuc_em_attr(f, "function_type");
  MlirAttribute ref_type = npuc_em_attr(ref, "function_type");
  if (!mlirTypeEqual(mlirTypeAttrGetValue(type),
                     mlirTypeAttrGetValue(ref_type))) {
    npuc_op_error(f, "the kernel and its reference have different signatures");
    return false;
  }
  if (!check_signature(f))
    return false;
  add_kernel(ks, n, f, ref);
  return true;
}

/* `vectorize: false`: each func.func naming a reference is a kernel, to be
 * compared with that function; both only have their affine ops lowered. */
static bool collect_prevectorized(const npuc_op_registry *reg,
                                  MlirOperation module, aie1_kernel **ks,
                                  size_t *n) {
  if (!npuc_pipeline_run(reg, module, "builtin.module(lower-affine)", NULL))
    return false;
  for (MlirOperation f = mlirBlockGetFirstOperation(module_body(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    if (npuc_op_is(f, "func.func") &&
        !mlirAttributeIsNull(npuc_em_attr(f, "npuc.aie1_reference")) &&
        !pair_with_reference(module, f, ks, n))
      return false;
  if (*n == 0) {
    npuc_op_error(first_op(module),
                  "no kernel: with 'vectorize: false' a func.func must name "
                  "its scalar reference with npuc.aie1_reference = @f");
    return false;
  }
  return true;
}

/* ---- files ------------------------------------------------------------- */

static bool add_file(npuc_emitted_files *out, const char *name, npuc_sb *sb) {
  char *text = sb->data ? sb->data : calloc(1, 1);
  sb->data = NULL;
  return npuc_emitted_files_add(out, name, text);
}

static bool emit_files(const npuc_op_registry *reg, const aie1_kernel *ks,
                       size_t n, const aie1_config *cfg,
                       const npuc_compile_options *o, npuc_emitted_files *out) {
  npuc_sb kernel = {0}, reference = {0}, host = {0}, make = {0}, cc = {0},
          glue = {0};
  bool ok =
      aie1_emit_functions(reg, ks, n, true, cfg->shift, cfg->aieml, &kernel) &&
      aie1_emit_functions(reg, ks, n, false, cfg->shift, false, &reference);
  bool with_cc = ok && aie1_emit_kernel_cc(ks, n, cfg->aieml, &cc, &glue);
  if (ok) {
    aie1_emit_host(ks, n, cfg, &host);
    aie1_emit_makefile(o, &make);
    ok = add_file(out, "kernel.c", &kernel) &&
         add_file(out, "reference.c", &reference) &&
         add_file(out, "host.c", &host) && add_file(out, "Makefile", &make) &&
         (!with_cc || (add_file(out, "kernel.cc", &cc) &&
                       add_file(out, "kernel_glue.cc", &glue)));
  }
  npuc_sb_free(&cc);
  npuc_sb_free(&glue);
  npuc_sb_free(&kernel);
  npuc_sb_free(&reference);
  npuc_sb_free(&host);
  npuc_sb_free(&make);
  return ok;
}
