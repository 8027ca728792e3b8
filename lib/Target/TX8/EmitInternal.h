/* Shared by the files of the tx8 code generator (Emitter.c: the program,
 * host and Makefile; EmitGroup.c: one group's tile loop). Not public. */
#ifndef NPUC_TX8_EMIT_INTERNAL_H
#define NPUC_TX8_EMIT_INTERNAL_H

#include "npuc/PtrSet.h"
#include "npuc/StringBuilder.h"
#include "npuc/Tx8Group.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  TX8_DDR_INPUT,        /* a function argument, read from a .bin file */
  TX8_DDR_CONSTANT,     /* a load_const / constant: data in main.c */
  TX8_DDR_INTERMEDIATE, /* a group result */
} tx8_ddr_kind;

/* A tensor in DDR: compact row-major unless its producer's dev_info says
 * otherwise (a store_var's, a load_const of a Cx image); the DMA converts. */
typedef struct {
  MlirValue value;
  tx8_ddr_kind kind;
  npuc_tx8_shape shape;
  npuc_tx8_dtype dtype;
  npuc_tx8_layout_mode mode;
  int alias;          /* >= 0: the same bytes as that tensor (a DDR reshape) */
  MlirAttribute data; /* CONSTANT: the dense elements */
  char name[32];      /* "arg0", "const1", "g2_r0" */
  /* Lifetime in barrier levels (opt_barrier; set on sources, alias < 0):
   * the level its group writes it in (INTERMEDIATE), the first and last
   * levels a group reads it in (-1: none), read by the host at the end. */
  int write_level, first_read, last_read;
  bool is_output;
  int64_t offset; /* in the DDR arena (tx8_place_ddr) */
} tx8_ddr;

typedef struct {
  tx8_ddr *tensors;
  int num_tensors, cap;
  npuc_ptr_map index; /* value -> tensor index */
  int tiles;          /* the program's tile count */
  int64_t spm_bytes;  /* the largest group's spm_alloc_size */
  bool needs_extract; /* a group copies part of an SPM buffer (tx8_extract) */
} tx8_program;

/* Places the DDR tensors of `prog` (run in `levels` barrier levels) in one
 * arena: with `opt` (opt_ddr) constants first in order of first use, then
 * inputs and group results with reuse over their lifetimes, every tensor
 * on a `bank`-byte boundary; without, every tensor in declaration order
 * on a 16-byte boundary (what one malloc each gives). Sets each source
 * tensor's offset and *arena_bytes; an alias takes its source's offset.
 * False after an error at `where` (sizes overflow). DdrPlace.c. */
bool tx8_place_ddr(tx8_program *prog, int levels, bool opt, int64_t bank,
                   int64_t *arena_bytes, MlirOperation where);

/* The SVG of group `id`'s SPM allocation over its steps (malloc'd), or
 * NULL after a located error. SpmSvg.c. */
char *tx8_spm_svg(MlirOperation group, int id);

/* The bytes tensor `d` takes in DDR (in its layout). */
int64_t tx8_ddr_bytes(const tx8_ddr *d);

/* The DDR tensor holding `v`, or -1. */
int tx8_ddr_index(const tx8_program *prog, MlirValue v);

/* Appends `static uint64_t group<id>(int tile, char *const *ddr, char *spm)`
 * to `out`. False after a located error. */
bool tx8_emit_group(tx8_program *prog, MlirOperation group, int id,
                    npuc_sb *out);

#endif
