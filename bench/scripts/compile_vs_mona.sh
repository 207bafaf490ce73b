#!/usr/bin/env bash
# Formula -> minimal DFA: ltlkit's past-time monitor + Hopcroft against MONA on the same language.
# For each family of formulas with many temporal operators it prints reachable
# monitor states, minimal states, ltlkit's in-process time (wall and CPU, best of 3), its process
# wall time and peak memory, MONA's process wall time and peak memory on the M2L-Str translation
# (LTLf2DFA's route for pure-past LTL, run as LTLf2DFA runs it: `mona -q -u -w`), and the ratio.
#
# Usage: bench/scripts/compile_vs_mona.sh [BUILD_DIR] [--quick]   (BUILD_DIR defaults to build)
# Output: a Markdown table on stdout (docs/PERFORMANCE.md has a recorded run).
set -u
build=${1:-build}
quick=${2:-}
bin=$build/bench/bench_compile
[[ -x $bin ]] || { echo "missing $bin: cmake --build $build --target bench_compile" >&2; exit 2; }
command -v mona > /dev/null || { echo "mona is not installed (apt-get install mona)" >&2; exit 2; }
mona_timeout=${MONA_TIMEOUT:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# family<TAB>n<TAB>alphabet ('-': the formula's symbols)<TAB>formula
families() {
    python3 - "$quick" <<'PY'
import sys
quick = sys.argv[1] == "--quick"
def pick(full, short): return short if quick else full
rows = []
for n in pick([4, 8, 12, 16, 17], [4, 8, 12]):          # the n-th last symbol is a: 2^n states
    rows.append(("ychain", n, "a,b", "Y " * n + "a"))
for n in pick([4, 8, 12, 16], [4, 8]):                  # some b exactly n after an a
    rows.append(("gap", n, "a,b", "P(b & " + "Y " * n + "a)"))
for n in pick([1, 2, 3, 4, 5], [1, 2, 3]):              # n independent P(a_i & Y<=3 b_i)
    rows.append(("pwindow", n, "-", " & ".join(f"P(a{i} & Y<=3 b{i})" for i in range(1, n + 1))))
for n in pick([2, 4, 8, 16, 32], [2, 4, 8]):            # ((a S b) S c) S a ...
    f = "a"
    for i in range(n): f = f"({f}) S {'bca'[i % 3]}"
    rows.append(("since_nest", n, "a,b,c", f))
for n in pick([2, 4, 6, 8], [2, 4]):                    # windows of growing width, nested Y
    rows.append(("windows", n, "a,b,c",
                 " & ".join(f"(Y<={k} a -> Y<={k} (b & Y c))" for k in range(2, n + 2))))
for n in pick([2, 4, 6, 8], [2, 4]):                    # mixed P / Y / S counters
    rows.append(("mixed", n, "a,b,c",
                 " & ".join(f"(P(a & Y<={k} b) | (c S (a & Y<={k + 1} c)))" for k in range(1, n + 1))))
for fam, n, al, f in rows:
    print(f"{fam}\t{n}\t{al}\t{f}")
PY
}

now() { date +%s.%N; }
json() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

echo "| family | n | reachable | minimal | ltlkit in-process (wall / CPU) | ltlkit process | ltlkit peak MB | MONA states | MONA process | MONA peak MB | MONA / ltlkit (process) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while IFS=$'\t' read -r fam n alphabet formula; do
    args=()
    [[ $alphabet != - ]] && args=(--alphabet "$alphabet")
    best=$("$bin" --repeat 3 "${args[@]}" --emit-mona "$work/f.mona" "$formula") || { echo "| $fam | $n | ltlkit failed |"; continue; }
    # Process wall time: best of 3 runs (the machine may be shared).
    lt_wall=1e9
    for _ in 1 2 3; do
        t0=$(now)
        /usr/bin/time -f '%M' -o "$work/lt.mem" "$bin" --repeat 1 "${args[@]}" "$formula" > "$work/lt.json"
        t1=$(now)
        lt_wall=$(python3 -c "print(f'{min($lt_wall, $t1 - $t0):.3f}')")
    done
    lt_mb=$(python3 -c "print(f'{$(tail -n 1 "$work/lt.mem") / 1024:.1f}')")
    # MONA: best of 3 runs when a run takes under 10 s, else one run.
    best_mona=1e9
    for attempt in 1 2 3; do
        t0=$(now)
        timeout "$mona_timeout" /usr/bin/time -f '%M' -o "$work/mona.mem" mona -q -u -w "$work/f.mona" > "$work/mona.out" 2>&1
        rc=$?
        t1=$(now)
        [[ $rc -ne 0 ]] && break
        best_mona=$(python3 -c "print(min($best_mona, $t1 - $t0))")
        python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 10 else 1)" || break
    done
    if [[ $rc -eq 0 ]]; then
        t0=0; t1=$best_mona
        mona_wall=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
        mona_states=$(sed -n 's/^Automaton has \([0-9]*\) states.*/\1/p' "$work/mona.out" | head -n 1)
        mona_mb=$(python3 -c "print(f'{$(tail -n 1 "$work/mona.mem") / 1024:.1f}')")
        ratio=$(python3 -c "print(f'{($t1 - $t0) / max($lt_wall, 1e-3):.1f}x')")
    else
        mona_wall="> ${mona_timeout} s (rc $rc)"; mona_states="-"; mona_mb="-"; ratio="> $(python3 -c "print(f'{$mona_timeout / max($lt_wall, 1e-3):.0f}')")x"
    fi
    in_wall=$(python3 -c "import json; o=json.loads('''$best'''); print(f\"{o['total_s']*1000:.2f} ms / {o['cpu_total_s']*1000:.2f} ms\")")
    echo "| $fam | $n | $(json "$best" reachable) | $(json "$best" minimal) | $in_wall | ${lt_wall} s | $lt_mb | $mona_states | ${mona_wall} s | $mona_mb | $ratio |"
done < <(families)
