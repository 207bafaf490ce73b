#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit train` killed with SIGKILL at random points (mid-step,
# mid-checkpoint, during the evaluation), then rerun with the same arguments, ends with the files of
# an uninterrupted run: checkpoint.pt (the LibTorch archive byte for byte), run.json and result.json
# (timing fields aside). Ctrl-C (SIGINT) mid-training: a checkpoint of the step it stopped at, exit
# 130 and a message with that step and the command that resumes; the rerun says it resumes from that
# step and ends with the uninterrupted run's files; a third run says "already finished". SIGTERM in
# `ltlkit eval`: exit 130, the lengths done, and the run's files unchanged. Signals are sent at
# progress lines or at test gates, never after a delay (tests/cli/kill_lib.bash).
# Usage: bash kill_train.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-1129}
rm -rf ref ref1 killed int kill-stderr.txt

args=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --steps 300 --checkpoint-every 20 --train-lengths 1:10 --test-lengths 11:40 --per-length 16
      --threads 1 --device cpu --quiet)
kill_vs_reference "$seed" 5 ref killed "$bin" train "${args[@]}"
ls -A killed | sort | tr '\n' ' '; echo

# Ctrl-C mid-training keeps the work (docs/DURABILITY.md, "Ctrl-C"): SIGINT once a progress line
# says step >= 100 (signal_at_line: the run cannot get more than a page of stderr, about 65 steps,
# past that line before the signal, so it is always mid-training; no clock involved). The run stops
# after the step the signal came in, checkpoints that step (between the periodic ones) and exits
# 130 saying so; the rerun resumes from that step and ends with the files of an uninterrupted run
# of the same command (ref1: --log-every 1 shapes metrics.jsonl).
logged=("${args[@]/--quiet/--log-every}")
logged+=(1)
"$bin" train "${logged[@]}" --out ref1 >/dev/null 2>err.txt || fail "ref1 exited $?: $(cat err.txt)"
signal_at_line INT '^step ([1-9][0-9]{2,})/300 ' "$bin" train "${logged[@]}" --out int
[[ $rc == 130 ]] || fail "train after SIGINT: exit $rc, want 130: $(tail -3 int-err.txt)"
grep -q "^ltlkit: interrupt received: stopping after the current training step and writing a checkpoint there" int-err.txt \
    || fail "no acknowledgement of the SIGINT: $(tail -3 int-err.txt)"
pattern="^ltlkit: interrupted: stopped training int at step \([0-9]*\) of 300; its checkpoint holds step \([0-9]*\), where the rerun resumes; resume with the same command: ltlkit train 'Y a' --alphabet a,b .* --out int$"
grep -q "$pattern" int-err.txt || fail "SIGINT message: $(tail -3 int-err.txt)"
at=$(sed -n "s/$pattern/\2/p" int-err.txt)
reached=$(sed -n "s/$pattern/\1/p" int-err.txt)
last_line=$(grep -o '^step [0-9]*/300 ' int-err.txt | tail -1 | grep -o '[0-9]*' | head -1)
[[ -n $at && $at -ge 100 && $at -lt 300 && $reached == "$at" && $at -ge ${last_line:-0} ]] \
    || fail "SIGINT: checkpoint step '$at', step reached '$reached', last progress line at step '$last_line'"
echo "SIGINT after the line of step >= 100: stopped at step $at (checkpoint there; periodic ones every 20)"
"$bin" train "${logged[@]}" --out int >/dev/null 2>int-err.txt || fail "rerun after SIGINT exited $?"
grep -q "^resuming from step $at of 300 (its checkpoint)$" int-err.txt || fail "rerun: $(head -3 int-err.txt)"
digest_tree ref1 > ref1.digest || fail "bad checksum in ref1"
digest_tree int > int.digest || fail "bad checksum in int"
diff ref1.digest int.digest || fail "int: files differ from the uninterrupted run (timing aside)"
"$bin" train "${logged[@]}" --out int >/dev/null 2>int-err.txt || fail "third run exited $?"
grep -q "^int: already finished" int-err.txt || fail "third run: $(cat int-err.txt)"

# SIGTERM during an evaluation: exit 130, nothing of the run changed (the lock file's holder line
# aside: the lock itself is released when the process ends). Sent while eval is held as its
# evaluation starts (the evaluating gate, docs/DURABILITY.md "Test gates").
signal_at_gate TERM EVALUATING "$bin" eval ref --test-lengths 11:2000 --per-length 64 --threads 1
[[ $rc == 130 ]] || fail "eval after SIGTERM: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating ref\( after [0-9]* of 1990 test lengths\)\?; nothing was written (the run's files are unchanged); rerun the same command to evaluate again: ltlkit eval ref --test-lengths 11:2000 --per-length 64 --threads 1$" int-err.txt \
    || fail "SIGTERM message of eval: $(cat int-err.txt)"
digest_tree ref > ref-after.digest || fail "bad checksum in ref after the interrupted eval"
diff <(grep -v '^\.lock ' ref.digest) <(grep -v '^\.lock ' ref-after.digest) || fail "the interrupted eval changed the run's files"

[[ $fails -eq 0 ]] && echo "kill_train: all passed (seed $seed)"
exit $((fails > 0))
