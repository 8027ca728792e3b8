/* --target=tx8: a TX8 graph, after the tx8 pipeline, as C over the C model
 * of the op library (libnpuc_tx8_rt):
 *   main.c     one function per group (EmitGroup.c) and tx8_tile_main,
 *              what one tile runs: every group in order, a barrier after
 *              each group whose need_barrier says so (tx8-group-dag: the
 *              last of each level; checked: no group reads what its own
 *              level wrote); the DDR arena (DdrPlace.c); the tables of
 * include/npuc/Tx8Program.h (the DDR tensors with the constants' data, outputs,
 * tiles, SPM size, target) that the host in libnpuc_tx8_rt
 *              (lib/Runtime/tx8/host_main.c) reads: it loads the inputs
 *              from <in>/argN.bin, runs all tiles (one thread each),
 *              writes <out>/resultN.bin and a cycle report;
 *   Makefile   builds `program` against libnpuc_tx8_rt.a.
 * docs/tx8.md ("Code generation") describes the files. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "EmitInternal.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Target.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool load_target(MlirOperation module, const npuc_compile_options *o,
                        npuc_tx8_target *t);
static bool emit_program(MlirOperation module, const npuc_tx8_target *t,
                         const npuc_compile_options *o,
                         npuc_emitted_files *out);

/* The TX8 pipeline's pass order (docs/tx8.md, "Code generation"). */
static const char *const contract_passes[] = {
    "tx8-layout-init",      "tx8-layout-transmit", "tx8-layout-align-to-npu",
    "tx8-layout-align-opt", "tx8-move-constant",   "tx8-const-norm",
    "tx8-group-pattern",    "tx8-group-single",    "tx8-group-ldst",
    "tx8-group-mapping",    "tx8-sharding",        "tx8-spm-alloc",
    "tx8-group-dag",
};
/* The first pass that works on grouped IR: a module that is grouped
 * already (hand-written, or from an earlier run) starts there, after
 * tx8-layout-init, which on grouped IR only checks what every later pass
 * assumes (the graph has a body, every tensor fits DDR). */
static const char first_grouped_pass[] = "tx8-sharding";

static bool takes_option(const npuc_pass_def *def, const char *name) {
  for (size_t i = 0; i < def->num_options; ++i)
    if (strcmp(def->options[i].name, name) == 0)
      return true;
  return false;
}

static MlirWalkResult find_group(MlirOperation op, void *user) {
  if (!npuc_op_is(op, "tx8be.group"))
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

static void append_pass(npuc_sb *sb, const char *name,
                        const npuc_compile_options *o);

static bool tx8_pipeline(MlirOperation module, const npuc_compile_options *o,
                         char *buf, size_t size) {
  npuc_tx8_target t;
  if (!load_target(module, o, &t))
    return false;
  bool grouped = false;
  mlirOperationWalk(module, find_group, &grouped, MlirWalkPreOrder);
  npuc_sb sb = {0};
  size_t n = sizeof contract_passes / sizeof contract_passes[0], first = 0;
  while (grouped && strcmp(contract_passes[first], first_grouped_pass) != 0)
    ++first;
  if (first > 0)
    append_pass(&sb, contract_passes[0], o); /* its checks only */
  for (size_t i = first; i < n; ++i)
    append_pass(&sb, contract_passes[i], o);
  char *passes = npuc_sb_take(&sb);
  int len = snprintf(buf, size, "builtin.module(%s)", passes);
  free(passes);
  return len >= 0 && (size_t)len < size;
}

static void append_pass(npuc_sb *sb, const char *name,
                        const npuc_compile_options *o) {
  const npuc_pass_def *def = npuc_pass_lookup(name);
  npuc_sb_printf(sb, "%s%s{", sb->len ? "," : "", def->name);
  /* Constants are laid out at compile time, as the seed's ConstNorm
   * does: the container holds the bytes the load brings into SPM. */
  if (takes_option(def, "aligned-data"))
    npuc_sb_printf(sb, " aligned-data=true");
  /* opt_ddr off: weights stay compact in DDR too. */
  if (o->tx8_opt_ddr_off && takes_option(def, "weights-cx"))
    npuc_sb_printf(sb, " weights-cx=false");
  if (o->tx8_opt_barrier_off && takes_option(def, "levels"))
    npuc_sb_printf(sb, " levels=false");
  if (o->target_config && takes_option(def, "target-config"))
    npuc_sb_printf(sb, " target-config=%s", o->target_config);
  if (o->tx8_search_report && takes_option(def, "search-report"))
    npuc_sb_printf(sb, " search-report=true");
  npuc_sb_printf(sb, "}");
}

static bool tx8_emit(const npuc_op_registry *reg, MlirOperation module,
                     const npuc_compile_options *o, npuc_emitted_files *out) {
  (void)reg;
  npuc_tx8_target t;
  memset(out, 0, sizeof *out);
  if (!load_target(module, o, &t))
    return false;
  if (!emit_program(module, &t, o, out)) {
    npuc_emitted_files_free(out);
    return false;
  }
  return true;
}

const npuc_target_def npuc_target_tx8 = {
    "tx8",
    "TX8 graph as main.c per tile and a host program over the TX8 C model",
    tx8_pipeline, tx8_emit};

static bool load_target(MlirOperation module, const npuc_compile_options *o,
                        npuc_tx8_target *t) {
  return npuc_tx8_pass_target(module, "--target=tx8", o->target_config, t);
}

/* ---- the graph
 * ----------------------------------------------------------------- */

typedef struct {
  MlirOperation module, func;
  tx8_program prog;
  npuc_sb groups;   /* the group functions */
  int num_groups;   /* with code */
  int level;        /* the barrier level the next group runs in */
  int *group_level; /* per group with code */
  bool *barrier_after;
  int64_t ddr_arena; /* bytes */
  bool svg;          /* --tx8-spm-svg: one picture per group with code */
  char **svgs;       /* num_svgs of them, group order */
  int num_svgs;
  int group_seq;   /* all, for naming their results */
  int outputs[64]; /* func results -> DDR tensor */
  int num_outputs;
  MlirAttribute container; /* tx8be.const_container */
} graph;

static bool find_main(graph *g);
static int num_levels(const graph *g);
static bool walk_graph(graph *g, const npuc_tx8_target *t);
static void write_main(graph *g, const npuc_tx8_target *t, npuc_sb *sb);
static void write_makefile(const npuc_compile_options *o, npuc_sb *sb);

static bool emit_program(MlirOperation module, const npuc_tx8_target *t,
                         const npuc_compile_options *o,
                         npuc_emitted_files *out) {
  graph g;
  memset(&g, 0, sizeof g);
  g.module = module;
  g.svg = o->tx8_spm_svg;
  bool ok = find_main(&g) && walk_graph(&g, t) &&
            tx8_place_ddr(&g.prog, num_levels(&g), !o->tx8_opt_ddr_off,
                          t->ddr_bank_bytes, &g.ddr_arena, g.func);
  if (ok) {
    npuc_sb main_c = {0}, make = {0};
    write_main(&g, t, &main_c);
    write_makefile(o, &make);
    ok = npuc_emitted_files_add(out, "main.c", npuc_sb_take(&main_c)) &&
         npuc_emitted_files_add(out, "Makefile", npuc_sb_take(&make));
    for (int i = 0; ok && i < g.num_svgs; ++i) {
      char name[48];
      snprintf(name, sizeof name, "spm_group%d.svg", i);
      ok = npuc_emitted_files_add(out, name, g.svgs[i]);
      g.svgs[i] = NULL;
    }
  }
  for (int i = 0; i < g.num_svgs; ++i)
    free(g.svgs[i]);
  free(g.svgs);
  npuc_sb_free(&g.groups);
  free(g.group_level);
  free(g.barrier_after);
  free(g.prog.tensors);
  npuc_ptr_map_free(&g.prog.index);
  return ok;
}

/* @main, or the module's only function. */
static bool find_main(graph *g) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(g->module, 0));
  int funcs = 0;
  MlirOperation only = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!npuc_op_is(op, "func.func"))
      continue;
    ++funcs;
    only = op;
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    MlirStringRef s = mlirStringAttrGetValue(sym);
    if (s.length == 4 && memcmp(s.data, "main", 4) == 0) {
      g->func = op;
      return true;
    }
  }
  if (funcs == 1) {
    g->func = only;
    return true;
  }
  npuc_op_error(g->module, "tx8: no graph to compile: the module needs a "
                           "func.func @main (or exactly one function)");
  return false;
}

int tx8_ddr_index(const tx8_program *prog, MlirValue v) {
  uintptr_t i;
  return npuc_ptr_map_get(&prog->index, v.ptr, &i) ? (int)i : -1;
}

int64_t tx8_ddr_bytes(const tx8_ddr *d) {
  npuc_tx8_dims dims =
      npuc_tx8_dims_of_shape(d->shape.dims, d->shape.rank, d->mode);
  return npuc_tx8_layout_of(dims, d->dtype, d->mode).total_bytes;
}

static bool add_tensor(graph *g, MlirOperation where, MlirValue v,
                       tx8_ddr_kind kind, MlirAttribute data,
                       const char *name) {
  tx8_program *p = &g->prog;
  if (p->num_tensors == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->tensors = npuc_xrealloc(p->tensors, (size_t)p->cap * sizeof *p->tensors);
  }
  tx8_ddr *t = &p->tensors[p->num_tensors];
  memset(t, 0, sizeof *t);
  t->value = v;
  t->kind = kind;
  t->data = data;
  t->mode = NPUC_TX8_TENSOR;
  t->alias = -1;
  t->write_level = 0;
  t->first_read = t->last_read = -1;
  snprintf(t->name, sizeof t->name, "%s", name);
  char what[48];
  snprintf(what, sizeof what, " for %s", name);
  if (!npuc_tx8_value_layout_type(where, v, "tx8", what, &t->shape, &t->dtype))
    return false;
  if (!npuc_ptr_map_put(&p->index, v.ptr, (uintptr_t)p->num_tensors))
    npuc_die("out of memory");
  p->num_tensors++;
  return true;
}

static bool add_constant(graph *g, MlirOperation op, bool from_container);
static bool add_group(graph *g, MlirOperation op, const npuc_tx8_target *t);
static bool add_outputs(graph *g, MlirOperation ret);

static bool walk_graph(graph *g, const npuc_tx8_target *t) {
  g->prog.tiles = 1; /* grows to the largest group's mesh */
  g->container = mlirOperationGetAttributeByName(
      g->module, mlirStringRefCreateFromCString("tx8be.const_container"));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->func, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    char name[32];
    snprintf(name, sizeof name, "arg%zd", (ssize_t)i);
    MlirValue arg = mlirBlockGetArgument(entry, i);
    if (!add_tensor(g, g->func, arg, TX8_DDR_INPUT, (MlirAttribute){NULL},
                    name))
      return false;
    /* A weight tx8-const-norm laid out in Cx: the host lays it out so. */
    g->prog.tensors[g->prog.num_tensors - 1].mode =
        npuc_tx8_value_ddr_layout(arg);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    char name[64];
    npuc_tx8_op_name(op, name, sizeof name);
    bool ok;
    if (!strcmp(name, "tx8be.load_const"))
      ok = add_constant(g, op, true);
    else if (!strcmp(name, "tx8be.constant"))
      ok = add_constant(g, op, false);
    else if (!strcmp(name, "tx8be.group"))
      ok = add_group(g, op, t);
    else if (!strcmp(name, "func.return"))
      ok = add_outputs(g, op);
    else if (!strcmp(name, "tx8be.none"))
      ok = true;
    else {
      npuc_op_error(op,
                    "%s: unsupported op at the top level of the graph (the "
                    "tx8 code generator runs tx8be.group ops; group the "
                    "graph first)",
                    name);
      ok = false;
    }
    if (!ok)
      return false;
  }
  return true;
}

static bool add_constant(graph *g, MlirOperation op, bool from_container) {
  MlirAttribute value = {NULL};
  char name[32];
  if (from_container) {
    MlirAttribute id = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("const_map_id"));
    int64_t i =
        mlirAttributeIsAInteger(id) ? mlirIntegerAttrGetValueInt(id) : -1;
    if (mlirAttributeIsNull(g->container) ||
        !mlirAttributeIsAArray(g->container) || i < 0 ||
        i >= mlirArrayAttrGetNumElements(g->container)) {
      npuc_op_error(op,
                    "tx8be.load_const: constant %lld is not in the "
                    "module's tx8be.const_container",
                    (long long)i);
      return false;
    }
    value = mlirArrayAttrGetElement(g->container, i);
    snprintf(name, sizeof name, "const%lld", (long long)i);
  } else {
    value = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("value"));
    snprintf(name, sizeof name, "const_op%d", g->prog.num_tensors);
  }
  MlirValue v = mlirOperationGetResult(op, 0);
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status has_dev = npuc_tx8_op_dev_attr(op, &dev);
  if (has_dev == NPUC_TX8_ATTR_MALFORMED ||
      !add_tensor(g, op, v, TX8_DDR_CONSTANT, value, name))
    return false;
  /* The container holds the bytes as they lie in DDR: the compact tensor
   * (an entry of the load_const's type; its dev_info is then the layout a
   * load brings it into), or, with tx8-const-norm's aligned-data, the
   * rank-1 image of the aligned layout its dev_info names. */
  tx8_ddr *t = &g->prog.tensors[g->prog.num_tensors - 1];
  MlirType result = mlirValueGetType(v);
  bool dense =
      !mlirAttributeIsNull(value) && mlirAttributeIsADenseElements(value);
  if (dense && !mlirTypeEqual(mlirAttributeGetType(value), result) &&
      has_dev == NPUC_TX8_ATTR_PRESENT && npuc_tx8_is_aligned(dev.mem_layout))
    t->mode = dev.mem_layout;
  bool ok =
      dense &&
      mlirTypeEqual(mlirShapedTypeGetElementType(mlirAttributeGetType(value)),
                    mlirShapedTypeGetElementType(result)) &&
      mlirElementsAttrGetNumElements(value) * npuc_tx8_dtype_bytes(t->dtype) ==
          tx8_ddr_bytes(t);
  if (!ok)
    npuc_op_error(op,
                  "tx8: unsupported constant: its value must be dense "
                  "elements of the result's type, %lld bytes (the result "
                  "in %s)",
                  (long long)tx8_ddr_bytes(t), npuc_tx8_layout_name(t->mode));
  return ok;
}

static bool result_layout(graph *g, MlirOperation group, intptr_t i,
                          tx8_ddr *t);

/* The tensor whose bytes tensor i is (itself unless an alias). */
static tx8_ddr *source_of(graph *g, int i) {
  tx8_ddr *d = &g->prog.tensors[i];
  return d->alias >= 0 ? &g->prog.tensors[d->alias] : d;
}

/* The group's DDR reads in this level, for the DDR lifetimes; a group
 * reading what a group of its own level wrote (no barrier between them:
 * need_barrier false on the writer and every group after it) is an
 * error, as tiles would read bytes other tiles may not have written. */
static bool record_reads(graph *g, MlirOperation group) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(group); ++i) {
    int k = tx8_ddr_index(&g->prog, mlirOperationGetOperand(group, i));
    if (k < 0)
      continue; /* a tx8be.none */
    tx8_ddr *d = source_of(g, k);
    if (d->kind == TX8_DDR_INTERMEDIATE && d->write_level == g->level) {
      npuc_op_error(group,
                    "tx8be.group: reads %s, which a group of its own "
                    "barrier level writes (no need_barrier between them); "
                    "run tx8-group-dag or set need_barrier on the writer",
                    d->name);
      return false;
    }
    if (d->first_read < 0)
      d->first_read = g->level;
    d->last_read = g->level;
  }
  return true;
}

/* Group `id` runs in the current level; need_barrier (true when absent)
 * closes the level after it. */
static void add_level(graph *g, int id, MlirOperation group) {
  MlirAttribute nb = mlirOperationGetAttributeByName(
      group, mlirStringRefCreateFromCString("need_barrier"));
  bool barrier = mlirAttributeIsNull(nb) || !mlirAttributeIsABool(nb) ||
                 mlirBoolAttrGetValue(nb);
  g->group_level =
      npuc_xrealloc(g->group_level, (size_t)(id + 1) * sizeof *g->group_level);
  g->barrier_after = npuc_xrealloc(g->barrier_after,
                                   (size_t)(id + 1) * sizeof *g->barrier_after);
  g->group_level[id] = g->level;
  g->barrier_after[id] = barrier;
  if (barrier)
    g->level++;
}

/* The levels the groups run in: one per barrier, plus the groups after
 * the last barrier. */
static int num_levels(const graph *g) {
  if (g->num_groups == 0)
    return 0;
  return g->level + (g->barrier_after[g->num_groups - 1] ? 0 : 1);
}

static bool add_group(graph *g, MlirOperation op, const npuc_tx8_target *t) {
  int32_t tiles = npuc_tx8_group_tiles(op, t);
  if (tiles <= 0)
    return false;
  if (tiles > g->prog.tiles)
    g->prog.tiles = tiles;
  int id = g->num_groups, seq = g->group_seq++;
  bool code = !npuc_tx8_group_is_ddr_only(op);
  if (code && !record_reads(g, op))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    char name[32];
    snprintf(name, sizeof name, "g%d_r%zd", seq, (ssize_t)i);
    if (!add_tensor(g, op, mlirOperationGetResult(op, i), TX8_DDR_INTERMEDIATE,
                    (MlirAttribute){NULL}, name) ||
        !result_layout(g, op, i, &g->prog.tensors[g->prog.num_tensors - 1]))
      return false;
  }
  if (!code)
    return true; /* no code: its results alias its inputs */
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    g->prog.tensors[g->prog.num_tensors - 1 - i].write_level = g->level;
  add_level(g, id, op);
  g->num_groups++;
  if (!tx8_emit_group(&g->prog, op, id, &g->groups))
    return false;
  if (g->svg) {
    g->svgs = npuc_xrealloc(g->svgs, (size_t)(id + 1) * sizeof *g->svgs);
    g->svgs[id] = tx8_spm_svg(op, id);
    g->num_svgs = id + 1;
    if (!g->svgs[id])
      return false;
  }
  MlirAttribute alloc = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("spm_alloc_size"));
  int64_t bytes = (int64_t)mlirIntegerAttrGetValueUInt(alloc);
  if (bytes > g->prog.spm_bytes)
    g->prog.spm_bytes = bytes;
  return true;
}

/* Where group result `i` lies in DDR: as its store_var's dev_info says
 * (compact without one), or, for a reshape of a group input in a DDR-only
 * group, in that input's bytes. */
static bool result_layout(graph *g, MlirOperation group, intptr_t i,
                          tx8_ddr *t) {
  /* The last op: MLIR does not know an unregistered op is a terminator. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  MlirOperation ret = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ret = op;
  if (mlirOperationIsNull(ret) || i >= mlirOperationGetNumOperands(ret))
    return true; /* the group plan reports it */
  MlirValue v = mlirOperationGetOperand(ret, i);
  for (intptr_t j = 0; j < i; ++j)
    if (mlirValueEqual(mlirOperationGetOperand(ret, j), v)) {
      /* Yielded twice: stored once, the other result is its bytes. */
      int first = tx8_ddr_index(&g->prog, mlirOperationGetResult(group, j));
      t->mode = g->prog.tensors[first].mode;
      t->alias = first;
      return true;
    }
  if (!mlirValueIsAOpResult(v))
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  char name[64];
  npuc_tx8_op_name(def, name, sizeof name);
  npuc_tx8_dev_attr dev;
  if (!strcmp(name, "tx8be.store_var")) {
    npuc_tx8_attr_status has = npuc_tx8_op_dev_attr(def, &dev);
    if (has == NPUC_TX8_ATTR_PRESENT)
      t->mode = dev.mem_layout;
    return has != NPUC_TX8_ATTR_MALFORMED;
  }
  if (!strcmp(name, "tx8be.reshape") && npuc_tx8_group_is_ddr_only(group)) {
    MlirValue in = mlirOperationGetOperand(def, 0);
    int src = mlirValueIsABlockArgument(in)
                  ? tx8_ddr_index(&g->prog,
                                  mlirOperationGetOperand(
                                      group, mlirBlockArgumentGetArgNumber(in)))
                  : -1;
    if (src < 0 || npuc_tx8_is_aligned(g->prog.tensors[src].mode)) {
      npuc_op_error(def, "tx8be.reshape: unsupported: a DDR reshape needs a "
                         "compact group input");
      return false;
    }
    t->alias =
        g->prog.tensors[src].alias >= 0 ? g->prog.tensors[src].alias : src;
    return true;
  }
  if (npuc_tx8_group_is_ddr_only(group)) {
    npuc_op_error(def,
                  "%s: unsupported op in a DDR-only group (group_tag 2): "
                  "the tx8 code generator knows reshape there",
                  name);
    return false;
  }
  return true;
}

static bool add_outputs(graph *g, MlirOperation ret) {
  intptr_t n = mlirOperationGetNumOperands(ret);
  if (n > (intptr_t)(sizeof g->outputs / sizeof g->outputs[0])) {
    npuc_op_error(ret, "tx8: more than 64 graph outputs");
    return false;
  }
  for (intptr_t i = 0; i < n; ++i) {
    g->outputs[i] = tx8_ddr_index(&g->prog, mlirOperationGetOperand(ret, i));
    if (g->outputs[i] < 0) {
      npuc_op_error(ret, "tx8: graph output #%zd is not a tensor in DDR",
                    (ssize_t)i);
      return false;
    }
    source_of(g, g->outputs[i])->is_output = true;
  }
  g->num_outputs = (int)n;
  return true;
}

/* ---- the files
 * --------------------------------------------------------------------- */

static void write_constants(graph *g, npuc_sb *sb, int *data_of);
static void write_levels(const graph *g, npuc_sb *sb);
static void write_target(const npuc_tx8_target *t, npuc_sb *sb);
static void write_extract(npuc_sb *sb);

static void write_main(graph *g, const npuc_tx8_target *t, npuc_sb *sb) {
  const tx8_program *p = &g->prog;
  npuc_sb_printf(
      sb,
      "/* Generated by npuc-compile --target=tx8: the groups of the graph as "
      "the\n"
      " * op library's load -> compute -> store loop over each tile's "
      "temporal\n"
      " * slices, and the DDR tensors: the tables the host in libnpuc_tx8_rt\n"
      " * runs (npuc/Tx8Program.h). */\n"
      "#include \"npuc/Tx8Program.h\"\n\n"
      "#include <stdbool.h>\n#include <stddef.h>\n\n");
  /* data_of[i]: the constant whose bytes tensor i's entry names. */
  int *data_of = npuc_xcalloc((size_t)p->num_tensors + 1, sizeof *data_of);
  write_constants(g, sb, data_of);
  npuc_sb_printf(sb, "const tx8_ddr_tensor tx8_tensors[] = {\n");
  for (int i = 0; i < p->num_tensors; ++i) {
    const tx8_ddr *d = &p->tensors[i];
    static const char *const kinds[] = {"TX8_INPUT", "TX8_CONSTANT",
                                        "TX8_INTERMEDIATE"};
    static const char *const dtypes[] = {"NPUC_TX8_F16", "NPUC_TX8_BF16",
                                         "NPUC_TX8_F32", "NPUC_TX8_I8"};
    static const char *const modes[] = {"NPUC_TX8_TENSOR", "NPUC_TX8_NTENSOR",
                                        "NPUC_TX8_CX", "NPUC_TX8_NCX"};
    npuc_sb_printf(sb, "    {\"%s\", %s, %lld, %s%s, %s, %s, %d, {", d->name,
                   kinds[d->kind], (long long)tx8_ddr_bytes(d),
                   d->kind == TX8_DDR_CONSTANT ? "tx8_data_" : "",
                   d->kind == TX8_DDR_CONSTANT ? p->tensors[data_of[i]].name
                                               : "NULL",
                   dtypes[d->dtype], modes[d->mode], d->shape.rank);
    for (int k = 0; k < d->shape.rank; ++k)
      npuc_sb_printf(sb, "%s%lld", k ? ", " : "", (long long)d->shape.dims[k]);
    npuc_sb_printf(sb, "}, %d, %lld},\n", d->alias, (long long)d->offset);
  }
  free(data_of);
  npuc_sb_printf(sb, "};\nconst int tx8_num_tensors = %d;\n", p->num_tensors);
  npuc_sb_printf(sb, "const int tx8_outputs[] = {");
  for (int i = 0; i < g->num_outputs; ++i)
    npuc_sb_printf(sb, "%s%d", i ? ", " : "", g->outputs[i]);
  npuc_sb_printf(sb, "%s};\nconst int tx8_num_outputs = %d;\n",
                 g->num_outputs ? "" : "-1", g->num_outputs);
  npuc_sb_printf(
      sb,
      "const int tx8_num_groups = %d;\nconst int tx8_num_tiles = %d;\n"
      "const int64_t tx8_spm_bytes = %lld;\n",
      g->num_groups, p->tiles, (long long)p->spm_bytes);
  write_target(t, sb);
  write_levels(g, sb);
  if (p->needs_extract)
    write_extract(sb);
  npuc_sb_printf(sb, "\n%s", g->groups.data ? g->groups.data : "");
  npuc_sb_printf(sb,
                 "void tx8_tile_main(int tile, char *const *ddr, char *spm, "
                 "uint64_t *cycles) {\n");
  for (int i = 0; i < g->num_groups; ++i)
    npuc_sb_printf(sb,
                   "  cycles[%d] = group%d(tile, ddr, spm);\n"
                   "  tx8_group_done(%d);\n%s",
                   i, i, i, g->barrier_after[i] ? "  tx8_barrier();\n" : "");
  npuc_sb_printf(sb, "  (void)tile, (void)ddr, (void)spm, (void)cycles;\n}\n");
}

static int64_t element_bytes(npuc_tx8_dtype dt) {
  return npuc_tx8_dtype_bytes(dt);
}

/* Constant data as bytes (a splat repeated), little-endian as in DDR. */
/* One array per distinct value: every load_const of a container entry
 * (tx8-move-constant gives each use its own) and equal tx8be.constant
 * values (MLIR uniques attributes) share the first one's bytes. */
static void write_constants(graph *g, npuc_sb *sb, int *data_of) {
  npuc_ptr_map first = {0};
  for (int i = 0; i < g->prog.num_tensors; ++i) {
    const tx8_ddr *d = &g->prog.tensors[i];
    uintptr_t owner;
    data_of[i] = i;
    if (d->kind != TX8_DDR_CONSTANT)
      continue;
    if (npuc_ptr_map_get(&first, d->data.ptr, &owner) &&
        g->prog.tensors[owner].mode == d->mode) {
      data_of[i] = (int)owner;
      continue;
    }
    if (!npuc_ptr_map_put(&first, d->data.ptr, (uintptr_t)i))
      npuc_die("out of memory");
    int64_t count = mlirElementsAttrGetNumElements(d->data),
            eb = element_bytes(d->dtype);
    const unsigned char *raw = mlirDenseElementsAttrGetRawData(d->data);
    bool splat = mlirDenseElementsAttrIsSplat(d->data);
    npuc_sb_printf(sb, "static const unsigned char tx8_data_%s[%lld] = {",
                   d->name, (long long)(count * eb));
    for (int64_t k = 0; k < count * eb; ++k) {
      const char *sep = k == 0 ? "\n  " : k % 16 ? "," : ",\n  ";
      npuc_sb_printf(sb, "%s0x%02x", sep, raw[(splat ? k % eb : k)]);
    }
    npuc_sb_printf(sb, "};\n");
  }
  npuc_ptr_map_free(&first);
}

/* The DDR arena's size and each group's barrier level. */
static void write_levels(const graph *g, npuc_sb *sb) {
  npuc_sb_printf(sb, "const int64_t tx8_ddr_arena_bytes = %lld;\n",
                 (long long)g->ddr_arena);
  npuc_sb_printf(sb, "const int tx8_group_level[] = {");
  for (int i = 0; i < g->num_groups; ++i)
    npuc_sb_printf(sb, "%s%d", i ? ", " : "", g->group_level[i]);
  npuc_sb_printf(sb, "%s};\nconst int tx8_num_levels = %d;\n",
                 g->num_groups ? "" : "0", num_levels(g));
}

static void write_target(const npuc_tx8_target *t, npuc_sb *sb) {
  npuc_sb_printf(
      sb,
      "const npuc_tx8_target tx8_target = {\n"
      "    .chips = %d, .tiles_x = %d, .tiles_y = %d, .spm_bytes = %lld,\n"
      "    .ddr_bytes = %lld, .ddr_bank_bytes = %lld, .ddr_gbytes_per_s = "
      "%.17g,\n"
      "    .clock_ghz = %.17g, .ne_m = %d, .ne_k = %d, .ne_n = %d,\n"
      "    .ne_tflops_int8 = %.17g, .ne_tflops_fp16 = %.17g,\n"
      "    .ne_tflops_bf16 = %.17g, .ne_tflops_fp32 = %.17g,\n"
      "    .ct_bytes_per_cycle = %lld, .tdma_bytes_per_cycle = %lld,\n"
      "    .op_overhead_cycles = %lld, .noc_link_bytes_per_cycle = %lld,\n"
      "    .noc_hop_cycles = %lld};\n",
      t->chips, t->tiles_x, t->tiles_y, (long long)t->spm_bytes,
      (long long)t->ddr_bytes, (long long)t->ddr_bank_bytes,
      t->ddr_gbytes_per_s, t->clock_ghz, t->ne_m, t->ne_k, t->ne_n,
      t->ne_tflops_int8, t->ne_tflops_fp16, t->ne_tflops_bf16,
      t->ne_tflops_fp32, (long long)t->ct_bytes_per_cycle,
      (long long)t->tdma_bytes_per_cycle, (long long)t->op_overhead_cycles,
      (long long)t->noc_link_bytes_per_cycle, (long long)t->noc_hop_cycles);
}

/* tx8_extract: the part of an SPM buffer one op reads when the buffer
 * holds more (a group input read with a conv's halo and without), an SPM
 * to SPM move costed as TDMA. Element by element: these are small. */
static void write_extract(npuc_sb *sb) {
  npuc_sb_printf(
      sb,
      "\n/* (n, hw, c) of index i + off of a slice of `shape` in t's layout. "
      "*/\n"
      "static void tx8_nhc(const TSR *t, const int32_t *shape, const int32_t "
      "*i,\n"
      "                    const int32_t *off, int32_t dim, int64_t *o) {\n"
      "  int32_t first = (t->layout.mode == NPUC_TX8_NTENSOR ||\n"
      "                   t->layout.mode == NPUC_TX8_NCX) && dim >= 2;\n"
      "  o[0] = first ? i[0] + off[0] : 0;\n"
      "  o[1] = 0;\n"
      "  o[2] = i[dim - 1] + off[dim - 1];\n"
      "  for (int32_t d = first; d < dim - 1; ++d)\n"
      "    o[1] = o[1] * shape[d] + i[d] + off[d];\n"
      "}\n\n"
      "/* Copies the part of SPM slice src (ls) that dst (ld) covers (TDMA). "
      "*/\n"
      "static uint64_t tx8_extract(const TSR *dst, const L_SHAPE *ld, const "
      "TSR *src,\n"
      "                            const L_SHAPE *ls) {\n"
      "  int32_t i[NPUC_TX8_MAX_SHAPE_DIM] = {0}, off[NPUC_TX8_MAX_SHAPE_DIM], "
      "zero[NPUC_TX8_MAX_SHAPE_DIM] = {0};\n"
      "  int64_t n = 1, a[3], b[3];\n"
      "  for (int32_t d = 0; d < ld->dim; ++d) {\n"
      "    off[d] = ld->shape_start[d] - ls->shape_start[d];\n"
      "    n *= ld->shape_real[d];\n"
      "  }\n"
      "  for (int64_t e = 0; e < n; ++e) {\n"
      "    tx8_nhc(dst, ld->shape_real, i, zero, ld->dim, a);\n"
      "    tx8_nhc(src, ls->shape_real, i, off, ld->dim, b);\n"
      "    npuc_tx8_set(dst, a[0], a[1], a[2], npuc_tx8_get(src, b[0], b[1], "
      "b[2]));\n"
      "    for (int32_t d = ld->dim - 1; d >= 0 && ++i[d] == "
      "ld->shape_real[d]; --d)\n"
      "      i[d] = 0;\n"
      "  }\n"
      "  return npuc_tx8_cycles_tdma(2 * dst->layout.total_bytes);\n"
      "}\n");
}

static void write_makefile(const npuc_compile_options *o, npuc_sb *sb) {
  const char *rt = o->runtime_dir ? o->runtime_dir : ".";
  npuc_sb_printf(
      sb,
      "# Generated by npuc-compile --target=tx8.\n"
      "CC ?= gcc\n"
      "CFLAGS ?= " NPUC_KERNEL_CFLAGS "\n"
      "NPUC_INCLUDE ?= %s\n"
      "NPUC_RT ?= %s/libnpuc_tx8_rt.a %s/libnpuc_hivm_rt.a\n\n"
      "program: main.c\n"
      "\t$(CC) -std=c11 $(CFLAGS) -I$(NPUC_INCLUDE) main.c $(NPUC_RT) "
      "-lm -lpthread -o $@\n\n"
      "clean:\n\trm -f program\n",
      o->include_dir ? o->include_dir : "include", rt, rt);
}
