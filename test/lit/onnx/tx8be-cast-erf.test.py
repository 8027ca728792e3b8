"""Checks the results of Inputs/cast-erf.mlir's program against Python."""
import math
import struct
import sys

N = 1280


def read(path):
    with open(path, "rb") as f:
        return struct.unpack("<%df" % N, f.read())


def bf16_round(v):
    u = struct.unpack("<I", struct.pack("<f", v))[0]
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", u))[0]


def half_round(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


x = read(sys.argv[1] + "/arg0.bin")
erf16, bf16, erf32 = (read("%s/result%d.bin" % (sys.argv[2], k)) for k in range(3))
# erf of the f16 input, rounded to f16: within one f16 rounding of each.
err = max(abs(g - math.erf(half_round(v))) for g, v in zip(erf16, x))
print("erf f16:", "ok" if err <= 2 ** -11 else "error %g" % err)
bad = [k for k in range(N) if bf16[k] != bf16_round(x[k])]
print("bf16 round trip:", "ok" if not bad else "differs at %d" % bad[0])
err = max(abs(g - math.erf(v)) for g, v in zip(erf32, x))
print("erf f32:", "ok" if err <= 1e-6 else "error %g" % err)
