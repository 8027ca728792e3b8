/* aie_intrinsics.h: the AIE1 intrinsics (and the AIE-ML element-wise ones)
 * that `npuc-translate --aievec-to-cpp` writes, over npuc's lane emulator
 * (libnpuc_aie1_rt, npuc/Aie1Runtime.h), so that the emitted kernel.cc
 * builds unchanged with g++ and runs on this machine.
 *
 * The emitted kernel is C++ by the anchor's definition (overloaded
 * intrinsics, `restrict`, chess pragmas), so this header is C++: it is
 * compiled only with an emitted kernel, never into the compiler
 * (docs/aievec-to-cpp.md). Data vectors (v16int16, v8float...) are plain
 * arrays of their lanes, because the kernel loads and stores them through
 * pointer casts; accumulators (v16acc48, v8acc80, AIE-ML v16acc64...) hold
 * an emulator vector. Every intrinsic converts to the emulator's vectors,
 * calls the op the aievec op names, and converts back; a call the emulator
 * refuses stops the run with the intrinsic's name (exit status 3). The
 * lane-addressing arguments are mlir-aie's attributes in the order the
 * translation writes them. */
#ifndef NPUC_AIE_INTRINSICS_H
#define NPUC_AIE_INTRINSICS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern "C" {
#include "npuc/Aie1Runtime.h"
}

#define restrict __restrict
#define chess_prepare_for_pipelining
#define chess_loop_range(...)

/* ---- the core ---------------------------------------------------------- */

inline npuc_aie1_ctx &npuc_cc_ctx() {
  static npuc_aie1_ctx ctx;
  static bool ready = (npuc_aie1_ctx_init(&ctx), true);
  (void)ready;
  return ctx;
}

inline void npuc_cc_check(bool ok, const char *intrinsic) {
  if (!ok)
    npuc_aie1_fail(&npuc_cc_ctx(), intrinsic);
}

/* Runs an AIE-ML intrinsic on an AIE-ML core, AIE1 ones on an AIE1 core. */
struct npuc_cc_core {
  bool saved;
  explicit npuc_cc_core(bool aieml) : saved(npuc_cc_ctx().aieml) {
    npuc_cc_ctx().aieml = aieml;
  }
  ~npuc_cc_core() { npuc_cc_ctx().aieml = saved; }
};

template <typename E> struct npuc_cc_kind;
template <> struct npuc_cc_kind<int8_t> {
  static const npuc_aie1_elem value = NPUC_AIE1_I8;
};
template <> struct npuc_cc_kind<int16_t> {
  static const npuc_aie1_elem value = NPUC_AIE1_I16;
};
template <> struct npuc_cc_kind<int32_t> {
  static const npuc_aie1_elem value = NPUC_AIE1_I32;
};
/* Unsigned lanes are held as their bits in the signed kind (the emulator
 * has no unsigned lanes; upack's result reads back unsigned here). */
template <> struct npuc_cc_kind<uint8_t> {
  static const npuc_aie1_elem value = NPUC_AIE1_I8;
};
template <> struct npuc_cc_kind<uint16_t> {
  static const npuc_aie1_elem value = NPUC_AIE1_I16;
};
template <> struct npuc_cc_kind<float> {
  static const npuc_aie1_elem value = NPUC_AIE1_F32;
};
/* AIE-ML's bfloat16, the high half of an f32, held as its bits (the
 * emulator keeps bf16 lanes as I16 bits); `(bfloat16)1.5` rounds to
 * nearest even. */
struct bfloat16 {
  uint16_t bits;
  bfloat16() : bits(0) {}
  bfloat16(float f) : bits(npuc_aie1_bf16_bits(f)) {}
  operator float() const { return npuc_aie1_bf16_value(bits); }
};
template <> struct npuc_cc_kind<bfloat16> {
  static const npuc_aie1_elem value = NPUC_AIE1_I16;
};

template <int K, int N> struct npuc_vacc;

/* A data vector: exactly its lanes, so `*(v16int16 *)p` reads memory.
 * AIE-ML's cast to an accumulator (`v32acc32(x)`) converts it. */
template <typename E, int N> struct npuc_vdata {
  E e[N];
  template <int K, int M> operator npuc_vacc<K, M>() const;
};

/* An accumulator: the emulator's vector of kind K and N lanes. AIE-ML's
 * cast to a vector register (`v32int32(acc)`) converts it. */
template <int K, int N> struct npuc_vacc {
  npuc_aie1_vec v;
  template <typename E, int M> operator npuc_vdata<E, M>() const;
};

inline npuc_aie1_vec npuc_cc_empty(npuc_aie1_elem kind, int lanes) {
  npuc_aie1_vec v;
  npuc_cc_check(npuc_aie1_vec_init(&npuc_cc_ctx(), &v, kind, lanes), "vector");
  return v;
}

template <typename E, int N>
inline npuc_aie1_vec npuc_cc_in(const npuc_vdata<E, N> &d) {
  npuc_aie1_vec v = npuc_cc_empty(npuc_cc_kind<E>::value, N);
  memcpy(&v.u, d.e, sizeof d.e);
  return v;
}
template <int K, int N>
inline npuc_aie1_vec npuc_cc_in(const npuc_vacc<K, N> &a) {
  return a.v;
}

template <typename T> inline T npuc_cc_out(const npuc_aie1_vec &v);

template <typename T> struct npuc_cc_outer;
template <typename E, int N> struct npuc_cc_outer<npuc_vdata<E, N>> {
  static npuc_vdata<E, N> from(const npuc_aie1_vec &v, const char *what) {
    npuc_cc_check(v.elem == npuc_cc_kind<E>::value && v.lanes == N, what);
    npuc_vdata<E, N> d;
    memcpy(d.e, &v.u, sizeof d.e);
    return d;
  }
};
template <int K, int N> struct npuc_cc_outer<npuc_vacc<K, N>> {
  static npuc_vacc<K, N> from(const npuc_aie1_vec &v, const char *what) {
    npuc_cc_check(v.elem == (npuc_aie1_elem)K && v.lanes == N, what);
    npuc_vacc<K, N> a;
    a.v = v;
    return a;
  }
};

/* aievec.cast: the lanes move between a register and an accumulator
 * unchanged, so both must have one lane kind and count (v32acc32 and
 * v32int32; the emulator holds AIE-ML's acc32 lanes as I32). */
template <typename E, int N>
template <int K, int M>
npuc_vdata<E, N>::operator npuc_vacc<K, M>() const {
  npuc_cc_check(npuc_cc_kind<E>::value == (npuc_aie1_elem)K && N == M,
                "cast to an accumulator of another lane type");
  return npuc_cc_outer<npuc_vacc<K, M>>::from(npuc_cc_in(*this), "cast");
}
template <int K, int N>
template <typename E, int M>
npuc_vacc<K, N>::operator npuc_vdata<E, M>() const {
  return npuc_cc_outer<npuc_vdata<E, M>>::from(v, "cast");
}

/* ---- the types ----------------------------------------------------------- */

#define NPUC_CC_DATA(E, N, NAME)                                               \
  typedef npuc_vdata<E, N> NAME;                                               \
  inline NAME undef_##NAME() { return NAME(); }                                \
  inline NAME null_##NAME() { return NAME(); }
NPUC_CC_DATA(int8_t, 16, v16int8)
NPUC_CC_DATA(int8_t, 32, v32int8)
NPUC_CC_DATA(int8_t, 64, v64int8)
NPUC_CC_DATA(int8_t, 128, v128int8)
NPUC_CC_DATA(int16_t, 8, v8int16)
NPUC_CC_DATA(int16_t, 16, v16int16)
NPUC_CC_DATA(int16_t, 32, v32int16)
NPUC_CC_DATA(int16_t, 64, v64int16)
NPUC_CC_DATA(int32_t, 4, v4int32)
NPUC_CC_DATA(int32_t, 8, v8int32)
NPUC_CC_DATA(int32_t, 16, v16int32)
NPUC_CC_DATA(int32_t, 32, v32int32)
NPUC_CC_DATA(uint8_t, 16, v16uint8)
NPUC_CC_DATA(uint8_t, 32, v32uint8)
NPUC_CC_DATA(uint8_t, 64, v64uint8)
NPUC_CC_DATA(uint16_t, 16, v16uint16)
NPUC_CC_DATA(uint16_t, 32, v32uint16)
NPUC_CC_DATA(float, 4, v4float)
NPUC_CC_DATA(float, 8, v8float)
NPUC_CC_DATA(float, 16, v16float)
NPUC_CC_DATA(float, 32, v32float)
NPUC_CC_DATA(bfloat16, 16, v16bfloat16)
NPUC_CC_DATA(bfloat16, 32, v32bfloat16)
NPUC_CC_DATA(bfloat16, 64, v64bfloat16)
#undef NPUC_CC_DATA

typedef npuc_vacc<NPUC_AIE1_ACC48, 8> v8acc48;
typedef npuc_vacc<NPUC_AIE1_ACC48, 16> v16acc48;
typedef npuc_vacc<NPUC_AIE1_ACC80, 4> v4acc80;
typedef npuc_vacc<NPUC_AIE1_ACC80, 8> v8acc80;
typedef npuc_vacc<NPUC_AIE1_ACC80, 16> v16acc80;
/* AIE-ML: 64-bit lanes for i32 data, 32-bit ones (I32) for i8 / i16. */
typedef npuc_vacc<NPUC_AIE1_I64, 16> v16acc64;
typedef npuc_vacc<NPUC_AIE1_I32, 16> v16acc32;
typedef npuc_vacc<NPUC_AIE1_I32, 32> v32acc32;
/* AIE-ML: f32 lanes for bf16 and f32 data. */
typedef npuc_vacc<NPUC_AIE1_F32, 16> v16accfloat;

inline v16int32 broadcast_zero_s32() { return v16int32(); }

/* ---- data movement ----------------------------------------------------------
 */

template <typename E, int N, int H>
inline npuc_vdata<E, N> npuc_cc_upd(npuc_vdata<E, N> v, int idx,
                                    const npuc_vdata<E, H> &half) {
  static_assert(2 * H == N, "upd fills one half of the vector");
  npuc_cc_check(idx == 0 || idx == 1, "upd: index is 0 or 1");
  memcpy(v.e + idx * H, half.e, sizeof half.e);
  return v;
}
template <typename E, int N, int H>
inline npuc_vdata<E, N> upd_v(npuc_vdata<E, N> v, int i, npuc_vdata<E, H> h) {
  return npuc_cc_upd(v, i, h);
}
template <typename E, int N, int H>
inline npuc_vdata<E, N> upd_w(npuc_vdata<E, N> v, int i, npuc_vdata<E, H> h) {
  return npuc_cc_upd(v, i, h);
}
template <typename E, int N, int H>
inline npuc_vdata<E, N> upd_x(npuc_vdata<E, N> v, int i, npuc_vdata<E, H> h) {
  return npuc_cc_upd(v, i, h);
}

/* ext_v / ext_w / ext_x: the 128- / 256- / 512-bit part `idx`. */
template <int BITS, typename E, int N>
inline npuc_vdata<E, BITS / (8 * sizeof(E))>
npuc_cc_ext(const npuc_vdata<E, N> &v, int idx, const char *what) {
  const int lanes = BITS / (8 * sizeof(E));
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_ext(&npuc_cc_ctx(), &out, &in, lanes, idx), what);
  return npuc_cc_outer<npuc_vdata<E, lanes>>::from(out, what);
}
template <typename E, int N>
inline npuc_vdata<E, 128 / (8 * sizeof(E))> ext_v(const npuc_vdata<E, N> &v,
                                                  int idx) {
  return npuc_cc_ext<128>(v, idx, "ext_v");
}
template <typename E, int N>
inline npuc_vdata<E, 256 / (8 * sizeof(E))> ext_w(const npuc_vdata<E, N> &v,
                                                  int idx) {
  return npuc_cc_ext<256>(v, idx, "ext_w");
}
template <typename E, int N>
inline npuc_vdata<E, 512 / (8 * sizeof(E))> ext_x(const npuc_vdata<E, N> &v,
                                                  int idx) {
  return npuc_cc_ext<512>(v, idx, "ext_x");
}

template <typename E, int N>
inline npuc_vdata<E, 2 * N> concat(const npuc_vdata<E, N> &a,
                                   const npuc_vdata<E, N> &b) {
  npuc_vdata<E, 2 * N> r;
  memcpy(r.e, a.e, sizeof a.e);
  memcpy(r.e + N, b.e, sizeof b.e);
  return r;
}
template <typename E, int N>
inline npuc_vdata<E, 4 * N>
concat(const npuc_vdata<E, N> &a, const npuc_vdata<E, N> &b,
       const npuc_vdata<E, N> &c, const npuc_vdata<E, N> &d) {
  return concat(concat(a, b), concat(c, d));
}

template <typename V> inline V broadcast_elem(const V &v, int idx) {
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_broadcast(&npuc_cc_ctx(), &out, &in, idx),
                "broadcast_elem");
  return npuc_cc_outer<V>::from(out, "broadcast_elem");
}

template <typename V>
inline V shift_bytes(const V &a, const V &b, uint32_t bytes) {
  npuc_aie1_vec x = npuc_cc_in(a), y = npuc_cc_in(b), out;
  npuc_cc_check(npuc_aie1_shift(&npuc_cc_ctx(), &out, &x, &y, (int32_t)bytes),
                "shift_bytes");
  return npuc_cc_outer<V>::from(out, "shift_bytes");
}

template <int N>
inline npuc_vdata<int8_t, N> pack(const npuc_vdata<int16_t, N> &v) {
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_pack(&npuc_cc_ctx(), &out, &in, false), "pack");
  return npuc_cc_outer<npuc_vdata<int8_t, N>>::from(out, "pack");
}

/* upack: unsigned 16-bit lanes to unsigned bytes (aievec.pack of ui16),
 * the emulator's pack with is_unsigned: clamped to [0, 255] when the core
 * saturates, else the low byte (the default mode, none). */
template <int N>
inline npuc_vdata<uint8_t, N> upack(const npuc_vdata<uint16_t, N> &v) {
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_pack(&npuc_cc_ctx(), &out, &in, true), "upack");
  return npuc_cc_outer<npuc_vdata<uint8_t, N>>::from(out, "upack");
}

/* npuc-compile's kernel.cc writes a vector that may cross its row's end
 * with this: only the `left` lanes before the end, as MLIR's
 * vector.transfer_write defines it (aie-translate writes them all). */
template <typename E, int N>
inline void npuc_cc_store(E *p, const npuc_vdata<E, N> &v, ptrdiff_t left) {
  ptrdiff_t n = left < 0 ? 0 : left < N ? left : N;
  memcpy(p, v.e, (size_t)n * sizeof(E));
}

/* ---- accumulators
 * --------------------------------------------------------------- */

/* ups(v, shift) / lups: the declaration's accumulator type says which. */
template <typename V> struct npuc_cc_ups {
  V src;
  int shift;
  template <int K, int N> operator npuc_vacc<K, N>() const {
    npuc_aie1_vec in = npuc_cc_in(src), out;
    npuc_cc_check(
        npuc_aie1_ups(&npuc_cc_ctx(), &out, &in, (npuc_aie1_elem)K, shift),
        "ups");
    return npuc_cc_outer<npuc_vacc<K, N>>::from(out, "ups");
  }
};
template <typename V> inline npuc_cc_ups<V> ups(const V &v, int shift) {
  return npuc_cc_ups<V>{v, shift};
}
template <typename V> inline npuc_cc_ups<V> lups(const V &v, int shift) {
  return npuc_cc_ups<V>{v, shift};
}

/* srs(acc, shift): to the element of the declaration's vector type. */
struct npuc_cc_srs {
  npuc_aie1_vec acc;
  int shift;
  bool aieml;
  template <typename E, int N> operator npuc_vdata<E, N>() const {
    npuc_cc_core core(aieml);
    npuc_aie1_vec out;
    npuc_cc_check(npuc_aie1_srs(&npuc_cc_ctx(), &out, &acc,
                                npuc_cc_kind<E>::value, shift, true),
                  "srs");
    return npuc_cc_outer<npuc_vdata<E, N>>::from(out, "srs");
  }
};
template <int K, int N>
inline npuc_cc_srs srs(const npuc_vacc<K, N> &a, int shift) {
  return npuc_cc_srs{a.v, shift, false};
}
template <int K, int N>
inline npuc_cc_srs lsrs(const npuc_vacc<K, N> &a, int shift) {
  return srs(a, shift);
}
template <int K, int N>
inline npuc_cc_srs bsrs(const npuc_vacc<K, N> &a, int shift) {
  return srs(a, shift);
}

/* ---- multiplies
 * ---------------------------------------------------------------- */

typedef unsigned long long npuc_cc_u; /* one lane-addressing attribute */

inline npuc_aie1_params npuc_cc_lanewise() {
  npuc_aie1_params p;
  npuc_aie1_params_init(&p);
  return p;
}

/* The x and z addressing of a lane-addressed op. */
inline npuc_aie1_params npuc_cc_addr(npuc_aie1_addr x, npuc_aie1_addr z) {
  npuc_aie1_params p = npuc_cc_lanewise();
  p.lane_addressed = true;
  p.x = x;
  p.z = z;
  return p;
}

/* start, offsets, offsets_hi, step, square; the defaults of absent ones. */
inline npuc_aie1_addr npuc_cc_a(npuc_cc_u start, npuc_cc_u offsets,
                                npuc_cc_u offsets_hi, npuc_cc_u step,
                                npuc_cc_u square) {
  npuc_aie1_addr a = {(uint32_t)start, (uint32_t)offsets, (uint32_t)offsets_hi,
                      (uint32_t)step, (uint32_t)square};
  return a;
}

template <typename R, typename X, typename Z>
inline R npuc_cc_mul(const X &x, const Z &z, const npuc_aie1_params &p,
                     npuc_aie1_elem acc_elem, int lanes, const char *what) {
  npuc_aie1_vec xv = npuc_cc_in(x), zv = npuc_cc_in(z), out;
  npuc_cc_check(
      npuc_aie1_mul(&npuc_cc_ctx(), &out, &xv, &zv, acc_elem, lanes, &p), what);
  return npuc_cc_outer<R>::from(out, what);
}

template <typename R, typename X, typename Z>
inline R npuc_cc_mac(const R &acc, const X &x, const Z &z, npuc_aie1_params p,
                     bool sub, const char *what) {
  npuc_aie1_vec xv = npuc_cc_in(x), zv = npuc_cc_in(z), av = npuc_cc_in(acc),
                out;
  p.fmsub = sub;
  npuc_cc_check(npuc_aie1_mac(&npuc_cc_ctx(), &out, &xv, &zv, &av, &p), what);
  return npuc_cc_outer<R>::from(out, what);
}

/* 16-bit, 16 lanes x 2 columns: x start, offsets, offsets_hi, square; z
 * start, offsets, offsets_hi, step. 8-bit, 16 lanes x 8: x and z start,
 * offsets, step, square. */
#define NPUC_CC_MAC16_ARGS                                                     \
  npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xo2, npuc_cc_u xsq, const Z &z,        \
      npuc_cc_u zs, npuc_cc_u zo, npuc_cc_u zo2, npuc_cc_u zstep
#define NPUC_CC_P16                                                            \
  npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, xsq),                                 \
               npuc_cc_a(zs, zo, zo2, zstep, 0x3210))
#define NPUC_CC_P8                                                             \
  npuc_cc_addr(npuc_cc_a(xs, xo, 0, xo2, xsq), npuc_cc_a(zs, zo, 0, zo2, zstep))

/* mul, mac and msc of one scheme: X's element, the result (accumulator)
 * type, the attribute arguments and their parameters. */
#define NPUC_CC_FAMILY(MUL, MAC, MSC, XE, ACC, ARGS, PARAMS, KIND, LANES)      \
  template <int NX, typename Z>                                                \
  inline ACC MUL(const npuc_vdata<XE, NX> &x, ARGS) {                          \
    return npuc_cc_mul<ACC>(x, z, PARAMS, KIND, LANES, #MUL);                  \
  }                                                                            \
  template <int NX, typename Z>                                                \
  inline ACC MAC(const ACC &acc, const npuc_vdata<XE, NX> &x, ARGS) {          \
    return npuc_cc_mac(acc, x, z, PARAMS, false, #MAC);                        \
  }                                                                            \
  template <int NX, typename Z>                                                \
  inline ACC MSC(const ACC &acc, const npuc_vdata<XE, NX> &x, ARGS) {          \
    return npuc_cc_mac(acc, x, z, PARAMS, true, #MSC);                         \
  }
NPUC_CC_FAMILY(mul16, mac16, msc16, int16_t, v16acc48, NPUC_CC_MAC16_ARGS,
               NPUC_CC_P16, NPUC_AIE1_ACC48, 16)
NPUC_CC_FAMILY(mul16, mac16, msc16, int8_t, v16acc48, NPUC_CC_MAC16_ARGS,
               NPUC_CC_P8, NPUC_AIE1_ACC48, 16)

/* 16-bit, 8 lanes x 4 columns: x start, offsets, step, square; z start,
 * offsets, step. */
#define NPUC_CC_MAC8_ARGS                                                      \
  npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xstep, npuc_cc_u xsq, const Z &z,      \
      npuc_cc_u zs, npuc_cc_u zo, npuc_cc_u zstep
#define NPUC_CC_PM8                                                            \
  npuc_cc_addr(npuc_cc_a(xs, xo, 0, xstep, xsq),                               \
               npuc_cc_a(zs, zo, 0, zstep, 0x3210))
NPUC_CC_FAMILY(mul8, mac8, msc8, int16_t, v8acc48, NPUC_CC_MAC8_ARGS,
               NPUC_CC_PM8, NPUC_AIE1_ACC48, 8)

/* 32-bit and float, 8 lanes: x and z start, offsets. */
#define NPUC_CC_MAC32_ARGS                                                     \
  npuc_cc_u xs, npuc_cc_u xo, const Z &z, npuc_cc_u zs, npuc_cc_u zo
#define NPUC_CC_P32                                                            \
  npuc_cc_addr(npuc_cc_a(xs, xo, 0, 0, 0x3210), npuc_cc_a(zs, zo, 0, 0, 0x3210))
NPUC_CC_FAMILY(lmul8, lmac8, lmsc8, int32_t, v8acc80, NPUC_CC_MAC32_ARGS,
               NPUC_CC_P32, NPUC_AIE1_ACC80, 8)
NPUC_CC_FAMILY(fpmul, fpmac, fpmsc, float, v8float, NPUC_CC_MAC32_ARGS,
               NPUC_CC_P32, NPUC_AIE1_F32, 8)
#undef NPUC_CC_FAMILY

/* Lane-wise mul / mac / msc: lane k of x times lane k of z. */
template <typename E, int N> struct npuc_cc_acc_of {
  typedef npuc_vacc<sizeof(E) == 4 ? NPUC_AIE1_ACC80 : NPUC_AIE1_ACC48, N> type;
};
template <int N> struct npuc_cc_acc_of<float, N> {
  typedef npuc_vdata<float, N> type;
};
template <typename E, int N>
inline typename npuc_cc_acc_of<E, N>::type mul(const npuc_vdata<E, N> &x,
                                               const npuc_vdata<E, N> &z) {
  typedef typename npuc_cc_acc_of<E, N>::type R;
  npuc_aie1_elem k = sizeof(E) == 4 && npuc_cc_kind<E>::value != NPUC_AIE1_F32
                         ? NPUC_AIE1_ACC80
                     : npuc_cc_kind<E>::value == NPUC_AIE1_F32
                         ? NPUC_AIE1_F32
                         : NPUC_AIE1_ACC48;
  return npuc_cc_mul<R>(x, z, npuc_cc_lanewise(), k, N, "mul");
}
template <typename R, typename E, int N>
inline R mac(const R &acc, const npuc_vdata<E, N> &x,
             const npuc_vdata<E, N> &z) {
  return npuc_cc_mac(acc, x, z, npuc_cc_lanewise(), false, "mac");
}
template <typename R, typename E, int N>
inline R msc(const R &acc, const npuc_vdata<E, N> &x,
             const npuc_vdata<E, N> &z) {
  return npuc_cc_mac(acc, x, z, npuc_cc_lanewise(), true, "msc");
}

/* ---- adds, select
 * ------------------------------------------------------------------ */

template <typename V>
inline V npuc_cc_add(const V &a, const V &b, bool sub, const char *what) {
  npuc_aie1_vec x = npuc_cc_in(a), z = npuc_cc_in(b), out;
  npuc_aie1_params p = npuc_cc_lanewise();
  npuc_cc_check(sub ? npuc_aie1_sub(&npuc_cc_ctx(), &out, &x, &z, &p)
                    : npuc_aie1_add(&npuc_cc_ctx(), &out, &x, &z, &p),
                what);
  return npuc_cc_outer<V>::from(out, what);
}
template <typename E, int N>
inline npuc_vdata<E, N> operator+(const npuc_vdata<E, N> &a,
                                  const npuc_vdata<E, N> &b) {
  return npuc_cc_add(a, b, false, "+");
}
template <typename E, int N>
inline npuc_vdata<E, N> operator-(const npuc_vdata<E, N> &a,
                                  const npuc_vdata<E, N> &b) {
  return npuc_cc_add(a, b, true, "-");
}
template <int K, int N>
inline npuc_vacc<K, N> operator+(const npuc_vacc<K, N> &a,
                                 const npuc_vacc<K, N> &b) {
  return npuc_cc_add(a, b, false, "+");
}
template <int K, int N>
inline npuc_vacc<K, N> operator-(const npuc_vacc<K, N> &a,
                                 const npuc_vacc<K, N> &b) {
  return npuc_cc_add(a, b, true, "-");
}
template <int N>
inline npuc_vdata<float, N> fpadd(const npuc_vdata<float, N> &a,
                                  const npuc_vdata<float, N> &b) {
  return npuc_cc_add(a, b, false, "fpadd");
}
template <int N>
inline npuc_vdata<float, N> fpsub(const npuc_vdata<float, N> &a,
                                  const npuc_vdata<float, N> &b) {
  return npuc_cc_add(a, b, true, "fpsub");
}

/* Lane-addressed: add32 / sub32 on i16 (start, offsets, offsets_hi, square
 * each), add16 / sub16 on i32 (start, offsets, offsets_hi each). */
template <typename R, typename X, typename Z>
inline R npuc_cc_add_addr(const X &x, const Z &z, const npuc_aie1_params &p,
                          bool sub, const char *what) {
  npuc_aie1_vec xv = npuc_cc_in(x), zv = npuc_cc_in(z), out;
  npuc_cc_check(sub ? npuc_aie1_sub(&npuc_cc_ctx(), &out, &xv, &zv, &p)
                    : npuc_aie1_add(&npuc_cc_ctx(), &out, &xv, &zv, &p),
                what);
  return npuc_cc_outer<R>::from(out, what);
}
#define NPUC_CC_ADD32(NAME, SUB)                                               \
  template <int NX, int NZ>                                                    \
  inline v32int16 NAME(const npuc_vdata<int16_t, NX> &x, npuc_cc_u xs,         \
                       npuc_cc_u xo, npuc_cc_u xo2, npuc_cc_u xsq,             \
                       const npuc_vdata<int16_t, NZ> &z, npuc_cc_u zs,         \
                       npuc_cc_u zo, npuc_cc_u zo2, npuc_cc_u zsq) {           \
    return npuc_cc_add_addr<v32int16>(                                         \
        x, z,                                                                  \
        npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, xsq),                           \
                     npuc_cc_a(zs, zo, zo2, 0, zsq)),                          \
        SUB, #NAME);                                                           \
  }
NPUC_CC_ADD32(add32, false)
NPUC_CC_ADD32(sub32, true)
#undef NPUC_CC_ADD32
#define NPUC_CC_ADD16(NAME, SUB)                                               \
  template <int NX, int NZ>                                                    \
  inline v16int32 NAME(const npuc_vdata<int32_t, NX> &x, npuc_cc_u xs,         \
                       npuc_cc_u xo, npuc_cc_u xo2,                            \
                       const npuc_vdata<int32_t, NZ> &z, npuc_cc_u zs,         \
                       npuc_cc_u zo, npuc_cc_u zo2) {                          \
    return npuc_cc_add_addr<v16int32>(                                         \
        x, z,                                                                  \
        npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, 0x3210),                        \
                     npuc_cc_a(zs, zo, zo2, 0, 0x3210)),                       \
        SUB, #NAME);                                                           \
  }
NPUC_CC_ADD16(add16, false)
NPUC_CC_ADD16(sub16, true)
#undef NPUC_CC_ADD16

template <typename R, typename X>
inline R npuc_cc_select(npuc_cc_u sel, const X &x, const X *y,
                        npuc_aie1_params p, const char *what) {
  npuc_aie1_vec xv = npuc_cc_in(x), yv, out;
  if (y)
    yv = npuc_cc_in(*y);
  p.select = (uint32_t)sel;
  npuc_cc_check(npuc_aie1_select(&npuc_cc_ctx(), &out, &xv, y ? &yv : NULL, &p),
                what);
  return npuc_cc_outer<R>::from(out, what);
}
/* select32: x start, offsets, offsets_hi, square, then y's (with or
 * without a ybuff). */
template <int N>
inline v32int16 select32(npuc_cc_u sel, const npuc_vdata<int16_t, N> &x,
                         npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xo2,
                         npuc_cc_u xsq, npuc_cc_u ys, npuc_cc_u yo,
                         npuc_cc_u yo2, npuc_cc_u ysq) {
  return npuc_cc_select<v32int16>(sel, x, (const npuc_vdata<int16_t, N> *)NULL,
                                  npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, xsq),
                                               npuc_cc_a(ys, yo, yo2, 0, ysq)),
                                  "select32");
}
template <int N>
inline v32int16 select32(npuc_cc_u sel, const npuc_vdata<int16_t, N> &x,
                         npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xo2,
                         npuc_cc_u xsq, const npuc_vdata<int16_t, N> &y,
                         npuc_cc_u ys, npuc_cc_u yo, npuc_cc_u yo2,
                         npuc_cc_u ysq) {
  return npuc_cc_select<v32int16>(sel, x, &y,
                                  npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, xsq),
                                               npuc_cc_a(ys, yo, yo2, 0, ysq)),
                                  "select32");
}
/* select16 (i32, f32): start, offsets, offsets_hi each. */
template <typename E, int N>
inline npuc_vdata<E, 16> select16(npuc_cc_u sel, const npuc_vdata<E, N> &x,
                                  npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xo2,
                                  npuc_cc_u ys, npuc_cc_u yo, npuc_cc_u yo2) {
  return npuc_cc_select<npuc_vdata<E, 16>>(
      sel, x, (const npuc_vdata<E, N> *)NULL,
      npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, 0x3210),
                   npuc_cc_a(ys, yo, yo2, 0, 0x3210)),
      "select16");
}
template <typename E, int N>
inline npuc_vdata<E, 16> select16(npuc_cc_u sel, const npuc_vdata<E, N> &x,
                                  npuc_cc_u xs, npuc_cc_u xo, npuc_cc_u xo2,
                                  const npuc_vdata<E, N> &y, npuc_cc_u ys,
                                  npuc_cc_u yo, npuc_cc_u yo2) {
  return npuc_cc_select<npuc_vdata<E, 16>>(
      sel, x, &y,
      npuc_cc_addr(npuc_cc_a(xs, xo, xo2, 0, 0x3210),
                   npuc_cc_a(ys, yo, yo2, 0, 0x3210)),
      "select16");
}

/* ---- AIE-ML (--aie2): accumulators, element-wise multiplies
 * --------------------- */

#define NPUC_CC_UPS_TO(ACC, K, N)                                              \
  template <typename V> inline ACC ups_to_##ACC(const V &v, int shift) {       \
    npuc_cc_core core(true);                                                   \
    npuc_aie1_vec in = npuc_cc_in(v), out;                                     \
    npuc_cc_check(npuc_aie1_ups(&npuc_cc_ctx(), &out, &in, K, shift),          \
                  "ups_to_" #ACC);                                             \
    return npuc_cc_outer<ACC>::from(out, "ups_to_" #ACC);                      \
  }
NPUC_CC_UPS_TO(v16acc64, NPUC_AIE1_I64, 16)
NPUC_CC_UPS_TO(v16acc32, NPUC_AIE1_I32, 16)
NPUC_CC_UPS_TO(v32acc32, NPUC_AIE1_I32, 32)
#undef NPUC_CC_UPS_TO

#define NPUC_CC_SRS_TO(V, E)                                                   \
  template <int K, int N>                                                      \
  inline V srs_to_##V(const npuc_vacc<K, N> &a, int shift) {                   \
    npuc_cc_srs s = {a.v, shift, true};                                        \
    return s;                                                                  \
  }
NPUC_CC_SRS_TO(v16int32, int32_t)
NPUC_CC_SRS_TO(v16int16, int16_t)
NPUC_CC_SRS_TO(v32int16, int16_t)
NPUC_CC_SRS_TO(v32int8, int8_t)
#undef NPUC_CC_SRS_TO

template <typename R, typename V>
inline R npuc_cc_elem(const V &a, const V &b, const R *acc, bool sub,
                      npuc_aie1_elem k, const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_vec x = npuc_cc_in(a), z = npuc_cc_in(b), out;
  bool ok;
  if (acc) {
    npuc_aie1_vec av = npuc_cc_in(*acc);
    ok = npuc_aie1_mac_elem(&npuc_cc_ctx(), &out, &x, &z, &av, sub);
  } else {
    ok = npuc_aie1_mul_elem(&npuc_cc_ctx(), &out, &x, &z, k);
  }
  npuc_cc_check(ok, what);
  return npuc_cc_outer<R>::from(out, what);
}
/* i32: (a, undef, b, zero), the high words of a 64-bit product. */
inline v16acc64 mul_elem_16_2(const v16int32 &a, const v16int32 &,
                              const v16int32 &b, const v16int32 &) {
  return npuc_cc_elem<v16acc64>(a, b, (const v16acc64 *)NULL, false,
                                NPUC_AIE1_I64, "mul_elem_16_2");
}
inline v16acc64 mac_elem_16_2(const v16int32 &b, const v16int32 &,
                              const v16int32 &a, const v16int32 &,
                              const v16acc64 &acc) {
  return npuc_cc_elem<v16acc64>(a, b, &acc, false, NPUC_AIE1_I64,
                                "mac_elem_16_2");
}
inline v16acc64 msc_elem_16_2(const v16int32 &b, const v16int32 &,
                              const v16int32 &a, const v16int32 &,
                              const v16acc64 &acc) {
  return npuc_cc_elem<v16acc64>(a, b, &acc, true, NPUC_AIE1_I64,
                                "msc_elem_16_2");
}
inline v32acc32 mul_elem_32(const v32int16 &a, const v32int16 &b) {
  return npuc_cc_elem<v32acc32>(a, b, (const v32acc32 *)NULL, false,
                                NPUC_AIE1_I32, "mul_elem_32");
}
inline v32acc32 mac_elem_32(const v32int16 &b, const v32int16 &a,
                            const v32acc32 &acc) {
  return npuc_cc_elem<v32acc32>(a, b, &acc, false, NPUC_AIE1_I32,
                                "mac_elem_32");
}
inline v32acc32 msc_elem_32(const v32int16 &b, const v32int16 &a,
                            const v32acc32 &acc) {
  return npuc_cc_elem<v32acc32>(a, b, &acc, true, NPUC_AIE1_I32, "msc_elem_32");
}

/* i8, 32 lanes x 2 columns (mul_elem_32_2 / mac_elem_32_2 /
 * msc_elem_32_2 on v64int8): lane i is a[i] * b[i] + a[32 + i] * b[32 + i].
 * Reading: the AI Engine-ML intrinsics' "_32_2" (32 lanes, 2 columns) and
 * their use, e.g. mul_elem_32_2(concat(x, y), concat(wx, wy)) blending two
 * rows; mlir-aie's translation widens one 32-lane operand with a second
 * half (zero lanes here, as undef_ gives them), which leaves the
 * element-wise product aievec.mul_elem computes. */
inline v32acc32 npuc_cc_elem_32_2(const v64int8 &a, const v64int8 &b,
                                  const v32acc32 *acc, bool sub,
                                  const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_ctx *ctx = &npuc_cc_ctx();
  npuc_aie1_vec x = npuc_cc_in(a), z = npuc_cc_in(b), xl, xh, zl, zh, sum;
  bool ok = npuc_aie1_ext(ctx, &xl, &x, 32, 0) &&
            npuc_aie1_ext(ctx, &xh, &x, 32, 1) &&
            npuc_aie1_ext(ctx, &zl, &z, 32, 0) &&
            npuc_aie1_ext(ctx, &zh, &z, 32, 1);
  if (ok && acc)
    ok = npuc_aie1_mac_elem(ctx, &sum, &xl, &zl, &acc->v, sub);
  else if (ok)
    ok = npuc_aie1_mul_elem(ctx, &sum, &xl, &zl, NPUC_AIE1_I32);
  ok = ok && npuc_aie1_mac_elem(ctx, &sum, &xh, &zh, &sum, acc && sub);
  npuc_cc_check(ok, what);
  return npuc_cc_outer<v32acc32>::from(sum, what);
}
inline v32acc32 mul_elem_32_2(const v64int8 &a, const v64int8 &b) {
  return npuc_cc_elem_32_2(a, b, (const v32acc32 *)NULL, false,
                           "mul_elem_32_2");
}
inline v32acc32 mac_elem_32_2(const v64int8 &b, const v64int8 &a,
                              const v32acc32 &acc) {
  return npuc_cc_elem_32_2(a, b, &acc, false, "mac_elem_32_2");
}
inline v32acc32 msc_elem_32_2(const v64int8 &b, const v64int8 &a,
                              const v32acc32 &acc) {
  return npuc_cc_elem_32_2(a, b, &acc, true, "msc_elem_32_2");
}

/* ---- AIE-ML bfloat16 and float accumulators
 * ---------------------------------- */

/* extract_vN<type>(v, idx): part idx of N lanes (aievec.ext on AIE2). */
#define NPUC_CC_EXTRACT(NAME, E, N)                                            \
  template <int M>                                                             \
  inline NAME extract_##NAME(const npuc_vdata<E, M> &v, int idx) {             \
    npuc_aie1_vec in = npuc_cc_in(v), out;                                     \
    npuc_cc_check(npuc_aie1_ext(&npuc_cc_ctx(), &out, &in, N, idx),            \
                  "extract_" #NAME);                                           \
    return npuc_cc_outer<NAME>::from(out, "extract_" #NAME);                   \
  }
NPUC_CC_EXTRACT(v16bfloat16, bfloat16, 16)
NPUC_CC_EXTRACT(v32bfloat16, bfloat16, 32)
NPUC_CC_EXTRACT(v16float, float, 16)
NPUC_CC_EXTRACT(v16int32, int32_t, 16)
NPUC_CC_EXTRACT(v32int16, int16_t, 32)
NPUC_CC_EXTRACT(v64int8, int8_t, 64)
#undef NPUC_CC_EXTRACT

template <typename E, int N> inline npuc_vdata<E, N> npuc_cc_splat(E x) {
  npuc_vdata<E, N> r;
  for (int k = 0; k < N; ++k)
    r.e[k] = x;
  return r;
}
inline v16float broadcast_zero_float() { return v16float(); }
inline v16float broadcast_to_v16float(float x) {
  return npuc_cc_splat<float, 16>(x);
}
inline v32bfloat16 broadcast_zero_bfloat16() { return v32bfloat16(); }
inline v32bfloat16 broadcast_to_v32bfloat16(bfloat16 x) {
  return npuc_cc_splat<bfloat16, 32>(x);
}

/* ups_to_v16accfloat of bf16 or f32 lanes; srs back to f32 lanes (the
 * accumulator's lanes as they are), to_v16bfloat16 rounding them. */
template <typename E>
inline v16accfloat ups_to_v16accfloat(const npuc_vdata<E, 16> &v) {
  npuc_cc_core core(true);
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_ups_float(&npuc_cc_ctx(), &out, &in,
                                    npuc_cc_kind<E>::value != NPUC_AIE1_F32),
                "ups_to_v16accfloat");
  return npuc_cc_outer<v16accfloat>::from(out, "ups_to_v16accfloat");
}
inline v16float srs(const v16accfloat &a) {
  return npuc_cc_outer<v16float>::from(a.v, "srs");
}
inline v16bfloat16 to_v16bfloat16(const v16accfloat &a) {
  npuc_cc_core core(true);
  npuc_aie1_vec out;
  npuc_cc_check(npuc_aie1_to_bf16(&npuc_cc_ctx(), &out, &a.v),
                "to_v16bfloat16");
  return npuc_cc_outer<v16bfloat16>::from(out, "to_v16bfloat16");
}

/* mul_elem_16 / mac_elem_16 / msc_elem_16 on f32: lane k from lane k of
 * each. mul_elem_16_2 / mac_elem_16_2 / msc_elem_16_2 on bf16, 16 lanes x
 * 2 columns, read as the i8 _32_2 forms are: lane k is a[k] * b[k] +
 * a[16 + k] * b[16 + k]; the translation's second halves are undef_ (zero
 * lanes here), which leaves aievec.mul_elem's element-wise product. */
template <typename E, int N>
inline v16accfloat
npuc_cc_float_elem(const npuc_vdata<E, N> &a, const npuc_vdata<E, N> &b,
                   const v16accfloat *acc, bool sub, const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_ctx *ctx = &npuc_cc_ctx();
  npuc_aie1_vec x = npuc_cc_in(a), z = npuc_cc_in(b), out;
  bool bf16 = npuc_cc_kind<E>::value != NPUC_AIE1_F32;
  bool ok = npuc_aie1_float_mac_elem(ctx, &out, &x, &z, acc ? &acc->v : NULL,
                                     bf16, 16, sub);
  if (ok && N == 32) { /* the second column */
    npuc_aie1_vec xh, zh;
    ok = npuc_aie1_ext(ctx, &xh, &x, 16, 1) &&
         npuc_aie1_ext(ctx, &zh, &z, 16, 1) &&
         npuc_aie1_float_mac_elem(ctx, &out, &xh, &zh, &out, bf16, 16,
                                  acc && sub);
  }
  npuc_cc_check(ok, what);
  return npuc_cc_outer<v16accfloat>::from(out, what);
}
#define NPUC_CC_FLOAT_ELEM(SUFFIX, V)                                          \
  inline v16accfloat mul_elem##SUFFIX(const V &a, const V &b) {                \
    return npuc_cc_float_elem(a, b, NULL, false, "mul_elem" #SUFFIX);          \
  }                                                                            \
  inline v16accfloat mac_elem##SUFFIX(const V &b, const V &a,                  \
                                      const v16accfloat &acc) {                \
    return npuc_cc_float_elem(a, b, &acc, false, "mac_elem" #SUFFIX);          \
  }                                                                            \
  inline v16accfloat msc_elem##SUFFIX(const V &b, const V &a,                  \
                                      const v16accfloat &acc) {                \
    return npuc_cc_float_elem(a, b, &acc, true, "msc_elem" #SUFFIX);           \
  }
NPUC_CC_FLOAT_ELEM(_16_2, v32bfloat16)
NPUC_CC_FLOAT_ELEM(_16, v16float)
#undef NPUC_CC_FLOAT_ELEM

/* add / sub of float accumulators (aievec.add_elem / sub_elem on f32). */
inline v16accfloat npuc_cc_float_add(const v16accfloat &a, const v16accfloat &b,
                                     bool sub, const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_vec out;
  npuc_cc_check(npuc_aie1_float_add_elem(&npuc_cc_ctx(), &out, &a.v, &b.v, sub),
                what);
  return npuc_cc_outer<v16accfloat>::from(out, what);
}
inline v16accfloat add(const v16accfloat &a, const v16accfloat &b) {
  return npuc_cc_float_add(a, b, false, "add");
}
inline v16accfloat sub(const v16accfloat &a, const v16accfloat &b) {
  return npuc_cc_float_add(a, b, true, "sub");
}

/* ---- AIE-ML convolutions, shuffle, matmul
 * ------------------------------------ */

/* mul_conv_MxN(lhs, rhs) / mac_conv_MxN / msc_conv_MxN(lhs, rhs, acc):
 * the emulator's mul_conv / fma_conv (lib/Runtime/aie1/conv.c). */
template <typename R, typename V>
inline R npuc_cc_conv(const V &lhs, const V &rhs, const R *acc, int m, int n,
                      bool sub, const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_vec l = npuc_cc_in(lhs), r = npuc_cc_in(rhs), out;
  bool ok;
  if (acc) {
    npuc_aie1_vec a = npuc_cc_in(*acc);
    ok = npuc_aie1_fma_conv(&npuc_cc_ctx(), &out, &l, &r, &a, m, n, sub);
  } else {
    ok = npuc_aie1_mul_conv(&npuc_cc_ctx(), &out, &l, &r, m, n);
  }
  npuc_cc_check(ok, what);
  return npuc_cc_outer<R>::from(out, what);
}
#define NPUC_CC_CONV(M, N, V, ACC)                                             \
  inline ACC mul_conv_##M##x##N(const V &lhs, const V &rhs) {                  \
    return npuc_cc_conv(lhs, rhs, (const ACC *)NULL, M, N, false,              \
                        "mul_conv_" #M "x" #N);                                \
  }                                                                            \
  inline ACC mac_conv_##M##x##N(const V &lhs, const V &rhs, const ACC &acc) {  \
    return npuc_cc_conv(lhs, rhs, &acc, M, N, false, "mac_conv_" #M "x" #N);   \
  }                                                                            \
  inline ACC msc_conv_##M##x##N(const V &lhs, const V &rhs, const ACC &acc) {  \
    return npuc_cc_conv(lhs, rhs, &acc, M, N, true, "msc_conv_" #M "x" #N);    \
  }
NPUC_CC_CONV(32, 8, v64int8, v32acc32)
NPUC_CC_CONV(16, 4, v32int16, v16acc64)
#undef NPUC_CC_CONV

/* shuffle(v, mode): aievec.legacyshuffle, modes 0-5. */
template <typename V> inline V shuffle(const V &v, int mode) {
  npuc_cc_core core(true);
  npuc_aie1_vec in = npuc_cc_in(v), out;
  npuc_cc_check(npuc_aie1_legacyshuffle(&npuc_cc_ctx(), &out, &in, mode),
                "shuffle");
  return npuc_cc_outer<V>::from(out, "shuffle");
}

/* mac_MxK_KxN(lhs, rhs, acc): aievec.matmul on integer data, lhs and rhs
 * widened to 512 bits by the translation (the emulator's npuc_aie1_matmul
 * reads the first M*K and K*N lanes). bf16 is not modelled. */
template <int M, int K, int N, typename A, typename B, int AK, int AN>
inline npuc_vacc<AK, AN> npuc_cc_matmul(const A &lhs, const B &rhs,
                                        const npuc_vacc<AK, AN> &acc,
                                        const char *what) {
  npuc_cc_core core(true);
  npuc_aie1_vec l = npuc_cc_in(lhs), r = npuc_cc_in(rhs), out;
  npuc_cc_check(npuc_aie1_matmul(&npuc_cc_ctx(), &out, &l, &r, &acc.v, M, K, N),
                what);
  return npuc_cc_outer<npuc_vacc<AK, AN>>::from(out, what);
}
#define NPUC_CC_MATMUL(M, K, N)                                                \
  template <typename EA, int NA, typename EB, int NB, int AK, int AN>          \
  inline npuc_vacc<AK, AN> mac_##M##x##K##_##K##x##N(                          \
      const npuc_vdata<EA, NA> &lhs, const npuc_vdata<EB, NB> &rhs,            \
      const npuc_vacc<AK, AN> &acc) {                                          \
    return npuc_cc_matmul<M, K, N>(lhs, rhs, acc,                              \
                                   "mac_" #M "x" #K "_" #K "x" #N);            \
  }
/* The integer shapes of aievec.matmul (lib/Dialect/tables/aievec.yaml). */
NPUC_CC_MATMUL(4, 8, 8)
NPUC_CC_MATMUL(4, 4, 8)
NPUC_CC_MATMUL(4, 2, 8)
NPUC_CC_MATMUL(2, 8, 8)
NPUC_CC_MATMUL(4, 8, 4)
NPUC_CC_MATMUL(2, 4, 8)
NPUC_CC_MATMUL(4, 4, 4)
NPUC_CC_MATMUL(4, 2, 4)
#undef NPUC_CC_MATMUL

#endif
