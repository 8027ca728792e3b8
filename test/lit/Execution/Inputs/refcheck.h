/* Helpers for the reference programs of the execution tests. They are
 * written independently of npuc and its runtime: a result is only trusted
 * if a plain C computation agrees with it. */
#ifndef REFCHECK_H
#define REFCHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *read_bin(const char *dir, const char *name, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  void *p = malloc(bytes);
  if (fread(p, 1, bytes, f) != bytes) {
    fprintf(stderr, "%s is shorter than %zu bytes\n", path, bytes);
    exit(2);
  }
  fclose(f);
  return p;
}

/* IEEE binary16 <-> binary32, round to nearest even. */
static float half_to_float(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v;
  if (exp == 0)
    v = ldexpf((float)man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexpf((float)(man | 1024), exp - 25);
  return sign ? -v : v;
}

static uint16_t float_to_half(float f) {
  uint16_t sign = signbit(f) ? 0x8000 : 0;
  float a = fabsf(f);
  if (isnan(f))
    return 0x7e00;
  if (a >= 65520.0f)
    return sign | 0x7c00;
  if (a < ldexpf(1, -25))
    return sign; /* below half the smallest subnormal */
  int e;
  frexpf(a, &e);                       /* a = m * 2^e, m in [0.5, 1) */
  int q = e - 11 < -24 ? -24 : e - 11; /* quantum exponent */
  float scaled = ldexpf(a, -q);        /* integer part is the significand */
  float r = rintf(scaled);             /* nearest even */
  uint32_t m = (uint32_t)r;
  if (q == -24) /* subnormal (or rounds up to normal) */
    return sign | (uint16_t)m;
  if (m == 2048) { /* rounded up to the next binade */
    m = 1024;
    ++q;
  }
  return sign | (uint16_t)(((q + 25) << 10) | (m & 1023));
}

static int report(const char *what, size_t bad, size_t n) {
  if (bad) {
    printf("FAIL %s: %zu of %zu elements wrong\n", what, bad, n);
    return 1;
  }
  printf("ok %s: %zu elements\n", what, n);
  return 0;
}

#endif
