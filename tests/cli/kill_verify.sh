#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit verify` killed with SIGKILL at random points (while
# generating the datasets, training, evaluating, writing the report), then rerun with the same
# arguments, ends with the files of an uninterrupted run: plan.json, data/, every run folder,
# results.jsonl, verdicts.json, report.md and report.html (timing fields and the date aside).
# Ctrl-C (SIGINT) while the run trains: exit 130 and a message with the runs finished, the run
# interrupted (its step and its checkpoint's) and the command that resumes; the checkpoint is kept
# and the rerun ends with the uninterrupted files.
# kill_verify.long.sh does the same with two architectures and worker processes.
# Usage: bash kill_verify.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-4242}
rm -rf ref killed int kill-stderr.txt

args=('Y a' --alphabet a,b --archs local-1 --profile quick --steps 30 --threads 1 --device cpu)
kill_vs_reference "$seed" 3 ref killed "$bin" verify "${args[@]}"

# SIGINT while the run is held after its checkpoint (the checkpoint gate, docs/DURABILITY.md "Test
# gates"): always mid-training, however slow the machine; the run stops there keeping it.
rm -rf gate gate.reached
LTLKIT_TEST_GATE_CHECKPOINT=$PWD/gate "$bin" verify "${args[@]}" --out int >/dev/null 2>int-err.txt &
pid=$!
wait_until 300 test -e gate.reached || fail "verify: no checkpoint within 300 s: $(tail -3 int-err.txt)"
kill -INT "$pid" 2>/dev/null || fail "verify finished before the SIGINT"
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "verify after SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q "^ltlkit: interrupted: verify stopped with 0 of 1 runs finished; interrupted: \[1/1\] Y a local-1 [^ ]* at step 30 of 30 (checkpoint at step 30); finished runs are kept and interrupted ones resume from their checkpoints; resume with the same command: ltlkit verify 'Y a' --alphabet a,b .* --out int$" int-err.txt \
    || fail "SIGINT message: $(tail -3 int-err.txt)"
[[ -f $(echo int/runs/*/*/*/checkpoint.pt) ]] || fail "no checkpoint kept: $(find int -name checkpoint.pt)"
[[ ! -e int/report.md ]] || fail "the interrupted verify wrote a report"
"$bin" verify "${args[@]}" --out int >/dev/null 2>int-err.txt || fail "rerun after SIGINT exited $?"
digest_tree int > int.digest || fail "bad checksum in int"
diff ref.digest int.digest || fail "int: files differ from the uninterrupted run (timing aside)"

[[ $fails -eq 0 ]] && echo "kill_verify: all passed (seed $seed)"
exit $((fails > 0))
