/* The folding and shape helpers of lib/Onnx (Fold.c), shared by the op
 * rules (Ops*.c) and the patterns (Patterns.c). */
#ifndef NPUC_ONNX_FOLD_H
#define NPUC_ONNX_FOLD_H

#include "OnnxInternal.h"

enum {
  FOLD_NONE,
  FOLD_ADD,
  FOLD_SUB,
  FOLD_MUL,
  FOLD_DIV,
  FOLD_POW,
  FOLD_RELU,
  FOLD_SQRT,
  FOLD_EXP,
  FOLD_LOG,
  FOLD_ABS,
  FOLD_SIGMOID,
  FOLD_TANH,
  FOLD_ERF,
  FOLD_EQUAL,
};

bool onnx_is_const(const oval *x);
bool onnx_set_shape(importer *im, const Onnx__NodeProto *n, oval *o,
                    const int64_t *dims, int rank);
void onnx_alloc_const(oval *o, bool ints);
double onnx_get(const oval *x, int64_t k);
int64_t onnx_to_i64(double v);
void onnx_put(oval *o, int64_t k, double v);
void onnx_strides(const int64_t *dims, int rank, int64_t *strides);
void onnx_view_copy(const oval *x, oval *o, int64_t offset,
                    const int64_t *strides);
bool onnx_broadcast_shape(const oval *a, const oval *b, int64_t *dims,
                          int *rank);
void onnx_broadcast_strides(const oval *x, int rank, int64_t *strides);
bool onnx_fold_elementwise(importer *im, const Onnx__NodeProto *n, int fn,
                           const oval *a, const oval *b, oval *o);
void onnx_alias(oval *o, const oval *x);
int onnx_const_ints(const oval *x, int64_t *out, int cap);
bool onnx_norm_axis(int64_t *axis, int rank);

/* OpsNN.c: the rules for the neural-network ops. */
bool onnx_op_conv(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_batchnorm(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_gemm(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_matmul(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_pool(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_global_avg_pool(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_softmax(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_reduce(importer *im, const Onnx__NodeProto *n, int index);
bool onnx_op_layernorm(importer *im, const Onnx__NodeProto *n, int index);
/* Builds tx8be.layernorm of x over its last axis (Patterns.c shares it). */
bool onnx_build_layernorm(importer *im, const Onnx__NodeProto *n, oval *x,
                          oval *scale, oval *bias, float eps, oval *out);
/* A unary tx8be op on x keeping its layout. */
void onnx_build_unary(importer *im, const char *op, oval *x, oval *out);

#endif
