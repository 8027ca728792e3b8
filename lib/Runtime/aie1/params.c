/* Lane-addressing attributes: parsing mlir-aie's strings, and the helpers
 * the multiply and permute schemes share. */
#include "internal.h"

#include <string.h>

void npuc_aie1_params_init(npuc_aie1_params *p) {
  memset(p, 0, sizeof *p);
  p->x.square = 0x3210;
  p->z.square = 0x3210;
}

/* Decimal or 0x-hex, at most 32 bits. */
static bool parse_u32(const char *s, uint32_t *out) {
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (!*s)
    return false;
  uint64_t v = 0;
  for (; *s; ++s) {
    int d = *s >= '0' && *s <= '9'   ? *s - '0'
            : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
            : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
                                     : 99;
    if (d >= base)
      return false;
    v = v * (uint64_t)base + (uint64_t)d;
    if (v > UINT32_MAX)
      return false;
  }
  *out = (uint32_t)v;
  return true;
}

/* The field an attribute name sets, or NULL. */
static uint32_t *field(npuc_aie1_params *p, const char *name) {
  static const struct {
    const char *suffix;
    size_t offset;
  } parts[] = {
      {"start", offsetof(npuc_aie1_addr, start)},
      {"offsets", offsetof(npuc_aie1_addr, offsets)},
      {"offsets_hi", offsetof(npuc_aie1_addr, offsets_hi)},
      {"step", offsetof(npuc_aie1_addr, step)},
      {"square", offsetof(npuc_aie1_addr, square)},
  };
  npuc_aie1_addr *a = name[0] == 'x'                     ? &p->x
                      : name[0] == 'z' || name[0] == 'y' ? &p->z
                                                         : NULL;
  if (!a)
    return NULL;
  for (size_t i = 0; i < sizeof parts / sizeof *parts; ++i)
    if (strcmp(name + 1, parts[i].suffix) == 0)
      return (uint32_t *)((char *)a + parts[i].offset);
  return NULL;
}

bool npuc_aie1_params_set(npuc_aie1_ctx *ctx, npuc_aie1_params *p,
                          const char *name, const char *value) {
  if (strcmp(name, "fmsub") == 0) {
    if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
      return aie1_error(ctx, "fmsub must be true or false, not '%s'", value);
    p->fmsub = strcmp(value, "true") == 0;
    return true;
  }
  uint32_t *slot = strcmp(name, "select") == 0 ? &p->select : field(p, name);
  if (!slot)
    return aie1_error(ctx, "unknown lane-addressing attribute '%s'", name);
  if (!*value)
    return true; /* absent: mlir-aie prints "" for attributes it omits */
  if (!parse_u32(value, slot))
    return aie1_error(ctx,
                      "%s = \"%s\" is not a 32-bit decimal or 0x-hex number",
                      name, value);
  if (strcmp(name, "xstart") == 0)
    p->lane_addressed = true;
  return true;
}

unsigned aie1_nib(uint32_t w, int k) { return (w >> (4 * k)) & 0xFu; }

unsigned aie1_off16(uint32_t lo, uint32_t hi, int k) {
  return k < 8 ? aie1_nib(lo, k) : aie1_nib(hi, k - 8);
}

int32_t aie1_wrap_index(int64_t i, int32_t n) { return (int32_t)(i % n); }

bool aie1_check_square(npuc_aie1_ctx *ctx, uint32_t square, const char *name) {
  bool ok = square <= 0xFFFFu;
  for (int k = 0; k < 4 && ok; ++k)
    ok = aie1_nib(square, k) <= 3;
  if (!ok)
    return aie1_error(ctx,
                      "%s = 0x%x: each of its four nibbles picks one of four "
                      "candidates (0..3)",
                      name, (unsigned)square);
  return true;
}

int64_t aie1_ra16(const npuc_aie1_addr *a, int32_t s) {
  int q = s / 4, k = s % 4;
  int64_t ne = aie1_off16(a->offsets, a->offsets_hi, 2 * q);
  int64_t no = aie1_off16(a->offsets, a->offsets_hi, 2 * q + 1);
  int64_t e = (int64_t)a->start + 2 * ne;
  int64_t o = (int64_t)a->start + 2 * (ne + no + 1);
  const int64_t quad[4] = {e, e + 1, o, o + 1};
  /* Callers check the square (aie1_check_square); the mask only keeps a
   * missed check from reading outside quad. */
  return quad[aie1_nib(a->square, k) & 3];
}
