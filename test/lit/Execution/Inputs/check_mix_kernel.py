"""Reference outputs of the mix kernels of mix-kernel-*.test, computed here
from the inputs npuc-run kept (DIR/in), and compared bit for bit with the
outputs of each run (DIR/a and DIR/b of npuc-run --compare).

The cube's matmul takes f16 inputs, whose products are exact in f32, and
adds them in k order with every sum rounded to f32; the vector ops round
each result to f32 (f16 for casts). Python's floats are doubles: rounding
a double sum or product of two f32 values to f32 gives the f32 operation's
result, so the reference is exact.

usage: check_mix_kernel.py KERNEL DIR RUN...
  square  out[32x64] = t*t + t,         t = A[32x16] x B[16x64]
  square-zn  the same, A and B given in the fractal zN layout of L1:
          A as [K1=1][M1=2][16][16], B as [N1=4][K1=1][16][16]
  colsum  out[1x64]  = sum over rows of t
  cvc     out[32x16] = f16(max(t, 0)) x D[64x16]
  nz2nd   out[32x64] = |X| read as the matrix L0C holds in the fractal
          layout X[4x2x16x16] = [N1][M1][M0][N0]: out[m][n] =
          |X[n / 16][m / 16][m % 16][n % 16]|
  nz2nz   out = |X|, both in that layout (flattened to 128x16)
"""
import struct
import sys


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def read(path, fmt, rows, cols):
    data = open(path, 'rb').read()
    vals = struct.unpack('<%d%s' % (rows * cols, fmt), data)
    return [list(vals[r * cols:(r + 1) * cols]) for r in range(rows)]


def matmul(a, b):
    m, k, n = len(a), len(b), len(b[0])
    out = [[0.0] * n for _ in range(m)]
    for i in range(m):
        for j in range(n):
            acc = 0.0
            for p in range(k):
                acc = f32(acc + f32(a[i][p] * b[p][j]))
            out[i][j] = acc
    return out


def from_zn(x, rows, cols):
    """The rows x cols matrix a zN buffer [C1][R1][16][16] holds (x: its
    elements in storage order, in rows of any length)."""
    flat = [v for row in x for v in row]
    r1 = rows // 16
    return [[flat[((c // 16) * r1 + r // 16) * 256 + (r % 16) * 16 + c % 16]
             for c in range(cols)] for r in range(rows)]


def check_fractal(kernel, d, runs):
    x = read(d + '/in/arg0.bin', 'f', 128, 16)  # [n1][m1][m0] rows, n0
    if kernel == 'nz2nd':
        want = [[abs(x[(n // 16) * 32 + (m // 16) * 16 + m % 16][n % 16])
                 for n in range(64)] for m in range(32)]
    else:
        want = [[abs(v) for v in row] for row in x]
    rows, cols = len(want), len(want[0])
    for run in runs:
        out = read('%s/%s/arg1.bin' % (d, run), 'f', rows, cols)
        bad = sum(out[i][j] != want[i][j]
                  for i in range(rows) for j in range(cols))
        print('%s %s: %d of %d elements differ from the reference' %
              (kernel, run, bad, rows * cols))
    return 0


def main():
    kernel, d, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    if kernel.startswith('nz'):
        return check_fractal(kernel, d, runs)
    a = read(d + '/in/arg0.bin', 'e', 32, 16)
    b = read(d + '/in/arg1.bin', 'e', 16, 64)
    if kernel == 'square-zn':
        a, b, kernel = from_zn(a, 32, 16), from_zn(b, 16, 64), 'square'
    t = matmul(a, b)
    if kernel == 'square':
        want, out_arg = [[f32(f32(v * v) + v) for v in row] for row in t], 2
    elif kernel == 'colsum':
        sums = []
        for j in range(64):
            s = 0.0
            for i in range(32):
                s = f32(s + t[i][j])
            sums.append(s)
        want, out_arg = [sums], 2
    else:
        h = [[f16(max(v, 0.0)) for v in row] for row in t]
        want, out_arg = matmul(h, read(d + '/in/arg2.bin', 'e', 64, 16)), 3
    rows, cols = len(want), len(want[0])
    for run in runs:
        out = read('%s/%s/arg%d.bin' % (d, run, out_arg), 'f', rows, cols)
        bad = sum(out[i][j] != want[i][j]
                  for i in range(rows) for j in range(cols))
        nonzero = sum(want[i][j] != 0 for i in range(rows) for j in range(cols))
        print('%s %s: %d of %d elements differ from the reference, '
              '%d of its elements non-zero' % (kernel, run, bad, rows * cols,
                                               nonzero))
    return 0


if __name__ == '__main__':
    sys.exit(main())
