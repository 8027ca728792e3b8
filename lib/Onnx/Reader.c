/* The .onnx reader: the file's bytes into protobuf-c's ModelProto.
 *
 * Requires nothing but the bytes: a file of at most NPUC_ONNX_FILE_LIMIT,
 * or stdin. Before protobuf-c unpacks (it recurses once per nested
 * message), a scan of the wire format against the generated descriptors
 * checks that every length fits its buffer and that messages nest at most
 * NPUC_ONNX_NESTING_LIMIT deep; protobuf-c then rejects what else is
 * malformed. Leaves a model with a graph, or NULL and one error on the sink:
 * a malformed or truncated file is an error, never a crash. */
#include "OnnxInternal.h"

#include "npuc/Alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_all(const char *path, const char *name, size_t *len,
                               const npuc_diag_sink *sink);
static bool scan_message(const unsigned char *p, size_t len,
                         const ProtobufCMessageDescriptor *desc, int depth,
                         const char **why);

npuc_onnx_model *npuc_onnx_read_file(const char *path,
                                     const npuc_diag_sink *sink) {
  const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
  size_t len = 0;
  unsigned char *data = read_all(path, name, &len, sink);
  if (!data)
    return NULL;
  npuc_onnx_model *m = npuc_onnx_read_bytes(data, len, name, sink);
  free(data);
  return m;
}

npuc_onnx_model *npuc_onnx_read_bytes(const unsigned char *data, size_t len,
                                      const char *name,
                                      const npuc_diag_sink *sink) {
  const char *why = NULL;
  if (!scan_message(data, len, &onnx__model_proto__descriptor, 0, &why)) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, name, 0, 0,
                   "not a valid ONNX model: %s", why);
    return NULL;
  }
  Onnx__ModelProto *proto = onnx__model_proto__unpack(NULL, len, data);
  if (!proto) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, name, 0, 0,
                   "not a valid ONNX model: malformed protobuf");
    return NULL;
  }
  if (!proto->graph) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, name, 0, 0,
                   "not a valid ONNX model: it has no graph");
    onnx__model_proto__free_unpacked(proto, NULL);
    return NULL;
  }
  npuc_onnx_model *m = npuc_xcalloc(1, sizeof *m);
  m->proto = proto;
  m->name = npuc_xstrdup(name);
  return m;
}

void npuc_onnx_model_free(npuc_onnx_model *m) {
  if (!m)
    return;
  onnx__model_proto__free_unpacked(m->proto, NULL);
  free(m->name);
  free(m);
}

/* The whole file (stdin for "-") in memory, at most NPUC_ONNX_FILE_LIMIT
 * bytes. */
static unsigned char *read_all(const char *path, const char *name, size_t *len,
                               const npuc_diag_sink *sink) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, name, 0, 0, "cannot open: %s",
                   strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = npuc_xmalloc(cap);
  const char *error = NULL;
  for (;;) {
    if (n == cap) {
      if (cap >= NPUC_ONNX_FILE_LIMIT) {
        error = "larger than the 2 GiB limit";
        break;
      }
      cap *= 2;
      buf = npuc_xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f))
        error = "read error (a directory?)";
      break;
    }
  }
  if (f != stdin)
    fclose(f);
  if (error) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, name, 0, 0, "cannot read: %s", error);
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* ---- The wire-format scan --------------------------------------------- */

static bool read_varint(const unsigned char *p, size_t len, size_t *pos,
                        uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= len)
      return false;
    unsigned char b = p[(*pos)++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static const ProtobufCMessageDescriptor *
sub_message(const ProtobufCMessageDescriptor *desc, uint64_t field) {
  for (unsigned i = 0; desc && i < desc->n_fields; ++i)
    if (desc->fields[i].id == field &&
        desc->fields[i].type == PROTOBUF_C_TYPE_MESSAGE)
      return desc->fields[i].descriptor;
  return NULL;
}

/* Walks one message's fields: every length inside the buffer, every nested
 * message of the schema scanned one level deeper. Iterative per level,
 * recursive only per nesting level (bounded). */
static bool scan_message(const unsigned char *p, size_t len,
                         const ProtobufCMessageDescriptor *desc, int depth,
                         const char **why) {
  if (depth > NPUC_ONNX_NESTING_LIMIT) {
    *why = "messages nest too deep";
    return false;
  }
  size_t pos = 0;
  while (pos < len) {
    uint64_t key, v;
    if (!read_varint(p, len, &pos, &key) || (key >> 3) == 0) {
      *why = "truncated or malformed field key";
      return false;
    }
    size_t skip = 0;
    switch (key & 7) {
    case 0:
      if (!read_varint(p, len, &pos, &v)) {
        *why = "truncated varint";
        return false;
      }
      break;
    case 1: skip = 8; break;
    case 5: skip = 4; break;
    case 2:
      if (!read_varint(p, len, &pos, &v) || v > len - pos) {
        *why = "truncated: a length runs past the end";
        return false;
      }
      const ProtobufCMessageDescriptor *sub = sub_message(desc, key >> 3);
      if (sub && !scan_message(p + pos, (size_t)v, sub, depth + 1, why))
        return false;
      skip = (size_t)v;
      break;
    default: *why = "unsupported wire type (groups)"; return false;
    }
    if (skip > len - pos) {
      *why = "truncated field";
      return false;
    }
    pos += skip;
  }
  return true;
}
