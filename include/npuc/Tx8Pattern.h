/* Tx8Pattern: the group patterns of tx8-group-pattern (the seed's
 * GroupPatternPass Automation) compiled into a trie. A pattern is a
 * sequence of op names, each a producer of the next; `OR` splits it into
 * alternatives; `X*` (or `X *`) is one or more X, kept as a self-loop on
 * X's trie node instead of the seed's 1-4 copies; `ELEMENTWISE` stands for
 * any elementwise op. Each pattern has a priority (higher wins among
 * matches of equal length). Names may be written `conv` or `tx8be.conv`.
 * Plain C and libyaml; no MLIR. */
#ifndef NPUC_TX8_PATTERN_H
#define NPUC_TX8_PATTERN_H

#include "npuc/Diagnostics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds on what a pattern set holds (a file is read whole). */
#define NPUC_TX8_PATTERN_MAX_TOKENS 64  /* tokens of one alternative */
#define NPUC_TX8_PATTERN_MAX_COUNT 4096 /* alternatives in a set */
#define NPUC_TX8_PATTERN_MAX_PRIORITY 1000000
#define NPUC_TX8_PATTERN_MAX_FILE (1 << 20) /* bytes of a pattern file */
#define NPUC_TX8_PATTERN_NAME_MAX 64        /* bytes of an op name */

/* The symbol `ELEMENTWISE` matches, besides the op's own name. */
#define NPUC_TX8_PATTERN_ELEMENTWISE "ELEMENTWISE"

typedef struct npuc_tx8_patterns npuc_tx8_patterns;

npuc_tx8_patterns *npuc_tx8_patterns_new(void);
void npuc_tx8_patterns_free(npuc_tx8_patterns *t);

/* Adds one pattern with its alternatives. False, with the reason in
 * err[errlen], on an empty alternative, `*` with no op before it, a name
 * that is not an op name, too many tokens or alternatives, or (when
 * `check_ops`) an op the tx8be op library does not know; *t is then
 * unchanged. */
bool npuc_tx8_patterns_add(npuc_tx8_patterns *t, const char *text,
                           int64_t priority, bool check_ops, char *err,
                           size_t errlen);

/* A pattern file:
 *   patterns:
 *     - {ops: "conv batchnorm_inference relu", priority: 3}
 *     - ops: [add, "*"]          # a sequence of tokens works too
 * priority defaults to 0 and lies in [0, NPUC_TX8_PATTERN_MAX_PRIORITY].
 * False with every problem reported at its node (file:line:col). */
bool npuc_tx8_patterns_load_yaml(npuc_tx8_patterns *t, const char *text,
                                 size_t len, const char *file,
                                 const npuc_diag_sink *sink);
bool npuc_tx8_patterns_load_file(npuc_tx8_patterns *t, const char *path,
                                 const npuc_diag_sink *sink);

/* The built-in sets, by the module's tx8be.opt_group (the seed's
 * patternConfigMap): 0 none, 1 default (all below), 2 CNN, 3 transformer,
 * 4 elementwise chains only. False for another number. */
#define NPUC_TX8_PATTERN_SETS 5
bool npuc_tx8_patterns_builtin(npuc_tx8_patterns *t, int64_t set);

/* Is `name` ("tx8be.add") an op ELEMENTWISE matches? */
bool npuc_tx8_pattern_is_elementwise(const char *name);

/* ---- matching ---------------------------------------------------------- */

/* The trie's root node. */
#define NPUC_TX8_PATTERN_ROOT 0

/* The symbol of an op name ("tx8be.add", len bytes) or of ELEMENTWISE;
 * -1 when no pattern names it. */
int32_t npuc_tx8_patterns_symbol(const npuc_tx8_patterns *t, const char *name,
                                 size_t len);
/* The nodes reached from `node` on `symbol`: its children for the symbol,
 * and the node itself when it is a starred node of that symbol. Writes at
 * most `max` (3 suffice: X, X* and the self-loop); returns the count. */
size_t npuc_tx8_patterns_step(const npuc_tx8_patterns *t, int32_t node,
                              int32_t symbol, int32_t *out, size_t max);
/* The highest priority of the patterns ending at `node`; -1 if none. */
int64_t npuc_tx8_patterns_priority(const npuc_tx8_patterns *t, int32_t node);
size_t npuc_tx8_patterns_nodes(const npuc_tx8_patterns *t);
size_t npuc_tx8_patterns_count(const npuc_tx8_patterns *t);

#endif
