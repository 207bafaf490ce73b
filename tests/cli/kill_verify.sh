#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit verify` killed with SIGKILL at random points (while
# generating the datasets, training, evaluating, writing the report), then rerun with the same
# arguments, ends with the files of an uninterrupted run: plan.json, data/, every run folder,
# results.jsonl, verdicts.json, report.md and report.html (timing fields and the date aside).
# kill_verify.long.sh does the same with two architectures and worker processes.
# Usage: bash kill_verify.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-4242}
rm -rf ref killed kill-stderr.txt

args=('Y a' --alphabet a,b --archs local-1 --profile quick --steps 30 --threads 1 --device cpu)
kill_vs_reference "$seed" 3 ref killed "$bin" verify "${args[@]}"

[[ $fails -eq 0 ]] && echo "kill_verify: all passed (seed $seed)"
exit $((fails > 0))
