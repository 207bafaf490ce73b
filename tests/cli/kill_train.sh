#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit train` killed with SIGKILL at random points (mid-step,
# mid-checkpoint, during the evaluation), then rerun with the same arguments, ends with the files of
# an uninterrupted run: checkpoint.pt (the LibTorch archive byte for byte), run.json and result.json
# (timing fields aside). Ctrl-C (SIGINT) after a checkpoint: exit 130 and a message with the step
# reached, the checkpoint's step and the command that resumes; the rerun says it resumes from that
# step and ends with the uninterrupted run's files; a third run says "already finished". Ctrl-C in
# `ltlkit eval`: exit 130, the lengths done, and the run's files unchanged.
# Usage: bash kill_train.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-1129}
rm -rf ref killed int kill-stderr.txt

args=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --steps 300 --checkpoint-every 20 --train-lengths 1:10 --test-lengths 11:40 --per-length 16
      --threads 1 --device cpu --quiet)
kill_vs_reference "$seed" 5 ref killed "$bin" train "${args[@]}"
ls -A killed | sort | tr '\n' ' '; echo

# interrupt SIGNAL DIR CMD...: starts CMD, sends SIGNAL once DIR/checkpoint.pt exists (the first
# checkpoint, step 20 of 300), waits; $rc is its exit status, int-err.txt its stderr.
interrupt() {
    local sig=$1 dir=$2
    shift 2
    "$@" >/dev/null 2>int-err.txt &
    local pid=$!
    wait_until 120 test -f "$dir/checkpoint.pt" || fail "$*: no checkpoint.pt after 120 s"
    kill "-$sig" "$pid" 2>/dev/null || fail "$*: finished before the $sig"
    wait "$pid"
    rc=$?
}
interrupt INT int "$bin" train "${args[@]}" --out int
[[ $rc == 130 ]] || fail "train after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
pattern="^ltlkit: interrupted: stopped training int at step \([0-9]*\) of 300; its checkpoint holds step \([0-9]*\), where the rerun resumes; resume with the same command: ltlkit train 'Y a' --alphabet a,b .* --out int$"
grep -q "$pattern" int-err.txt || fail "SIGINT message: $(cat int-err.txt)"
at=$(sed -n "s/$pattern/\2/p" int-err.txt)
reached=$(sed -n "s/$pattern/\1/p" int-err.txt)
[[ -n $at && $at -gt 0 && $((at % 20)) == 0 && $reached -ge $at ]] \
    || fail "SIGINT: checkpoint step '$at', step reached '$reached'"
"$bin" train "${args[@]}" --out int >/dev/null 2>int-err.txt || fail "rerun after SIGINT exited $?"
grep -q "^resuming from step $at of 300 (its checkpoint)$" int-err.txt || fail "rerun: $(cat int-err.txt)"
digest_tree int > int.digest || fail "bad checksum in int"
diff ref.digest int.digest || fail "int: files differ from the uninterrupted run (timing aside)"
"$bin" train "${args[@]}" --out int >/dev/null 2>int-err.txt || fail "third run exited $?"
grep -q "^int: already finished" int-err.txt || fail "third run: $(cat int-err.txt)"

# SIGTERM in the middle of an evaluation: exit 130, nothing of the run changed (the lock file's
# holder line aside: the lock itself is released when the process ends).
"$bin" eval ref --test-lengths 11:2000 --per-length 64 --threads 1 >/dev/null 2>int-err.txt &
pid=$!
# Once it holds the run's lock its handler is installed (catch_interrupts comes first); then a
# moment for it to be inside the evaluation.
wait_until 120 grep -q "^ltlkit eval, pid $pid," ref/.lock || fail "eval: no lock on ref after 120 s"
sleep 1
kill -TERM "$pid" 2>/dev/null || fail "eval finished before the SIGTERM"
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "eval after SIGTERM: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: stopped evaluating ref\( after [0-9]* of 1990 test lengths\)\?; nothing was written (the run's files are unchanged); rerun the same command to evaluate again: ltlkit eval ref --test-lengths 11:2000 --per-length 64 --threads 1$" int-err.txt \
    || fail "SIGTERM message of eval: $(cat int-err.txt)"
digest_tree ref > ref-after.digest || fail "bad checksum in ref after the interrupted eval"
diff <(grep -v '^\.lock ' ref.digest) <(grep -v '^\.lock ' ref-after.digest) || fail "the interrupted eval changed the run's files"

[[ $fails -eq 0 ]] && echo "kill_train: all passed (seed $seed)"
exit $((fails > 0))
