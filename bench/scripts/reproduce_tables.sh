#!/usr/bin/env bash
# Runs (or continues) the papers' grids through `ltlkit verify` into docs/results/, the folders
# docs/RESULTS.md reads: the LC26 main table (examples/lc26.suite × local-1,2,4, hybrid-1,2,4,
# global × 3 seeds) and LC25 Table 1 (examples/lc25.suite × global, lstm × 3 seeds), both with the
# published numbers of examples/*.published.tsv beside ours.
#
#   bash bench/scripts/reproduce_tables.sh [lc26|lc25|both] [PROFILE] [THREADS]
#
# When examples/<grid>.<PROFILE>.cells exists (e.g. examples/lc26.cpu-deep.cells), only the cells it
# lists run (`verify --cells`): the deep grids train only where the `cpu` grid did not fit.
# OUT=DIR in the environment writes the grid to DIR instead of docs/results/<grid>-<PROFILE> (with
# both grids: DIR/<grid>); LTLKIT=PATH runs another binary (e.g. a copy that later builds leave alone).
#
# SEEDS=N in the environment runs only seed indices 1..N (default: the profile's): SEEDS=1 first
# gives every cell one run early; the full command later reuses those runs (same identities).
# verify resumes: finished runs are kept (their result.json, run.json and metrics.jsonl are
# committed under docs/results/, checkpoints and datasets are not), so rerunning this command after
# an interruption, in another sitting or on another machine continues the grid where it stopped.
# Each invocation appends its command, commit, wall and CPU time to docs/results/<grid>/RUNS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-both}
profile=${2:-cpu}
threads=${3:-2}
bin=${LTLKIT:-build/cli/ltlkit}
[[ -x $bin ]] || { echo "build first (make build): $bin is missing" >&2; exit 2; }

run_grid() {
    local grid=$1 suite=$2 archs=$3
    local out=docs/results/$grid-$profile
    if [[ -n ${OUT:-} ]]; then out=$OUT; [[ $which == both ]] && out=$OUT/$grid; fi
    mkdir -p "$out"
    local cmd=("$bin" verify --suite "$suite" --profile "$profile" --archs "$archs" --threads "$threads"
               --device cpu --out "$out")
    local cells=examples/$grid.$profile.cells
    [[ -f $cells ]] && cmd+=(--cells "$cells")
    [[ -n ${SEEDS:-} ]] && cmd+=(--seeds "$SEEDS")
    # These grids are long on purpose (hours of CPU): say so to verify's cost check (a binary older
    # than the check has no such option).
    "$bin" verify --help 2>/dev/null | grep -q -- --accept-cost && cmd+=(--accept-cost)
    echo "== ${cmd[*]}"
    local t0 status=0
    t0=$(date +%s)
    # CPU time of the verify process and its workers, as /usr/bin/time would count it.
    local before after
    before=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    nice -n 10 "${cmd[@]}" || status=$?
    after=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    local wall=$(( $(date +%s) - t0 ))
    local cpu=$(( (after - before) / $(getconf CLK_TCK) ))
    local done_runs
    done_runs=$(find "$out/runs" -name result.json 2>/dev/null | wc -l)
    {
        [[ -s $out/RUNS.md ]] || printf '# Sittings of this grid\n\n| date (UTC) | commit | command | exit | wall s | CPU s | finished runs |\n|---|---|---|---|---|---|---|\n'
        printf '| %s | %s | `%s` | %s | %s | %s | %s |\n' "$(date -u '+%Y-%m-%d %H:%M')" \
            "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs/results' || echo -dirty)" \
            "${cmd[*]}" "$status" "$wall" "$cpu" "$done_runs"
    } >> "$out/RUNS.md.tmp.$$"
    if [[ -s $out/RUNS.md ]]; then cat "$out/RUNS.md" "$out/RUNS.md.tmp.$$" > "$out/RUNS.md.new"; else mv "$out/RUNS.md.tmp.$$" "$out/RUNS.md.new"; fi
    rm -f "$out/RUNS.md.tmp.$$"
    mv "$out/RUNS.md.new" "$out/RUNS.md"
    return $status
}

case $which in
    lc26) run_grid lc26 examples/lc26.suite local-1,local-2,local-4,hybrid-1,hybrid-2,hybrid-4,global ;;
    lc25) run_grid lc25 examples/lc25.suite global,lstm ;;
    both)
        run_grid lc26 examples/lc26.suite local-1,local-2,local-4,hybrid-1,hybrid-2,hybrid-4,global
        run_grid lc25 examples/lc25.suite global,lstm
        ;;
    *) echo "usage: $0 [lc26|lc25|both] [PROFILE] [THREADS]" >&2; exit 2 ;;
esac
