/* The simulated schedule as Chrome trace-event JSON (the format
 * chrome://tracing and Perfetto read): one process per tile, one thread
 * per engine (rdma, wdma, ne, ct, tdma, noc) and one, "group", with a
 * span per group; each span a complete event ("ph": "X") named after its
 * group and op, its cycles and start in "args". Times are microseconds
 * at the target's clock. The file is written beside and renamed into
 * place, so a failed run leaves none. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static const char *track_name(int32_t engine) {
  return engine == NPUC_TX8_NUM_BUSY
             ? "group"
             : npuc_tx8_busy_name((npuc_tx8_busy_engine)engine);
}

static void write_names(FILE *f, int tiles) {
  const char *sep = "";
  for (int t = 0; t < tiles; ++t) {
    fprintf(f,
            "%s\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
            "\"tid\": 0, \"args\": {\"name\": \"tile %d\"}}",
            sep, t, t);
    sep = ",";
    for (int e = 0; e <= NPUC_TX8_NUM_BUSY; ++e)
      fprintf(f,
              ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, "
              "\"tid\": %d, \"args\": {\"name\": \"%s\"}}",
              t, e, track_name(e));
  }
}

static void write_event(FILE *f, int tile, const npuc_tx8_tl_event *e,
                        uint64_t at, double per_us) {
  fprintf(f, ",\n{\"name\": ");
  json_string(f, e->name);
  fprintf(f,
          ", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %d, "
          "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"group\": %d, "
          "\"start\": %llu, \"cycles\": %llu}}",
          track_name(e->engine), tile, (int)e->engine, (double)at / per_us,
          (double)e->cycles / per_us, (int)e->group, (unsigned long long)at,
          (unsigned long long)e->cycles);
}

int npuc_tx8_write_trace(const char *path,
                         const npuc_tx8_tl_event *const *events,
                         const size_t *counts, int tiles,
                         const uint64_t *group_start, int groups) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "program: cannot write %s\n", path);
    return 0;
  }
  double clock = npuc_tx8_rt_target()->clock_ghz;
  double per_us = (clock > 0 ? clock : 1.0) * 1000.0; /* cycles a us */
  fprintf(f,
          "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"clock_ghz\": "
          "%g}, \"traceEvents\": [",
          clock);
  write_names(f, tiles);
  for (int t = 0; t < tiles; ++t)
    for (size_t i = 0; i < counts[t]; ++i) {
      const npuc_tx8_tl_event *e = &events[t][i];
      uint64_t base =
          e->group >= 0 && e->group < groups ? group_start[e->group] : 0;
      write_event(f, t, e, base + e->start, per_us);
    }
  fprintf(f, "\n]}\n");
  int ok = !ferror(f);
  if (fclose(f) != 0)
    ok = 0;
  if (ok && rename(tmp, path) != 0)
    ok = 0;
  if (!ok) {
    remove(tmp);
    fprintf(stderr, "program: cannot write %s\n", path);
  }
  return ok;
}
