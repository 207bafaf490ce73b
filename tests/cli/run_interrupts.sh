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
rm -rf Z T F int-err.txt deferred-err.txt

tiny=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --train-lengths 1:10 --threads 1 --device cpu)

# 1. Ctrl-C during an evaluation: the message says what is on disk. interrupt_eval DIR READY ARGS...:
# `train ARGS --out DIR`, SIGINT once the command READY succeeds (the evaluation has begun).
interrupt_eval() {
    local dir=$1 ready=$2
    shift 2
    "$bin" train "$@" --out "$dir" >/dev/null 2>int-err.txt &
    local pid=$!
    wait_until 120 eval "$ready" || fail "$dir: '$ready' not after 120 s"
    sleep 0.2
    kill -INT "$pid" 2>/dev/null || fail "$dir: finished before the SIGINT"
    wait "$pid"
    rc=$?
}
long=(--test-lengths 11:3000 --per-length 64)
# --steps 0: the cost estimate is said at the first progress event, the evaluation's start.
interrupt_eval Z "grep -q '^train: 0 steps' int-err.txt" "${tiny[@]}" --steps 0 "${long[@]}"
[[ $rc == 130 ]] || fail "--steps 0 after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating Z.*; nothing was trained (--steps 0), so there is no checkpoint, and this evaluation's result is not written (result.json is unchanged); rerun the same command" int-err.txt \
    || fail "--steps 0 SIGINT message: $(cat int-err.txt)"
grep -q "checkpoint is kept\|checkpoint holds" int-err.txt && fail "--steps 0: the message claims a checkpoint"
[[ ! -e Z/checkpoint.pt && ! -e Z/result.json ]] || fail "Z holds $(ls Z)"
# --steps 20: one checkpoint, at the end of training (--checkpoint-every 500).
interrupt_eval T "test -f T/checkpoint.pt" "${tiny[@]}" --quiet --steps 20 "${long[@]}"
[[ $rc == 130 ]] || fail "trained run after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating T.*; training is finished (its checkpoint holds step 20), this evaluation's result is not written" int-err.txt \
    || fail "trained run's SIGINT message: $(cat int-err.txt)"
[[ -f T/checkpoint.pt && ! -e T/result.json ]] || fail "T holds $(ls T)"

# 2. Ctrl-C once the last test length is done: the result is kept. The words of the fit check
# (4,000, at the training lengths 1:500) come after the test lengths and give the signal its time.
exercised=0
for attempt in 1 2 3; do
    rm -rf F
    coproc TRAIN { exec "$bin" train 'Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 \
        --steps 0 --train-lengths 1:500 --test-lengths 11:12 --per-length 4 --threads 1 --device cpu --out F 2>&1 >/dev/null; }
    pid=$TRAIN_PID
    while IFS= read -r line <&"${TRAIN[0]}"; do
        echo "$line" >> deferred-err.txt
        if [[ $line == "evaluating: length 2/2,"* ]]; then kill -INT "$pid" 2>/dev/null; fi
    done
    wait "$pid"
    rc=$?
    if [[ $rc == 0 ]]; then echo "attempt $attempt: the run ended before the SIGINT arrived"; continue; fi
    exercised=1
    [[ $rc == 130 ]] || fail "SIGINT after the last length: exit $rc, want 130: $(cat deferred-err.txt)"
    grep -q "^ltlkit: interrupt received: the evaluation of F is done (all 2 test lengths); writing F/result.json before stopping" deferred-err.txt \
        || fail "no deferral message: $(cat deferred-err.txt)"
    grep -q "^ltlkit: interrupted: stopped after the evaluation of F; its result is kept in F/result.json$" deferred-err.txt \
        || fail "no final message: $(cat deferred-err.txt)"
    python3 -c "import json; r=json.load(open('F/result.json')); assert sorted(r['per_length_accuracy'])==['11','12']" \
        || fail "F/result.json missing or wrong"
    break
done
((exercised)) || echo "note: the SIGINT after the last test length came too late three times; not exercised"

[[ $fails -eq 0 ]] && echo "run_interrupts: all passed"
exit $((fails > 0))
