#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit generate` killed with SIGKILL at random points, then rerun
# with the same arguments, leaves exactly the files of an uninterrupted run (tsv and flare).
# Usage: bash kill_generate.sh LTLKIT_BIN SOURCE_DIR   (KILL_SEED=N to replay another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
seed=${KILL_SEED:-20261129}
rm -rf ref-* killed-* kill-stderr.txt

args=('P(a & Y b)' --alphabet a,b,c --train-lengths 1:30 --test-lengths 31:500 --per-length 32
      --boundary-per-length 4 --adversarial-per-family 8 --max-k 1 --seed 3 --quiet)
for fmt in tsv flare; do
    kill_vs_reference $((seed + ${#fmt})) 5 ref-$fmt killed-$fmt "$bin" generate "${args[@]}" --format $fmt
    # The folders are byte-identical (a dataset has no timing fields), hidden files included.
    diff -r ref-$fmt killed-$fmt > /dev/null || fail "$fmt: diff -r reports differences"
    # A rerun verifies and writes nothing.
    "$bin" generate "${args[@]}" --format $fmt --out killed-$fmt >/dev/null 2>err.txt || fail "$fmt: verified rerun exited $?"
done

[[ $fails -eq 0 ]] && echo "kill_generate: all passed (seed $seed)"
exit $((fails > 0))
