# Quick start: `make run` (build + the end-to-end demo) and `make test` (build + every test except
# those labelled long). Each installs the missing Debian packages first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build test test-long test-cuda test-asan fuzz bench run clean

deps:
	@./.ci/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest -LE '^(long|cuda)$$' --output-on-failure -j $(JOBS) --timeout 900

test-long: build
	cd $(BUILD) && ctest -L '^long$$' --output-on-failure --timeout 3600

# The [cuda] tests: the CPU checks again on a CUDA device (needs a CUDA LibTorch and a GPU; see
# bench/scripts/gpu_check.sh for a build against pip's torch on a machine without Debian packages).
test-cuda: build
	cd $(BUILD) && ctest -L '^cuda$$' --output-on-failure --timeout 1800

# UBSan halts at its first report (-fno-sanitize-recover=undefined in CMakeLists.txt, halt_on_error
# here), so a UB report fails the test instead of scrolling past. See docs/FUZZING.md.
test-asan: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLTLKIT_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -LE '^(long|cuda)$$' --output-on-failure -j $(JOBS) --timeout 3600

bench: configure
	cmake --build $(BUILD) --target benchmarks -j $(JOBS)

# libFuzzer targets with clang-14 (torch-free); run each with e.g.
#   build-fuzz/tests/fuzz/fuzz_formula -max_total_time=600 tests/fuzz/corpus/formula
fuzz: deps
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLTLKIT_FUZZ=ON \
	  -DCMAKE_CXX_COMPILER=clang++-14
	cmake --build build-fuzz -j $(JOBS)

# The quick suite through the sweep's levels (docs/PROTOCOL.md "Sweeps"): level 0 is the demo
# profile; a cell without real evidence that more training can change (here: a recognizer whose
# controls fail at its one seed) escalates to three seeds at four times the step budget.
run: build
	./$(BUILD)/cli/ltlkit sweep --suite examples/quick.suite --profile demo \
	  --archs global,local-1,hybrid-1 --levels 2 --threads 2 --out results/quick

clean:
	rm -rf $(BUILD) build-asan build-fuzz
