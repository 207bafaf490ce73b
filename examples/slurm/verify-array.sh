#!/usr/bin/env bash
# Runs `ltlkit verify` on a suite as a Slurm job array: one `--shard i/n` per array task, then a
# merge job (`ltlkit report`) that starts when every task has ended. docs/CLUSTER.md is the guide.
#
#   SUITE=examples/lc26.suite PROFILE=standard SHARDS=16 OUT=results/lc26 GPU=1 \
#     bash examples/slurm/verify-array.sh [extra sbatch options, e.g. --partition=gpu --account=me]
#
# Settings (environment): SUITE, PROFILE, ARCHS, SHARDS, OUT as above; GPU=1 asks each task for one
# GPU (--gres=gpu:1) and trains on it (--device cuda); THREADS runs trained at once per task (one
# core each; default 1); STEPS and SEEDS override the profile's; TIME overrides the per-task time
# limit (default: sized from the profile by `ltlkit verify --estimate`); LTLKIT is the binary;
# DRY_RUN=1 writes the two job files and prints the estimate without submitting.
#
# Before submitting it prints the grid's size and estimated cost. It writes OUT/slurm/verify.sbatch
# (the array) and OUT/slurm/merge.sbatch (the merge); each task writes OUT/shard-<i>, its log is
# OUT/slurm-logs/shard-<i>.out. Runs are assigned by index mod SHARDS and their seeds derive from
# (language, architecture, seed index, learning rate), so the merged report equals one machine's.
# Resume: `sbatch --array=I OUT/slurm/verify.sbatch` for task I (or the file alone for all tasks);
# finished runs are skipped, interrupted ones resume from their checkpoints. Preemption: tasks are
# --requeue; SIGTERM stops ltlkit at once (exit 130) and the job script requeues the task, which
# resumes the same way.
set -euo pipefail

SUITE=${SUITE:-examples/lc26.suite}
PROFILE=${PROFILE:-standard}
ARCHS=${ARCHS:-global,local-1,local-2,hybrid-1,hybrid-2}
SHARDS=${SHARDS:-16}
OUT=${OUT:-results/verify-$(basename "$SUITE" .suite)}
LTLKIT=${LTLKIT:-$(pwd)/build/cli/ltlkit}
GPU=${GPU:-0}
THREADS=${THREADS:-1}
STEPS=${STEPS:-}
SEEDS=${SEEDS:-}
TIME=${TIME:-}
DRY_RUN=${DRY_RUN:-0}

die() { echo "verify-array.sh: $*" >&2; exit 2; }
[[ -x $LTLKIT ]] || die "LTLKIT=$LTLKIT is not an executable (build it, or set LTLKIT)"
[[ -r $SUITE ]] || die "SUITE=$SUITE cannot be read"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS=$SHARDS is not a positive number"
[[ $GPU == 0 || $GPU == 1 ]] || die "GPU=$GPU: expected 0 or 1"
# Jobs start in other directories and on other machines: absolute paths only.
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
LTLKIT=$(abs "$LTLKIT")
SUITE=$(abs "$SUITE")
OUT=$(abs "$OUT")
q() { printf '%q' "$1"; }

args=(--suite "$SUITE" --profile "$PROFILE" --archs "$ARCHS" --threads "$THREADS")
[[ -z $STEPS ]] || args+=(--steps "$STEPS")
[[ -z $SEEDS ]] || args+=(--seeds "$SEEDS")
if [[ $GPU == 1 ]]; then args+=(--device cuda); else args+=(--device cpu); fi

# The grid's size and cost, from the suite and the profile (also checks both before anything runs).
declare -A est
while IFS='=' read -r key value; do est[$key]=$value; done < <("$LTLKIT" verify "${args[@]}" --estimate "$SHARDS")
[[ -n ${est[runs]:-} ]] || die "ltlkit verify --estimate printed nothing"
TIME=${TIME:-${est[task_time_limit]}}
echo "grid: ${est[runs]} runs in $SHARDS array tasks (at most ${est[runs_per_shard]} runs each) on ${est[device]}"
echo "estimate: ~${est[seconds_per_run]} s per run; time limit per task $TIME; whole grid ~${est[grid_hours]} ${est[unit]}"
echo "          (${est[assumptions]})"
((SHARDS <= est[runs])) || echo "note: SHARDS=$SHARDS exceeds the ${est[runs]} runs; the extra tasks only plan"

mkdir -p "$OUT/slurm" "$OUT/slurm-logs"
gres="# no GPU requested (GPU=1 adds --gres=gpu:1)"
[[ $GPU == 0 ]] || gres="#SBATCH --gres=gpu:1"
cmd=$(q "$LTLKIT")
for a in verify "${args[@]}"; do cmd+=" $(q "$a")"; done
# Written to a temporary, then renamed: a job file is never half-written.
cat > "$OUT/slurm/verify.sbatch.tmp" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=ltlkit-verify
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --time=$TIME
#SBATCH --cpus-per-task=$THREADS
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=$OUT/slurm-logs/shard-%a.out
$gres
# Written by examples/slurm/verify-array.sh: task i of $SHARDS verifies the runs whose index mod
# $SHARDS is i into $OUT/shard-i. Resubmit (sbatch --array=I THIS_FILE) to resume task I.
i=\$SLURM_ARRAY_TASK_ID
echo "ltlkit-verify: task \$i/$SHARDS, job \${SLURM_ARRAY_JOB_ID}_\$i, restart \${SLURM_RESTART_COUNT:-0}, \$(date -u '+%F %T') UTC"
# ltlkit runs as a job step: a preemption (or scancel --signal=TERM) signals the steps, not this
# shell. On SIGTERM it stops at once keeping its checkpoints and exits 130; this script then
# requeues the task, which resumes. (Ending the job with 130 instead would make Slurm record it
# FAILED and never requeue it, even while being preempted with PreemptMode=REQUEUE.) srun is given
# the CPUs explicitly: Slurm 22.05's srun does not take --cpus-per-task from the job.
srun --ntasks=1 --cpus-per-task=$THREADS $cmd --out $(q "$OUT")/shard-\$i --shard \$i/$SHARDS --accept-cost
rc=\$?
if [ "\$rc" -eq 130 ]; then
  echo "ltlkit-verify: interrupted (exit 130); requeueing job \$SLURM_JOB_ID to resume from its checkpoints"
  scontrol requeue "\$SLURM_JOB_ID" && sleep 120  # the requeue ends this instance
fi
exit "\$rc"
EOF
shards=""
for ((i = 0; i < SHARDS; i++)); do shards+=" $(q "$OUT/shard-$i")"; done
cat > "$OUT/slurm/merge.sbatch.tmp" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=ltlkit-report
#SBATCH --time=0:30:00
#SBATCH --cpus-per-task=1
#SBATCH --output=$OUT/slurm-logs/merge.out
# Written by examples/slurm/verify-array.sh: merges every shard into $OUT; exits 1 (and names
# them, in the log and at the top of the report) when shards are missing.
exec $(q "$LTLKIT") report$shards --out $(q "$OUT")
EOF
mv "$OUT/slurm/verify.sbatch.tmp" "$OUT/slurm/verify.sbatch"
mv "$OUT/slurm/merge.sbatch.tmp" "$OUT/slurm/merge.sbatch"
echo "wrote $OUT/slurm/verify.sbatch and $OUT/slurm/merge.sbatch"
[[ $DRY_RUN == 1 ]] && exit 0

array_id=$(sbatch --parsable "$@" "$OUT/slurm/verify.sbatch")
array_id=${array_id%%;*}
merge_id=$(sbatch --parsable "$@" --dependency=afterany:"$array_id" "$OUT/slurm/merge.sbatch")
merge_id=${merge_id%%;*}
echo "submitted the shards as array job $array_id and the merge as job $merge_id"
echo "watch:  squeue -j $array_id,$merge_id;  tail -f $OUT/slurm-logs/shard-*.out"
echo "resume: sbatch --array=I $OUT/slurm/verify.sbatch  (task I; finished runs are skipped)"
echo "merge:  sbatch $OUT/slurm/merge.sbatch  (or run its ltlkit report line); report: $OUT/report.html"
echo "array_job=$array_id merge_job=$merge_id"
