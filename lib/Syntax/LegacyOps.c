/* Upstream ops that older MLIR had and MLIR 22 does not, as AscendNPU-IR
 * writes them: each is given to MLIR 22 as the op that replaced it, and
 * printed back as it came when the module used the old form
 * (npuc_source_form). docs/ascend-dialects.md lists the forms.
 *
 *   linalg.elemwise_unary/binary {fun = #linalg.unary_fn<K>, ...}
 *       -> linalg.elementwise kind=#linalg.elementwise_kind<K> {...}
 *          (scalar inputs get an explicit `-> ()` indexing map)
 *   linalg.[batch_]matmul_transpose_a/b -> linalg.[batch_]matmul
 *       with the transposing indexing_maps
 *   bufferization.to_memref %t : memref<S x E, ..>
 *       -> bufferization.to_buffer %t : tensor<S x E> to memref<..>
 *   vector.extractelement %v[%i : index] : vector<NxE>
 *       -> vector.extract %v[%i] : E from vector<NxE>
 *   vector.insertelement %s, %v[%i : index] : vector<NxE>
 *       -> vector.insert %s, %v[%i] : E into vector<NxE>
 *   vector.splat %s : vector<NxE> -> vector.broadcast %s : E to vector<NxE>
 *
 * Both directions work on one statement's tokens and produce the text of
 * the span they replace; the callers (ToMLIR.c, FromMLIR.c) splice it in.
 * On printing, maps MLIR printed as aliases (#map1) are resolved through
 * the alias definitions at the top of the printout. */
#include "SyntaxInternal.h"
#include "npuc/Alloc.h"
#include "npuc/StringBuilder.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The elementwise kinds of MLIR 22 that old linalg spelled as unary_fn or
 * binary_fn with the same names. */
static const char *const unary_kinds[] = {
    "exp",   "log",  "abs",   "ceil",   "floor", "negf", "reciprocal",
    "round", "sqrt", "rsqrt", "square", "tanh",  "erf"};
static const char *const binary_kinds[] = {
    "add",        "sub",        "mul",          "div",          "div_unsigned",
    "max_signed", "min_signed", "max_unsigned", "min_unsigned", "powf"};

typedef enum {
  OLD_ELEMWISE_UNARY,
  OLD_ELEMWISE_BINARY,
  OLD_MATMUL_TA,
  OLD_MATMUL_TB,
  OLD_BATCH_MATMUL_TA,
  OLD_BATCH_MATMUL_TB,
  OLD_TO_MEMREF,
  OLD_EXTRACTELEMENT,
  OLD_INSERTELEMENT,
  OLD_SPLAT,
  OLD_NONE
} old_op;

static const char *const old_names[] = {"linalg.elemwise_unary",
                                        "linalg.elemwise_binary",
                                        "linalg.matmul_transpose_a",
                                        "linalg.matmul_transpose_b",
                                        "linalg.batch_matmul_transpose_a",
                                        "linalg.batch_matmul_transpose_b",
                                        "bufferization.to_memref",
                                        "vector.extractelement",
                                        "vector.insertelement",
                                        "vector.splat"};

/* The indexing maps of the matmul variants, as MLIR 22 prints them. */
static const char *const matmul_maps[][3] = {
    [OLD_MATMUL_TA] = {"affine_map<(d0, d1, d2) -> (d2, d0)>",
                       "affine_map<(d0, d1, d2) -> (d2, d1)>",
                       "affine_map<(d0, d1, d2) -> (d0, d1)>"},
    [OLD_MATMUL_TB] = {"affine_map<(d0, d1, d2) -> (d0, d2)>",
                       "affine_map<(d0, d1, d2) -> (d1, d2)>",
                       "affine_map<(d0, d1, d2) -> (d0, d1)>"},
    [OLD_BATCH_MATMUL_TA] = {"affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>",
                             "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>",
                             "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"},
    [OLD_BATCH_MATMUL_TB] = {"affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
                             "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>",
                             "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"},
};

static old_op old_op_of(const char *name, size_t n);
static bool modernise_elemwise(npuc_lexer *lx, old_op op, npuc_sb *out,
                               bool *unbuildable_op);
static bool modernise_to_memref(npuc_lexer *lx, npuc_sb *out);
static bool modernise_vector(npuc_lexer *lx, old_op op, npuc_sb *out);
static bool restore_elemwise(npuc_lexer *lx, npuc_legacy_aliases *al,
                             npuc_sb *out);
static bool restore_matmul(npuc_lexer *lx, npuc_legacy_aliases *al, bool batch,
                           npuc_sb *out);
static bool restore_to_buffer(npuc_lexer *lx, npuc_sb *out);
static bool restore_vector(npuc_lexer *lx, const char *name, npuc_sb *out);

/* ---- which names -----------------------------------------------------------
 */

bool npuc_legacy_op_name(const char *name, size_t n) {
  return old_op_of(name, n) != OLD_NONE;
}

static old_op old_op_of(const char *name, size_t n) {
  if (n < 12 || (name[0] != 'l' && name[0] != 'b' && name[0] != 'v'))
    return OLD_NONE;
  for (int i = 0; i < OLD_NONE; ++i)
    if (strlen(old_names[i]) == n && memcmp(old_names[i], name, n) == 0)
      return (old_op)i;
  return OLD_NONE;
}

bool npuc_legacy_printed_name(const char *name, size_t n) {
  static const char *const modern[] = {
      "linalg.elementwise",      "linalg.matmul",  "linalg.batch_matmul",
      "bufferization.to_buffer", "vector.extract", "vector.insert",
      "vector.broadcast"};
  for (size_t i = 0; i < sizeof modern / sizeof *modern; ++i)
    if (strlen(modern[i]) == n && memcmp(modern[i], name, n) == 0)
      return true;
  return false;
}

/* ---- reading: old -> MLIR 22 ----------------------------------------------
 */

bool npuc_legacy_modernise(npuc_token name, npuc_lexer *lx, npuc_sb *out,
                           npuc_source_form *form) {
  old_op op = old_op_of(name.start, name.len);
  npuc_lexer look = *lx;
  bool ok = false, unbuildable_op = false;
  switch (op) {
  case OLD_ELEMWISE_UNARY:
  case OLD_ELEMWISE_BINARY:
    ok = modernise_elemwise(&look, op, out, &unbuildable_op);
    form->legacy_elemwise |= ok;
    break;
  case OLD_MATMUL_TA:
  case OLD_MATMUL_TB:
  case OLD_BATCH_MATMUL_TA:
  case OLD_BATCH_MATMUL_TB:
    npuc_sb_printf(out, "%s indexing_maps = [%s, %s, %s]",
                   op >= OLD_BATCH_MATMUL_TA ? "linalg.batch_matmul"
                                             : "linalg.matmul",
                   matmul_maps[op][0], matmul_maps[op][1], matmul_maps[op][2]);
    form->legacy_matmul_transpose = ok = true;
    break;
  case OLD_TO_MEMREF:
    ok = modernise_to_memref(&look, out);
    form->legacy_to_memref |= ok;
    break;
  case OLD_EXTRACTELEMENT:
  case OLD_INSERTELEMENT:
  case OLD_SPLAT:
    ok = modernise_vector(&look, op, out);
    form->legacy_vector |= ok;
    break;
  case OLD_NONE: break;
  }
  if (ok) {
    *lx = look;
    return true;
  }
  /* Say what the op became in MLIR 22 and what was expected of it. */
  static const char *const expected[] = {
      [OLD_ELEMWISE_UNARY] = "linalg.elementwise; expected `{fun = "
                             "#linalg.unary_fn<K>}` (K an elementwise kind) "
                             "and ins(one value) outs(..)",
      [OLD_ELEMWISE_BINARY] = "linalg.elementwise; expected `{fun = "
                              "#linalg.binary_fn<K>}` (K an elementwise kind) "
                              "and ins(two values) outs(..)",
      [OLD_TO_MEMREF] = "bufferization.to_buffer; expected `%t : memref<..>`",
      [OLD_EXTRACTELEMENT] = "vector.extract; expected `%v[%i : index] : "
                             "vector<..>`",
      [OLD_INSERTELEMENT] = "vector.insert; expected `%s, %v[%i : index] : "
                            "vector<..>`",
      [OLD_SPLAT] = "vector.broadcast; expected `%s : vector<..>`"};
  if (unbuildable_op) {
    /* modernise_elemwise read the op and left why MLIR 22 cannot build it */
    char *why = npuc_sb_take(out);
    npuc_sb_printf(out,
                   "'%s' is an op of older MLIR that MLIR 22 replaced by "
                   "linalg.elementwise, whose %s",
                   old_names[op], why);
    free(why);
    return false;
  }
  out->len = 0;
  if (op < OLD_NONE && expected[op])
    npuc_sb_printf(out,
                   "'%s' is an op of older MLIR that MLIR 22 replaced by %s",
                   old_names[op], expected[op]);
  return false;
}

/* Rank of a shaped type's text (`tensor<4x?xf32>` -> 2), -1 for a type that
 * is not a tensor, memref or vector. */
static int shaped_rank(const char *s, const char *e) {
  const char *lt = memchr(s, '<', (size_t)(e - s));
  const char *kw_end = lt;
  while (kw_end && kw_end > s && (kw_end[-1] == ' ' || kw_end[-1] == '\t'))
    --kw_end; /* `tensor <4xf32>` is a tensor too */
  if (!lt || !((kw_end - s == 6 &&
                (memcmp(s, "tensor", 6) == 0 || memcmp(s, "memref", 6) == 0 ||
                 memcmp(s, "vector", 6) == 0))))
    return -1;
  int rank = 0;
  const char *p = lt + 1;
  for (;;) {
    const char *q = p;
    while (q < e && ((*q >= '0' && *q <= '9') || *q == '?'))
      ++q;
    if (q == p || q >= e || *q != 'x')
      return rank;
    ++rank;
    p = q + 1;
  }
}

static void put_map(npuc_sb *out, int rank, bool scalar) {
  npuc_sb_append(out, "affine_map<(", 12);
  for (int d = 0; d < rank; ++d)
    npuc_sb_printf(out, d ? ", d%d" : "d%d", d);
  npuc_sb_append(out, ") -> (", 6);
  for (int d = 0; !scalar && d < rank; ++d)
    npuc_sb_printf(out, d ? ", d%d" : "d%d", d);
  npuc_sb_append(out, ")>", 2);
}

/* A type, also when written `tensor <4xf32>` (which MLIR reads). */
static bool skip_type_spaced(npuc_lexer *lx, const char **ts, const char **te) {
  if (!npuc_skip_type(lx, ts, te))
    return false;
  if (!memchr(*ts, '<', (size_t)(*te - *ts)) &&
      npuc_tok_punct(npuc_peek(lx), '<')) {
    npuc_lex(lx);
    npuc_token close = npuc_skip_balanced(lx, '<');
    if (!npuc_tok_punct(close, '>'))
      return false;
    *te = close.start + 1;
  }
  return true;
}

/* `ins(%a, %b : T, U) outs(%c : V)`: whether each input is a scalar (at
 * most 8 inputs), the output's rank, and whether any element type (inputs
 * and output) is a float or an integer. Does not move lx. */
typedef struct {
  int num_inputs;
  bool scalar[8];
  int out_rank;
  bool any_float, any_int;
} structured_types;

/* The element type of a shaped type (after its last `x`) or the type. */
static void note_element(structured_types *t, const char *s, const char *e) {
  if (shaped_rank(s, e) >= 0) {
    /* The element type ends at the first top-level ',' (a memref's layout
     * or memory space follows: `memref<6xf32, strided<[1]>>`) or '>'. */
    const char *end = memchr(s, '<', (size_t)(e - s)) + 1;
    for (int depth = 0; end < e - 1 && (depth > 0 || *end != ','); ++end)
      depth += (*end == '<' || *end == '(' || *end == '[') -
               (*end == '>' || *end == ')' || *end == ']');
    const char *p = end;
    while (p > s && p[-1] != 'x' && p[-1] != '<')
      --p;
    s = p;
  }
  size_t n = (size_t)(e - s);
  if (n >= 2 && (*s == 'f' || (n >= 4 && memcmp(s, "bf16", 4) == 0) ||
                 (n >= 4 && memcmp(s, "tf32", 4) == 0)))
    t->any_float = true;
  else if (n >= 2 && (*s == 'i' || *s == 's' || *s == 'u'))
    t->any_int = true; /* iN, siN, uiN, index */
}

static bool read_structured_types(const npuc_lexer *lx, structured_types *t) {
  npuc_lexer l = *lx;
  memset(t, 0, sizeof *t);
  if (!npuc_tok_keyword(npuc_lex(&l), "ins") ||
      !npuc_tok_punct(npuc_lex(&l), '('))
    return false;
  for (npuc_token k = npuc_lex(&l); !npuc_tok_punct(k, ':'); k = npuc_lex(&l))
    if (k.kind != NPUC_TOK_PERCENT_ID && !npuc_tok_punct(k, ','))
      return false;
  for (;;) {
    const char *ts, *te;
    if (t->num_inputs == 8 || !skip_type_spaced(&l, &ts, &te))
      return false;
    t->scalar[t->num_inputs++] = shaped_rank(ts, te) < 0;
    note_element(t, ts, te);
    npuc_token k = npuc_lex(&l);
    if (npuc_tok_punct(k, ')'))
      break;
    if (!npuc_tok_punct(k, ','))
      return false;
  }
  if (!npuc_tok_keyword(npuc_lex(&l), "outs") ||
      !npuc_tok_punct(npuc_lex(&l), '(') ||
      npuc_lex(&l).kind != NPUC_TOK_PERCENT_ID ||
      !npuc_tok_punct(npuc_lex(&l), ':'))
    return false;
  const char *ts, *te;
  if (!skip_type_spaced(&l, &ts, &te))
    return false;
  t->out_rank = shaped_rank(ts, te);
  note_element(t, ts, te);
  return t->out_rank >= 0;
}

/* Why MLIR 22 cannot build linalg.elementwise of kind K on these element
 * types, or NULL. Its region builder has no error path there and crashes
 * (mlir-opt 22 too): the math kinds (exp ... erf) want floats, the
 * unsigned ones integers. Older linalg took the unsigned kinds on floats
 * as the float op. */
static const char *unbuildable(const char *k, size_t n, bool unary,
                               const structured_types *t) {
  if (unary && t->any_int)
    return "takes floating-point elements in MLIR 22 (its linalg builds "
           "no region for integers and crashes)";
  bool is_unsigned = n > 9 && memcmp(k + n - 9, "_unsigned", 9) == 0;
  if (!unary && is_unsigned && t->any_float)
    return "takes integer elements in MLIR 22 (its linalg builds no region "
           "for floats and crashes; older linalg computed the float op: "
           "write the signed kind, which is the same on floats)";
  return NULL;
}

static bool known_kind(const char *k, size_t n, bool unary) {
  const char *const *list = unary ? unary_kinds : binary_kinds;
  size_t len = unary ? sizeof unary_kinds / sizeof *unary_kinds
                     : sizeof binary_kinds / sizeof *binary_kinds;
  for (size_t i = 0; i < len; ++i)
    if (strlen(list[i]) == n && memcmp(list[i], k, n) == 0)
      return true;
  return false;
}

/* The K of `#prefix<K>` in [s, e); false if the text is not that. */
static bool enum_case(const char *s, const char *e, const char *prefix,
                      const char **k, size_t *n) {
  size_t pl = strlen(prefix);
  if ((size_t)(e - s) < pl + 3 || memcmp(s, prefix, pl) != 0 || s[pl] != '<' ||
      e[-1] != '>')
    return false;
  *k = s + pl + 1;
  *n = (size_t)(e - 1 - *k);
  return *n > 0;
}

/* Reads an attribute dictionary whose '{' is next, appending every entry
 * but `skip` to `rest` (", "-separated) and returning skip's value span. */
static bool read_dict(npuc_lexer *lx, const char *skip, npuc_sb *rest,
                      const char **vs, const char **ve) {
  npuc_lex(lx); /* '{' */
  bool first = true;
  if (npuc_tok_punct(npuc_peek(lx), '}')) {
    npuc_lex(lx);
    return true;
  }
  for (;;) {
    npuc_token n = npuc_lex(lx);
    if (n.kind != NPUC_TOK_BARE_ID && n.kind != NPUC_TOK_STRING)
      return false;
    const char *es = n.start, *ee = n.start + n.len, *s = NULL, *e = NULL;
    if (npuc_tok_punct(npuc_peek(lx), '=')) {
      npuc_lex(lx);
      if (!npuc_skip_attr_value(lx, &s, &e, false))
        return false;
      ee = e;
    }
    if (s && strlen(skip) == n.len && memcmp(skip, n.start, n.len) == 0) {
      *vs = s;
      *ve = e;
    } else {
      if (!first)
        npuc_sb_append(rest, ", ", 2);
      npuc_sb_append(rest, es, (size_t)(ee - es));
      first = false;
    }
    npuc_token k = npuc_lex(lx);
    if (npuc_tok_punct(k, '}'))
      return true;
    if (!npuc_tok_punct(k, ','))
      return false;
  }
}

/* False with *unbuildable_op and the reason in `out` when the op is read
 * but MLIR 22 cannot build it (unbuildable). */
static bool modernise_elemwise(npuc_lexer *lx, old_op op, npuc_sb *out,
                               bool *unbuildable_op) {
  bool unary = op == OLD_ELEMWISE_UNARY;
  npuc_sb rest = {0};
  const char *fs = NULL, *fe = NULL;
  bool ok = true;
  if (npuc_tok_punct(npuc_peek(lx), '{'))
    ok = read_dict(lx, "fun", &rest, &fs, &fe);
  const char *k = unary ? "exp" : "add"; /* the old defaults */
  size_t kn = strlen(k);
  if (ok && fs)
    ok = enum_case(fs, fe, unary ? "#linalg.unary_fn" : "#linalg.binary_fn", &k,
                   &kn);
  structured_types t;
  ok = ok && known_kind(k, kn, unary) && read_structured_types(lx, &t) &&
       t.num_inputs == (unary ? 1 : 2);
  const char *why = ok ? unbuildable(k, kn, unary, &t) : NULL;
  if (why) {
    npuc_sb_printf(out, "kind %.*s %s", (int)kn, k, why);
    *unbuildable_op = true;
    ok = false;
  } else if (ok) {
    npuc_sb_printf(out,
                   "linalg.elementwise kind=#linalg.elementwise_kind<%.*s>",
                   (int)kn, k);
    bool any_scalar = false;
    for (int i = 0; i < t.num_inputs; ++i)
      any_scalar |= t.scalar[i];
    if (any_scalar) {
      npuc_sb_append(out, " indexing_maps = [", 18);
      for (int i = 0; i < t.num_inputs; ++i) {
        put_map(out, t.out_rank, t.scalar[i]);
        npuc_sb_append(out, ", ", 2);
      }
      put_map(out, t.out_rank, false);
      npuc_sb_append(out, "]", 1);
    }
    if (rest.len)
      npuc_sb_printf(out, " {%s}", rest.data);
  }
  npuc_sb_free(&rest);
  return ok;
}

bool npuc_legacy_check_elementwise(npuc_lexer *lx, npuc_sb *why) {
  npuc_lexer l = *lx;
  const char *k;
  size_t kn;
  if (!npuc_tok_keyword(npuc_lex(&l), "kind") ||
      !npuc_tok_punct(npuc_lex(&l), '='))
    return true;               /* not the form we know: MLIR's to read */
  npuc_token h = npuc_lex(&l); /* `#linalg.elementwise_kind` `<` K `>` */
  if (h.kind != NPUC_TOK_HASH_ID || !npuc_tok_punct(npuc_lex(&l), '<'))
    return true;
  npuc_token close = npuc_skip_balanced(&l, '<');
  if (!npuc_tok_punct(close, '>') ||
      !enum_case(h.start, close.start + 1, "#linalg.elementwise_kind", &k, &kn))
    return true;
  if (npuc_tok_keyword(npuc_peek(&l), "indexing_maps")) {
    npuc_lex(&l);
    if (!npuc_tok_punct(npuc_lex(&l), '=') ||
        !npuc_tok_punct(npuc_lex(&l), '[') ||
        !npuc_tok_punct(npuc_skip_balanced(&l, '['), ']'))
      return true;
  }
  structured_types t;
  if (!read_structured_types(&l, &t) || t.num_inputs > 2)
    return true;
  const char *msg = unbuildable(k, kn, t.num_inputs == 1, &t);
  if (msg)
    npuc_sb_printf(why, "linalg.elementwise kind %.*s %s", (int)kn, k, msg);
  return msg == NULL;
}

/* bufferization.to_memref %t [read_only] [{..}] : memref<SHAPExE, ..> */
static bool modernise_to_memref(npuc_lexer *lx, npuc_sb *out) {
  const char *from = lx->cur;
  if (npuc_lex(lx).kind != NPUC_TOK_PERCENT_ID)
    return false;
  if (npuc_tok_keyword(npuc_peek(lx), "read_only"))
    npuc_lex(lx);
  if (npuc_tok_punct(npuc_peek(lx), '{')) {
    npuc_lex(lx);
    if (!npuc_tok_punct(npuc_skip_balanced(lx, '{'), '}'))
      return false;
  }
  npuc_token colon = npuc_lex(lx);
  const char *ts, *te;
  if (!npuc_tok_punct(colon, ':') || !npuc_skip_type(lx, &ts, &te) ||
      shaped_rank(ts, te) < 0 || memcmp(ts, "memref", 6) != 0)
    return false;
  /* memref<SHAPExELT, layout, space> -> tensor<SHAPExELT> */
  npuc_lexer inner;
  npuc_lexer_init(&inner, ts + 7, (size_t)(te - ts) - 7, 1);
  const char *ss, *se;
  if (!npuc_skip_attr_value(&inner, &ss, &se, false))
    return false;
  npuc_sb_printf(out, "bufferization.to_buffer%.*s: tensor<%.*s> to ",
                 (int)(colon.start - from), from, (int)(se - ss), ss);
  /* The memref type itself is left to the caller's copy (it may hold a
   * memory space of ours to rewrite): rewind to it. */
  lx->cur = ts;
  lx->peeked = false;
  return true;
}

/* The element type of `vector<..xE>` in [s, e). */
static bool vector_element(const char *s, const char *e, const char **es,
                           const char **ee) {
  if (e - s < 9 || memcmp(s, "vector<", 7) != 0 || e[-1] != '>')
    return false;
  const char *p = e - 1;
  while (p > s + 7 && p[-1] != 'x' && p[-1] != '<')
    --p;
  *es = p;
  *ee = e - 1;
  return true;
}

/* extractelement %v[%i : index] : vector<..>, insertelement %s, %v[..] :
 * vector<..>, splat %s : vector<..> */
static bool modernise_vector(npuc_lexer *lx, old_op op, npuc_sb *out) {
  npuc_token src = npuc_lex(lx), vec = src;
  if (src.kind != NPUC_TOK_PERCENT_ID)
    return false;
  if (op == OLD_INSERTELEMENT &&
      (!npuc_tok_punct(npuc_lex(lx), ',') ||
       (vec = npuc_lex(lx)).kind != NPUC_TOK_PERCENT_ID))
    return false;
  npuc_token idx = {0};
  if (op != OLD_SPLAT) {
    if (!npuc_tok_punct(npuc_lex(lx), '['))
      return false;
    npuc_token k = npuc_lex(lx);
    if (k.kind == NPUC_TOK_PERCENT_ID) {
      idx = k;
      if (!npuc_tok_punct(npuc_lex(lx), ':') ||
          npuc_lex(lx).kind != NPUC_TOK_BARE_ID)
        return false;
      k = npuc_lex(lx);
    }
    if (!npuc_tok_punct(k, ']'))
      return false;
  }
  if (!npuc_tok_punct(npuc_lex(lx), ':'))
    return false;
  const char *ts, *te, *es, *ee;
  if (!npuc_skip_type(lx, &ts, &te) || !vector_element(ts, te, &es, &ee))
    return false;
  int vt = (int)(te - ts), et = (int)(ee - es);
  int il = idx.kind ? (int)idx.len : 0;
  if (op == OLD_SPLAT)
    npuc_sb_printf(out, "vector.broadcast %.*s : %.*s to %.*s", (int)src.len,
                   src.start, et, es, vt, ts);
  else if (op == OLD_EXTRACTELEMENT)
    npuc_sb_printf(out, "vector.extract %.*s[%.*s] : %.*s from %.*s",
                   (int)src.len, src.start, il, idx.start, et, es, vt, ts);
  else
    npuc_sb_printf(out, "vector.insert %.*s, %.*s[%.*s] : %.*s into %.*s",
                   (int)src.len, src.start, (int)vec.len, vec.start, il,
                   idx.start, et, es, vt, ts);
  return true;
}

/* ---- printing: MLIR 22 -> old ----------------------------------------------
 */

struct npuc_legacy_aliases {
  const char *text, *end;
  bool scanned;
  struct alias {
    const char *name, *value;
    size_t name_len, value_len;
  } * items;
  size_t len, cap;
  bool dropped_some; /* a restored op no longer names an alias it used */
};

npuc_legacy_aliases *npuc_legacy_aliases_new(const char *text, size_t len) {
  npuc_legacy_aliases *al = npuc_xcalloc(1, sizeof *al);
  al->text = text;
  al->end = text + len;
  return al;
}

void npuc_legacy_aliases_free(npuc_legacy_aliases *al) {
  if (al)
    free(al->items);
  free(al);
}

bool npuc_legacy_aliases_dropped(const npuc_legacy_aliases *al) {
  return al && al->dropped_some;
}

/* MLIR prints `#name = value` lines before the module. */
static void scan_aliases(npuc_legacy_aliases *al) {
  al->scanned = true;
  for (const char *p = al->text; p < al->end && *p == '#';) {
    const char *nl = memchr(p, '\n', (size_t)(al->end - p));
    const char *le = nl ? nl : al->end;
    const char *eq = memchr(p, '=', (size_t)(le - p));
    if (eq && eq > p + 1 && eq[-1] == ' ' && eq + 2 <= le) {
      if (al->len == al->cap)
        al->items = npuc_xreallocarray(al->items, al->cap = al->cap * 2 + 8,
                                       sizeof *al->items);
      al->items[al->len++] = (struct alias){p, eq + 2, (size_t)(eq - 1 - p),
                                            (size_t)(le - eq - 2)};
    }
    p = nl ? nl + 1 : al->end;
  }
}

/* The text of a map written as an alias or inline. */
static bool resolve_map(npuc_legacy_aliases *al, const char *s, const char *e,
                        const char **vs, size_t *vn) {
  if (*s != '#') {
    *vs = s;
    *vn = (size_t)(e - s);
    return true;
  }
  if (!al->scanned)
    scan_aliases(al);
  for (size_t i = 0; i < al->len; ++i)
    if (al->items[i].name_len == (size_t)(e - s) &&
        memcmp(al->items[i].name, s, (size_t)(e - s)) == 0) {
      *vs = al->items[i].value;
      *vn = al->items[i].value_len;
      return true;
    }
  return false;
}

/* Reads `indexing_maps = [m, ...]` (the keyword next) into up to 8 spans. */
static int read_maps(npuc_lexer *lx, npuc_legacy_aliases *al, const char **ms,
                     size_t *mn) {
  npuc_lex(lx);
  if (!npuc_tok_punct(npuc_lex(lx), '=') || !npuc_tok_punct(npuc_lex(lx), '['))
    return -1;
  int n = 0;
  for (;;) {
    const char *s, *e;
    if (n == 8 || !npuc_skip_attr_value(lx, &s, &e, false) ||
        !resolve_map(al, s, e, &ms[n], &mn[n]))
      return -1;
    if (*s == '#')
      al->dropped_some = true;
    ++n;
    npuc_token k = npuc_lex(lx);
    if (npuc_tok_punct(k, ']'))
      return n;
    if (!npuc_tok_punct(k, ','))
      return -1;
  }
}

static bool map_is(const char *s, size_t n, int rank, bool scalar) {
  npuc_sb want = {0};
  put_map(&want, rank, scalar);
  bool same = want.len == n && memcmp(want.data, s, n) == 0;
  npuc_sb_free(&want);
  return same;
}

bool npuc_legacy_restore(npuc_token name, npuc_lexer *lx,
                         const npuc_source_form *form, npuc_legacy_aliases *al,
                         npuc_sb *out) {
  npuc_lexer look = *lx;
  bool ok = false;
  if (npuc_tok_keyword(name, "linalg.elementwise"))
    ok = form->legacy_elemwise && restore_elemwise(&look, al, out);
  else if (npuc_tok_keyword(name, "linalg.matmul") ||
           npuc_tok_keyword(name, "linalg.batch_matmul"))
    ok = form->legacy_matmul_transpose &&
         restore_matmul(&look, al, name.len > 13, out);
  else if (npuc_tok_keyword(name, "bufferization.to_buffer"))
    ok = form->legacy_to_memref && restore_to_buffer(&look, out);
  else if (form->legacy_vector)
    ok = restore_vector(&look, name.start, out);
  if (ok)
    *lx = look;
  else
    out->len = 0;
  return ok;
}

/* kind=#linalg.elementwise_kind<K> [indexing_maps = [..]] [{..}] ins(..) */
static bool restore_elemwise(npuc_lexer *lx, npuc_legacy_aliases *al,
                             npuc_sb *out) {
  if (!npuc_tok_keyword(npuc_lex(lx), "kind") ||
      !npuc_tok_punct(npuc_lex(lx), '=') ||
      !npuc_tok_is(npuc_lex(lx), NPUC_TOK_HASH_ID,
                   "#linalg.elementwise_kind") ||
      !npuc_tok_punct(npuc_lex(lx), '<'))
    return false;
  npuc_token kt = npuc_lex(lx);
  const char *k = kt.start;
  size_t kn = kt.len;
  if (kt.kind != NPUC_TOK_BARE_ID || !npuc_tok_punct(npuc_lex(lx), '>'))
    return false;
  bool unary = known_kind(k, kn, true);
  if (!unary && !known_kind(k, kn, false))
    return false;
  const char *ms[8];
  size_t mn[8];
  int nmaps = 0;
  if (npuc_tok_keyword(npuc_peek(lx), "indexing_maps") &&
      (nmaps = read_maps(lx, al, ms, mn)) < 0)
    return false;
  npuc_sb rest = {0};
  const char *unused_s = NULL, *unused_e = NULL;
  bool ok = !npuc_tok_punct(npuc_peek(lx), '{') ||
            read_dict(lx, "", &rest, &unused_s, &unused_e);
  /* Only maps the old op implied: identity, and `-> ()` for scalars. */
  structured_types t;
  ok = ok && read_structured_types(lx, &t) &&
       (nmaps == 0 || nmaps == t.num_inputs + 1);
  for (int i = 0; ok && i < nmaps; ++i)
    ok = map_is(ms[i], mn[i], t.out_rank, i < t.num_inputs && t.scalar[i]);
  if (ok) {
    /* The dictionary printed sorted, with `fun` in its place. */
    const char *fn = unary ? "unary" : "binary";
    npuc_sb_printf(out, "linalg.elemwise_%s {", fn);
    npuc_lexer rl;
    npuc_lexer_init(&rl, rest.data ? rest.data : "", rest.len, 1);
    bool placed = false, first = true;
    const char *p = rest.data;
    while (p && p < rest.data + rest.len) {
      npuc_token n = npuc_lex(&rl);
      const char *s, *e = n.start + n.len;
      if (npuc_tok_punct(npuc_peek(&rl), '=')) {
        npuc_lex(&rl);
        npuc_skip_attr_value(&rl, &s, &e, false);
      }
      size_t cmp_n = n.len < 3 ? n.len : 3;
      if (!placed && (memcmp(n.start, "fun", cmp_n) > 0 ||
                      (memcmp(n.start, "fun", cmp_n) == 0 && n.len > 3))) {
        npuc_sb_printf(out, "%sfun = #linalg.%s_fn<%.*s>", first ? "" : ", ",
                       fn, (int)kn, k);
        placed = true;
        first = false;
      }
      npuc_sb_printf(out, "%s%.*s", first ? "" : ", ", (int)(e - n.start),
                     n.start);
      first = false;
      npuc_lex(&rl); /* ',' or end */
      p = rl.cur;
    }
    if (!placed)
      npuc_sb_printf(out, "%sfun = #linalg.%s_fn<%.*s>", first ? "" : ", ", fn,
                     (int)kn, k);
    npuc_sb_append(out, "}", 1);
  }
  npuc_sb_free(&rest);
  /* The caller copies from `ins` on: rewind to it. */
  return ok;
}

/* indexing_maps = [A, B, C] of one of the transposed variants. */
static bool restore_matmul(npuc_lexer *lx, npuc_legacy_aliases *al, bool batch,
                           npuc_sb *out) {
  if (!npuc_tok_keyword(npuc_peek(lx), "indexing_maps"))
    return false;
  const char *ms[8];
  size_t mn[8];
  bool dropped = al->dropped_some;
  if (read_maps(lx, al, ms, mn) != 3) {
    al->dropped_some = dropped;
    return false;
  }
  for (int op = batch ? OLD_BATCH_MATMUL_TA : OLD_MATMUL_TA;
       op <= (batch ? OLD_BATCH_MATMUL_TB : OLD_MATMUL_TB); ++op) {
    bool same = true;
    for (int i = 0; i < 3 && same; ++i)
      same = strlen(matmul_maps[op][i]) == mn[i] &&
             memcmp(matmul_maps[op][i], ms[i], mn[i]) == 0;
    if (same) {
      npuc_sb_printf(out, "%s", old_names[op]);
      return true;
    }
  }
  al->dropped_some = dropped;
  return false;
}

/* %t [read_only] [{..}] : tensor<..> to memref<..> -> ... : memref<..> */
static bool restore_to_buffer(npuc_lexer *lx, npuc_sb *out) {
  const char *from = lx->cur;
  for (;;) {
    npuc_token t = npuc_lex(lx);
    if (t.kind == NPUC_TOK_EOF || t.line_start)
      return false;
    if (npuc_tok_punct(t, '{') &&
        !npuc_tok_punct(npuc_skip_balanced(lx, '{'), '}'))
      return false;
    if (npuc_tok_punct(t, ':')) {
      const char *ts, *te;
      if (!npuc_skip_type(lx, &ts, &te) ||
          !npuc_tok_keyword(npuc_lex(lx), "to"))
        return false;
      npuc_sb_printf(out, "bufferization.to_memref%.*s:", (int)(t.start - from),
                     from);
      return true; /* the caller copies the memref type */
    }
  }
}

/* vector.extract %v[%i] : E from vector<..> (one index or none),
 * vector.insert %s, %v[%i] : E into vector<..>, vector.broadcast %s : E to
 * vector<..>. */
static bool restore_vector(npuc_lexer *lx, const char *name, npuc_sb *out) {
  bool ext = strncmp(name, "vector.extract ", 15) == 0;
  bool ins = strncmp(name, "vector.insert ", 14) == 0;
  bool brc = strncmp(name, "vector.broadcast ", 17) == 0;
  if (!ext && !ins && !brc)
    return false;
  npuc_token src = npuc_lex(lx), vec = src, idx = {0};
  if (src.kind != NPUC_TOK_PERCENT_ID)
    return false;
  if (ins && (!npuc_tok_punct(npuc_lex(lx), ',') ||
              (vec = npuc_lex(lx)).kind != NPUC_TOK_PERCENT_ID))
    return false;
  if (!brc) {
    if (!npuc_tok_punct(npuc_lex(lx), '['))
      return false;
    npuc_token k = npuc_lex(lx);
    if (k.kind == NPUC_TOK_PERCENT_ID) {
      idx = k;
      k = npuc_lex(lx);
    }
    if (!npuc_tok_punct(k, ']'))
      return false;
  }
  const char *es, *ee, *ts, *te;
  if (!npuc_tok_punct(npuc_lex(lx), ':') || !npuc_skip_type(lx, &es, &ee) ||
      !npuc_tok_keyword(npuc_lex(lx), ext   ? "from"
                                      : ins ? "into"
                                            : "to") ||
      !npuc_skip_type(lx, &ts, &te))
    return false;
  const char *ves, *vee;
  /* Only scalar <-> vector of rank <= 1: what the old ops could express. */
  if (!vector_element(ts, te, &ves, &vee) || vee - ves != ee - es ||
      memcmp(ves, es, (size_t)(ee - es)) != 0 || shaped_rank(ts, te) > 1)
    return false;
  int vt = (int)(te - ts);
  char index[80] = "";
  if (idx.kind)
    snprintf(index, sizeof index, "%.*s : index", (int)idx.len, idx.start);
  if (brc)
    npuc_sb_printf(out, "vector.splat %.*s : %.*s", (int)src.len, src.start, vt,
                   ts);
  else if (ext)
    npuc_sb_printf(out, "vector.extractelement %.*s[%s] : %.*s", (int)src.len,
                   src.start, index, vt, ts);
  else
    npuc_sb_printf(out, "vector.insertelement %.*s, %.*s[%s] : %.*s",
                   (int)src.len, src.start, (int)vec.len, vec.start, index, vt,
                   ts);
  return true;
}

/* Restored ops no longer name the maps MLIR printed as aliases: drop the
 * `#name = ...` lines at the top that nothing names any more, so an old
 * file prints back without them. One scan of the text. */
size_t npuc_legacy_drop_unused_aliases(npuc_legacy_aliases *al, char *text,
                                       size_t len) {
  npuc_legacy_aliases now = {.text = text, .end = text + len};
  scan_aliases(&now);
  if (!now.len)
    return len;
  size_t *uses = npuc_xcalloc(now.len, sizeof *uses);
  for (const char *p = text, *end = text + len; p < end; ++p) {
    if (*p != '#')
      continue;
    const char *q = p + 1;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' ||
                       *q == '$' || *q == '-'))
      ++q;
    for (size_t i = 0; i < now.len; ++i)
      if (now.items[i].name_len == (size_t)(q - p) &&
          memcmp(now.items[i].name, p, (size_t)(q - p)) == 0)
        ++uses[i];
    p = q - 1;
  }
  char *w = text;
  const char *r = text;
  for (size_t i = 0; i < now.len; ++i) {
    const char *line = now.items[i].name;
    const char *nl = memchr(line, '\n', (size_t)(text + len - line));
    const char *next = nl ? nl + 1 : text + len;
    memmove(w, r, (size_t)(line - r));
    w += line - r;
    if (uses[i] > 1) {
      memmove(w, line, (size_t)(next - line));
      w += next - line;
    }
    r = next;
  }
  memmove(w, r, (size_t)(text + len - r));
  w += text + len - r;
  *w = '\0';
  free(uses);
  free(now.items);
  (void)al;
  return (size_t)(w - text);
}
