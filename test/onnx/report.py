"""The figures make models reports for a compiled model: the program's
total cycles (its cycle report, docs/tx8.md "The report") and the roofline
bound of the imported graph: max(NE FLOPs / the chip's NE peak, minimum
DDR bytes / DDR bandwidth), the minimum being every graph input, weight and
output moved once. The peak and bandwidth are read from
lib/TX8/tx8_target.yaml; FLOPs and bytes from `npuc-import --elide-weights`
output (tx8be.conv and tx8be.gemm types)."""
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
WIDTH = {"f32": 4, "f16": 2, "bf16": 2}


def target():
    import yaml
    with open(os.path.join(ROOT, "lib", "TX8", "tx8_target.yaml")) as f:
        y = yaml.safe_load(f)
    return {"ddr": float(y["chip"]["ddr_gbytes_per_s"]) * y["chips"] /
            float(y["tile"]["clock_ghz"]),
            "tflops": {k: float(v) * 1e3 * y["chips"] / float(y["tile"]["clock_ghz"])
                       for k, v in y["engines"]["ne"]["tflops"].items()}}


def dims(t):
    m = re.match(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    shape = [int(d) for d in m.group(1).split("x") if d]
    return shape, m.group(2)


def prod(v):
    r = 1
    for d in v:
        r *= d
    return r


def graph_figures(mlir):
    """(FLOPs, minimum bytes, dtype) of an imported graph."""
    flops, bytes_, dtype = 0, 0, "f32"
    for line in mlir.splitlines():
        m = re.search(r"func.func @main\((.*)\) -> (.*) \{", line)
        if m:
            for t in re.findall(r"tensor<[^>]*>", line):
                s, dtype = dims(t)
                bytes_ += prod(s) * WIDTH[dtype]
        m = re.search(r"tx8be.constant .*: (tensor<[^>]*>)$", line)
        if m:
            s, dt = dims(m.group(1))
            bytes_ += prod(s) * WIDTH[dt]
        m = re.search(r"tx8be\.(conv|gemm) .* : (.*) -> (tensor<[^>]*>)", line)
        if m:
            ts = re.findall(r"tensor<[^>]*>", m.group(2))
            out, _ = dims(m.group(3))
            w, _ = dims(ts[1])
            a, _ = dims(ts[0])
            if m.group(1) == "conv":
                g = re.search(r"group = (\d+)", line)
                groups = int(g.group(1)) if g else 1
                flops += 2 * prod(out) * w[0] * w[1] * w[3]
                del groups
            else:
                flops += 2 * prod(out) * a[-1]
    return flops, bytes_, dtype


def bound(mlir):
    t = target()
    flops, nbytes, dtype = graph_figures(mlir)
    key = {"f32": "fp32", "f16": "fp16", "bf16": "bf16"}[dtype]
    return max(flops / t["tflops"][key], nbytes / t["ddr"])


def total_cycles(report):
    m = re.search(r"^total: (\d+) cycles", report, re.M)
    return int(m.group(1)) if m else None
