/* scf and func control flow. Loop-carried and if-yielded values become C
 * variables declared before the construct and assigned by its yields. */
#include "npuc/CEmit.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool emit_for(emitter *em, MlirOperation op);
static bool emit_if(emitter *em, MlirOperation op);
static bool emit_while(emitter *em, MlirOperation op);
static bool emit_scope(emitter *em, MlirOperation op);
static bool is_terminator(MlirOperation op);

bool npuc_em_control_op(emitter *em, MlirOperation op, const char *name) {
  if (npuc_em_name_is(name, "scf.for"))
    return emit_for(em, op);
  if (npuc_em_name_is(name, "scf.if"))
    return emit_if(em, op);
  if (npuc_em_name_is(name, "scf.while"))
    return emit_while(em, op);
  if (npuc_em_name_is(name, "scope.scope"))
    return emit_scope(em, op);
  if (npuc_em_name_is(name, "func.return")) {
    /* Kernels hand results back through their buffer arguments. */
    npuc_em_line(em, "return;");
    return true;
  }
  if (npuc_em_name_is(name, "scf.yield") ||
      npuc_em_name_is(name, "scf.condition") ||
      npuc_em_name_is(name, "scope.return")) {
    npuc_em_error(em, op, "%s outside the construct that consumes it", name);
    return true;
  }
  return false;
}

/* Emits a block's ops but its terminator, which it returns (null if the
 * block ends otherwise). scope.return is an unregistered op to MLIR, so
 * mlirBlockGetTerminator does not know it ends the block: the last op is
 * taken as the terminator by name. */
static MlirOperation emit_body(emitter *em, MlirBlock block) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationIsNull(mlirOperationGetNextInBlock(op)) &&
        is_terminator(op))
      return op;
    if (!npuc_em_op(em, op))
      return (MlirOperation){NULL};
  }
  return (MlirOperation){NULL};
}

static bool is_terminator(MlirOperation op) {
  return npuc_op_is(op, "scf.yield") || npuc_op_is(op, "scf.condition") ||
         npuc_op_is(op, "scope.return");
}

/* `targets[i] = operands of term`, evaluated before any assignment. */
static void assign_yields(emitter *em, MlirOperation term, MlirValue *targets,
                          intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue y = mlirOperationGetOperand(term, i);
    npuc_em_line(em, "%s npuc_y%zd = %s;", npuc_em_ctype(mlirValueGetType(y)),
                 (ssize_t)i, npuc_em_name(em, y));
  }
  for (intptr_t i = 0; i < n; ++i)
    npuc_em_line(em, "%s = npuc_y%zd;", npuc_em_name(em, targets[i]),
                 (ssize_t)i);
}

static void declare_results(emitter *em, MlirOperation op,
                            intptr_t first_init) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue r = mlirOperationGetResult(op, i);
    const char *t = npuc_em_ctype(mlirValueGetType(r));
    const char *name = npuc_em_define(em, r);
    if (first_init >= 0)
      npuc_em_line(
          em, "%s %s = %s;", t, name,
          npuc_em_name(em, mlirOperationGetOperand(op, first_init + i)));
    else
      npuc_em_line(em, "%s %s;", t, name);
  }
}

static MlirValue *results_of(MlirOperation op, intptr_t *n) {
  *n = mlirOperationGetNumResults(op);
  MlirValue *v = npuc_xmalloc((size_t)(*n + 1) * sizeof *v);
  for (intptr_t i = 0; i < *n; ++i)
    v[i] = mlirOperationGetResult(op, i);
  return v;
}

static bool emit_for(emitter *em, MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  declare_results(em, op, 3);
  MlirValue iv = mlirBlockGetArgument(body, 0);
  const char *ivn = npuc_em_define(em, iv);
  npuc_em_line(em, "for (int64_t %s = %s; %s < %s; %s += %s) {", ivn,
               npuc_em_name(em, mlirOperationGetOperand(op, 0)), ivn,
               npuc_em_name(em, mlirOperationGetOperand(op, 1)), ivn,
               npuc_em_name(em, mlirOperationGetOperand(op, 2)));
  em->indent++;
  intptr_t n;
  MlirValue *results = results_of(op, &n);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue arg = mlirBlockGetArgument(body, i + 1);
    npuc_em_line(em, "%s %s = %s;", npuc_em_ctype(mlirValueGetType(arg)),
                 npuc_em_define(em, arg), npuc_em_name(em, results[i]));
  }
  MlirOperation term = emit_body(em, body);
  if (!em->failed && !mlirOperationIsNull(term))
    assign_yields(em, term, results, n);
  free(results);
  em->indent--;
  npuc_em_line(em, "}");
  return true;
}

static void emit_branch(emitter *em, MlirRegion region, MlirValue *results,
                        intptr_t n) {
  MlirBlock b = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(b))
    return;
  em->indent++;
  MlirOperation term = emit_body(em, b);
  if (!em->failed && !mlirOperationIsNull(term))
    assign_yields(em, term, results, n);
  em->indent--;
}

static bool emit_if(emitter *em, MlirOperation op) {
  declare_results(em, op, -1);
  intptr_t n;
  MlirValue *results = results_of(op, &n);
  npuc_em_line(em, "if (%s) {",
               npuc_em_name(em, mlirOperationGetOperand(op, 0)));
  emit_branch(em, mlirOperationGetRegion(op, 0), results, n);
  MlirRegion else_region = mlirOperationGetRegion(op, 1);
  if (!mlirBlockIsNull(mlirRegionGetFirstBlock(else_region))) {
    npuc_em_line(em, "} else {");
    emit_branch(em, else_region, results, n);
  }
  npuc_em_line(em, "}");
  free(results);
  return true;
}

/* scope.scope runs its region once; scope.return gives the results. */
static bool emit_scope(emitter *em, MlirOperation op) {
  declare_results(em, op, -1);
  intptr_t n;
  MlirValue *results = results_of(op, &n);
  npuc_em_line(em, "{");
  emit_branch(em, mlirOperationGetRegion(op, 0), results, n);
  npuc_em_line(em, "}");
  free(results);
  return true;
}

/* before-region: args w, ends in scf.condition(%c) %x; after-region: args
 * take %x, ends in scf.yield feeding w. Results are %x when %c is false. */
static bool emit_while(emitter *em, MlirOperation op) {
  MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  intptr_t nw = mlirBlockGetNumArguments(before);
  MlirValue *carried = npuc_xmalloc((size_t)(nw + 1) * sizeof *carried);
  for (intptr_t i = 0; i < nw; ++i) {
    MlirValue w = mlirBlockGetArgument(before, i);
    carried[i] = w;
    npuc_em_line(em, "%s %s = %s;", npuc_em_ctype(mlirValueGetType(w)),
                 npuc_em_define(em, w),
                 npuc_em_name(em, mlirOperationGetOperand(op, i)));
  }
  declare_results(em, op, -1);
  intptr_t nr;
  MlirValue *results = results_of(op, &nr);
  npuc_em_line(em, "for (;;) {");
  em->indent++;
  MlirOperation cond = emit_body(em, before);
  if (!em->failed && !mlirOperationIsNull(cond)) {
    npuc_em_line(em, "if (!%s) {",
                 npuc_em_name(em, mlirOperationGetOperand(cond, 0)));
    em->indent++;
    for (intptr_t i = 0; i < nr; ++i)
      npuc_em_line(em, "%s = %s;", npuc_em_name(em, results[i]),
                   npuc_em_name(em, mlirOperationGetOperand(cond, i + 1)));
    npuc_em_line(em, "break;");
    em->indent--;
    npuc_em_line(em, "}");
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(after); ++i) {
      MlirValue a = mlirBlockGetArgument(after, i);
      npuc_em_line(em, "%s %s = %s;", npuc_em_ctype(mlirValueGetType(a)),
                   npuc_em_define(em, a),
                   npuc_em_name(em, mlirOperationGetOperand(cond, i + 1)));
    }
    MlirOperation yield = emit_body(em, after);
    if (!em->failed && !mlirOperationIsNull(yield))
      assign_yields(em, yield, carried, nw);
  }
  em->indent--;
  npuc_em_line(em, "}");
  free(results);
  free(carried);
  return true;
}
