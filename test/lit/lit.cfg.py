# lit configuration for npuc. Run through a build's site config:
#   lit -sv build/test/lit                        (from the build tree)
#   lit -sv --param build_dir=build test/lit      (from the source tree)
import os

import lit.formats

if not hasattr(config, "npuc_tools_dir"):
    # Started on the source tree: load the build's site config, which sets
    # the tool directories and loads this file again.
    here = os.path.dirname(os.path.abspath(__file__))
    build_dir = lit_config.params.get(
        "build_dir", os.path.join(here, "..", "..", "build"))
    site = os.path.join(os.path.abspath(build_dir), "test", "lit",
                        "lit.site.cfg.py")
    if not os.path.exists(site):
        lit_config.fatal("no configured build at %s: run `make build` or "
                         "pass --param build_dir=<dir>" % build_dir)
    lit_config.load_config(config, site)
else:
    config.name = "npuc"
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".mlir", ".test"]
    config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
    config.test_source_root = os.path.dirname(os.path.abspath(__file__))

    path = [config.npuc_tools_dir, config.llvm_tools_dir,
            config.environment.get("PATH", os.environ.get("PATH", ""))]
    config.environment["PATH"] = os.pathsep.join(path)
    # Sanitizer settings of `make check-asan` must reach the tools.
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if var in os.environ:
            config.environment[var] = os.environ[var]

    def tool(name, directory):
        # Whole words only: not inside paths, longer names or options.
        pattern = r"(?<![\w/.-])" + name.replace("-", r"\-") + r"(?![\w.-])"
        config.substitutions.append((pattern, os.path.join(directory, name)))

    # The aie1-cmodel tests through the real pipeline need the aie-vectorize
    # pass (issue 7): `REQUIRES: aie-vectorize`.
    import subprocess
    try:
        opt_help = subprocess.run(
            [os.path.join(config.npuc_tools_dir, "npuc-opt"), "--help"],
            capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        opt_help = ""
    if "--aie-vectorize " in opt_help:
        config.available_features.add("aie-vectorize")

    # The ONNX tests build models with python3-onnx (Debian's, which a
    # pyenv python3 earlier on PATH may lack): `REQUIRES: onnx`,
    # `%python_onnx`.
    for py in ("/usr/bin/python3", "python3"):
        try:
            if subprocess.run([py, "-c", "import onnx"], capture_output=True,
                              timeout=60).returncode == 0:
                config.available_features.add("onnx")
                config.substitutions.append(("%python_onnx", py))
                break
        except (OSError, subprocess.SubprocessError):
            pass
    for name in ("npuc-opt", "npuc-compile", "npuc-run", "npuc-translate",
                 "npuc-import"):
        tool(name, config.npuc_tools_dir)
    # Reference programs of the execution tests: plain C, built by the
    # host compiler, independent of npuc.
    config.substitutions.append(("%cc", "cc -std=c11 -O2 -Wall"))
    config.substitutions.append(("%npuc_src_root", config.npuc_source_dir))
    config.substitutions.append(("%npuc_obj_root", config.npuc_obj_root))
    for name in ("FileCheck", "not", "split-file"):
        tool(name, config.llvm_tools_dir)
