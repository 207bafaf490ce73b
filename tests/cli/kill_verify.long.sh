#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit verify` killed with SIGKILL at random points (while
# generating the datasets, training, evaluating, writing the report), then rerun with the same
# arguments, ends with the files of an uninterrupted run: plan.json, data/, every run folder,
# results.jsonl, verdicts.json, report.md and report.html (timing fields and the date aside).
# The long variant of kill_verify.sh: three architectures, 200 steps (two checkpoints per run), two
# worker processes (killed with their parent). Ctrl-C (SIGINT to the whole process group, as a
# terminal sends it) while the workers train: exit 130, the runs finished and the runs the workers
# had claimed, no worker left behind, and the rerun ends with the uninterrupted files.
# Usage: bash kill_verify.long.sh LTLKIT_BIN SOURCE_DIR  (KILL_SEED=N replays another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-4343}
rm -rf ref killed int kill-stderr.txt

args=('P(a & Y b)' --alphabet a,b,c --archs local-1,global,hybrid-1 --profile quick --steps 200 --threads 2
      --device cpu)
kill_vs_reference "$seed" 5 ref killed "$bin" verify "${args[@]}"

setsid "$bin" verify "${args[@]}" --out int >/dev/null 2>int-err.txt &
pid=$!
wait_until 120 grep -q ' step [0-9]' int-err.txt 2>/dev/null || fail "verify: no training step after 120 s"
sleep 1.5  # the parent looks at the workers' claims about once a second
kill -INT -- "-$pid" 2>/dev/null || fail "verify finished before the SIGINT"
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "verify after SIGINT: exit $rc, want 130: $(tail -3 int-err.txt)"
grep -q "^ltlkit: interrupted: verify stopped with [0-9] of 3 runs finished; interrupted: \[[0-9]/3\] P(a & Y b) [^;]*; finished runs are kept and interrupted ones resume from their checkpoints; resume with the same command: ltlkit verify 'P(a & Y b)' .* --out int$" int-err.txt \
    || fail "SIGINT message: $(tail -3 int-err.txt)"
sleep 0.5
! pgrep -f -- "--out int --worker" >/dev/null || fail "a worker outlived the interrupted verify"
"$bin" verify "${args[@]}" --out int >/dev/null 2>int-err.txt || fail "rerun after SIGINT exited $?"
digest_tree int > int.digest || fail "bad checksum in int"
diff ref.digest int.digest || fail "int: files differ from the uninterrupted run (timing aside)"

[[ $fails -eq 0 ]] && echo "kill_verify.long: all passed (seed $seed)"
exit $((fails > 0))
