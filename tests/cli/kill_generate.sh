#!/usr/bin/env bash
# Kill test (docs/DURABILITY.md): `ltlkit generate` killed with SIGKILL at random points, then rerun
# with the same arguments, leaves exactly the files of an uninterrupted run (tsv and flare).
# Usage: bash kill_generate.sh LTLKIT_BIN SOURCE_DIR   (KILL_SEED=N to replay another seed)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
seed=${KILL_SEED:-20261129}
rm -rf ref-* killed-* kill-stderr.txt

args=('P(a & Y b)' --alphabet a,b,c --train-lengths 1:30 --test-lengths 31:500 --per-length 32
      --boundary-per-length 4 --adversarial-per-family 8 --max-k 1 --seed 3 --quiet)
for fmt in tsv flare; do
    t0=$(now_ms)
    "$bin" generate "${args[@]}" --format $fmt --out ref-$fmt >/dev/null 2>err.txt || fail "reference $fmt exited $?: $(cat err.txt)"
    ms=$(( $(now_ms) - t0 ))
    echo "reference $fmt: $ms ms"
    kill_and_finish $((seed + ${#fmt})) 5 $((ms > 20 ? ms : 20)) \
        "$bin" generate "${args[@]}" --format $fmt --out killed-$fmt || fail "$fmt: the run after the kills failed"
    digest_tree ref-$fmt > ref-$fmt.digest
    digest_tree killed-$fmt > killed-$fmt.digest
    diff ref-$fmt.digest killed-$fmt.digest > /dev/null || { fail "$fmt: files differ from the reference"; diff ref-$fmt.digest killed-$fmt.digest | head; }
    # The folders are byte-identical (a dataset has no timing fields), hidden files included.
    diff -r ref-$fmt killed-$fmt > /dev/null || fail "$fmt: diff -r reports differences"
    # A rerun verifies and writes nothing.
    "$bin" generate "${args[@]}" --format $fmt --out killed-$fmt >/dev/null 2>err.txt || fail "$fmt: verified rerun exited $?"
done

[[ $fails -eq 0 ]] && echo "kill_generate: all passed (seed $seed)"
exit $((fails > 0))
