#!/usr/bin/env bash
# The GPU checks, as one script for one short lease of a CUDA machine that has pip's torch but no
# Debian packages (docs/PERFORMANCE.md "GPU"). Run here first: bench/scripts/vendor_third_party.sh
# (fills the git-ignored third_party/, which must travel with the tree). On the GPU machine, from the
# repository root:  bash bench/scripts/gpu_check.sh OUTDIR [PHASE] [SECONDS_FOR_THE_STANDARD_SAMPLE]
# PHASE `first` builds and runs steps 1-2, `second` (re-)builds (a no-op on the same machine) and
# runs steps 3-5, `all` (default) both: two calls fit a short lease better than one, since a build
# that fails on the first leaves time to fix it and start again.
# It builds against the CUDA LibTorch, then, each step bounded in time and independent of the
# others' success:
#   1. the [cuda] tests (ctest label cuda): the CPU checks again on the GPU;
#   2. bench_train on the GPU: ltlkit vs Python PyTorch tokens/s, attention forward times;
#   3. a time-boxed sample of the standard profile (examples/lc26.suite, 3 architectures, one seed,
#      parallel runs on one GPU): the tokens/s of each run, to cost the whole suite;
#   4. `make run`'s quick verification on the GPU (wall time, verdicts);
#   5. the CPU neural and CLI tests against this LibTorch version;
#   6. language models at GPT-2 small's shape (`ltlkit lm sweep --profile gpu`, word level, on the
#      CMake documentation corpus of bench/scripts/lm_corpus.sh when /usr/share/cmake-*/Help exists),
#      global and hybrid-1 with learned positions, time-boxed: tokens/s and perplexity so far.
# Everything goes to OUTDIR: log.txt (all steps), build.txt, smi.csv, quick-report.md,
# standard-results.jsonl.
#
# PHASE `lc26` instead runs the LC26 grid (examples/lc26.suite × local-1,2,4, hybrid-1,2,4, global
# × 3 seeds) at the `standard` profile for SECONDS (default 420) on the GPU, into
# docs/results/lc26-standard/ of the tree it runs in, so that it resumes from the runs committed
# there: verify skips finished runs. The finished runs' small files (result.json, run.json,
# metrics.jsonl), plan.json and the report are copied to OUTDIR/lc26-standard/, to be copied back
# into docs/results/lc26-standard/ and committed; the next lease continues with the same command.
set -u
out=${1:?usage: gpu_check.sh OUTDIR [all|first|second|lc26] [SECONDS]}
phase=${2:-all}
sample_s=${3:-$([[ ${2:-all} == lc26 ]] && echo 420 || echo 150)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee "$out/log.txt") 2>&1
t0=$SECONDS
step() { echo; echo "== [$((SECONDS - t0)) s] $*"; }
root=$(pwd)
work=$(mktemp -d)

step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
echo "cores $(nproc)"; g++ --version | head -1; cmake --version | head -1
for d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do [[ -d $d ]] && PATH=$d:$PATH; done
command -v nvcc && nvcc --version | tail -1
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cxx11 abi", torch.compiled_with_cxx11_abi(), torch.cuda.get_device_name(0))'
tp=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')

step "configure (CUDA LibTorch at $tp, headers from third_party/)"
[[ -d third_party/include ]] || { echo "third_party/ is missing: run bench/scripts/vendor_third_party.sh here first"; exit 2; }
export TORCH_CUDA_ARCH_LIST=9.0
if ! cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tp;$root/third_party" \
    -DLTLKIT_THIRD_PARTY="$root/third_party" -DBoost_INCLUDE_DIR="$root/third_party/include" \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.txt" 2>&1; then
    tail -60 "$out/build.txt"; exit 1
fi
grep -E 'LibTorch not found|Warning|Error' -A3 "$out/build.txt" | head -20

step "build (ltlkit, ltlkit-neural, test_neural, bench_train)"
cmake --build build-gpu -j "$(nproc)" -k 0 --target ltlkit ltlkit-neural test_neural bench_train >>"$out/build.txt" 2>&1 \
    || { grep -E 'error|Error' -B2 -A6 "$out/build.txt" | head -120; }
ls -la build-gpu/cli/ltlkit build-gpu/cli/ltlkit-neural build-gpu/tests/test_neural build-gpu/bench/bench_train

if [[ $phase == all || $phase == first ]]; then
step "1. [cuda] tests"
(cd build-gpu && timeout 600 ctest -L '^cuda$' --output-on-failure --timeout 300)

step "2. bench_train on the GPU"
timeout 240 build-gpu/bench/bench_train --device cuda --python python3 --steps 200 --archs global,local-1,local-4,hybrid-1
timeout 120 build-gpu/bench/bench_train --device cuda --python python3 --steps 100 --batch 1024 --archs global,local-1 --skip-attention

fi
if [[ $phase == lc26 ]]; then
step "LC26 grid at the standard profile, ${sample_s} s (resumes docs/results/lc26-standard)"
grid=docs/results/lc26-standard
timeout "$sample_s" build-gpu/cli/ltlkit verify --suite examples/lc26.suite --profile standard \
    --archs local-1,local-2,local-4,hybrid-1,hybrid-2,hybrid-4,global --device cuda --threads 16 --out "$grid" 2>&1 \
    | grep -E 'done in|already finished|error|worker' | tail -200
# The report of what is finished so far (a killed verify leaves it to `report`).
build-gpu/cli/ltlkit report "$grid" > /dev/null 2>&1 || true
mkdir -p "$out/lc26-standard"
(cd "$grid" && find . \( -name result.json -o -name run.json -o -name metrics.jsonl -o -name plan.json \
    -o -name 'report.*' -o -name verdicts.json -o -name results.jsonl -o -path './figures/*' \) -print0 \
    | tar --null -T - -cf -) | (cd "$out/lc26-standard" && tar -xf -)
echo "copied $(find "$out/lc26-standard" -name result.json | wc -l) finished runs to $out/lc26-standard"
step "done"
exit 0
fi
if [[ $phase != first ]]; then
step "3. standard profile sample: lc26.suite x global,local-1,hybrid-1 x 1 seed, ${sample_s} s, parallel runs"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 5 >"$out/smi.csv" 2>&1 &
smi=$!
timeout "$sample_s" build-gpu/cli/ltlkit verify --suite examples/lc26.suite --profile standard \
    --archs global,local-1,hybrid-1 --seeds 1 --device cuda --threads 16 --out "$work/standard" 2>&1 \
    | grep -E 'step [0-9]*000/|done in|error|worker' | tail -100
kill $smi 2>/dev/null
cp "$work/standard/results.jsonl" "$out/standard-results.jsonl" 2>/dev/null

step "4. make run's quick verification on the GPU"
/usr/bin/time -f "quick verify: %e s wall, %U s user" build-gpu/cli/ltlkit verify --suite examples/quick.suite \
    --profile quick --archs global,local-1,hybrid-1 --device cuda --out "$work/quick" 2>&1 | grep -v ' step '
cp "$work/quick/report.md" "$out/quick-report.md" 2>/dev/null

step "5. CPU neural and CLI tests with this LibTorch"
(cd build-gpu && timeout 300 ctest -LE '^(long|cuda)$' -R '^(test_neural|cli: )' -j "$(nproc)" --timeout 240 2>&1 | tail -25)

step "6. language models, GPT-2 small shape (lm sweep --profile gpu), ${sample_s} s"
if bash bench/scripts/lm_corpus.sh "$work/lmcorpus"; then
  timeout "$sample_s" build-gpu/cli/ltlkit lm sweep --profile gpu --tokenizer word --archs global,hybrid-1 \
      --pes learned --seeds 1 --steps 2000 --eval-tokens 50000 --train "$work/lmcorpus/train.txt" \
      --valid "$work/lmcorpus/valid.txt" --test "$work/lmcorpus/test.txt" --out "$work/lm" 2>&1 | tail -40
  cp "$work/lm/table.md" "$out/lm-table.md" 2>/dev/null
else
  echo "no CMake documentation on this machine: language-model step skipped"
fi

fi
step "done"
