#!/usr/bin/env bash
# A resumed `train` estimates only what is left (cli/run_summary.hh print_cost_estimate, from
# neural::estimate_work): a run stopped by Ctrl-C after its first checkpoint, rerun, says on its
# first stderr line the checkpoint's step, the steps left of the total, and a training time that is
# the fresh run's scaled by the steps left. The sizes keep the work under the calibration's
# threshold (neural/calibrate.hh kCalibrateAbove), so both lines come from the assumed rate and
# compare exactly up to the whole seconds they are printed in; a time that counted every step again
# would be the fresh run's (about 3 s more here).
# Usage: bash train_estimate.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if [[ ! -x $(dirname "$bin")/ltlkit-neural ]]; then
    echo "skip: no ltlkit-neural next to $bin (built without LibTorch)"
    exit 0
fi
rm -rf run
total=2700
args=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --steps $total --checkpoint-every 900 --train-lengths 1:10 --test-lengths 11:40 --per-length 16
      --threads 1 --device cpu --out run)

# "train: 2700 steps × batch 16 (about 8s), then ...": the training part's seconds.
train_seconds() { sed -n 's/^train: .* batch 16 \(left \)\?(about \([0-9]*\)s), then evaluation .*/\2/p' "$1"; }

"$bin" train "${args[@]}" >/dev/null 2>fresh-err.txt &
pid=$!
wait_until 120 test -f run/checkpoint.pt || fail "no checkpoint.pt after 120 s"
kill -INT "$pid" 2>/dev/null || fail "train finished before the SIGINT"
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "train after SIGINT: exit $rc, want 130: $(tail -n 2 fresh-err.txt)"
line=$(head -n 1 fresh-err.txt)
[[ $line == "train: $total steps × batch 16 (about "*"a pessimistic estimate"* ]] ||
    fail "the fresh run's estimate (first line): $line"
full=$(train_seconds fresh-err.txt)
[[ $full =~ ^[0-9]+$ && $full -ge 4 ]] || fail "the fresh run's training estimate: '$full' s ($line)"

"$bin" train "${args[@]}" >/dev/null 2>resumed-err.txt || fail "the rerun exited $?: $(tail -n 2 resumed-err.txt)"
line=$(head -n 1 resumed-err.txt)
pattern="^train: resuming at step \([0-9]*\): \([0-9]*\) of $total steps × batch 16 left (about [0-9]*s), then evaluation .*a pessimistic estimate.*"
at=$(sed -n "s/$pattern/\1/p" <<<"$line")
left=$(sed -n "s/$pattern/\2/p" <<<"$line")
grep -q "^resuming from step $at of $total (its checkpoint)$" resumed-err.txt || fail "no resume line for step $at"
if [[ -n $at && -n $left ]]; then
    ((at > 0 && at < total && left == total - at)) || fail "resumed at step $at with $left left of $total: $line"
    part=$(train_seconds resumed-err.txt)
    # The fresh run's whole seconds, scaled by the steps left, within the two roundings (±1 s).
    want=$((full * left / total))
    ((part >= want - 1 && part <= want + 1 && part < full)) ||
        fail "resumed estimate ${part} s for $left of $total steps, want about $want s (the fresh run's: $full s)"
else
    fail "the rerun's first line does not say where it resumes and the steps left: $line"
fi

((fails == 0)) && echo "train_estimate: resumed at step $at, $left of $total steps left: about ${part}s of the fresh run's ${full}s"
exit $((fails > 0))
