#!/usr/bin/env bash
# Differential: classify's answers on an idle and on a loaded machine (docs/WINDOWS.md §5b). Runs
# `classify --json --max-k K` on N random window formulas over {a,b,c} (seeded, so every run asks
# the same questions) once as the machine is, once under BUSY busy loops (default: one per core),
# and compares the outputs byte for byte. With the default budget (counted in work) they must be
# equal; with `--window-time 4` (pass it as EXTRA) they need not be.
# Usage: bash classify_load_differential.sh LTLKIT_BIN [N=40] [SEED=1] [K=3] [BUSY=nproc] [EXTRA...]
set -u
bin=$1; n=${2:-40}; seed=${3:-1}; k=${4:-3}; busy=${5:-$(nproc)}
shift $(( $# < 5 ? $# : 5 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$n" "$seed" > "$work/formulas.txt" <<'PY'
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
def f(d):
    if d == 0 or rng.random() < 0.25:
        return rng.choice("abc")
    op = rng.choice(["Y<=%d" % rng.randint(2, 5), "Y", "!", "&", "|", "Y<=%d" % rng.randint(2, 3)])
    if op in "&|":
        return "(%s %s %s)" % (f(d - 1), op, f(d - 1))
    return "%s %s" % (op, f(d - 1))
fixed = ["Y<=5 a", "Y<=3 Y<=2 a", "Y<=2 (a & Y<=3 b)"]
out = fixed + [f(3) for _ in range(n - len(fixed))]
print("\n".join(out[:n]))
PY
t0=$(date +%s.%N)
"$bin" classify --input "$work/formulas.txt" --alphabet a,b,c --max-k "$k" --json "$@" > "$work/idle.jsonl" 2>/dev/null
t1=$(date +%s.%N)
pids=()
for _ in $(seq "$busy"); do (while :; do :; done) & pids+=($!); done
"$bin" classify --input "$work/formulas.txt" --alphabet a,b,c --max-k "$k" --json "$@" > "$work/loaded.jsonl" 2>/dev/null
t2=$(date +%s.%N)
kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null
unknown() { grep -o '"unknown"' "$1" | wc -l; }
printf 'formulas %s, max-k %s, %s busy loops%s\n' "$n" "$k" "$busy" "${*:+, options: $*}"
printf 'as is:  %.1f s wall, %s unknown window answers\n' "$(echo "$t1 - $t0" | bc)" "$(unknown "$work/idle.jsonl")"
printf 'loaded: %.1f s wall, %s unknown window answers\n' "$(echo "$t2 - $t1" | bc)" "$(unknown "$work/loaded.jsonl")"
if cmp -s "$work/idle.jsonl" "$work/loaded.jsonl"; then
    echo "identical: the $n outputs are equal byte for byte"
else
    echo "DIFFERENT: $(diff <(nl "$work/idle.jsonl") <(nl "$work/loaded.jsonl") | grep -c '^<') of $n outputs differ:"
    paste "$work/formulas.txt" <(python3 -c 'import sys
a = open(sys.argv[1]).read().splitlines(); b = open(sys.argv[2]).read().splitlines()
for x, y in zip(a, b): print("same" if x == y else "differs")' "$work/idle.jsonl" "$work/loaded.jsonl") | grep differs
    exit 1
fi
