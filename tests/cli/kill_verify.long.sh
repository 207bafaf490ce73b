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
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
seed=${KILL_SEED:-4343}
rm -rf ref killed kill-stderr.txt

args=('P(a & Y b)' --alphabet a,b,c --archs local-1,global,hybrid-1 --profile quick --steps 200 --threads 2
      --device cpu)
t0=$(now_ms)
"$bin" verify "${args[@]}" --out ref >/dev/null 2>err.txt || fail "reference exited $?: $(cat err.txt)"
ms=$(( $(now_ms) - t0 ))
echo "reference: $ms ms"
kill_and_finish "$seed" 5 $((ms * 6 / 10)) "$bin" verify "${args[@]}" --out killed || fail "the run after the kills failed"
digest_tree ref > ref.digest || fail "bad checksum in the reference"
digest_tree killed > killed.digest || fail "bad checksum after the kills"
diff ref.digest killed.digest || fail "files differ from the uninterrupted run (timing aside)"

[[ $fails -eq 0 ]] && echo "kill_verify.long: all passed (seed $seed)"
exit $((fails > 0))
