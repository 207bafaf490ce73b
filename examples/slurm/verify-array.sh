#!/usr/bin/env bash
# Runs `ltlkit verify` on a suite as a Slurm job array: one shard per array task, then a merge job
# (`ltlkit report`) that starts when every shard has finished (afterany: a failed shard still gets
# its finished runs merged; resubmitting the script resumes the missing ones).
#
#   SUITE=examples/lc26.suite PROFILE=standard SHARDS=16 OUT=results/lc26 \
#     bash examples/slurm/verify-array.sh [extra sbatch options, e.g. --partition=gpu --account=me]
#
# Each shard writes OUT/shard-<i>; runs are assigned by index mod SHARDS, their seeds derive from
# (language, architecture, seed index, learning rate), so any split gives the same results.
# Reruns skip finished runs and resume interrupted ones from their checkpoints.
set -euo pipefail

SUITE=${SUITE:-examples/lc26.suite}
PROFILE=${PROFILE:-standard}
ARCHS=${ARCHS:-global,local-1,local-2,hybrid-1,hybrid-2}
SHARDS=${SHARDS:-16}
OUT=${OUT:-results/verify-$(basename "$SUITE" .suite)}
LTLKIT=${LTLKIT:-$(pwd)/build/cli/ltlkit}
TIME=${TIME:-24:00:00}
GRES=${GRES:---gres=gpu:1}

mkdir -p "$OUT/slurm-logs"

array_id=$(sbatch --parsable "$@" \
  --job-name=ltlkit-verify --array=0-$((SHARDS - 1)) --time="$TIME" $GRES --cpus-per-task=4 \
  --output="$OUT/slurm-logs/shard-%a.out" \
  --wrap="\"$LTLKIT\" verify --suite \"$SUITE\" --profile \"$PROFILE\" --archs \"$ARCHS\" \
--out \"$OUT/shard-\$SLURM_ARRAY_TASK_ID\" --shard \$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT --threads 1")

merge_id=$(sbatch --parsable "$@" \
  --job-name=ltlkit-report --dependency=afterany:"$array_id" --time=00:30:00 --cpus-per-task=1 \
  --output="$OUT/slurm-logs/merge.out" \
  --wrap="\"$LTLKIT\" report \"$OUT\"/shard-* --out \"$OUT\"")

echo "submitted shards as array job $array_id and the merge as job $merge_id"
echo "the merged report will be $OUT/report.html"
