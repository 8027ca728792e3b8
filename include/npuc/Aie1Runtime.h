/* Aie1Runtime: libnpuc_aie1_rt, a C model of the AMD AIE1 (first-generation
 * AI Engine) vector unit as mlir-aie's aievec / aievec_aie1 ops use it. It
 * runs on the host, so a kernel that --aie-vectorize produced can be
 * executed and compared with its scalar source.
 *
 * What each op computes, lane by lane, follows
 * ../shared/reference/aie1-lane-semantics.md; docs/aie1-emulator.md says
 * what is modelled, what each parameter means and where the model rests on
 * inference rather than documentation.
 *
 * Vectors carry their element kind and lane count, so every op checks its
 * operands' shapes. Every op returns false on misuse (a shape no AIE1
 * instruction has, a parameter out of range, a read outside the buffer) and
 * leaves the reason in the context; it never reads or writes outside its
 * arguments. Results may alias operands (`acc = mac(acc, ...)`). */
#ifndef NPUC_AIE1_RUNTIME_H
#define NPUC_AIE1_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  NPUC_AIE1_I8,
  NPUC_AIE1_I16,
  NPUC_AIE1_I32,
  NPUC_AIE1_F32,
  NPUC_AIE1_ACC48, /* 48-bit integer accumulator lanes (vector<Nxi48>) */
  NPUC_AIE1_ACC80, /* 80-bit integer accumulator lanes (vector<Nxi80>) */
  /* AIE-ML's 64-bit accumulator lanes (vector<16xi64>); not AIE1. Its
   * 32-bit accumulator (vector<32xi32>) is held as I32 lanes. */
  NPUC_AIE1_I64,
} npuc_aie1_elem;

/* One 80-bit accumulator lane: the value hi * 2^64 + lo, with hi in
 * [-2^15, 2^15). Products of two i32 already need 63 bits, so the sums do
 * not fit in an int64. */
typedef struct {
  uint64_t lo;
  int64_t hi;
} npuc_aie1_i80;

/* The widest register is 1024 bits (128 x i8); accumulators have at most 16
 * lanes. */
enum { NPUC_AIE1_MAX_LANES = 128, NPUC_AIE1_MAX_ACC_LANES = 16 };

typedef struct {
  npuc_aie1_elem elem;
  int32_t lanes;
  union {
    int8_t i8[128];
    int16_t i16[64];
    int32_t i32[32];
    float f32[32];
    int64_t acc48[16]; /* sign-extended from bit 47 */
    npuc_aie1_i80 acc80[16];
    int64_t i64[16];
  } u;
} npuc_aie1_vec;

/* Rounding of srs, numbered as AIE1 numbers them (control register MD0,
 * bits 1-3). */
typedef enum {
  NPUC_AIE1_RND_FLOOR = 0,
  NPUC_AIE1_RND_CEIL = 1,
  NPUC_AIE1_RND_POS_INF = 2,  /* half up */
  NPUC_AIE1_RND_NEG_INF = 3,  /* half down */
  NPUC_AIE1_RND_SYM_INF = 4,  /* half away from zero */
  NPUC_AIE1_RND_SYM_ZERO = 5, /* half toward zero */
  NPUC_AIE1_RND_CONV_EVEN = 6,
  NPUC_AIE1_RND_CONV_ODD = 7,
} npuc_aie1_round;

/* Saturation of srs and pack (MD0 bit 0, and bit 7 for symmetric). */
typedef enum {
  NPUC_AIE1_SAT_NONE,      /* keep the low bits (two's-complement wrap) */
  NPUC_AIE1_SAT_SATURATE,  /* clamp to [-2^(n-1), 2^(n-1)-1] */
  NPUC_AIE1_SAT_SYMMETRIC, /* clamp to [-(2^(n-1)-1), 2^(n-1)-1] */
} npuc_aie1_sat;

/* One core's state: its rounding and saturation modes (the hardware leaves
 * them uninitialised; npuc_aie1_ctx_init sets floor and none, the AIE API's
 * defaults), the reason the last op failed, and whether the core is an
 * AIE-ML one (false after init). AIE-ML, as modelled here (see
 * docs/aie1-cmodel.md; NOT from the AIE1 lane-semantics reference): upd
 * reads vectors of up to 512 bits whole; ups / srs convert to and from
 * I32 / I64 accumulator lanes; mul_elem / mac_elem are allowed. */
typedef struct {
  npuc_aie1_round round;
  npuc_aie1_sat sat;
  char error[256];
  bool aieml;
} npuc_aie1_ctx;

void npuc_aie1_ctx_init(npuc_aie1_ctx *ctx);
/* Prints "loc: error: <ctx->error>" to stderr and exits with status 3, as
 * libnpuc_hivm_rt does: for emitted code, after an op returned false. */
void npuc_aie1_fail(const npuc_aie1_ctx *ctx, const char *loc);

/* Bits per lane: 8, 16, 32, 32, 48, 80, 64. */
int32_t npuc_aie1_elem_bits(npuc_aie1_elem elem);
/* A zeroed vector. Data vectors must fill a 128-, 256-, 512- or 1024-bit
 * register; accumulators have 4, 8 or 16 lanes. */
bool npuc_aie1_vec_init(npuc_aie1_ctx *ctx, npuc_aie1_vec *v,
                        npuc_aie1_elem elem, int32_t lanes);
/* An 80-bit lane from an int64, and back when it fits (false otherwise). */
npuc_aie1_i80 npuc_aie1_i80_from_i64(int64_t v);
bool npuc_aie1_i80_to_i64(npuc_aie1_i80 v, int64_t *out);

/* ---- lane-addressing parameters ------------------------------------------ */

/* One operand's addressing, from the x* / z* / y* attribute strings. */
typedef struct {
  uint32_t start, offsets, offsets_hi, step, square;
} npuc_aie1_addr;

typedef struct {
  /* "xstart" was given: the lane-addressed scheme; otherwise lane-wise. */
  bool lane_addressed;
  npuc_aie1_addr x; /* xstart, xoffsets, xoffsets_hi, xstep, xsquare */
  npuc_aie1_addr z; /* z* of mul/mac/add/sub; y* of select */
  uint32_t select;  /* select: bit s picks lane s from the y side */
  bool fmsub;       /* mac: subtract the products */
} npuc_aie1_params;

/* Absent attributes: start, offsets and steps 0, squares 0x3210 (each lane
 * takes its own position), select 0, fmsub false. */
void npuc_aie1_params_init(npuc_aie1_params *p);
/* Sets one attribute from mlir-aie's string: decimal ("2") or hex
 * ("0x76543210"), at most 32 bits; "" means absent and changes nothing.
 * name is an attribute name (xstart ... zsquare, ystart ... ysquare,
 * select; fmsub takes "true" / "false"). */
bool npuc_aie1_params_set(npuc_aie1_ctx *ctx, npuc_aie1_params *p,
                          const char *name, const char *value);

/* ---- data movement (aievec) ---------------------------------------------- */

/* aievec.upd: element address a = linear_index + offset_bits / elem bits
 * in `mem` (mem_len elements of `elem`). A vector of at most 256 bits
 * (AIE-ML: 512) is read whole (index 0). A wider one has its low (index 0) or
 * high (index 1) half read from a..a+lanes/2-1; the other half comes from
 * `prev`, or is 0 when prev is NULL. */
bool npuc_aie1_upd(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *prev, const void *mem, int64_t mem_len,
                   npuc_aie1_elem elem, int32_t lanes, int64_t linear_index,
                   int32_t offset_bits, int32_t index);
/* vector.transfer_write as the vectorized kernels need it: lanes
 * 0..count-1 to mem[linear_index...] (count < lanes where a row ends). */
bool npuc_aie1_store(npuc_aie1_ctx *ctx, const npuc_aie1_vec *v, void *mem,
                     int64_t mem_len, int64_t linear_index, int32_t count);
/* aievec.concat: out[j*n + k] = srcs[j][k], all sources alike. */
bool npuc_aie1_concat(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *const *srcs, int32_t count);
/* aievec.ext / aievec_aie1.ext: out[k] = src[index * lanes + k]. */
bool npuc_aie1_ext(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *src, int32_t lanes, int32_t index);
/* aievec.broadcast: every lane = src[idx]. */
bool npuc_aie1_broadcast(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                         const npuc_aie1_vec *src, int32_t idx);
/* aievec.shift: lanes of concat(lhs, rhs) from byte shift_bytes on (a
 * multiple of the element size, at most one vector). */
bool npuc_aie1_shift(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                     const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                     int32_t shift_bytes);
/* aievec.pack: i16 lanes to i8 under ctx->sat: the low 8 bits, or clamped
 * to [-128, 127] ([-127, 127] symmetric). upack (is_unsigned) reads the
 * lanes as u16 and clamps to [0, 255]. */
bool npuc_aie1_pack(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                    const npuc_aie1_vec *src, bool is_unsigned);

/* ---- accumulators (aievec) ------------------------------------------------
 */

/* aievec.ups: acc[k] = sign_extend(v[k]) << shift, shift in [0, 63]; i8 and
 * i16 go to ACC48, i32 to ACC80, f32 stays f32. AIE-ML (ctx->aieml): i8,
 * i16 go to I32 or I64 lanes, i32 to I64, wrapping to the lane. */
bool npuc_aie1_ups(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *src, npuc_aie1_elem acc, int32_t shift);
/* aievec.srs: out[k] = SAT(ROUND(acc[k] >> shift)) to `to` (i8, i16 or
 * i32; f32 from f32 is the identity), shift in [0, 63], under ctx->round
 * and ctx->sat; is_signed false saturates to [0, 2^n - 1]. AIE-ML
 * (ctx->aieml) also takes I32 / I64 accumulator lanes, to a narrower
 * element. */
bool npuc_aie1_srs(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *acc, npuc_aie1_elem to, int32_t shift,
                   bool is_signed);

/* ---- aievec_aie1 -----------------------------------------------------------
 */

/* aievec_aie1.mul: the result has acc_lanes lanes of acc_elem (ACC48,
 * ACC80 or F32); the scheme follows from the operand and result shapes. */
bool npuc_aie1_mul(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   npuc_aie1_elem acc_elem, int32_t acc_lanes,
                   const npuc_aie1_params *p);
/* aievec_aie1.mac: acc plus (minus, with p->fmsub) what mul computes. */
bool npuc_aie1_mac(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_vec *acc, const npuc_aie1_params *p);
/* aievec_aie1.add / sub: lane-wise, or with lane addressing (the second
 * operand uses p->z) into 32 lanes of i16 or 16 lanes of i32 / f32. */
bool npuc_aie1_add(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_params *p);
bool npuc_aie1_sub(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                   const npuc_aie1_vec *x, const npuc_aie1_vec *z,
                   const npuc_aie1_params *p);
/* ---- AIE-ML element-wise (ctx->aieml only) --------------------------------
 */

/* aievec.mul_elem: out[k] = lhs[k] * rhs[k], exact, in I64 lanes for i32
 * operands and I32 lanes (wrapping) for i8 / i16 ones. */
bool npuc_aie1_mul_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        npuc_aie1_elem acc_elem);
/* aievec.mac_elem: out[k] = acc[k] + lhs[k] * rhs[k] (minus with fmsub),
 * wrapping to the accumulator lane. */
bool npuc_aie1_mac_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        const npuc_aie1_vec *acc, bool fmsub);

/* ---- AIE-ML convolutions and shuffle (ctx->aieml only) -------------------
 * Sources of each rule: lib/Runtime/aie1/conv.c and docs/aie1-emulator.md. */

/* aievec.mul_conv {M, N}: out[x] = sum over u < N of rhs[u] * lhs[x + u],
 * x < M; 32x8 on i8 into I32 lanes, 16x4 on i16 into I64 lanes. */
bool npuc_aie1_mul_conv(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        int32_t m, int32_t n);
/* aievec.fma_conv: acc[x] plus (minus, fmsub) what mul_conv sums. */
bool npuc_aie1_fma_conv(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                        const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                        const npuc_aie1_vec *acc, int32_t m, int32_t n,
                        bool fmsub);
/* aievec.legacyshuffle {mode}: modes 0-5 (T8_64x2, T16_32x2, T32_16x2, lo
 * then hi) of src:src: lo the even lanes, hi the odd ones, twice. */
bool npuc_aie1_legacyshuffle(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                             const npuc_aie1_vec *src, int32_t mode);

/* aievec.matmul (AIE-ML, integer): out[i*n + j] = acc[i*n + j] + sum over
 * kk < k of lhs[i*k + kk] * rhs[kk*n + j], row-major lanes, wrapping to the
 * accumulator lane (I32 or I64); lhs and rhs may have more lanes. */
bool npuc_aie1_matmul(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *lhs, const npuc_aie1_vec *rhs,
                      const npuc_aie1_vec *acc, int32_t m, int32_t k,
                      int32_t n);

/* ---- AIE-ML bfloat16 and float accumulators (ctx->aieml only) -----------
 * lib/Runtime/aie1/float.c. bf16 lanes are held as their bits in I16 lanes,
 * float accumulator lanes are F32 lanes. */

/* One bf16 value from its bits (exact), and an f32 rounded to bf16 bits, to
 * nearest even (a NaN stays a quiet NaN). */
float npuc_aie1_bf16_value(uint16_t bits);
uint16_t npuc_aie1_bf16_bits(float f);
/* ups to an accumulator of floats: out[k] = src[k] as f32, exact (bf16
 * lanes when bf16, else f32 ones). */
bool npuc_aie1_ups_float(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                         const npuc_aie1_vec *src, bool bf16);
/* The float accumulator's lanes rounded to bf16, to nearest even. */
bool npuc_aie1_to_bf16(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                       const npuc_aie1_vec *acc);
/* aievec.mul_elem / mac_elem on bf16 (bf16) or f32 data: out[k] =
 * acc[k] + lhs[k] * rhs[k] (minus with fmsub; the product alone when acc
 * is NULL) for k < lanes, in f32; lhs and rhs may have more lanes. */
bool npuc_aie1_float_mac_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                              const npuc_aie1_vec *lhs,
                              const npuc_aie1_vec *rhs,
                              const npuc_aie1_vec *acc, bool bf16,
                              int32_t lanes, bool fmsub);
/* aievec.add_elem / sub_elem on float accumulators: out[k] = a[k] +- b[k]. */
bool npuc_aie1_float_add_elem(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                              const npuc_aie1_vec *a, const npuc_aie1_vec *b,
                              bool sub);

/* aievec_aie1.select (and aievec.select): 32 lanes of i16 or 16 lanes of
 * i32 / f32; lane s from the y side (p->z on ybuff, or on xbuff when ybuff
 * is NULL) when bit s of p->select is set, else from the x side. */
bool npuc_aie1_select(npuc_aie1_ctx *ctx, npuc_aie1_vec *out,
                      const npuc_aie1_vec *xbuff, const npuc_aie1_vec *ybuff,
                      const npuc_aie1_params *p);

#endif
