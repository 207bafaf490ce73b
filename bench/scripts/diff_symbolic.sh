#!/usr/bin/env bash
# Differential check of the symbolic commands between two ltlkit binaries: runs classify (--json,
# --window-time 0 --window-memory 0 so that no answer depends on the machine's load), compile (--json,
# the text table, --format dot with and without --hide-sink), monoid --json,
# check-certificate on every certificate classify writes, and generate (small sizes) on the same
# languages with both, and compares the outputs byte for byte.
#
#   bench/scripts/diff_symbolic.sh OLD_LTLKIT NEW_LTLKIT [N_RANDOM]
#
# Languages: every line of examples/*.suite, the formula / regex / DFA files of the fuzz corpus,
# and N_RANDOM (default 200) random past-LTL formulas and regexes from a fixed seed. Exit 0 when
# every output agrees, 1 with the differing cases listed.
set -u
old=$1 new=$2 nrand=${3:-200}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=$work/cases.tsv   # alphabet<TAB>kind<TAB>text (kind formula|regex|dfa; dfa: a file path)
: >"$cases"
for s in "$root"/examples/*.suite; do
    grep -v '^#' "$s" | awk -F'\t' 'NF >= 4 { print $2 "\t" $3 "\t" $4 }' >>"$cases"
done
for f in "$root"/tests/fuzz/corpus/formula/*; do
    [ "$(wc -l <"$f")" -le 1 ] && printf 'a,b,c\tformula\t%s\n' "$(head -c 200 "$f" | tr -d '\n\t\r')" >>"$cases"
done
for f in "$root"/tests/fuzz/corpus/regex/*; do
    [ "$(wc -l <"$f")" -le 1 ] && printf 'a,b,c\tregex\t%s\n' "$(head -c 200 "$f" | tr -d '\n\t\r')" >>"$cases"
done
for f in "$root"/tests/fuzz/corpus/dfa_json/*; do printf -- '-\tdfa\t%s\n' "$f" >>"$cases"; done
python3 - "$nrand" >>"$cases" <<'PY'
import random, sys
n = int(sys.argv[1]); rnd = random.Random(20)
def formula(d, sig):
    if d == 0 or rnd.random() < 0.25:
        return rnd.choice(sig + ["true"])
    op = rnd.choice(["Y", "P", "H", "!", "Y<=2", "Y<=3", "&", "|", "S"])
    if op in ("&", "|", "S"):
        return "(" + formula(d - 1, sig) + " " + op + " " + formula(d - 1, sig) + ")"
    return op + " " + formula(d - 1, sig) if op != "!" else "!" + formula(d - 1, sig)
def regex(d, sig):
    if d == 0 or rnd.random() < 0.3:
        return rnd.choice(sig + ["."])
    op = rnd.choice(["cat", "cat", "alt", "star"])
    if op == "cat": return regex(d - 1, sig) + regex(d - 1, sig)
    if op == "alt": return "(" + regex(d - 1, sig) + "|" + regex(d - 1, sig) + ")"
    return "(" + regex(d - 1, sig) + ")*"
for i in range(n):
    sig = ["a", "b"] if i % 3 else ["a", "b", "c"]
    print(",".join(sig) + "\tformula\t" + formula(4, sig))
    print(",".join(sig) + "\tregex\t" + regex(4, sig))
PY

# The language options of one case: sets src (formula, --regex or --dfa) and ab (--alphabet).
language_args() {  # alphabet kind text
    case $2 in
        formula) src=("$3") ;;
        regex) src=(--regex "$3") ;;
        dfa) src=(--dfa "$3") ;;
    esac
    ab=()
    [ "$1" != - ] && ab=(--alphabet "$1")
}

run_case() {  # bin out_dir alphabet kind text
    local bin=$1 out=$2 src ab
    mkdir -p "$out"
    language_args "$3" "$4" "$5"
    "$bin" classify "${src[@]}" "${ab[@]}" --json --window-time 0 --window-memory 0 --certificates "$out/certs" >"$out/classify.out" 2>"$out/classify.err"
    echo "rc=$?" >>"$out/classify.out"
    # progress lines depend on the machine's speed
    sed -i '/still searching after/d' "$out/classify.err"
    "$bin" compile "${src[@]}" "${ab[@]}" --json >"$out/compile.out" 2>&1; echo "rc=$?" >>"$out/compile.out"
    "$bin" compile "${src[@]}" "${ab[@]}" >"$out/compile-text.out" 2>&1; echo "rc=$?" >>"$out/compile-text.out"
    "$bin" compile "${src[@]}" "${ab[@]}" --format dot >"$out/compile-dot.out" 2>&1; echo "rc=$?" >>"$out/compile-dot.out"
    "$bin" compile "${src[@]}" "${ab[@]}" --format dot --hide-sink >"$out/compile-dot-hidden.out" 2>&1
    echo "rc=$?" >>"$out/compile-dot-hidden.out"
    "$bin" monoid "${src[@]}" "${ab[@]}" --json --max-elements 2000 >"$out/monoid.out" 2>&1; echo "rc=$?" >>"$out/monoid.out"
    if [ -d "$out/certs" ]; then
        for c in "$out"/certs/*.json; do
            "$bin" check-certificate "$c" --json 2>&1 | sed "s#$out/##g"; echo "rc=${PIPESTATUS[0]}"
        done >"$out/check.out"
    fi
}

gen_case() {  # bin out_dir alphabet kind text
    local bin=$1 out=$2 src ab
    language_args "$3" "$4" "$5"
    "$bin" generate "${src[@]}" "${ab[@]}" --out "$out/data" --train-lengths 1:6 --test-lengths 7:12 \
        --per-length 4 --boundary-per-length 2 --adversarial-per-family 4 --max-k 3 --json \
        2>&1 | sed "s#$out/##g" >"$out/generate.out"
    echo "rc=${PIPESTATUS[0]}" >>"$out/generate.out"
}

i=0 bad=0 timed=0
# Stopped from outside (e.g. by `timeout`): say how far the comparison got.
trap 'echo "stopped at case $i: $((i - 1)) cases compared, $bad differ, $timed time-dependent"; exit 124' TERM INT
while IFS=$'\t' read -r alpha kind text; do
    i=$((i + 1))
    for side in old new; do
        bin=$old; [ $side = new ] && bin=$new
        run_case "$bin" "$work/$side/$i" "$alpha" "$kind" "$text"
        # generate on every fourth case (it samples datasets, so it is the slowest command)
        [ $((i % 4)) = 1 ] && gen_case "$bin" "$work/$side/$i" "$alpha" "$kind" "$text"
    done
    if ! diff -r "$work/old/$i" "$work/new/$i" >/dev/null; then
        # generate classifies under the default window time budget (it has no --window-time), so a
        # language whose window question ran out of time may differ from run to run: not counted.
        if diff -r -x data -x generate.out "$work/old/$i" "$work/new/$i" >/dev/null &&
            grep -rqs "stopped by the time budget" "$work/old/$i/data" "$work/new/$i/data"; then
            timed=$((timed + 1))
            echo "TIME-DEPENDENT (generate, not counted): case $i: $alpha $kind $text"
        else
            bad=$((bad + 1))
            echo "DIFFERS: case $i: $alpha $kind $text"
            diff -r "$work/old/$i" "$work/new/$i" | head -5
        fi
    fi
    rm -rf "$work/old/$i" "$work/new/$i"
done <"$cases"
echo "$i cases, $bad differ, $timed generate runs time-dependent"
[ $bad = 0 ]
