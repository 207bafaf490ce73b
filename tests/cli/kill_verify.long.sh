#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit verify` killed with SIGKILL at random points (while
# generating the datasets, training, evaluating, writing the report), then rerun with the same
# arguments, ends with the files of an uninterrupted run: plan.json, data/, every run folder,
# results.jsonl, verdicts.json, report.md and report.html (timing fields and the date aside).
# The long variant of kill_verify.sh: three architectures, 200 steps (two checkpoints per run), two
# worker processes (killed with their parent). Usage: bash kill_verify.long.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-4343}
rm -rf ref killed kill-stderr.txt

args=('P(a & Y b)' --alphabet a,b,c --archs local-1,global,hybrid-1 --profile quick --steps 200 --threads 2
      --device cpu)
kill_vs_reference "$seed" 5 ref killed "$bin" verify "${args[@]}"

[[ $fails -eq 0 ]] && echo "kill_verify.long: all passed (seed $seed)"
exit $((fails > 0))
