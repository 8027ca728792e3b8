/* Dtype: the element types of the C models and their number conversions,
 * shared by the compiler (npuc-run, the emitters, the TX8 passes) and the
 * runtimes. Plain C, no MLIR: lib/Common/Dtype.c is compiled into
 * npuc_common and into libnpuc_hivm_rt.a (docs/architecture.md). */
#ifndef NPUC_DTYPE_H
#define NPUC_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
  NPUC_DT_I1,
  NPUC_DT_I8,
  NPUC_DT_I16,
  NPUC_DT_I32,
  NPUC_DT_I64,  /* also index */
  NPUC_DT_F16,  /* stored as IEEE binary16 bits in uint16_t */
  NPUC_DT_BF16, /* stored as bfloat16 bits in uint16_t */
  NPUC_DT_F32,
  NPUC_DT_F64,
} npuc_dtype;

size_t npuc_rt_elem_size(npuc_dtype dt);
/* "i1" "i8" "i16" "i32" "i64" "f16" "bf16" "f32" "f64"; parse also takes
 * "index" (as i64). */
const char *npuc_rt_dtype_name(npuc_dtype dt);
bool npuc_rt_dtype_parse(const char *name, npuc_dtype *dt);
bool npuc_rt_is_float(npuc_dtype dt);

/* ---- fp16 / bf16 conversions (round to nearest even) ------------------ */
float npuc_rt_f16_to_f32(uint16_t h);
uint16_t npuc_rt_f32_to_f16(float f);
float npuc_rt_bf16_to_f32(uint16_t h);
uint16_t npuc_rt_f32_to_bf16(float f);

/* The bodies, inline so that the runtime's row loops over them vectorize.
 * Both f16 directions are written without branches (each case is computed
 * and one selected) for the same reason. */
static inline float npuc_f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint32_t npuc_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float npuc_bf16_to_f32_inline(uint16_t h) {
  return npuc_f32_from_bits((uint32_t)h << 16);
}

static inline float npuc_f16_to_f32_inline(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t bits = (uint32_t)(h & 0x7fff) << 13; /* exponent and mantissa */
  uint32_t exp = bits & 0x0f800000u;
  uint32_t normal = bits + 0x38000000u;  /* rebias 15 -> 127 */
  uint32_t inf_nan = bits + 0x70000000u; /* exponent 31 -> 255, payload kept */
  /* Zero or subnormal: 2^-14 * (1 + m/1024) - 2^-14 = m * 2^-24, exactly. */
  float sub = npuc_f32_from_bits(bits + 0x38800000u) - 0x1p-14f;
  uint32_t mag = exp == 0x0f800000u ? inf_nan
                 : exp == 0         ? npuc_f32_bits(sub)
                                    : normal;
  return npuc_f32_from_bits(sign | mag);
}

static inline uint16_t npuc_f32_to_f16_inline(float f) {
  uint32_t x = npuc_f32_bits(f);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t mag = x & 0x7fffffffu;
  /* Normal f16 (>= 2^-14): rebias 127 -> 15, then drop 13 bits rounding
   * to nearest even; a carry out of the mantissa bumps the exponent. */
  uint32_t normal = (mag - 0x38000000u + 0xfffu + ((mag >> 13) & 1)) >> 13;
  /* Subnormal f16: adding 0.5 leaves the value in units of 2^-24 (the
   * ulp of 0.5) in the low bits, rounded to nearest even by the FPU;
   * rounding up to 0x400 is the smallest normal, the right encoding. */
  uint32_t sub = npuc_f32_bits(npuc_f32_from_bits(mag) + 0.5f) - 0x3f000000u;
  /* NaN: quiet it, keep the top payload bits. >= 65520 rounds to Inf. */
  uint32_t nan = 0x7e00u | ((mag >> 13) & 0x3ffu);
  uint32_t r = mag > 0x7f800000u    ? nan
               : mag >= 0x477ff000u ? 0x7c00u
               : mag >= 0x38800000u ? normal
                                    : sub;
  return (uint16_t)(sign | r);
}

static inline uint16_t npuc_f32_to_bf16_inline(float f) {
  uint32_t x = npuc_f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40);
  /* Adding 0x7fff plus the kept lsb rounds to nearest even; a carry out of
   * the mantissa bumps the exponent, up to Inf for the largest values. */
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

#endif
