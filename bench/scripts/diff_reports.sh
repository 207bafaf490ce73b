#!/usr/bin/env bash
# Differential check of `ltlkit report` between two builds: regenerates the report of each
# committed grid (docs/results/NAME, default lc25-cpu and lc26-cpu) with both binaries, each into
# its own copy of the grid, and compares every file the report writes (report.md, report.html,
# verdicts.json, results.jsonl, RUNS.md, figures/) byte for byte, and each with the committed one.
#
#   bench/scripts/diff_reports.sh OLD_LTLKIT NEW_LTLKIT [GRID...]
#
# Exit 0 when both binaries write the same files (and the committed files are reproduced), 1 with
# the differing files listed.
set -u
old=$1 new=$2
shift 2
grids=("$@")
[ ${#grids[@]} -eq 0 ] && grids=(lc25-cpu lc26-cpu)
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for g in "${grids[@]}"; do
    src=$root/docs/results/$g
    for side in old new; do
        cp -r "$src" "$work/$g-$side"
        bin=$old; [ $side = new ] && bin=$new
        if ! "$bin" report "$work/$g-$side" >"$work/$g-$side.out" 2>"$work/$g-$side.err"; then
            echo "$g: $side report failed: $(head -1 "$work/$g-$side.err")"; status=1
        fi
        sed -i "s#$work/$g-$side#DIR#g" "$work/$g-$side.out"  # the folder's name is not compared
        rm -f "$work/$g-$side/.lock"
        # The report's date ("Generated <when>.") is the time of the run: not compared.
        find "$work/$g-$side" -maxdepth 1 -name 'report.*' -type f \
            -exec sed -i -E 's/Generated [^.<]*[0-9] UTC/Generated WHEN/' {} +
    done
    if diff -r "$work/$g-old" "$work/$g-new" >"$work/$g.diff"; then
        echo "$g: old and new reports identical ($(find "$work/$g-new" -type f | wc -l) files)"
    else
        echo "$g: old and new reports differ:"; grep -E '^(diff|Only)' "$work/$g.diff" | head -20; status=1
    fi
    cmp -s "$work/$g-old.out" "$work/$g-new.out" || { echo "$g: report's stdout differs"; status=1; }
    if diff -r -I 'Generated ' "$src" "$work/$g-new" >/dev/null; then
        echo "$g: the committed files are reproduced byte for byte"
    else
        echo "$g: differs from the committed files (both binaries):"
        diff -rq "$src" "$work/$g-new" | head -10
    fi
done
exit $status
