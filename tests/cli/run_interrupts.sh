#!/usr/bin/env bash
# The Ctrl-C messages of train are true to what is on disk (docs/DURABILITY.md):
#  1. while a --steps 0 run evaluates: there is no checkpoint (and there is none); while a trained
#     run evaluates: its checkpoint holds step N (and it does); no result.json in either;
#  2. once the last test length is done, the evaluation is kept: result.json is written, then
#     exit 130 with a line saying so.
# Usage: bash run_interrupts.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
rm -rf Z T F gate gate.reached gate-* int-err.txt deferred-err.txt

tiny=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --train-lengths 1:10 --threads 1 --device cpu)

# 1. Ctrl-C during an evaluation: the message says what is on disk. SIGINT while the run is held
# as its evaluation starts (signal_at_gate, tests/cli/kill_lib.bash; docs/DURABILITY.md "Test
# gates"), so it is always mid-evaluation; no delay involved.
long=(--test-lengths 11:3000 --per-length 64)
signal_at_gate INT EVALUATING "$bin" train "${tiny[@]}" --steps 0 "${long[@]}" --out Z
# --steps 0: the cost estimate is said at the first progress event, the evaluation's start.
grep -q '^train: 0 steps' int-err.txt || fail "--steps 0: no cost estimate: $(head -3 int-err.txt)"
[[ $rc == 130 ]] || fail "--steps 0 after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating Z.*; nothing was trained (--steps 0), so there is no checkpoint, and this evaluation's result is not written (result.json is unchanged); rerun the same command" int-err.txt \
    || fail "--steps 0 SIGINT message: $(cat int-err.txt)"
grep -q "checkpoint is kept\|checkpoint holds" int-err.txt && fail "--steps 0: the message claims a checkpoint"
[[ ! -e Z/checkpoint.pt && ! -e Z/result.json ]] || fail "Z holds $(ls Z)"
# --steps 20: one checkpoint, at the end of training (--checkpoint-every 500).
signal_at_gate INT EVALUATING "$bin" train "${tiny[@]}" --quiet --steps 20 "${long[@]}" --out T
[[ $rc == 130 ]] || fail "trained run after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating T.*; training is finished (its checkpoint holds step 20), this evaluation's result is not written" int-err.txt \
    || fail "trained run's SIGINT message: $(cat int-err.txt)"
[[ -f T/checkpoint.pt && ! -e T/result.json ]] || fail "T holds $(ls T)"

# 2. Ctrl-C once the last test length is done: the result is kept. The run is held there (the
# evaluated gate, docs/DURABILITY.md "Test gates") until the handler has said it defers the signal;
# only then is it let go, so the signal always finds the evaluation done and the result unwritten.
rm -rf F gate gate.reached
LTLKIT_TEST_GATE_EVALUATED=$PWD/gate "$bin" train 'Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 \
    --d-ff 32 --steps 0 --train-lengths 1:10 --test-lengths 11:12 --per-length 4 --threads 1 --device cpu --out F \
    >/dev/null 2>deferred-err.txt &
pid=$!
wait_until 300 test -e gate.reached || fail "F: not held after its last test length within 300 s"
[[ ! -e F/result.json ]] || fail "F/result.json written before the end of the evaluation"
kill -INT "$pid"
wait_until 300 grep -q "^ltlkit: interrupt received: the evaluation of F is done (all 2 test lengths); writing F/result.json before stopping" deferred-err.txt \
    || fail "no deferral message: $(cat deferred-err.txt)"
touch gate
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "SIGINT after the last length: exit $rc, want 130: $(cat deferred-err.txt)"
grep -q "^ltlkit: interrupted: stopped after the evaluation of F; its result is kept in F/result.json$" deferred-err.txt \
    || fail "no final message: $(cat deferred-err.txt)"
python3 -c "import json; r=json.load(open('F/result.json')); assert sorted(r['per_length_accuracy'])==['11','12']" \
    || fail "F/result.json missing or wrong"

[[ $fails -eq 0 ]] && echo "run_interrupts: all passed"
exit $((fails > 0))
