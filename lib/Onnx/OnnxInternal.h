/* What the ONNX reader and importer share (lib/Onnx): the model, the
 * importer's value table, its builder and the per-op entry points. */
#ifndef NPUC_ONNX_INTERNAL_H
#define NPUC_ONNX_INTERNAL_H

#include "npuc/Onnx.h"
#include "npuc/StringBuilder.h"

#include <onnx.pb-c.h>

#define MAX_RANK NPUC_ONNX_MAX_RANK

struct npuc_onnx_model {
  Onnx__ModelProto *proto;
  char *name; /* for diagnostics */
};

/* ONNX element types we compute with (TensorProto.DataType). */
enum {
  ET_FLOAT = 1,
  ET_INT32 = 6,
  ET_INT64 = 7,
  ET_BOOL = 9,
  ET_FLOAT16 = 10,
  ET_DOUBLE = 11,
  ET_BFLOAT16 = 16,
};

/* One ONNX value. Its logical shape is ONNX's; when built, `v` holds it
 * with physical dimension d being logical dimension perm[d] (the identity
 * but for conv-like ops' NHWC results). A constant holds its elements
 * (floats as f32, integers as i64) and is built only when a run-time op
 * needs it. */
typedef struct {
  const char *name;
  int32_t elem;
  int rank;
  int64_t dims[MAX_RANK];
  int64_t count;
  float *f;   /* constant float elements, or NULL */
  int64_t *i; /* constant integer elements, or NULL */
  MlirValue v;
  int perm[MAX_RANK];
  MlirValue logical; /* v transposed back to the logical layout, once */
  int uses;          /* how many node inputs and graph outputs read it */
  int consumer;      /* the node reading it (the last one) */
  int producer;      /* the node defining it, or -1 */
  bool pending;      /* a node output whose node has not run yet */
} oval;

/* A recognised subgraph, emitted at its last node (Patterns.c). */
typedef struct {
  int kind; /* PATTERN_* */
  const char *x, *scale, *bias;
  float eps;
  int64_t axis; /* layernorm: the axis both means reduce */
} onnx_pattern;

enum { PATTERN_NONE, PATTERN_GELU, PATTERN_LAYERNORM };

typedef struct importer importer;
typedef bool (*op_fn)(importer *im, const Onnx__NodeProto *n, int index);

typedef struct {
  const char *op_type;
  op_fn fn;
} op_entry;

struct importer {
  MlirContext ctx;
  const npuc_onnx_model *model;
  const Onnx__GraphProto *graph;
  const npuc_onnx_import_options *opts;
  const npuc_diag_sink *sink;
  MlirBlock body;
  MlirLocation loc; /* the current node's */
  MlirType fty;     /* the float type computed in */
  oval *vals;
  size_t nvals, capvals;
  size_t *table; /* name hash -> index + 1 */
  size_t table_cap;
  bool *skip;             /* nodes a pattern (or conv) absorbed */
  onnx_pattern *patterns; /* per node: the pattern it emits, if any */
  int errors;
  int64_t resource_id;
};

/* Import.c: values, types, building. */
oval *onnx_value(importer *im, const char *name);
oval *onnx_new_value(importer *im, const char *name);
bool onnx_error(importer *im, const Onnx__NodeProto *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
MlirType onnx_tensor_type(importer *im, const int64_t *dims, int rank);
MlirOperation onnx_build(importer *im, const char *name, int nops,
                         const MlirValue *ops, MlirType result, int nattrs,
                         const MlirNamedAttribute *attrs);
/* An op of one operand and one result; its result. */
MlirValue onnx_build1(importer *im, const char *name, MlirValue in,
                      MlirType result, int nattrs,
                      const MlirNamedAttribute *attrs);
/* The MLIR type of an ONNX float element type (DOUBLE is f32), or null. */
MlirType onnx_float_type(importer *im, int32_t elem);
/* v converted to elements of `elem` (tx8be.cast), or v when it has them. */
MlirValue onnx_convert(importer *im, MlirValue v, MlirType elem);
/* parts joined along physical axis paxis (sizes[k] each; the rest of the
 * shape pdims) by a tree of tx8be.concat of at most 5 inputs; parts and
 * sizes are scratch. */
MlirValue onnx_concat_tree(importer *im, MlirValue *parts, int64_t *sizes,
                           int n, const int64_t *pdims, int rank, int paxis);
/* tx8be.reshape of v to (dims, rank). */
MlirValue onnx_reshape(importer *im, MlirValue v, const int64_t *dims,
                       int rank);
MlirNamedAttribute onnx_attr_i64s(importer *im, const char *name,
                                  const int64_t *v, int n);
MlirNamedAttribute onnx_attr_int(importer *im, const char *name, int64_t v);
MlirNamedAttribute onnx_attr_f32(importer *im, const char *name, double v);
/* The value in its logical layout / with the given physical permutation. */
MlirValue onnx_logical(importer *im, oval *x);
MlirValue onnx_physical(importer *im, oval *x, const int *perm);
/* A tx8be.constant of `count` floats in shape dims. */
MlirValue onnx_const_f(importer *im, const float *data, const int64_t *dims,
                       int rank);
MlirValue onnx_none(importer *im);
void onnx_identity_perm(int *perm, int rank);
bool onnx_perm_is_identity(const int *perm, int rank);
/* o = x reshaped to (dims, rank): x's logical layout through
 * tx8be.reshape; o's shape must be set. */
void onnx_set_reshaped(importer *im, oval *o, oval *x, const int64_t *dims,
                       int rank);
/* Sets an output's logical shape and its built value with a perm. */
void onnx_set_built(oval *o, MlirValue v, const int *perm);

/* Attributes of a node. */
const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *n,
                                      const char *name);
int64_t onnx_attr_i(const Onnx__NodeProto *n, const char *name, int64_t dflt);
float onnx_attr_f(const Onnx__NodeProto *n, const char *name, float dflt);
/* Integer list attribute; false (with error) when longer than cap. */
int onnx_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out,
                   int cap);
/* The node's input k, or NULL when absent or empty. */
oval *onnx_in(importer *im, const Onnx__NodeProto *n, size_t k);
oval *onnx_out(importer *im, const Onnx__NodeProto *n, size_t k);
/* A TensorProto as a constant value's elements; false with a reason. */
bool onnx_tensor_data(const Onnx__TensorProto *t, oval *o, const char **why);

/* Ops.c / Fold.c */
const op_entry *onnx_find_op(const char *op_type);
/* Marks the nodes of gelu and the opset-13 layernorm decomposition. */
void onnx_find_patterns(importer *im);
bool onnx_emit_pattern(importer *im, const Onnx__NodeProto *n, int index);

#endif
