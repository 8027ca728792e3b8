#!/usr/bin/python3
"""Real models end to end (make models): exports torchvision resnet18 and
mobilenet_v2 (1x3x224x224) and a TransformerEncoderLayer (d_model 256, 4
heads, gelu, batch_first; 1x16x256) with python3-torch at test time (random
weights, fixed seed; no .onnx file is kept in the tree), compiles each with
npuc-compile --target=tx8, runs it on the 16 simulated tiles and compares
with torch's output: max |error| <= 1% of max |output| (f32).

  models.py --bin BUILD/bin --out DIR [--only NAME ...]

Prints per model: compile seconds, the program's total cycles and roofline
bound (tx8_report in test/onnx/report.py), and the error; exits 1 on any
mismatch or failure.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def build(name):
    import torch
    import torchvision
    torch.manual_seed(0)
    if name == "transformer":
        model = torch.nn.TransformerEncoderLayer(
            d_model=256, nhead=4, activation="gelu", batch_first=True)
        shape, opset = (1, 16, 256), 17
    else:
        model = getattr(torchvision.models, name)()
        shape, opset = (1, 3, 224, 224), 14
        # Fresh batch norms are identities and the activations fade
        # (mobilenet_v2's output would be ~1e-9): random statistics keep
        # every layer's output in play.
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                c = m.num_features
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.2, 0.2)
                del c
    model.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        y = model(x)
    return model, x, y, opset


def run(name, bindir, out):
    import torch
    os.makedirs(out, exist_ok=True)
    model, x, y, opset = build(name)
    path = os.path.join(out, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=opset,
                      input_names=["x"], output_names=["y"])
    prog = os.path.join(out, "prog")
    start = time.monotonic()
    r = subprocess.run([os.path.join(bindir, "npuc-compile"), "--target=tx8",
                        "-o", prog, path], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if r.returncode:
        print(f"{name}: compile failed:\n{r.stderr}")
        return False
    subprocess.run(["make", "-s", "-C", prog], check=True)
    os.makedirs(os.path.join(out, "in"), exist_ok=True)
    os.makedirs(os.path.join(out, "res"), exist_ok=True)
    x.numpy().astype("<f4").tofile(os.path.join(out, "in", "arg0.bin"))
    r = subprocess.run([os.path.join(prog, "program"), os.path.join(out, "in"),
                        os.path.join(out, "res")], capture_output=True,
                       text=True)
    if r.returncode:
        print(f"{name}: the program failed:\n{r.stderr[-2000:]}")
        return False
    got = np.fromfile(os.path.join(out, "res", "result0.bin"), dtype="<f4")
    want = y.numpy().astype(np.float32).reshape(-1)
    if got.size != want.size:
        print(f"{name}: {got.size} elements, torch has {want.size}")
        return False
    err = float(np.max(np.abs(got - want)))
    scale = float(np.max(np.abs(want)))
    cycles = report.total_cycles(r.stdout)
    imp = subprocess.run([os.path.join(bindir, "npuc-import"), "--elide-weights",
                          path], capture_output=True, text=True, check=True)
    bound = round(report.bound(imp.stdout))
    ok = err <= 0.01 * scale
    print(f"{name}: {'match' if ok else 'MISMATCH'}: max error {err:.3g} "
          f"({100 * err / scale:.3g}% of max |output| {scale:.3g}); "
          f"compile {seconds:.1f} s; {cycles} cycles, bound {bound} "
          f"(cycles / bound {cycles / bound if cycles and bound else 0:.2f})",
          flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*",
                    default=["resnet18", "mobilenet_v2", "transformer"])
    a = ap.parse_args()
    results = [run(n, a.bin, os.path.join(a.out, n)) for n in a.only]
    print(f"models: {sum(results)} of {len(results)} match")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
