#!/usr/bin/env bash
# The deep grids (docs/RESULTS.md, "The deep grid"): profile cpu-deep on the cells of
# examples/lc26.cpu-deep.cells and examples/lc25.cpu-deep.cells, seed 1 of every cell of both grids
# first, then seeds 2 and 3. Resumable like reproduce_tables.sh (rerun the same command).
#
#   bash bench/scripts/deep_grids.sh [THREADS]
#
# GRIDS=DIR writes DIR/lc26-deep and DIR/lc25-deep (default: docs/results/lc26-cpu-deep and
# docs/results/lc25-cpu-deep); LTLKIT=PATH runs another binary.
#
# Seed 1 of every cell first, then seed 2 (so that every cell has the 2 of 3 fitted runs its
# verdict needs as early as possible), then seed 3.
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${1:-2}
for seeds in 1 2 3; do
    for grid in lc26 lc25; do
        if [[ -n ${GRIDS:-} ]]; then export OUT=$GRIDS/$grid-deep; fi
        SEEDS=$seeds bash bench/scripts/reproduce_tables.sh "$grid" cpu-deep "$threads"
    done
done
