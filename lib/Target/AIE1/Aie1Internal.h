/* Shared by the files of the aie1-cmodel target. Not public.
 *
 * The target writes scalars, control flow and memrefs through the shared C
 * emitter (npuc/CEmit.h, as ascend-cmodel does) and adds one op family,
 * the aievec / aievec_aie1 / vector ops, as calls into libnpuc_aie1_rt. */
#ifndef NPUC_AIE1_INTERNAL_H
#define NPUC_AIE1_INTERNAL_H

#include "npuc/CEmit.h"
#include "npuc/Target.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* --target-config of aie1-cmodel (docs/aie1-cmodel.md). */
typedef struct {
  /* false: the module already holds vectorized kernels, each naming its
   * scalar reference with `npuc.aie1_reference = @f`; no vectorization. */
  bool vectorize;
  /* The kernels target AIE-ML: aie-vectorize runs with aieml=true and the
   * emulated core is AIE-ML (npuc_aie1_ctx.aieml). */
  bool aieml;
  int64_t virtual_vector_size; /* 0: from the element type */
  /* aie-vectorize options, passed through when given (-1: not given). */
  int64_t shift, zero_offset, dup_factor;
  int unaligned_loads_check; /* -1 not given, 0 false, 1 true */
  /* The filter layout the vectorized kernel assumes, in argument
   * filter_arg: element k is 0 when k % period >= used, else a copy of
   * element k - k % dup. zero-offset Z alone means period Z, used Z - 1. */
  int64_t filter_arg, filter_period, filter_used, filter_dup;
  int64_t dynamic_size; /* the host's size of every `?` dimension */
  int64_t slack;        /* elements after each buffer */
  uint64_t seed;        /* of the host's random inputs */
  int64_t f32_ulps;     /* allowed f32 distance, in units in the last place */
} aie1_config;

/* Reads o->target_config (defaults without one). Errors are located in
 * the YAML file. */
bool aie1_config_read(const npuc_compile_options *o, aie1_config *cfg);

/* One kernel to compare: the vectorized function and its scalar reference
 * (same signature, in the same or in a cloned module). */
typedef struct {
  MlirOperation vec, ref;
  char name[128]; /* C-safe symbol name of `vec` */
} aie1_kernel;

/* With shift > 0, rewrites each kernel's scalar reference (a function
 * with its affine ops lowered) to the fixed-point meaning aie-vectorize's
 * `shift` gives it: exact wide accumulation, ups and srs where the
 * vectorized form has them (FixedPoint.c). Errors are located. */
bool aie1_fixed_point_references(const aie1_kernel *ks, size_t n,
                                 int64_t shift);

/* The emitter family of aievec, aievec_aie1 and the vector ops the
 * vectorized kernels use (the emitter's first_op hook). */
bool aie1_em_vector_op(emitter *em, MlirOperation op, const char *name);
/* The same on an AIE-ML core ('aieml: true'): also mul_elem, mac_elem and
 * i64 accumulator lanes. */
bool aie1_em_vector_op_aieml(emitter *em, MlirOperation op, const char *name);

/* Emits `npuc_vec_<name>` (vectorized, on an AIE-ML core when `aieml`) or
 * `npuc_ref_<name>` (reference) for every kernel: a C function taking the
 * kernel's buffers. `shift` > 0 says so in the header of the (fixed-point)
 * reference. */
bool aie1_emit_functions(const npuc_op_registry *reg, const aie1_kernel *ks,
                         size_t n, bool vectorized, int64_t shift, bool aieml,
                         npuc_sb *file);
/* host.c: random inputs, both versions, comparison. Makefile. */
void aie1_emit_host(const aie1_kernel *ks, size_t n, const aie1_config *cfg,
                    npuc_sb *file);
void aie1_emit_makefile(const npuc_compile_options *o, npuc_sb *file);
/* kernel.cc: the kernels as aie-translate --aievec-to-cpp writes them
 * (--aie2 when `aieml`), and kernel_glue.cc, through which host.c built
 * with -DNPUC_KERNEL_CC runs them (KernelCc.c). False, with located
 * warnings, when a kernel has no such form: then neither is written. */
bool aie1_emit_kernel_cc(const aie1_kernel *ks, size_t n, bool aieml,
                         npuc_sb *cc, npuc_sb *glue);

/* The npuc_aie1_elem constant ("NPUC_AIE1_I16") of a scalar or vector
 * element type; NULL when the AIE1 vector unit has no such element. */
const char *aie1_elem_constant(MlirType t);

#endif
