/* A picture of one group's SPM allocation over time (npuc-compile
 * --target=tx8 --tx8-spm-svg): an SVG with a rectangle per SPM buffer of
 * one temporal slice, x its lifetime over the group's steps (the plan's
 * order: loads, channel_norms, extracts, compute ops, stores), y its
 * addresses, labelled with the buffer, its value and bytes; ticks for the
 * steps (named) and the addresses. The numbers are the ones the code
 * generator uses: tx8-spm-alloc's offsets (dev_info.mem_addr, imm_addr)
 * read back by npuc_tx8_group_placement at the split tx8-sharding chose,
 * the buffers' sizes (npuc_tx8_group_buffer_bytes) and lifetimes
 * (first_step .. last_step). Each rectangle also carries them as data-*
 * attributes (data-offset, data-bytes, data-first, data-last, and
 * data-inplace: the buffer whose bytes it may take where that one dies,
 * -1 for none), the root
 * data-peak and data-steps, so tests can check the picture against the
 * allocation. Requires a group tx8_emit_group accepted. docs/tx8.md, "SPM
 * pictures". */
#include "EmitInternal.h"
#include "npuc/Alloc.h"
#include "npuc/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The drawing area, in SVG user units. */
enum { LEFT = 110, TOP = 40, PLOT_W = 760, PLOT_H = 480, BOTTOM = 110 };

typedef struct {
  const npuc_tx8_group_plan *p;
  int64_t offsets[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t bytes[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t peak;
  int32_t slice[NPUC_TX8_MAX_RANK];
} picture;

static bool read_slice(picture *pic);
static void write_axes(const picture *pic, int id, npuc_sb *sb);
static void write_buffers(const picture *pic, npuc_sb *sb);

char *tx8_spm_svg(MlirOperation group, int id) {
  npuc_tx8_group_plan *plan = npuc_xmalloc(sizeof *plan);
  picture *pic = npuc_xcalloc(1, sizeof *pic);
  char *text = NULL;
  if (npuc_tx8_group_plan_build(group, plan)) {
    pic->p = plan;
    if (read_slice(pic)) {
      npuc_sb sb = {0};
      write_axes(pic, id, &sb);
      write_buffers(pic, &sb);
      npuc_sb_printf(&sb, "</svg>\n");
      text = npuc_sb_take(&sb);
    }
  }
  free(pic);
  free(plan);
  return text;
}

/* The split, the offsets and sizes of one slice's buffers (the scratch
 * last), the peak. */
static bool read_slice(picture *pic) {
  const npuc_tx8_group_plan *p = pic->p;
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(p->compute, &dev) != NPUC_TX8_ATTR_PRESENT ||
      dev.temporal_mem_slice.len != p->out.rank) {
    npuc_op_error(p->compute, "%s: no dev_info temporal_mem_slice to draw",
                  p->compute_name);
    return false;
  }
  for (int d = 0; d < p->out.rank; ++d)
    pic->slice[d] = (int32_t)dev.temporal_mem_slice.v[d];
  int64_t bump[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t all = npuc_tx8_group_spm_bytes(p, pic->slice, bump);
  if (npuc_tx8_group_placement(p, pic->slice, pic->offsets) < 0)
    return false;
  for (int i = 0; i < p->num_buffers; ++i)
    pic->bytes[i] = npuc_tx8_group_buffer_bytes(p, i, pic->slice);
  pic->bytes[p->num_buffers] = all - bump[p->num_buffers];
  for (int i = 0; i <= p->num_buffers; ++i)
    if (pic->bytes[i] > 0 && pic->offsets[i] + pic->bytes[i] > pic->peak)
      pic->peak = pic->offsets[i] + pic->bytes[i];
  return true;
}

static int num_steps(const picture *pic) {
  return pic->p->num_steps > 0 ? pic->p->num_steps : 1;
}

static double x_of(const picture *pic, double step) {
  return LEFT + step * PLOT_W / num_steps(pic);
}

static double y_of(const picture *pic, int64_t addr) {
  return TOP + (double)addr * PLOT_H / (double)(pic->peak > 0 ? pic->peak : 1);
}

/* What step k does, for its tick: "load b0", "relu", "store". */
static void step_name(const npuc_tx8_group_plan *p, int k, char *buf,
                      size_t cap) {
  npuc_tx8_step s = p->steps[k];
  static const char *const kinds[] = {"load", "norm", "extract", "", "store"};
  if (s.kind == NPUC_TX8_STEP_COMPUTE) {
    const char *n = p->ops[s.index].name;
    snprintf(buf, cap, "%s", strncmp(n, "tx8be.", 6) ? n : n + 6);
  } else if (s.kind == NPUC_TX8_STEP_STORE) {
    snprintf(buf, cap, "store b%d", p->stores[s.index].buffer);
  } else {
    snprintf(buf, cap, "%s b%d", kinds[s.kind], s.index);
  }
}

static void write_axes(const picture *pic, int id, npuc_sb *sb) {
  const npuc_tx8_group_plan *p = pic->p;
  int steps = num_steps(pic);
  npuc_sb_printf(
      sb,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"11\" "
      "data-group=\"%d\" data-peak=\"%lld\" data-steps=\"%d\">\n"
      "<title>group %d: SPM buffers of one temporal slice over its steps "
      "(%lld bytes)</title>\n"
      "<text x=\"%d\" y=\"20\" font-size=\"14\">group %d (%s): SPM address "
      "(bytes, down) over steps; %lld bytes per tile</text>\n"
      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
      "stroke=\"black\"/>\n",
      LEFT + PLOT_W + 30, TOP + PLOT_H + BOTTOM, LEFT + PLOT_W + 30,
      TOP + PLOT_H + BOTTOM, id, (long long)pic->peak, steps, id,
      (long long)pic->peak, LEFT, id, p->compute_name, (long long)pic->peak,
      LEFT, TOP, PLOT_W, PLOT_H);
  for (int k = 0; k < p->num_steps; ++k) {
    char name[80];
    step_name(p, k, name, sizeof name);
    double x = x_of(pic, k + 0.5);
    npuc_sb_printf(sb,
                   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                   "stroke=\"black\"/>\n<text x=\"%.1f\" y=\"%d\" "
                   "transform=\"rotate(60 %.1f %d)\">%d %s</text>\n",
                   x, TOP + PLOT_H, x, TOP + PLOT_H + 5, x, TOP + PLOT_H + 14,
                   x, TOP + PLOT_H + 14, k, name);
  }
  for (int t = 0; t <= 4; ++t) {
    int64_t addr = pic->peak * t / 4;
    double y = y_of(pic, addr);
    npuc_sb_printf(sb,
                   "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                   "stroke=\"black\"/>\n<text x=\"%d\" y=\"%.1f\" "
                   "text-anchor=\"end\">%lld</text>\n",
                   LEFT - 5, y, LEFT, y, LEFT - 8, y + 4, (long long)addr);
  }
}

/* What a buffer holds, for its label: "b3 relu", "b0 load arg1". */
static void buffer_name(const npuc_tx8_group_plan *p, int i, char *buf,
                        size_t cap) {
  if (i == p->num_buffers) {
    snprintf(buf, cap, "scratch (%s)", p->compute_name);
    return;
  }
  const npuc_tx8_buffer *b = &p->buffers[i];
  char op[64];
  npuc_tx8_op_name(b->op, op, sizeof op);
  const char *short_op = strncmp(op, "tx8be.", 6) ? op : op + 6;
  if (b->kind == NPUC_TX8_BUF_LOAD)
    snprintf(buf, cap, "b%d load of input %d", i, b->source);
  else if (b->kind == NPUC_TX8_BUF_RESULT)
    snprintf(buf, cap, "b%d %s", i, short_op);
  else
    snprintf(buf, cap, "b%d %s of b%d", i,
             b->kind == NPUC_TX8_BUF_NORM ? "channel_norm" : "extract",
             b->source);
}

static void write_buffers(const picture *pic, npuc_sb *sb) {
  const npuc_tx8_group_plan *p = pic->p;
  static const char *const fills[] = {"#8dd3c7", "#ffffb3", "#bebada",
                                      "#fb8072", "#80b1d3", "#fdb462"};
  for (int i = 0; i <= p->num_buffers; ++i) {
    if (pic->bytes[i] <= 0)
      continue; /* a load straight into its channel_norm's buffer */
    bool scratch = i == p->num_buffers;
    int first = scratch ? 0 : p->buffers[i].first_step;
    int last = scratch ? num_steps(pic) - 1 : p->buffers[i].last_step;
    double x = x_of(pic, first), w = x_of(pic, last + 1) - x;
    double y = y_of(pic, pic->offsets[i]);
    double h = y_of(pic, pic->offsets[i] + pic->bytes[i]) - y;
    char name[128];
    buffer_name(p, i, name, sizeof name);
    npuc_sb_printf(
        sb,
        "<g>\n<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
        "fill=\"%s\" stroke=\"black\" data-buffer=\"%d\" data-offset=\"%lld\" "
        "data-bytes=\"%lld\" data-first=\"%d\" data-last=\"%d\" "
        "data-inplace=\"%d\">"
        "<title>%s: %lld bytes at %lld, steps %d..%d</title></rect>\n"
        "<text x=\"%.2f\" y=\"%.2f\">%s, %lld B @ %lld</text>\n</g>\n",
        x, y, w, h, fills[i % 6], i, (long long)pic->offsets[i],
        (long long)pic->bytes[i], first, last,
        scratch ? -1 : p->buffers[i].inplace_of, name, (long long)pic->bytes[i],
        (long long)pic->offsets[i], first, last, x + 3, y + (h < 14 ? h : 14),
        name, (long long)pic->bytes[i], (long long)pic->offsets[i]);
  }
}
