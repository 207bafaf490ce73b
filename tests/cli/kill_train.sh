#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit train` killed with SIGKILL at random points (mid-step,
# mid-checkpoint, during the evaluation), then rerun with the same arguments, ends with the files of
# an uninterrupted run: checkpoint.pt (the LibTorch archive byte for byte), run.json and result.json
# (timing fields aside). Usage: bash kill_train.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-1129}
rm -rf ref killed kill-stderr.txt

args=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --steps 300 --checkpoint-every 20 --train-lengths 1:10 --test-lengths 11:40 --per-length 16
      --threads 1 --device cpu --quiet)
kill_vs_reference "$seed" 5 ref killed "$bin" train "${args[@]}"
ls -A killed | sort | tr '\n' ' '; echo

[[ $fails -eq 0 ]] && echo "kill_train: all passed (seed $seed)"
exit $((fails > 0))
