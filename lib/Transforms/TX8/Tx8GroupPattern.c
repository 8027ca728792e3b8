/* tx8-group-pattern: the seed's GroupPatternPass. Op sequences from a
 * pattern set (the built-in set the module's tx8be.opt_group names, or a
 * YAML file) compiled into a trie (lib/TX8/PatternTrie.c); from every op
 * not yet grouped, in program order, a DFS through its users (an edge is
 * followed unless the producer does not store the value and the user
 * loads it: the seed's need_store/need_load rule) finds the longest match,
 * the highest priority among equal lengths; the match is shrunk from its
 * end until it is legal (no cycle through ops outside it, fits SPM at its
 * finest split) and, with two compute ops or more, becomes one tx8be.group
 * in exactly tx8-group-single's form (Tx8GroupBuild.c).
 *
 * Requires: the layout passes, tx8-move-constant (constants are left
 * alone here; tx8-group-single reports them). Leaves: multi-op groups,
 * topologically sorted inside and in the body, numbered; every other op
 * as it was, for tx8-group-single. docs/passes/tx8-group-pattern.md */
#include "Tx8Graph.h"
#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/PtrSet.h"
#include "npuc/Tx8Group.h"
#include "npuc/Tx8Ir.h"
#include "npuc/Tx8Layout.h"
#include "npuc/Tx8Pattern.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool group_pattern(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx);

#define PATTERN_OPTIONS(X, T)                                                  \
  X(T, const char *, patterns, "patterns", NPUC_OPT_STRING, "", NULL,          \
    "YAML pattern file used instead of the built-in set")                      \
  X(T, const char *, target_config, "target-config", NPUC_OPT_STRING, "",      \
    NULL, "TX8 target description (YAML) overriding the built-in one")         \
  X(T, int64_t, spm_bytes, "spm-bytes", NPUC_OPT_INT, "0", NULL,               \
    "SPM bytes per tile (0: the target description's)")
NPUC_PASS_OPTIONS(pattern_options, PATTERN_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_tx8_group_pattern, "tx8-group-pattern",
                 "Group the tx8be ops that match a fusion pattern into one "
                 "tx8be.group each",
                 "builtin.module", group_pattern,
                 NPUC_PASS_OPTIONS_OF(pattern_options));

/* Ops in one match at most: bounds the DFS depth (recursion) and a
 * group's size, so the group plan takes it (NPUC_TX8_MAX_GROUP_OPS compute
 * ops; half of it leaves room in NPUC_TX8_MAX_BUFFERS for each op's
 * result, an input load per op and the channel_norms and extracts); a
 * longer chain becomes several groups. */
#define MAX_MATCH (NPUC_TX8_MAX_GROUP_OPS / 2)

/* The best match from (trie node, op): its length in ops, the priority of
 * the pattern it ends, and the next (op, node) on it. */
typedef struct {
  int32_t len;
  int64_t priority;
  int32_t next_op, next_node;
} match;

typedef struct {
  const npuc_tx8_patterns *trie;
  int64_t spm;
  int32_t ne_k;       /* one NE instruction's K: the finest K slice */
  MlirOperation *ops; /* the body's ops, in order */
  size_t n;
  npuc_ptr_map index;    /* op -> its place in ops */
  int32_t *sym, *esym;   /* its name's symbol, ELEMENTWISE's (or -1) */
  bool *eligible;        /* a compute op a pattern may take */
  int32_t *into;         /* a channel_norm going into its reader's group:
                            that reader; else -1 */
  int32_t *group;        /* the match it is in, or -1 */
  size_t **succ, *nsucc; /* users a match may go on to, in order */
  size_t **uses, *nuses; /* every user in the body */
  size_t *members;       /* the matches' ops, match after match */
  size_t *first;         /* match g is members[first[g] .. first[g+1]) */
  size_t num_groups;
  npuc_ptr_map memo; /* (node, op) -> index in found */
  match *found;
  size_t num_found, cap_found;
  uint32_t *seen; /* stamps for the cycle search */
  size_t *order;  /* a member's place in the match (cycle search) */
  uint32_t stamp;
} matcher;

static bool load_patterns(MlirOperation module, const char *file,
                          npuc_tx8_patterns *t);
static void index_body(matcher *m, MlirBlock body);
static void match_body(matcher *m);
static void build_groups(matcher *m);
static void sort_body(MlirBlock body);
static void free_matcher(matcher *m);

static bool group_pattern(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  (void)ctx;
  const pattern_options *o = NPUC_PASS_OPTS(pattern_options, opts);
  npuc_tx8_target target;
  if (!npuc_tx8_pass_target(module, "tx8-group-pattern", o->target_config,
                            &target))
    return false;
  npuc_tx8_patterns *trie = npuc_tx8_patterns_new();
  bool ok = load_patterns(module, o->patterns, trie);
  tx8_op_list graphs;
  tx8_graph_ops(module, &graphs);
  for (size_t i = 0; ok && i < graphs.count; i++) {
    MlirBlock body = tx8_graph_body(graphs.ops[i]);
    matcher m;
    memset(&m, 0, sizeof m);
    m.trie = trie;
    m.spm = o->spm_bytes > 0 ? o->spm_bytes : target.spm_bytes;
    m.ne_k = target.ne_k;
    tx8_split_shared_norms(body);
    index_body(&m, body);
    match_body(&m);
    build_groups(&m);
    if (m.num_groups)
      sort_body(body);
    free_matcher(&m);
  }
  if (ok)
    tx8_number_groups(module);
  tx8_op_list_free(&graphs);
  npuc_tx8_patterns_free(trie);
  return ok;
}

/* ---- the pattern set -------------------------------------------------------
 */

/* A pattern file's diagnostics become errors at their place in the file. */
typedef struct {
  MlirOperation module;
} file_diag;

static void report_in_file(void *user, npuc_severity sev, const char *file,
                           int line, int col, const char *message) {
  MlirOperation module = ((file_diag *)user)->module;
  if (sev != NPUC_SEV_ERROR)
    return;
  if (line <= 0) {
    npuc_pass_error(module, "%s%s%s", file ? file : "", file ? ": " : "",
                    message);
    return;
  }
  MlirLocation loc = mlirLocationFileLineColGet(
      mlirOperationGetContext(module), mlirStringRefCreateFromCString(file),
      (unsigned)line, (unsigned)col);
  npuc_pass_error_at(loc, "%s", message);
}

/* The file's patterns, or the built-in set tx8be.opt_group names (1, the
 * default set, when absent). */
static bool load_patterns(MlirOperation module, const char *file,
                          npuc_tx8_patterns *t) {
  if (file && *file) {
    file_diag d = {module};
    npuc_diag_sink sink = {report_in_file, &d};
    /* Every problem was reported, located in the file. */
    return npuc_tx8_patterns_load_file(t, file, &sink);
  }
  MlirAttribute a = mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString("tx8be.opt_group"));
  int64_t set = 1;
  if (!mlirAttributeIsNull(a)) {
    set = mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
    if (set < 0 || set >= NPUC_TX8_PATTERN_SETS) {
      npuc_pass_error(module,
                      "tx8be.opt_group must be an integer in [0, %d]: 0 none, "
                      "1 default, 2 CNN, 3 transformer, 4 elementwise chains",
                      NPUC_TX8_PATTERN_SETS - 1);
      return false;
    }
  }
  if (!npuc_tx8_patterns_builtin(t, set))
    npuc_die("tx8-group-pattern: the built-in pattern set %lld does not parse",
             (long long)set);
  return true;
}

/* ---- the body's ops and edges
 * ------------------------------------------------ */

static bool lookup(const matcher *m, MlirOperation op, size_t *i) {
  uintptr_t v;
  if (mlirOperationIsNull(op) || !npuc_ptr_map_get(&m->index, op.ptr, &v))
    return false;
  *i = (size_t)v;
  return true;
}

static void symbols_of(matcher *m, size_t i) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(m->ops[i]));
  char name[NPUC_TX8_PATTERN_NAME_MAX + 8];
  m->sym[i] = npuc_tx8_patterns_symbol(m->trie, n.data, n.length);
  m->esym[i] = -1;
  if (n.length < sizeof name) {
    memcpy(name, n.data, n.length);
    name[n.length] = '\0';
    if (npuc_tx8_pattern_is_elementwise(name))
      m->esym[i] =
          npuc_tx8_patterns_symbol(m->trie, NPUC_TX8_PATTERN_ELEMENTWISE,
                                   strlen(NPUC_TX8_PATTERN_ELEMENTWISE));
  }
  /* A compute op; not a channel_norm: those go with the ops they
   * convert for. (An op that works in DDR, like reshape, is refused by the
   * need_store/need_load rule on the edges into it or out of it.) */
  MlirOperation op = m->ops[i];
  m->eligible[i] = (m->sym[i] >= 0 || m->esym[i] >= 0) &&
                   tx8_group_role(op) == TX8_ROLE_COMPUTE &&
                   !npuc_op_is(op, "tx8be.channel_norm");
}

static void push_index(size_t **list, size_t *count, size_t v) {
  if ((*count & (*count - 1)) == 0 || *count == 0) /* a power of two: grow */
    *list = npuc_xrealloc(*list, (*count ? 2 * *count : 1) * sizeof **list);
  (*list)[(*count)++] = v;
}

static int cmp_index(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorts and drops repeats (an op reading a value twice). */
static void sort_unique(size_t *list, size_t *count) {
  if (*count < 2)
    return; /* also: qsort wants a list, and an op with no user has none */
  qsort(list, *count, sizeof *list, cmp_index);
  size_t k = 0;
  for (size_t i = 0; i < *count; i++)
    if (k == 0 || list[k - 1] != list[i])
      list[k++] = list[i];
  *count = k;
}

static void edges_of(matcher *m, size_t i);

static void index_body(matcher *m, MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    m->n++;
  size_t n = m->n + 1;
  m->ops = npuc_xmalloc(n * sizeof *m->ops);
  m->sym = npuc_xmalloc(n * sizeof *m->sym);
  m->esym = npuc_xmalloc(n * sizeof *m->esym);
  m->eligible = npuc_xcalloc(n, sizeof *m->eligible);
  m->group = npuc_xmalloc(n * sizeof *m->group);
  m->into = npuc_xmalloc(n * sizeof *m->into);
  m->succ = npuc_xcalloc(n, sizeof *m->succ);
  m->nsucc = npuc_xcalloc(n, sizeof *m->nsucc);
  m->uses = npuc_xcalloc(n, sizeof *m->uses);
  m->nuses = npuc_xcalloc(n, sizeof *m->nuses);
  m->seen = npuc_xcalloc(n, sizeof *m->seen);
  m->order = npuc_xmalloc(n * sizeof *m->order);
  m->first = npuc_xmalloc(n * sizeof *m->first);
  m->members = npuc_xmalloc(n * sizeof *m->members);
  m->first[0] = 0;
  size_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op), i++) {
    m->ops[i] = op;
    m->group[i] = -1;
    if (!npuc_ptr_map_put(&m->index, op.ptr, i))
      npuc_die("out of memory");
  }
  for (i = 0; i < m->n; i++) {
    symbols_of(m, i);
    MlirOperation op = m->ops[i];
    for (int hops = 0; hops < 8 && tx8_norm_absorbed_before(op); hops++)
      op = tx8_sole_user(mlirOperationGetResult(op, 0));
    size_t to;
    m->into[i] = !mlirOperationEqual(op, m->ops[i]) && lookup(m, op, &to)
                     ? (int32_t)to
                     : -1;
  }
  for (i = 0; i < m->n; i++)
    edges_of(m, i);
}

/* The op a match goes on to through `use`: its owner, or past
 * channel_norms that convert the value for their one reader (they go in
 * that reader's group). False when the seed's rule refuses the edge: the
 * producer does not store result `r` and the reader loads it. */
static bool follow(const matcher *m, MlirOperation producer, intptr_t r,
                   MlirOpOperand use, size_t *to) {
  MlirOperation owner = mlirOpOperandGetOwner(use);
  intptr_t operand = (intptr_t)mlirOpOperandGetOperandNumber(use);
  if (!npuc_tx8_mask_bit(npuc_tx8_query_op(producer).need_store, r) &&
      npuc_tx8_mask_bit(npuc_tx8_query_op(owner).need_load, operand))
    return false;
  for (int hops = 0; hops < 8 && tx8_norm_absorbed_before(owner); hops++)
    owner = tx8_sole_user(mlirOperationGetResult(owner, 0));
  return lookup(m, owner, to) && m->eligible[*to];
}

static void edges_of(matcher *m, size_t i) {
  MlirOperation op = m->ops[i];
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      size_t to;
      if (lookup(m, mlirOpOperandGetOwner(u), &to))
        push_index(&m->uses[i], &m->nuses[i], to);
      if (m->eligible[i] && follow(m, op, r, u, &to))
        push_index(&m->succ[i], &m->nsucc[i], to);
    }
  sort_unique(m->succ[i], &m->nsucc[i]);
}

/* ---- matching
 * ------------------------------------------------------------------ */

/* Longer first, then the higher priority; the first found on a tie. */
static bool better(const match *a, const match *b) {
  return a->len > b->len || (a->len == b->len && a->priority > b->priority);
}

static const void *memo_key(const matcher *m, int32_t node, size_t op) {
  return (const void *)(uintptr_t)(op * npuc_tx8_patterns_nodes(m->trie) +
                                   (size_t)node + 1);
}

static int32_t best_from(matcher *m, int32_t node, size_t op, int depth);

/* The best match through `node` having taken op `op`: the pattern ending
 * at `node`, or one step further to a user. Memoised per (node, op), so a
 * DFS from one op costs the (node, op) pairs it reaches, however many
 * paths reach them. */
static match search(matcher *m, int32_t node, size_t op, int depth) {
  match r = {0, -1, -1, -1};
  int64_t p = npuc_tx8_patterns_priority(m->trie, node);
  if (p >= 0)
    r = (match){1, p, -1, -1};
  for (size_t k = 0; depth < MAX_MATCH && k < m->nsucc[op]; k++) {
    size_t u = m->succ[op][k];
    if (m->group[u] >= 0)
      continue;
    int32_t syms[2] = {m->sym[u], m->esym[u]};
    for (int s = 0; s < 2; s++) {
      int32_t next[4];
      size_t count =
          syms[s] < 0 ? 0
                      : npuc_tx8_patterns_step(m->trie, node, syms[s], next, 4);
      for (size_t c = 0; c < count; c++) {
        int32_t at = best_from(m, next[c], u, depth + 1); /* may move found */
        match sub = m->found[at];
        match cand = {sub.len + 1, sub.priority, (int32_t)u, next[c]};
        if (sub.len > 0 && better(&cand, &r))
          r = cand;
      }
    }
  }
  return r;
}

static int32_t best_from(matcher *m, int32_t node, size_t op, int depth) {
  uintptr_t at;
  if (npuc_ptr_map_get(&m->memo, memo_key(m, node, op), &at))
    return (int32_t)at;
  match r = search(m, node, op, depth);
  if (m->num_found == m->cap_found) {
    m->cap_found = m->cap_found ? 2 * m->cap_found : 64;
    m->found = npuc_xrealloc(m->found, m->cap_found * sizeof *m->found);
  }
  m->found[m->num_found] = r;
  if (!npuc_ptr_map_put(&m->memo, memo_key(m, node, op), m->num_found))
    npuc_die("out of memory");
  return (int32_t)m->num_found++;
}

/* The best match starting at op `start`, its ops in *path (match order);
 * returns its length (0: none). */
static size_t match_at(matcher *m, size_t start, size_t *path) {
  npuc_ptr_map_free(&m->memo);
  m->num_found = 0;
  match best = {0, -1, -1, -1};
  int32_t syms[2] = {m->sym[start], m->esym[start]};
  for (int s = 0; s < 2; s++) {
    int32_t next[4];
    size_t count = syms[s] < 0
                       ? 0
                       : npuc_tx8_patterns_step(m->trie, NPUC_TX8_PATTERN_ROOT,
                                                syms[s], next, 4);
    for (size_t c = 0; c < count; c++) {
      int32_t at = best_from(m, next[c], start, 1);
      match r = m->found[at];
      match cand = {r.len, r.priority, (int32_t)start, next[c]};
      if (r.len > 0 && better(&cand, &best))
        best = cand;
    }
  }
  size_t len = 0;
  for (match at = best; len < (size_t)best.len && at.next_op >= 0; len++) {
    path[len] = (size_t)at.next_op;
    uintptr_t k;
    if (!npuc_ptr_map_get(&m->memo,
                          memo_key(m, at.next_node, (size_t)at.next_op), &k))
      break;
    at = m->found[k];
  }
  return len;
}

static size_t fitting_prefix(const matcher *m, const size_t *path, size_t len);
static size_t acyclic_prefix(matcher *m, const size_t *path, size_t len);
static size_t one_shape_prefix(matcher *m, const size_t *path, size_t len);

/* From every op not yet taken, in program order: its best match, shrunk
 * from the end until legal, becomes a group when two ops or more remain. */
static void match_body(matcher *m) {
  size_t *path = npuc_xmalloc((MAX_MATCH + 1) * sizeof *path);
  for (size_t i = 0; i < m->n; i++) {
    if (!m->eligible[i] || m->group[i] >= 0)
      continue;
    size_t len = acyclic_prefix(m, path, match_at(m, i, path));
    len = fitting_prefix(m, path, len);
    len = one_shape_prefix(m, path, len);
    if (len < 2)
      continue;
    size_t at = m->first[m->num_groups];
    for (size_t k = 0; k < len; k++) {
      m->members[at + k] = path[k];
      m->group[path[k]] = (int32_t)m->num_groups;
    }
    m->first[++m->num_groups] = at + len;
  }
  free(path);
}

/* ---- legality: no cycle
 * ---------------------------------------------------------- */

static bool stamped(const matcher *m, size_t i) {
  return m->seen[i] == m->stamp;
}

/* The op `i` stands for: a channel_norm going into its reader's group
 * stands for that reader. */
static size_t owner_of(const matcher *m, size_t i) {
  return m->into[i] >= 0 ? (size_t)m->into[i] : i;
}

/* The longest prefix of the match whose grouping makes no cycle: no
 * value leaves it and comes back through ops outside it (groups decided
 * before count as one op each). A match is a path, so its ops' places in
 * the body increase, and the body's order is topological: a path out of
 * member i and back enters a later member j, and cuts the match before
 * j; it never goes past the match's last op (bar the members of groups it
 * meets). One search over the ops between the match's first and last op
 * for all members at once, from member 0 up: a node reached from an
 * earlier member is not searched again, so its first (earliest) origin
 * is the one that counts, and the earliest member reached from outside
 * is where the prefix ends. */
static size_t acyclic_prefix(matcher *m, const size_t *path, size_t len) {
  if (len < 2)
    return len;
  size_t hi = path[len - 1], end = len;
  uint32_t mine = ++m->stamp;    /* members */
  uint32_t visited = ++m->stamp; /* outside ops reached */
  size_t *order = m->order;
  for (size_t k = 0; k < len; k++) {
    m->seen[path[k]] = mine;
    order[path[k]] = k;
  }
  size_t *work = NULL, nwork = 0;
  for (size_t k = 0; k < len && k + 1 < end; k++) {
    for (size_t e = 0; e < m->nuses[path[k]]; e++)
      push_index(&work, &nwork, m->uses[path[k]][e]);
    while (nwork > 0) {
      size_t x = owner_of(m, work[--nwork]);
      if (m->seen[x] == mine || x >= hi || stamped(m, x))
        continue;
      m->seen[x] = visited;
      int32_t g = m->group[x]; /* a decided group: all its ops at once */
      size_t from = g >= 0 ? m->first[g] : 0, to = g >= 0 ? m->first[g + 1] : 1;
      for (size_t q = from; q < to; q++) {
        size_t y = g >= 0 ? m->members[q] : x;
        m->seen[y] = visited;
        for (size_t e = 0; e < m->nuses[y]; e++) {
          size_t u = owner_of(m, m->uses[y][e]);
          if (m->seen[u] == mine && order[u] < end)
            end = order[u]; /* entered from outside: cut before it */
          push_index(&work, &nwork, u);
        }
      }
    }
  }
  free(work);
  return end;
}

/* ---- legality: one output shape
 * ------------------------------------------------------------ */

static bool escapes(matcher *m, size_t i, uint32_t mine);

/* The longest prefix of the match whose values read outside it all have
 * its last op's shape: the code generator loops over the slices of the
 * group's last output, and every output of the group takes those slices
 * (an expand conv's wider result read by another group ends the match
 * before the conv that reads it). */
static size_t one_shape_prefix(matcher *m, const size_t *path, size_t len) {
  for (; len >= 2; len--) {
    uint32_t mine = ++m->stamp;
    for (size_t k = 0; k < len; k++)
      m->seen[path[k]] = mine;
    MlirType last =
        mlirValueGetType(mlirOperationGetResult(m->ops[path[len - 1]], 0));
    size_t k = 0;
    while (k + 1 < len &&
           (!escapes(m, path[k], mine) ||
            mlirTypeEqual(
                mlirValueGetType(mlirOperationGetResult(m->ops[path[k]], 0)),
                last)))
      k++;
    if (k + 1 == len)
      return len;
  }
  return len;
}

static bool escapes(matcher *m, size_t i, uint32_t mine) {
  for (size_t e = 0; e < m->nuses[i]; e++)
    if (m->seen[owner_of(m, m->uses[i][e])] != mine)
      return true;
  return false;
}

/* ---- legality: SPM
 * ------------------------------------------------------------------ */

static bool group_fits_spm(const MlirOperation *ops, size_t n, int64_t spm,
                           int32_t ne_k);
static bool weights_follow_channels(MlirOperation op);
static intptr_t channel_dim(MlirOperation op, intptr_t i);
static bool conv_is_depthwise(MlirOperation op, int64_t groups);
static bool mixes_channels(MlirOperation op);

/* The longest prefix of the match that fits SPM (a prefix holds fewer
 * values, so fitting is monotone: a binary search). */
static size_t fitting_prefix(const matcher *m, const size_t *path, size_t len) {
  if (len < 2)
    return len;
  MlirOperation *ops = npuc_xmalloc(len * sizeof *ops);
  for (size_t k = 0; k < len; k++)
    ops[k] = m->ops[path[k]];
  size_t lo = 1, hi = len; /* a single op is always legal */
  while (lo < hi) {
    size_t mid = lo + (hi - lo + 1) / 2;
    if (group_fits_spm(ops, mid, m->spm, m->ne_k))
      lo = mid;
    else
      hi = mid - 1;
  }
  free(ops);
  return lo;
}

static int64_t element_bytes(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  unsigned bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
                  : mlirTypeIsAFloat(e) ? mlirFloatTypeGetWidth(e)
                                        : 32;
  return bits >= 8 ? (int64_t)(bits / 8) : 1;
}

typedef struct {
  int64_t halo_rows; /* rows of a 4-d activation a one-row output slice
                        needs, through every conv of the group */
  int64_t total;
  bool overflow;
  npuc_ptr_map counted;
} spm_sum;

static bool whole_operand(MlirOperation op, intptr_t i, MlirType t);
static bool is_elementwise(MlirOperation op);

static int64_t padded_k(MlirType t, int64_t k);
static void add_padded(spm_sum *s, int64_t elems, int64_t bytes);

/* Adds the bytes of a value of type `t` read or written by `op` (operand
 * i, or a result: i < 0) at the finest split, in elements of
 * `elem_bytes`: one row (of the last dim) of an activation, halo rows of
 * a 4-d (NHWC) one; what the op reads whole (weights, vectors, inputs of
 * ops with no finer rule here) whole, but for dimension `one` (-1: none),
 * counted as 1 (a conv's output channel), and dimension `k_dim` (-1:
 * none), counted as `k` (a K slice); rounded up to the plan's 2048-bit
 * buffer alignment. */
static void add_bytes(spm_sum *s, MlirOperation op, intptr_t i, MlirType t,
                      int64_t elem_bytes, intptr_t one, intptr_t k_dim,
                      int64_t k) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t bytes = elem_bytes, dims[8];
  int nd = 0;
  bool whole = rank <= 1 || whole_operand(op, i, t);
  for (intptr_t d = 0; d < rank && d < 8; d++) {
    int64_t size = mlirShapedTypeGetDimSize(t, d);
    if (size < 0)
      size = 1;
    if (d == k_dim)
      dims[nd++] = padded_k(t, size < k ? size : k);
    else if (d == one)
      dims[nd++] = 1;
    else if (whole || d == rank - 1 || (rank == 4 && d >= 2))
      dims[nd++] = size;
    else if (rank == 4 && d == 1)
      dims[nd++] = size < s->halo_rows ? size : s->halo_rows;
  }
  int64_t elems;
  if (!npuc_checked_product(dims, nd, &elems))
    s->overflow = true;
  else
    add_padded(s, elems, bytes);
}

/* Adds `elems` elements of `bytes` each, as one buffer: the plan puts
 * every buffer on a 2048-bit boundary. */
static void add_padded(spm_sum *s, int64_t elems, int64_t bytes) {
  int64_t padded;
  s->overflow =
      s->overflow || !npuc_checked_mul(elems, bytes, &bytes) ||
      !npuc_checked_add(bytes, NPUC_TX8_BATCH_ALIGN_BYTES - 1, &padded) ||
      !npuc_checked_add(s->total, padded - padded % NPUC_TX8_BATCH_ALIGN_BYTES,
                        &s->total);
}

/* The channels `k` of a K slice of `t` take in SPM: the NE reads its
 * operands aligned (Cx, NCx), the channels of a row padded to 4, 8, 16,
 * 32 or the block (npuc_tx8_padded_channels); a slice of a few channels
 * has little else to absorb that. */
static int64_t padded_k(MlirType t, int64_t k) {
  npuc_tx8_dtype dt;
  return npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(t), &dt)
             ? npuc_tx8_padded_channels(k, dt)
             : k;
}

/* Value `v` of `op` (add_bytes), counted once however many ops hold it. */
static void add_value(spm_sum *s, MlirOperation op, intptr_t i, MlirValue v,
                      intptr_t one, intptr_t k_dim, int64_t k) {
  MlirType t = mlirValueGetType(v);
  uintptr_t seen;
  if (!mlirTypeIsARankedTensor(t) ||
      npuc_ptr_map_get(&s->counted, v.ptr, &seen))
    return;
  if (!npuc_ptr_map_put(&s->counted, v.ptr, 1))
    npuc_die("out of memory");
  add_bytes(s, op, i, t, element_bytes(t), one, k_dim, k);
}

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
}

/* Whether a softmax's axis is the last of `t` (its input or result). */
static bool softmax_over_last(MlirOperation op, MlirType t) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("axis"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  int64_t axis = mlirIntegerAttrGetValueInt(a);
  int64_t rank = mlirShapedTypeGetRank(t);
  return axis == -1 || axis == rank - 1;
}

/* Does `op` need all of operand i (i < 0: its result) at every split? */
static bool whole_operand(MlirOperation op, intptr_t i, MlirType t) {
  /* Over the last axis, a row is a whole slice: one row suffices. */
  if (npuc_op_is(op, "tx8be.layernorm"))
    return i >= 1;
  if (npuc_op_is(op, "tx8be.softmax"))
    return !softmax_over_last(op, t);
  if (npuc_op_is(op, "tx8be.conv") ||
      npuc_op_is(op, "tx8be.batchnorm_inference"))
    return i >= 1;
  if (npuc_op_is(op, "tx8be.gemm"))
    return i >= 1 || (i == 0 && has_attr(op, "transpose_a"));
  /* Elementwise ops split anywhere; softmax, layernorm, reductions and
   * the rest may need a whole axis: counted whole. */
  return !is_elementwise(op);
}

static bool is_elementwise(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[NPUC_TX8_PATTERN_NAME_MAX + 8];
  if (n.length >= sizeof name)
    return false;
  memcpy(name, n.data, n.length);
  name[n.length] = '\0';
  return npuc_tx8_pattern_is_elementwise(name);
}

static int64_t conv_param(MlirOperation op, const char *name) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) < 1)
    return 1;
  int64_t v = mlirDenseI64ArrayGetElement(a, 0);
  return v > 0 && v < (1 << 16) ? v : 1;
}

/* Input rows one output row needs through the group's convs, composed
 * from the last conv back: (rows - 1) * stride + (kh - 1) * dilation + 1
 * per conv (kh: the weight's dim 0, [Kh, Kw, Cout, Cin]). */
static int64_t halo_rows(const MlirOperation *ops, size_t n) {
  int64_t rows = 1;
  for (size_t k = n; k-- > 0;) {
    if (!npuc_op_is(ops[k], "tx8be.conv") ||
        mlirOperationGetNumOperands(ops[k]) < 2)
      continue;
    MlirType w = mlirValueGetType(mlirOperationGetOperand(ops[k], 1));
    int64_t kh = mlirTypeIsARankedTensor(w) && mlirShapedTypeGetRank(w) == 4
                     ? mlirShapedTypeGetDimSize(w, 0)
                     : 1;
    kh = kh > 0 && kh < (1 << 16) ? kh : 1;
    rows = (rows - 1) * conv_param(ops[k], "strides") +
           (kh - 1) * conv_param(ops[k], "dilations") + 1;
    if (rows > (1 << 20))
      rows = 1 << 20;
  }
  return rows;
}

/* The reduce (K) split tx8-sharding can give the group: its gemm or conv
 * holds `slice` of its operands' K at a time; op is null without one. */
typedef struct {
  MlirOperation op;
  int64_t slice;
} reduce_cut;

static reduce_cut reduce_split_of(const MlirOperation *ops, size_t n,
                                  int32_t ne_k);
static int64_t int_attr(MlirOperation op, const char *name, int64_t absent);
static intptr_t reduce_dim(MlirOperation op, intptr_t i);

static bool fits_with(const MlirOperation *ops, size_t n, reduce_cut cut,
                      int64_t spm);

/* The SPM a group of `ops` needs, estimated from above: the sum, over
 * every value it holds (inputs, intermediates, outputs, each once), of its
 * bytes at the finest split we can justify for every op of the group
 * (add_value), with all of its gemm's or conv's K at once or, where
 * tx8-sharding can split K, in K slices. Against one tile's SPM.
 * The group plan (lib/TX8/Group.c) gives the exact figure only after
 * tx8-group-ldst; using it here is left to the sharding-search issue, and
 * this is the one place to change. */
static bool group_fits_spm(const MlirOperation *ops, size_t n, int64_t spm,
                           int32_t ne_k) {
  reduce_cut cut = reduce_split_of(ops, n, ne_k);
  return fits_with(ops, n, (reduce_cut){{NULL}, 0}, spm) ||
         (!mlirOperationIsNull(cut.op) && fits_with(ops, n, cut, spm));
}

/* A batchnorm's scratch: an fp32 copy of its input (its result's count)
 * and the [C] unit vector (npuc_tx8_batchnorm_imm_size). */
static void add_scratch(spm_sum *s, MlirOperation op) {
  if (!npuc_op_is(op, "tx8be.batchnorm_inference") ||
      mlirOperationGetNumResults(op) < 1)
    return;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) < 1)
    return;
  add_bytes(s, op, -1, t, 4, -1, -1, 0);
  int64_t c = mlirShapedTypeGetDimSize(t, mlirShapedTypeGetRank(t) - 1);
  add_padded(s, c > 0 ? c : 1, 4);
}

static bool fits_with(const MlirOperation *ops, size_t n, reduce_cut cut,
                      int64_t spm) {
  spm_sum s;
  memset(&s, 0, sizeof s);
  s.halo_rows = halo_rows(ops, n);
  bool mixed_after = false; /* an op after k reads across channels */
  bool *by_channel = npuc_xcalloc(n, sizeof *by_channel);
  for (size_t k = n; k-- > 0;) {
    by_channel[k] = !mixed_after && weights_follow_channels(ops[k]);
    mixed_after = mixed_after || mixes_channels(ops[k]);
  }
  /* Operands first: a value read whole (a weight) is counted whole even
   * when another member produces it. A conv or gemm whose output channels
   * (a gemm's N) the group may split — nothing after it reads across
   * them — holds one output channel's weights and bias at the finest
   * split: a transformer FFN's gemm + gelu fuses though its 4.5 MiB
   * weight is beyond one tile's SPM. With the reduce split (`cut`), its
   * operands 0 and 1 hold one K slice and its fp32 partial sums take its
   * result's slice again: a 3x3 conv of 1024 input channels fuses with
   * its relu in a 32 KiB SPM. */
  for (size_t k = 0; k < n; k++) {
    bool in_cut = mlirOperationEqual(ops[k], cut.op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(ops[k]); i++)
      add_value(&s, ops[k], i, mlirOperationGetOperand(ops[k], i),
                by_channel[k] ? channel_dim(ops[k], i) : -1,
                in_cut && i < 2 ? reduce_dim(ops[k], i) : -1, cut.slice);
  }
  for (size_t k = 0; k < n; k++)
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[k]); r++)
      add_value(&s, ops[k], -1, mlirOperationGetResult(ops[k], r), -1, -1, 0);
  for (size_t k = 0; k < n; k++)
    add_scratch(&s, ops[k]);
  if (!mlirOperationIsNull(cut.op))
    add_bytes(&s, cut.op, -1,
              mlirValueGetType(mlirOperationGetResult(cut.op, 0)), 4, -1, -1,
              0);
  free(by_channel);
  npuc_ptr_map_free(&s.counted);
  return !s.overflow && s.total <= spm;
}

/* What the group loads for value `v`: the value under the channel_norms
 * converting it, which go into the group with their reader. */
static MlirValue unconverted(MlirValue v) {
  for (int depth = 0; depth < MAX_MATCH && mlirValueIsAOpResult(v); depth++) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!npuc_op_is(def, "tx8be.channel_norm") ||
        mlirOperationGetNumOperands(def) < 1)
      break;
    v = mlirOperationGetOperand(def, 0);
  }
  return v;
}

static bool reducible_op(MlirOperation op);
static bool loads_privately(const MlirOperation *ops, size_t n, size_t ne);

/* tx8-sharding's reduce split (npuc_tx8_group_reduce_candidate's rule, on
 * the ops before they are grouped): the group's only gemm or conv, a gemm
 * not batched nor transpose_a, a conv not grouped, whose operands 0 and 1
 * the group loads for it alone; its finest K slice is the search's, the
 * last of K / 2, K / 4, ... (rounded up) of at least one NE instruction's
 * K. Null when none splits K. */
static reduce_cut reduce_split_of(const MlirOperation *ops, size_t n,
                                  int32_t ne_k) {
  reduce_cut none = {{NULL}, 0};
  size_t ne = n;
  for (size_t k = 0; k < n; k++) {
    if (!npuc_op_is(ops[k], "tx8be.gemm") && !npuc_op_is(ops[k], "tx8be.conv"))
      continue;
    if (ne < n)
      return none;
    ne = k;
  }
  if (ne == n || !reducible_op(ops[ne]) || !loads_privately(ops, n, ne))
    return none;
  MlirType a = mlirValueGetType(mlirOperationGetOperand(ops[ne], 0));
  int64_t len = mlirShapedTypeGetDimSize(a, mlirShapedTypeGetRank(a) - 1);
  int64_t slice = len;
  for (int64_t parts = 2; parts <= len; parts *= 2) {
    int64_t k = (len + parts - 1) / parts;
    if (k < ne_k)
      break;
    slice = k;
  }
  return slice < len ? (reduce_cut){ops[ne], slice} : none;
}

static bool ranked(MlirOperation op, intptr_t i, intptr_t rank) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == rank;
}

static bool reducible_op(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) < 2 || mlirOperationGetNumResults(op) < 1)
    return false;
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(a) || mlirShapedTypeGetRank(a) < 1)
    return false;
  if (npuc_op_is(op, "tx8be.conv"))
    return int_attr(op, "group", 1) <= 1 && ranked(op, 0, 4) &&
           ranked(op, 1, 4);
  return !has_attr(op, "transpose_a") && ranked(op, 1, 2);
}

/* Operands 0 and 1 of ops[ne] come from outside the group (through
 * channel_norms), are two values, and no other operand of the group reads
 * either: each becomes a load only the gemm or conv reads. */
static bool loads_privately(const MlirOperation *ops, size_t n, size_t ne) {
  MlirValue a = unconverted(mlirOperationGetOperand(ops[ne], 0));
  MlirValue b = unconverted(mlirOperationGetOperand(ops[ne], 1));
  if (mlirValueEqual(a, b))
    return false;
  npuc_ptr_map members = {0};
  for (size_t k = 0; k < n; k++)
    if (!npuc_ptr_map_put(&members, ops[k].ptr, 1))
      npuc_die("out of memory");
  bool private = true;
  for (size_t k = 0; private && k < n; k++)
    for (intptr_t i = 0; private && i < mlirOperationGetNumOperands(ops[k]);
         i++) {
      MlirValue v = unconverted(mlirOperationGetOperand(ops[k], i));
      uintptr_t seen;
      if (k == ne && i < 2)
      private = !mlirValueIsAOpResult(v) ||
                !npuc_ptr_map_get(&members, mlirOpResultGetOwner(v).ptr, &seen);
      else private = !mlirValueEqual(v, a) && !mlirValueEqual(v, b);
    }
  npuc_ptr_map_free(&members);
  return private;
}

/* The dimension of operand i (0 or 1) that is the gemm's or conv's K
 * (lib/TX8/Group.c's npuc_tx8_reduce_dim): a's last; the NHWC input's and
 * the HWOI weight's last (C, I); a gemm weight's rows (columns with
 * transpose_b). */
static intptr_t reduce_dim(MlirOperation op, intptr_t i) {
  intptr_t rank =
      mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(op, i)));
  if (i == 0 || npuc_op_is(op, "tx8be.conv"))
    return rank - 1;
  return has_attr(op, "transpose_b") ? 1 : 0;
}

/* The rule of npuc_tx8_shard_axes: a plain or a depthwise conv splits its
 * output channels, each with its own rows of the weight; a gemm its N,
 * each with its own columns of a rank-2 weight (a batched b is an
 * activation, counted whole). */
static bool weights_follow_channels(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) < 2)
    return false;
  if (npuc_op_is(op, "tx8be.gemm")) {
    MlirType b = mlirValueGetType(mlirOperationGetOperand(op, 1));
    return mlirTypeIsARankedTensor(b) && mlirShapedTypeGetRank(b) == 2;
  }
  if (!npuc_op_is(op, "tx8be.conv"))
    return false;
  int64_t groups = int_attr(op, "group", 1);
  return groups <= 1 || conv_is_depthwise(op, groups);
}

/* The dimension of operand i that follows the output channels: the HWOI
 * weight's O, a gemm weight's N (K x N, or N x K with transpose_b), a
 * bias's only one; -1 for the input. */
static intptr_t channel_dim(MlirOperation op, intptr_t i) {
  if (i == 2)
    return 0;
  if (i != 1)
    return -1;
  if (npuc_op_is(op, "tx8be.conv"))
    return 2;
  return has_attr(op, "transpose_b") ? 0 : 1;
}

static bool conv_is_depthwise(MlirOperation op, int64_t groups) {
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType out = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirTypeIsARankedTensor(in) && mlirTypeIsARankedTensor(out) &&
         mlirShapedTypeGetRank(in) == 4 && mlirShapedTypeGetRank(out) == 4 &&
         mlirShapedTypeGetDimSize(in, 3) == groups &&
         mlirShapedTypeGetDimSize(out, 3) == groups;
}

/* Whether `op` reads across the channels of what it reads (so what
 * produces them keeps them whole): everything but the elementwise ops and
 * a depthwise conv. BatchNorm counts as mixing: it splits C across tiles
 * only, not in time. */
static bool mixes_channels(MlirOperation op) {
  if (npuc_op_is(op, "tx8be.conv"))
    return !conv_is_depthwise(op, int_attr(op, "group", 1));
  return !is_elementwise(op);
}

static int64_t int_attr(MlirOperation op, const char *name, int64_t absent) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
             ? mlirIntegerAttrGetValueInt(a)
             : absent;
}

/* ---- building
 * ------------------------------------------------------------------------ */

/* Each match, its ops in program order, through the shared builder. */
static void build_groups(matcher *m) {
  for (size_t g = 0; g < m->num_groups; g++) {
    size_t *ops = &m->members[m->first[g]];
    size_t n = m->first[g + 1] - m->first[g];
    qsort(ops, n, sizeof *ops, cmp_index);
    tx8_op_list list = {0};
    for (size_t k = 0; k < n; k++)
      tx8_op_list_push(&list, m->ops[ops[k]]);
    tx8_build_group(&list);
    tx8_op_list_free(&list);
  }
}

/* The top-level ops an op waits for: the producers of its operands and,
 * for a group, of what its ops read from outside (tx8be.none). */
static void producers(MlirOperation op, MlirBlock body, tx8_op_list *out);

/* Puts the body in a topological order again, keeping the order it has
 * where it can: a group stands where its last op stood, and an op that
 * read an earlier member may now stand before it. An iterative DFS over
 * producers, in program order; the terminator ends up last. */
static void sort_body(MlirBlock body) {
  tx8_op_list order = {0}, stack = {0}, deps = {0};
  npuc_ptr_map done = {0}; /* 1: on the stack, 2: placed */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    uintptr_t st;
    if (npuc_ptr_map_get(&done, op.ptr, &st))
      continue;
    tx8_op_list_push(&stack, op);
    while (stack.count > 0) {
      MlirOperation top = stack.ops[stack.count - 1];
      if (!npuc_ptr_map_get(&done, top.ptr, &st))
        st = 0;
      if (st == 2) {
        stack.count--;
        continue;
      }
      bool waiting = false;
      if (st == 0) {
        npuc_ptr_map_put(&done, top.ptr, 1);
        deps.count = 0;
        producers(top, body, &deps);
        for (size_t k = deps.count; k-- > 0;)
          if (!npuc_ptr_map_get(&done, deps.ops[k].ptr, &st)) {
            tx8_op_list_push(&stack, deps.ops[k]);
            waiting = true;
          }
      }
      if (!waiting) {
        npuc_ptr_map_put(&done, top.ptr, 2);
        tx8_op_list_push(&order, top);
        stack.count--;
      }
    }
  }
  for (size_t k = 0; k < order.count; k++) {
    mlirOperationRemoveFromParent(order.ops[k]);
    mlirBlockAppendOwnedOperation(body, order.ops[k]);
  }
  if (done.oom)
    npuc_die("out of memory");
  npuc_ptr_map_free(&done);
  tx8_op_list_free(&order);
  tx8_op_list_free(&stack);
  tx8_op_list_free(&deps);
}

static void add_producer(MlirValue v, MlirBlock body, tx8_op_list *out) {
  if (!mlirValueIsAOpResult(v))
    return;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (mlirBlockEqual(mlirOperationGetBlock(def), body))
    tx8_op_list_push(out, def);
}

static MlirWalkResult nested_reads(MlirOperation op, void *user) {
  void **ctx = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    add_producer(mlirOperationGetOperand(op, i), *(MlirBlock *)ctx[0],
                 (tx8_op_list *)ctx[1]);
  return MlirWalkResultAdvance;
}

static void producers(MlirOperation op, MlirBlock body, tx8_op_list *out) {
  if (mlirOperationGetNumRegions(op) == 0) {
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      add_producer(mlirOperationGetOperand(op, i), body, out);
    return;
  }
  void *ctx[2] = {&body, out};
  mlirOperationWalk(op, nested_reads, ctx, MlirWalkPreOrder);
}

static void free_matcher(matcher *m) {
  for (size_t i = 0; i < m->n; i++) {
    free(m->succ[i]);
    free(m->uses[i]);
  }
  void *arrays[] = {m->ops,     m->sym,   m->esym,  m->eligible, m->into,
                    m->group,   m->succ,  m->nsucc, m->uses,     m->nuses,
                    m->members, m->first, m->found, m->seen,     m->order};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
    free(arrays[i]);
  npuc_ptr_map_free(&m->index);
  npuc_ptr_map_free(&m->memo);
}
