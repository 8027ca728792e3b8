# npuc: `make demo` shows the compiler on an example, `make check` runs
# every test. Both install missing Debian packages first (as root).
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= 2
BUILD_TYPE ?= RelWithDebInfo
DEMO_INPUT ?= examples/hivm/add_kernel.mlir
DEMO_SPEC  ?= examples/hivm/add_kernel.yaml
PACKAGES   := libmlir-22-dev mlir-22-tools llvm-22-tools llvm-22-dev \
              libyaml-dev libcmocka-dev cmake clang libclang-rt-14-dev gcc make \
              python3 pkg-config clang-format \
              libprotobuf-c-dev protobuf-c-compiler python3-onnx \
              python3-torch python3-torchvision libxml2-utils
FUZZ_SECONDS ?= 60
# Debian's python3, which has python3-onnx and python3-torch.
PYTHON_ONNX ?= /usr/bin/python3
# Leak checking stays on: the tools free what they allocate and MLIR's C API
# leaves nothing behind at exit.
ASAN_ENV   := ASAN_OPTIONS=detect_leaks=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps build check build-asan check-asan demo clean conformance \
        format format-check \
        fuzz fuzz-repro fuzz-passes fuzz-compile bench tx8-random models fuzz-onnx \
        check-nonroot

all: build

deps:
	@scripts/deps.sh $(PACKAGES)

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD) -j$(JOBS)

check: build
	scripts/run-tests.sh $(BUILD)

# The same suite as a user who is not root (default nobody; NONROOT_USER=),
# from a copy of the build that user owns: root may write where users
# cannot, so a test can pass in CI (root) and fail for everyone else.
check-nonroot: build
	scripts/check-nonroot.sh $(BUILD)

build-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DNPUC_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j$(JOBS)

check-asan: build-asan
	$(ASAN_ENV) scripts/run-tests.sh $(ASAN_BUILD)

# The demo: the seed's add_kernel through auto-blockify and the 1:2
# sub-block split (bishengir's sub-block loop, then its binding to
# get_sub_block_idx, as npuc-compile's pipeline runs them), printed, then
# the original and the result run on the C model on the same inputs
# (DEMO_SPEC) and their outputs compared.
demo: build
	@test -f $(DEMO_INPUT) || { echo "make demo: $(DEMO_INPUT) does not exist" >&2; exit 1; }
	@mkdir -p $(BUILD)/demo
	$(BUILD)/bin/npuc-opt $(DEMO_INPUT) --auto-blockify-parallel-loop \
	  --hivm-bind-sub-block=all-vector-kernels=true --hivm-map-for-to-sub-block \
	  -o $(BUILD)/demo/opt.mlir
	@cat $(BUILD)/demo/opt.mlir
	$(BUILD)/bin/npuc-run --compare $(DEMO_INPUT) $(BUILD)/demo/opt.mlir \
	  --spec $(DEMO_SPEC) -o $(BUILD)/demo/run

# AscendNPU-IR's whole suite (../shared/conformance/full/ascendnpu-ir):
# parse/print figures by cause, failing below full_suite_expected.txt.
# Every case of ../shared/conformance/ascendnpu-ir parses, verifies and
# round-trips (expected failures: test/conformance/xfail.txt); every case
# with a device entry compiles, builds and runs on the C model, or stops on
# a located "unsupported" error.
conformance: build
	test/conformance/run.sh --strict $(BUILD)/bin/npuc-opt
	test/conformance/cmodel.py --strict $(BUILD)
	test/conformance/blockify.sh $(BUILD)/bin/npuc-opt
	test/conformance/bubble_up.sh $(BUILD)/bin/npuc-opt
	test/conformance/aie_vectorize.sh --strict $(BUILD)/bin/npuc-opt
	test/conformance/aie1_exec.py --strict $(BUILD)
	test/conformance/aievec_full.py $(BUILD)/bin/npuc-opt
	test/conformance/tile_and_bind.sh $(BUILD)/bin/npuc-opt
	test/conformance/tile_and_bind_exec.py $(BUILD)
	test/conformance/full_suite.py $(BUILD)/bin/npuc-opt \
	  --expected test/conformance/full_suite_expected.txt
	test/conformance/anchor_pass_files.py $(BUILD)/bin/npuc-opt

# TX8 end to end on TX8_COUNT random configurations (test/tx8/gen.py), half
# of them flat graphs through the whole pipeline: compile with --target=tx8,
# run on the simulated tiles, compare with the reference. `make check` runs a fixed handful (Execution/tx8-random.test).
# TX8_WIDE (0 to 1): how often a conv gets 64 to 320 input channels, so a
# small SPM splits its K, 3 in 4 of them with SPM grown until the K loop is
# pipelined (0: none; another value changes the seed's cases).
TX8_SEED  ?= 6
TX8_COUNT ?= 100
TX8_WIDE  ?= 0
tx8-random: build
	rm -rf $(BUILD)/tx8-random
	python3 test/tx8/gen.py --seed $(TX8_SEED) --count $(TX8_COUNT) --mixed \
	  --wide-convs $(TX8_WIDE) --bin $(BUILD)/bin --out $(BUILD)/tx8-random

# The C sources in the style of .clang-format. Kernels' .inc bodies and
# X-macro lists (.def) are left as written.
FORMAT_FILES = $(shell git ls-files '*.c' '*.h')
format: deps
	clang-format -i $(FORMAT_FILES)
format-check: deps
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files as .clang-format wants"

# libFuzzer on the syntax engine for FUZZ_SECONDS; fails on any crash.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh

# libFuzzer on the ONNX reader for FUZZ_SECONDS, after its saved reproducers
# (fuzz/crashes/*.onnx); fails on any crash.
fuzz-onnx: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) PYTHON_ONNX=$(PYTHON_ONNX) fuzz/onnx.sh

# The saved reproducers of past fuzzer findings stay fixed.
fuzz-repro: deps
	fuzz/run.sh --repro

# Mutants of the conformance and lit cases through the sub-block passes,
# built with AddressSanitizer and UBSan; fails on a crash or a report.
MUTANTS ?= 300
fuzz-passes: build-asan
	$(ASAN_ENV) python3 fuzz/mutate_passes.py \
	  --npuc-opt $(ASAN_BUILD)/bin/npuc-opt --out $(ASAN_BUILD)/mutants \
	  --mutants $(MUTANTS)

# Mutants of every target's inputs through npuc-compile, of the target
# configs, and of the npuc-run spec, built with AddressSanitizer and UBSan;
# fails on a crash, a report, a timeout or output left by a failed run.
# FUZZ_COMPILE_SECONDS > 0 stops it after that time (CI); FUZZ_SEED picks the
# mutants. The saved findings (fuzz/crashes/compile/*) run first.
FUZZ_COMPILE_SECONDS ?= 0
FUZZ_SEED ?= 1
fuzz-compile: build-asan
	$(ASAN_ENV) python3 fuzz/mutate_compile.py --bin $(ASAN_BUILD)/bin \
	  --repro $(wildcard fuzz/crashes/compile/*)
	$(ASAN_ENV) python3 fuzz/mutate_compile.py --bin $(ASAN_BUILD)/bin \
	  --out $(ASAN_BUILD)/mutants-compile --mutants $(MUTANTS) \
	  --seconds $(FUZZ_COMPILE_SECONDS) --seed $(FUZZ_SEED)

# Benchmarks print ratios against reference runs; they are not tests.
bench: build
	NPUC_OPT=$(BUILD)/bin/npuc-opt bench/parse_print.sh
	bench/cmodel.sh $(BUILD)
	bench/hivm_rt_vadd.sh $(BUILD)
	NPUC_OPT=$(BUILD)/bin/npuc-opt bench/auto_blockify.sh
	NPUC_OPT=$(BUILD)/bin/npuc-opt bench/bubble_up.sh
	NPUC_OPT=$(BUILD)/bin/npuc-opt bench/bind_sub_block.sh
	bench/aie_vectorize.py $(BUILD)/bin/npuc-opt
	bench/tx8_fusion.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

# The ONNX front end on real models (docs/onnx.md): torchvision resnet18 and
# mobilenet_v2 and a TransformerEncoderLayer exported with python3-torch at
# test time (random weights, fixed seed), compiled for TX8, run on 16
# simulated tiles and matched against torch (max error <= 1% of max
# |output|); prints compile time and cycles / roofline bound per model.
models: build
	rm -rf $(BUILD)/models
	$(PYTHON_ONNX) test/onnx/models.py --bin $(BUILD)/bin --out $(BUILD)/models
