/* Dtypes: element sizes, names, and f16/bf16 <-> f32 (include/npuc/Dtype.h).
 * Compiled into npuc_common and into libnpuc_hivm_rt.a. */
#include "npuc/Dtype.h"

#include <string.h>

size_t npuc_rt_elem_size(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_I1:
  case NPUC_DT_I8: return 1;
  case NPUC_DT_I16:
  case NPUC_DT_F16:
  case NPUC_DT_BF16: return 2;
  case NPUC_DT_I32:
  case NPUC_DT_F32: return 4;
  case NPUC_DT_I64:
  case NPUC_DT_F64: return 8;
  }
  return 0;
}

bool npuc_rt_is_float(npuc_dtype dt) {
  return dt == NPUC_DT_F16 || dt == NPUC_DT_BF16 || dt == NPUC_DT_F32 ||
         dt == NPUC_DT_F64;
}

const char *npuc_rt_dtype_name(npuc_dtype dt) {
  switch (dt) {
  case NPUC_DT_I1: return "i1";
  case NPUC_DT_I8: return "i8";
  case NPUC_DT_I16: return "i16";
  case NPUC_DT_I32: return "i32";
  case NPUC_DT_I64: return "i64";
  case NPUC_DT_F16: return "f16";
  case NPUC_DT_BF16: return "bf16";
  case NPUC_DT_F32: return "f32";
  case NPUC_DT_F64: return "f64";
  }
  return "<invalid dtype>";
}

bool npuc_rt_dtype_parse(const char *name, npuc_dtype *dt) {
  for (int i = NPUC_DT_I1; i <= NPUC_DT_F64; ++i)
    if (strcmp(name, npuc_rt_dtype_name((npuc_dtype)i)) == 0) {
      *dt = (npuc_dtype)i;
      return true;
    }
  if (strcmp(name, "index") == 0) {
    *dt = NPUC_DT_I64;
    return true;
  }
  return false;
}

float npuc_rt_f16_to_f32(uint16_t h) { return npuc_f16_to_f32_inline(h); }
uint16_t npuc_rt_f32_to_f16(float f) { return npuc_f32_to_f16_inline(f); }
float npuc_rt_bf16_to_f32(uint16_t h) { return npuc_bf16_to_f32_inline(h); }
uint16_t npuc_rt_f32_to_bf16(float f) { return npuc_f32_to_bf16_inline(f); }
