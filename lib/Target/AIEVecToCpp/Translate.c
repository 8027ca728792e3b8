/* --aievec-to-cpp: a module of functions holding aievec / aievec_aie1 ops,
 * and the scf, arith, memref, vector and func ops around them, as the C++
 * source aie-translate --aievec-to-cpp writes for it (the AIE compiler
 * builds it; here lib/Runtime/aie1/aie_intrinsics.h does, docs/
 * aievec-to-cpp.md). Requires a module whose functions have one block each;
 * an op or type without a C++ form is a located error and nothing is
 * written. This file: the entry, the module, functions, control flow and
 * the scalar ops; the aievec ops are AievecOps.c. */
#include "CppEmitter.h"
#include "npuc/BuildOps.h"
#include "npuc/MlirSupport.h"
#include "npuc/Translation.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <string.h>

static bool translate_ops(const MlirOperation *ops, size_t n,
                          const npuc_translate_options *o, npuc_sb *out) {
  npuc_sb text = {0};
  cpp_emitter e = {0};
  e.out = &text;
  e.aie2 = o->aie2;
  e.masked_writes = o->masked_writes;
  e.errors_as_warnings = o->errors_as_warnings;
  e.at_line_start = true;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = cpp_emit_op(&e, ops[i], false);
  cpp_emitter_free(&e);
  if (ok && text.data)
    npuc_sb_append(out, text.data, strlen(text.data));
  npuc_sb_free(&text);
  return ok;
}

static bool translate(MlirOperation module, const npuc_translate_options *o,
                      npuc_sb *out) {
  return translate_ops(&module, 1, o, out);
}

bool npuc_aievec_to_cpp_functions(const MlirOperation *funcs, size_t n,
                                  const npuc_translate_options *o,
                                  npuc_sb *out) {
  return translate_ops(funcs, n, o, out);
}

const npuc_translation_def npuc_translation_aievec_to_cpp = {
    "aievec-to-cpp",
    "aievec / aievec_aie1 kernels as the C++ aie-translate writes (AIE1; "
    "--aie2: AIE-ML)",
    translate};

/* ---- dispatch ------------------------------------------------------------ */

static bool emit_module(cpp_emitter *e, MlirOperation module);
static bool emit_func(cpp_emitter *e, MlirOperation f);
static bool emit_for(cpp_emitter *e, MlirOperation op);
static bool emit_if(cpp_emitter *e, MlirOperation op);
static bool emit_yield(cpp_emitter *e, MlirOperation op);
static bool emit_return(cpp_emitter *e, MlirOperation op);
static bool emit_call(cpp_emitter *e, MlirOperation op);
static bool emit_constant(cpp_emitter *e, MlirOperation op);
static bool emit_binary(cpp_emitter *e, MlirOperation op, const char *sym);
static bool emit_cmpi(cpp_emitter *e, MlirOperation op);
static bool emit_select(cpp_emitter *e, MlirOperation op);
static bool emit_transfer_write(cpp_emitter *e, MlirOperation op);
static bool emit_store(cpp_emitter *e, MlirOperation op);
static bool emit_forward(cpp_emitter *e, MlirOperation op);

/* arith's binary ops and their C++ operators. */
static const struct {
  const char *op, *sym;
} binary_ops[] = {
    {"arith.addi", " + "},  {"arith.addf", " + "},  {"arith.muli", " * "},
    {"arith.mulf", " * "},  {"arith.subi", " - "},  {"arith.subf", " - "},
    {"arith.divsi", " / "}, {"arith.divui", " / "}, {"arith.divf", " / "},
    {"arith.remsi", " % "},
};

static int emit_scalar_op(cpp_emitter *e, MlirOperation op) {
  for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
    if (npuc_op_is(op, binary_ops[i].op))
      return emit_binary(e, op, binary_ops[i].sym);
  if (npuc_op_is(op, "arith.constant"))
    return emit_constant(e, op);
  if (npuc_op_is(op, "arith.cmpi"))
    return emit_cmpi(e, op);
  if (npuc_op_is(op, "arith.select"))
    return emit_select(e, op);
  if (npuc_op_is(op, "vector.transfer_write"))
    return emit_transfer_write(e, op);
  if (npuc_op_is(op, "memref.store"))
    return emit_store(e, op);
  if (npuc_op_is(op, "memref.expand_shape") ||
      npuc_op_is(op, "memref.collapse_shape"))
    return emit_forward(e, op);
  if (npuc_op_is(op, "func.call"))
    return emit_call(e, op);
  if (npuc_op_is(op, "func.return"))
    return emit_return(e, op);
  return -1;
}

static int emit_structure_op(cpp_emitter *e, MlirOperation op) {
  if (npuc_op_is(op, "builtin.module"))
    return emit_module(e, op);
  if (npuc_op_is(op, "func.func"))
    return emit_func(e, op);
  if (npuc_op_is(op, "scf.for"))
    return emit_for(e, op);
  if (npuc_op_is(op, "scf.if"))
    return emit_if(e, op);
  if (npuc_op_is(op, "scf.yield"))
    return emit_yield(e, op);
  return -1;
}

bool cpp_emit_op(cpp_emitter *e, MlirOperation op, bool semicolon) {
  if (cpp_skipped(e, op, true))
    return true;
  int done = emit_structure_op(e, op);
  if (done < 0)
    done = emit_scalar_op(e, op);
  if (done < 0)
    done = cpp_emit_aievec_op(e, op);
  if (done < 0) {
    MlirIdentifier name = mlirOperationGetName(op);
    MlirStringRef s = mlirIdentifierStr(name);
    cpp_error(e, op, "'%.*s' op has no C++ form in --aievec-to-cpp",
              (int)s.length, s.data);
    return false;
  }
  if (!done)
    return false;
  cpp_write(e, semicolon ? ";\n" : "\n");
  return true;
}

/* Ops after which no ';' follows: their text ends with a brace. */
static bool ends_with_brace(MlirOperation op) {
  return npuc_op_is(op, "scf.if") || npuc_op_is(op, "scf.for") ||
         npuc_op_is(op, "cf.cond_br");
}

/* ---- ops translated to nothing ---------------------------------------------
 */

static MlirValue operand(MlirOperation op, intptr_t i) {
  return mlirOperationGetOperand(op, i);
}

static MlirValue result(MlirOperation op) {
  return mlirOperationGetResult(op, 0);
}

/* Exactly one use among all the op's results. */
static bool op_has_one_use(MlirOperation op) {
  int uses = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u) && uses < 2; u = mlirOpOperandGetNextUse(u))
      uses++;
  return uses == 1;
}

static MlirType elem_of(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
}

/* srs / ups of floats on AIE1 are plain moves: the result takes the
 * source's name when the source's op has that one use. */
static bool float_move(cpp_emitter *e, MlirOperation op, MlirValue acc) {
  MlirValue src = operand(op, 0);
  MlirOperation def = mlirOpResultGetOwner(src);
  if (e->aie2 || !mlirTypeIsAFloat(elem_of(acc)) ||
      !mlirValueIsAOpResult(src) || !op_has_one_use(def))
    return false;
  cpp_set_name(e, result(op), cpp_name(e, src));
  return true;
}

static bool alias(cpp_emitter *e, MlirOperation op) {
  cpp_set_name(e, result(op), cpp_name(e, operand(op, 0)));
  return true;
}

static bool skipped_kind(cpp_emitter *e, MlirOperation op) {
  if (npuc_op_is(op, "memref.dim") || npuc_op_is(op, "memref.assume_alignment"))
    return true;
  if (npuc_op_is(op, "aievec.srs"))
    return float_move(e, op, operand(op, 0));
  if (npuc_op_is(op, "aievec.ups"))
    return float_move(e, op, result(op));
  if (npuc_op_is(op, "aievec.cast")) {
    MlirType s = elem_of(operand(op, 0)), r = elem_of(result(op));
    return mlirTypeEqual(s, r) && mlirTypeIsAInteger(s) &&
           mlirIntegerTypeGetWidth(s) == 64 && alias(e, op);
  }
  if (npuc_op_is(op, "arith.index_cast") ||
      npuc_op_is(op, "arith.index_castui") || npuc_op_is(op, "index.casts") ||
      npuc_op_is(op, "index.castu") || npuc_op_is(op, "vector.shape_cast"))
    return alias(e, op);
  if (npuc_op_is(op, "builtin.unrealized_conversion_cast"))
    return mlirOperationGetNumOperands(op) == 1 && alias(e, op);
  return false;
}

/* A constant is emitted only when an op that is emitted uses it. */
bool cpp_skipped(cpp_emitter *e, MlirOperation op, bool check_liveness) {
  if (skipped_kind(e, op))
    return true;
  if (!check_liveness || !npuc_op_is(op, "arith.constant"))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(result(op));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!cpp_skipped(e, mlirOpOperandGetOwner(u), false))
      return false;
  return true;
}

/* ---- module and functions
 * ---------------------------------------------------- */

static bool emit_module(cpp_emitter *e, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!cpp_emit_op(e, op, false))
      return false;
  return true;
}

/* Names for the dynamic dimensions: memref.dim results first ("m<n>", in
 * program order), then the argument dimensions no memref.dim asks for. */
static bool dim_walk(cpp_emitter *e, MlirBlock b, int depth);

static bool name_dynamic_dims(cpp_emitter *e, MlirOperation f,
                              MlirBlock entry) {
  if (!dim_walk(e, entry, 0))
    return false;
  (void)f;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsAMemRef(t))
      continue;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      if (mlirShapedTypeIsDynamicDim(t, d) && !cpp_dim_param_get(e, arg, d))
        cpp_dim_param_set(e, arg, d, cpp_new_name(e, "m"));
  }
  return true;
}

static bool name_dim_op(cpp_emitter *e, MlirOperation op) {
  int64_t dim;
  if (!npuc_constant_int(operand(op, 1), &dim)) {
    cpp_error(e, op, "memref.dim needs a constant index for --aievec-to-cpp");
    return false;
  }
  const char *name = cpp_name_prefixed(e, result(op), "m");
  cpp_dim_param_set(e, operand(op, 0), dim, name);
  return true;
}

/* Nesting is bounded by the parser's; the depth guard keeps the walk
 * bounded on anything built otherwise. */
static bool dim_walk(cpp_emitter *e, MlirBlock b, int depth) {
  if (depth > 1000)
    return true;
  for (MlirOperation op = mlirBlockGetFirstOperation(b);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
      for (MlirBlock inner =
               mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
           !mlirBlockIsNull(inner); inner = mlirBlockGetNextInRegion(inner))
        if (!dim_walk(e, inner, depth + 1))
          return false;
    if (npuc_op_is(op, "memref.dim") && !name_dim_op(e, op))
      return false;
  }
  return true;
}

static MlirType function_type(MlirOperation f) {
  return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      f, mlirStringRefCreateFromCString("function_type")));
}

/* void, the one result's type, or std::tuple<...>. */
static bool emit_result_types(cpp_emitter *e, MlirOperation f) {
  MlirType ft = function_type(f);
  intptr_t n = mlirFunctionTypeGetNumResults(ft);
  if (n == 0) {
    cpp_write(e, "void");
    return true;
  }
  if (n > 1)
    cpp_write(e, "std::tuple<");
  for (intptr_t i = 0; i < n; i++) {
    cpp_write(e, i ? ", " : "");
    if (!cpp_emit_type(e, f, mlirFunctionTypeGetResult(ft, i), true, false))
      return false;
  }
  if (n > 1)
    cpp_write(e, ">");
  return true;
}

/* A declaration: `int32_t f(v16int32, int8_t * restrict, size_t);`, a
 * size_t after a memref for each dynamic dimension. */
static bool emit_declaration(cpp_emitter *e, MlirOperation f) {
  MlirType ft = function_type(f);
  cpp_write(e, "(");
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(ft); i++) {
    MlirType t = mlirFunctionTypeGetInput(ft, i);
    cpp_write(e, i ? ", " : "");
    if (!cpp_emit_type(e, f, t, true, false))
      return false;
    if (mlirTypeIsAMemRef(t))
      for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
        if (mlirShapedTypeIsDynamicDim(t, d))
          cpp_write(e, ", size_t");
  }
  cpp_write(e, ");\n");
  return true;
}

static bool emit_arguments(cpp_emitter *e, MlirOperation f, MlirBlock entry) {
  cpp_write(e, "(");
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    cpp_write(e, i ? ", " : "");
    if (!cpp_emit_type(e, f, t, true, false))
      return false;
    cpp_printf(e, " %s", cpp_name(e, arg));
    if (mlirTypeIsAMemRef(t))
      for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
        if (mlirShapedTypeIsDynamicDim(t, d))
          cpp_printf(e, ", size_t %s", cpp_dim_param_get(e, arg, d));
  }
  cpp_write(e, ") {\n");
  return true;
}

static bool emit_func_body(cpp_emitter *e, MlirOperation f, MlirBlock entry) {
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    cpp_error(e, f,
              "'func.func' op with multiple blocks needs variables "
              "declared at top, which --aievec-to-cpp does not do");
    return false;
  }
  if (!name_dynamic_dims(e, f, entry) || !emit_arguments(e, f, entry))
    return false;
  e->indent++;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!cpp_emit_op(e, op, !ends_with_brace(op)))
      return false;
  e->indent--;
  cpp_write(e, "}\n");
  return true;
}

static bool emit_func(cpp_emitter *e, MlirOperation f) {
  if (!emit_result_types(e, f))
    return false;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      f, mlirStringRefCreateFromCString("sym_name")));
  cpp_printf(e, " %.*s", (int)name.length, name.data);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  bool ok = mlirBlockIsNull(entry) ? emit_declaration(e, f)
                                   : emit_func_body(e, f, entry);
  cpp_end_function(e);
  return ok;
}

/* ---- control flow ----------------------------------------------------------
 */

static int64_t floor_div(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* chess_loop_range(min, max) iterations when the bounds are constants:
 * floor and ceiling of the trip count over a constant positive step;
 * "(1, )" without one. */
static void emit_loop_range(cpp_emitter *e, MlirOperation op) {
  int64_t lb, ub, step;
  if (!npuc_constant_int(operand(op, 0), &lb) ||
      !npuc_constant_int(operand(op, 1), &ub))
    return;
  int64_t trip = ub - lb;
  if (npuc_constant_int(operand(op, 2), &step) && step > 0)
    cpp_printf(e, "chess_loop_range(%lld, %lld)\n",
               (long long)floor_div(trip, step),
               (long long)-floor_div(-trip, step));
  else
    cpp_write(e, "chess_loop_range(1, )\n");
}

static MlirBlock first_block(MlirOperation op, intptr_t region) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

/* Loop-carried values: the results are declared, the iteration arguments
 * start from the inits, take the yielded values at the end of each
 * iteration, and the results take them after the loop. */
static bool emit_for(cpp_emitter *e, MlirOperation op) {
  MlirBlock body = first_block(op, 0);
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; i++)
    if (!cpp_declare(e, op, mlirOperationGetResult(op, i), true, false))
      return false;
  for (intptr_t i = 0; i < n; i++) {
    MlirValue arg = mlirBlockGetArgument(body, i + 1);
    if (!cpp_emit_type(e, op, mlirValueGetType(arg), true, false))
      return false;
    const char *init = cpp_operand(e, op, 3 + i);
    if (!init)
      return false;
    cpp_printf(e, " %s = %s;\n", cpp_name(e, arg), init);
  }
  MlirValue iv = mlirBlockGetArgument(body, 0);
  const char *lb = cpp_operand(e, op, 0), *ub = cpp_operand(e, op, 1),
             *step = cpp_operand(e, op, 2);
  if (!lb || !ub || !step)
    return false;
  cpp_write(e, "for (");
  if (!cpp_emit_type(e, op, mlirValueGetType(iv), true, false))
    return false;
  const char *ivn = cpp_name(e, iv);
  cpp_printf(e, " %s = %s; %s < %s; %s += %s)\n", ivn, lb, ivn, ub, ivn, step);
  cpp_write(e, "chess_prepare_for_pipelining\n");
  emit_loop_range(e, op);
  cpp_write(e, "{\n");
  e->indent++;
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation inner = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(inner) && !mlirOperationEqual(inner, yield);
       inner = mlirOperationGetNextInBlock(inner))
    if (!cpp_emit_op(e, inner, !ends_with_brace(inner)))
      return false;
  for (intptr_t i = 0; i < n; i++) {
    const char *v = cpp_operand(e, yield, i);
    if (!v)
      return false;
    cpp_printf(e, "%s = %s;\n", cpp_name(e, mlirBlockGetArgument(body, i + 1)),
               v);
  }
  e->indent--;
  cpp_write(e, "}");
  for (intptr_t i = 0; i < n; i++)
    cpp_printf(e, "\n%s = %s;", cpp_name(e, mlirOperationGetResult(op, i)),
               cpp_name(e, mlirBlockGetArgument(body, i + 1)));
  return true;
}

static bool emit_region_ops(cpp_emitter *e, MlirBlock b) {
  e->indent++;
  for (MlirOperation op = mlirBlockGetFirstOperation(b);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!cpp_emit_op(e, op, true))
      return false;
  e->indent--;
  cpp_write(e, "}");
  return true;
}

static bool emit_if(cpp_emitter *e, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!cpp_declare(e, op, mlirOperationGetResult(op, i), true, false))
      return false;
  const char *cond = cpp_operand(e, op, 0);
  if (!cond)
    return false;
  cpp_printf(e, "if (%s) {\n", cond);
  if (!emit_region_ops(e, first_block(op, 0)))
    return false;
  MlirBlock other = first_block(op, 1);
  if (mlirBlockIsNull(other))
    return true;
  cpp_write(e, " else {\n");
  return emit_region_ops(e, other);
}

/* In an scf.if: each result takes its yielded value. */
static bool emit_yield(cpp_emitter *e, MlirOperation op) {
  MlirOperation parent = mlirOperationGetParentOperation(op);
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n != mlirOperationGetNumResults(parent)) {
    cpp_error(e, op,
              "number of operands does not to match the number of "
              "the parent op's results");
    return false;
  }
  for (intptr_t i = 0; i < n; i++) {
    const char *v = cpp_operand(e, op, i);
    if (!v)
      return false;
    cpp_printf(e, "%s%s = %s", i ? ";\n" : "",
               cpp_name(e, mlirOperationGetResult(parent, i)), v);
  }
  return true;
}

static bool emit_operand_list(cpp_emitter *e, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    const char *v = cpp_operand(e, op, i);
    if (!v)
      return false;
    cpp_printf(e, "%s%s", i ? ", " : "", v);
  }
  return true;
}

static bool emit_return(cpp_emitter *e, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  cpp_write(e, "return");
  if (n == 0)
    return true;
  cpp_write(e, n == 1 ? " " : " std::make_tuple(");
  if (!emit_operand_list(e, op))
    return false;
  if (n > 1)
    cpp_write(e, ")");
  return true;
}

static bool emit_call(cpp_emitter *e, MlirOperation op) {
  if (!cpp_assign_prefix(e, op, false))
    return false;
  MlirAttribute callee = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  MlirStringRef s = mlirFlatSymbolRefAttrGetValue(callee);
  cpp_printf(e, "%.*s(", (int)s.length, s.data);
  if (!emit_operand_list(e, op))
    return false;
  cpp_write(e, ")");
  return true;
}

/* ---- scalar ops, stores
 * ------------------------------------------------------ */

static bool emit_constant(cpp_emitter *e, MlirOperation op) {
  if (!cpp_assign_prefix(e, op, false))
    return false;
  return cpp_emit_attribute(e, op,
                            mlirOperationGetAttributeByName(
                                op, mlirStringRefCreateFromCString("value")));
}

static bool emit_binary(cpp_emitter *e, MlirOperation op, const char *sym) {
  if (!cpp_assign_prefix(e, op, false))
    return false;
  const char *lhs = cpp_operand(e, op, 0),
             *rhs = lhs ? cpp_operand(e, op, 1) : NULL;
  if (!rhs)
    return false;
  cpp_printf(e, "%s%s%s", lhs, sym, rhs);
  return true;
}

/* arith.cmpi predicates in their enum order: eq ne slt sle sgt sge ult ule
 * ugt uge. */
static bool emit_cmpi(cpp_emitter *e, MlirOperation op) {
  static const char *const syms[] = {" == ", " != ", " < ",  " <= ", " > ",
                                     " >= ", " < ",  " <= ", " > ",  " >= "};
  int64_t p = cpp_int_attr(op, "predicate", -1);
  if (p < 0 || p > 9) {
    cpp_error(e, op, "arith.cmpi predicate %lld has no C++ operator",
              (long long)p);
    return false;
  }
  return emit_binary(e, op, syms[p]);
}

static bool emit_select(cpp_emitter *e, MlirOperation op) {
  if (!cpp_assign_prefix(e, op, false))
    return false;
  const char *c = cpp_operand(e, op, 0), *t = c ? cpp_operand(e, op, 1) : NULL,
             *f = t ? cpp_operand(e, op, 2) : NULL;
  if (!f)
    return false;
  cpp_printf(e, "%s ? %s : %s", c, t, f);
  return true;
}

/* Is every lane of the write inside its row (in_bounds = [true])? */
static bool write_in_bounds(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("in_bounds"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); i++) {
    MlirAttribute b = mlirArrayAttrGetElement(a, i);
    if (!mlirAttributeIsABool(b) || !mlirBoolAttrGetValue(b))
      return false;
  }
  return true;
}

/* npuc_cc_store(mem + access, vec, size - last index): the lanes before
 * the row's end only (options.masked_writes). */
static bool emit_masked_write(cpp_emitter *e, MlirOperation op, const char *mem,
                              const char *vec, const char *access) {
  MlirValue m = operand(op, 1);
  MlirType t = mlirValueGetType(m);
  intptr_t rank = mlirShapedTypeGetRank(t);
  const char *last = rank ? cpp_operand(e, op, 1 + rank) : "0";
  if (!last)
    return false;
  char size[64];
  if (rank && mlirShapedTypeIsDynamicDim(t, rank - 1))
    snprintf(size, sizeof size, "%s", cpp_dim_param_get(e, m, rank - 1));
  else
    snprintf(size, sizeof size, "%lld",
             rank ? (long long)mlirShapedTypeGetDimSize(t, rank - 1) : 1LL);
  cpp_printf(e, "npuc_cc_store(%s + %s, %s, (ptrdiff_t)%s - (ptrdiff_t)%s)",
             mem, access, vec, size, last);
  return true;
}

static bool emit_transfer_write(cpp_emitter *e, MlirOperation op) {
  const char *vec = cpp_operand(e, op, 0),
             *mem = vec ? cpp_operand(e, op, 1) : NULL;
  if (!mem)
    return false;
  npuc_sb access = {0};
  bool ok = cpp_linear_access(e, op, 1, 2, &access);
  if (ok && e->masked_writes && !write_in_bounds(op)) {
    ok = emit_masked_write(e, op, mem, vec, access.data);
    npuc_sb_free(&access);
    return ok;
  }
  if (ok) {
    cpp_write(e, "*(");
    ok = cpp_emit_type(e, op, mlirValueGetType(operand(op, 0)), true, false);
  }
  if (ok)
    cpp_printf(e, " *)(%s + %s) = %s", mem, access.data, vec);
  npuc_sb_free(&access);
  return ok;
}

/* As the anchor: the element at the memref's start (its indices unused). */
static bool emit_store(cpp_emitter *e, MlirOperation op) {
  const char *val = cpp_operand(e, op, 0),
             *mem = val ? cpp_operand(e, op, 1) : NULL;
  if (!mem)
    return false;
  cpp_write(e, "*(");
  if (!cpp_emit_type(e, op, elem_of(operand(op, 1)), true, false))
    return false;
  cpp_printf(e, " *)%s = %s", mem, val);
  return true;
}

static bool emit_forward(cpp_emitter *e, MlirOperation op) {
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, false))
    return false;
  cpp_write(e, src);
  return true;
}
