#!/usr/bin/env bash
# A verification grid through a real Slurm job array (docs/CLUSTER.md, "What the test covers"):
# a single-node Slurm cluster (tests/cli/slurm_lib.bash) schedules the array that
# examples/slurm/verify-array.sh submits, one `verify --shard i/4` per task, and
#   - the merged report equals a plain `ltlkit verify` of the same suite on this machine
#     (plan.json, results.jsonl, verdicts.json, report.md/.html, figures/, every run's result.json
#     and checkpoint state; only the timing fields and the report's date are left out);
#   - a task cancelled mid-training (scancel JOB_TASK) and resubmitted resumes from its checkpoint;
#   - a task that fails (its shard folder unusable) is named by `ltlkit report` as a missing shard
#     (exit 1), as is the cancelled one, instead of a silently smaller table;
#   - two tasks of the same shard at once: the folder lock lets one write, the other exits 2;
#   - a task preempted by a job of a higher-priority partition (SIGTERM, then GraceTime) stops with
#     exit 130, is requeued by its job script (Restarts=1) and resumes from its checkpoint.
# Which task is cancelled and which fails is drawn from SLURM_TEST_SEED (default: random);
# SLURM_TEST_SUITE (an absolute path) and SLURM_TEST_ARCHS replace the grid (4 tasks whatever its
# size).
# Usage: bash slurm.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
source "$src/tests/cli/slurm_lib.bash"
t_start=$SECONDS
stamp() { echo "[$((SECONDS - t_start)) s] $*"; }  # phase times (docs/PERFORMANCE.md)
seed=${SLURM_TEST_SEED:-$((RANDOM * 32768 + RANDOM))}
RANDOM=$seed
shards=4
cancel=$((RANDOM % shards))
failing=$(((cancel + 1 + RANDOM % (shards - 1)) % shards))
preempt=$failing  # its resubmission is the task preempted
echo "seed $seed: task $cancel is cancelled mid-training, task $failing fails, then is preempted when resubmitted"

rm -rf ref out suite.txt gates
if [[ -n ${SLURM_TEST_SUITE:-} ]]; then
    cp "$SLURM_TEST_SUITE" suite.txt
else
    printf 'last-a\ta,b\tformula\tY a\nfirst-a\ta,b\tformula\tP(a & !P true)\n' > suite.txt
fi
archs=${SLURM_TEST_ARCHS:-global,local-1}
# tiny: a profile for tests (1 layer, d 8; checkpoints every 10 steps); 1500 steps take seconds.
steps=1500
common=(--suite suite.txt --profile tiny --archs "$archs" --steps "$steps")

# The single-machine reference, while the cluster starts.
"$bin" verify "${common[@]}" --threads 1 --device cpu --out ref >ref.log 2>&1 &
ref_pid=$!
SLURM_STOP_PIDS=$ref_pid
trap 'kill $ref_pid 2>/dev/null' EXIT  # until slurm_start's traps replace it

slurm_start || { fails=1; exit 1; }
stamp "cluster up"
export LTLKIT=$bin SUITE=suite.txt PROFILE=tiny ARCHS=$archs SHARDS=$shards OUT=out STEPS=$steps

# What a user types, dry: the job files and the estimate, with a GPU request.
GPU=1 DRY_RUN=1 bash "$src/examples/slurm/verify-array.sh" > dry.txt 2>&1 || fail "verify-array.sh DRY_RUN=1 GPU=1: $(cat dry.txt)"
grep -q '^#SBATCH --gres=gpu:1$' out/slurm/verify.sbatch || fail "GPU=1: no --gres=gpu:1 in verify.sbatch"
grep -q -- '--device cuda' out/slurm/verify.sbatch || fail "GPU=1: verify.sbatch does not train on cuda"
grep -q '^estimate: ~[0-9]* s per run; time limit per task [0-9]*:[0-9][0-9]:00; whole grid ~[0-9.]* GPU-hours' dry.txt \
    || fail "no estimate before submission: $(cat dry.txt)"
rm -rf out

# A failing task: its shard folder holds a file named `data` where the datasets go.
mkdir -p "out/shard-$failing" && echo "not a folder" > "out/shard-$failing/data"

stamp "array submitted"
# Only task $cancel is held at its checkpoint: the gate names a file per task (%a), and the others'
# are open from the start.
rm -rf gates && mkdir gates
for ((i = 0; i < shards; i++)); do ((i == cancel)) || touch "gates/cancel-$i"; done
LTLKIT_TEST_GATE_CHECKPOINT=$PWD/gates/cancel-%a bash "$src/examples/slurm/verify-array.sh" > submit.txt 2>&1 || fail "verify-array.sh: $(cat submit.txt)"
cat submit.txt
grep -q '^grid: [0-9]* runs in 4 array tasks' submit.txt || fail "no grid size printed"
grep -q '^estimate: .* core-hours' submit.txt || fail "no CPU estimate printed"
array=$(sed -n 's/^array_job=\([0-9]*\) merge_job=\([0-9]*\)$/\1/p' submit.txt)
merge=$(sed -n 's/^array_job=\([0-9]*\) merge_job=\([0-9]*\)$/\2/p' submit.txt)
[[ -n $array && -n $merge ]] || { fail "no job ids from verify-array.sh"; exit 1; }
grep -q '^#SBATCH --time=0:05:00$' out/slurm/verify.sbatch || fail "per-task time limit: $(grep -- --time out/slurm/verify.sbatch)"

# The cancelled task: scancel while it is held after its first checkpoint (the checkpoint gate of
# docs/DURABILITY.md, "Test gates": the submission's environment names gates/cancel; the task
# waits there until gates/cancel-$cancel exists, which it never does, so it is mid-training when
# cancelled however slow the machine).
if slurm_until 240 test -e "gates/cancel-$cancel.reached"; then
    scancel "${array}_$cancel"
    echo "cancelled task ${array}_$cancel held after its first checkpoint"
else
    fail "task $cancel: not at its first checkpoint within 240 s: $(tail -3 "out/slurm-logs/shard-$cancel.out" 2>&1)"
fi

# The merge runs when every task has ended (afterany): it names the two missing shards, exit 1.
slurm_wait_ended 300 "$array" "$merge" || fail "array $array and merge $merge not ended after 300 s"
stamp "array and first merge ended"
[[ $(slurm_field "${array}_$cancel" JobState) == CANCELLED ]] || fail "task $cancel: state $(slurm_field "${array}_$cancel" JobState), want CANCELLED"
[[ $(slurm_field "${array}_$failing" JobState) == FAILED ]] || fail "task $failing: state $(slurm_field "${array}_$failing" JobState), want FAILED"
for ((i = 0; i < shards; i++)); do
    ((i == cancel || i == failing)) && continue
    [[ $(slurm_field "${array}_$i" JobState) == COMPLETED ]] || fail "task $i: state $(slurm_field "${array}_$i" JobState)"
done
[[ $(slurm_field "$merge" ExitCode) == 1:0 ]] || fail "merge with missing shards: exit $(slurm_field "$merge" ExitCode), want 1:0"
grep -q "^ltlkit: missing: shard $cancel/4 (.*out/shard-$cancel): 1 of 1 runs missing" out/slurm-logs/merge.out \
    || grep -q "^ltlkit: missing: shard $cancel/4 (.*out/shard-$cancel): [1-9][0-9]* of [1-9][0-9]* runs missing" out/slurm-logs/merge.out \
    || fail "merge does not name the cancelled shard $cancel: $(cat out/slurm-logs/merge.out)"
grep -q "^ltlkit: missing: shard $failing/4 (.*out/shard-$failing): no plan.json, its task failed before planning" out/slurm-logs/merge.out \
    || fail "merge does not name the failed shard $failing: $(cat out/slurm-logs/merge.out)"
grep -q "Missing:.*shard $failing/4" out/report.md || fail "report.md does not name the missing shard $failing"

# Resubmitted twice: the first task is held once it holds the shard folder's lock (the lock gate,
# docs/DURABILITY.md "Test gates"), the second is submitted only then and must exit 2 saying the
# folder is in use; only once it has ended is the first let go, and it resumes from the checkpoint.
# The overlap is made, not hoped for: no ordering of the two depends on the machine's speed.
a1=$(LTLKIT_TEST_GATE_LOCKED=$PWD/gates/lock-%a sbatch --parsable --array="$cancel" out/slurm/verify.sbatch)
slurm_until 240 test -e "gates/lock-$cancel.reached" || fail "task $cancel (first): no lock taken within 240 s"
grep -q "ltlkit verify, pid" "out/shard-$cancel/.lock" || fail "the held task does not hold out/shard-$cancel/.lock"
a2=$(sbatch --parsable --array="$cancel" out/slurm/verify.sbatch)
slurm_wait_ended 240 "$a2" || fail "the second task of shard $cancel not ended after 240 s"
[[ $(slurm_field "${a1}_$cancel" JobState) == RUNNING ]] || fail "the held task is $(slurm_field "${a1}_$cancel" JobState), want RUNNING"
touch "gates/lock-$cancel"
slurm_wait_ended 240 "$a1" || fail "resubmitted task $cancel not ended after 240 s"
stamp "resubmitted pair ended"
states="$(slurm_field "${a1}_$cancel" JobState)/$(slurm_field "${a1}_$cancel" ExitCode) $(slurm_field "${a2}_$cancel" JobState)/$(slurm_field "${a2}_$cancel" ExitCode)"
[[ $states == "COMPLETED/0:0 FAILED/2:0" ]] \
    || fail "two tasks of shard $cancel: states $states, want COMPLETED/0:0 (the holder) and FAILED/2:0"
grep -q "out/shard-$cancel is in use by another process (ltlkit verify, pid" "out/slurm-logs/shard-$cancel.out" \
    || fail "the second task of shard $cancel does not say the folder is in use"
grep -q "  resuming from step [1-9][0-9]* of $steps" "out/slurm-logs/shard-$cancel.out" \
    || fail "task $cancel did not resume from its checkpoint: $(tail -5 "out/slurm-logs/shard-$cancel.out")"

# The failed task, repaired and resubmitted, preempted mid-training by a job of partition urgent
# that needs every CPU: SIGTERM, exit 130, requeued by its job script, resumed, completed.
# It is held after its first checkpoint (the checkpoint gate) until the preemption has requeued
# it, so the preemption always finds it mid-training; the requeued instance waits at the same gate
# (its environment is the submission's) until the test opens it.
rm "out/shard-$preempt/data"
p=$(LTLKIT_TEST_GATE_CHECKPOINT=$PWD/gates/preempt-%a sbatch --parsable --array="$preempt" out/slurm/verify.sbatch)
if slurm_until 240 test -e "gates/preempt-$preempt.reached"; then
    u=$(sbatch --parsable --partition=urgent --cpus-per-task="$(nproc)" --output=urgent.out --wrap 'sleep 1')
else
    fail "task $preempt: not at its first checkpoint within 240 s: $(tail -3 "out/slurm-logs/shard-$preempt.out" 2>&1)"
    u=""
fi
slurm_until 120 eval '[[ $(slurm_field "${p}_$preempt" Restarts) == 1 ]]' \
    || fail "task $preempt not requeued after the preemption: $(scontrol -o show job "${p}_$preempt")"
touch "gates/preempt-$preempt"
slurm_wait_ended 300 "$p" $u || fail "preempted task $preempt not ended after 300 s"
stamp "preempted task ended"
[[ $(slurm_field "${p}_$preempt" JobState)/$(slurm_field "${p}_$preempt" ExitCode) == COMPLETED/0:0 ]] \
    || fail "preempted task: $(slurm_field "${p}_$preempt" JobState)/$(slurm_field "${p}_$preempt" ExitCode), want COMPLETED/0:0"
log=out/slurm-logs/shard-$preempt.out
grep -q "DUE TO PREEMPTION\|ltlkit: interrupted: verify stopped" "$log" || fail "no preemption in $log"
grep -q "^ltlkit-verify: interrupted (exit 130); requeueing" "$log" || fail "the job script did not requeue: $(tail -5 "$log")"
grep -q "restart 1," "$log" || fail "no restarted instance in $log"
grep -q "  resuming from step [1-9][0-9]* of $steps" "$log" || fail "task $preempt did not resume: $(tail -5 "$log")"

# The merge, now complete: exit 0 and the single machine's files.
sbatch --wait out/slurm/merge.sbatch >/dev/null 2>merge-err.txt || fail "complete merge failed: $(cat out/slurm-logs/merge.out)"
stamp "complete merge ended"
wait "$ref_pid" || fail "reference verify exited $?: $(tail -3 ref.log)"
digest_tree ref | grep -v '^\.lock ' > ref.digest || fail "bad checksum in ref"
# The merged folder's own files, and every run folder of the shards under its plan path.
{
    digest_tree out | grep -E '^(plan\.json|results\.jsonl|verdicts\.json|report\.md|report\.html|figures/)'
    for ((i = 0; i < shards; i++)); do digest_tree "out/shard-$i" | grep '^runs/'; done
    digest_tree "out/shard-0" | grep '^data/'
} | sort > out.digest || fail "bad checksum in out"
diff <(grep -E '^(plan\.json|results\.jsonl|verdicts\.json|report\.md|report\.html|figures/|runs/|data/)' ref.digest | sort) out.digest \
    || fail "the merged array differs from the single-machine verify (timing fields aside)"
[[ $(grep -c '^runs/.*/result.json ' out.digest) -ge 4 ]] || fail "fewer than 4 runs compared"

[[ $fails -eq 0 ]] && echo "slurm: all passed (seed $seed) in $((SECONDS - t_start)) s"
exit $((fails > 0))
