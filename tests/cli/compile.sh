#!/usr/bin/env bash
# End to end: `ltlkit compile`, `accepts` and `equiv` on small languages whose DFAs are known by
# hand (docs/SYNTAX.md §3, §9), output formats and their round trips, batch input and exit codes.
# Usage: bash compile.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_eq() {  # NAME GOT WANT
    if [[ $2 != "$3" ]]; then fail "$1"; echo "   got: $2"; echo "  want: $3"; fi
}
expect_rc() {  # NAME RC WANT
    if [[ $2 -ne $3 ]]; then fail "$1: exit $2, want $3"; fi
}

# Σ*abΣ* (docs/SYNTAX.md §4), canonical BFS numbering with symbols in alphabet order.
out=$("$bin" compile --format json 'P(b & Y a)'); expect_rc "compile json" $? 0
expect_eq "P(b & Y a) json" "$out" '{"alphabet": ["a","b"], "initial": 0, "accepting": [2], "transitions": [[1,0],[1,2],[2,2]]}'
# Σ*a, aΣ*, {ε}, ∅ and Σ* (no symbol holds at EOS).
expect_eq "Y a" "$("$bin" compile --format json 'Y a' --alphabet a)" '{"alphabet": ["a"], "initial": 0, "accepting": [1], "transitions": [[1],[1]]}'
expect_eq "Y a over a,b" "$("$bin" compile --format json 'Y a' --alphabet a,b)" '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,0],[1,0]]}'
expect_eq "first a" "$("$bin" compile --format json 'P(a & !P true)' --alphabet a,b)" '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,2],[1,1],[2,2]]}'
expect_eq "empty word" "$("$bin" compile --format json '!P true' --alphabet a,b)" '{"alphabet": ["a","b"], "initial": 0, "accepting": [0], "transitions": [[1,1],[1,1]]}'
expect_eq "a alone" "$("$bin" compile --format json 'a' --alphabet a,b)" '{"alphabet": ["a","b"], "initial": 0, "accepting": [], "transitions": [[0,0]]}'
expect_eq "!a" "$("$bin" compile --format json '!a' --alphabet a,b)" '{"alphabet": ["a","b"], "initial": 0, "accepting": [0], "transitions": [[0,0]]}'
# The alphabet order given is the symbol order of the DFA.
expect_eq "alphabet order" "$("$bin" compile --format json 'Y a' --alphabet b,a)" '{"alphabet": ["b","a"], "initial": 0, "accepting": [1], "transitions": [[0,1],[0,1]]}'

# JSON round trip through --dfa, and -o writes the same bytes as stdout.
"$bin" compile --format json 'P(b & Y<=2 a) | H(a -> Y b)' > d.json || fail "write d.json"
expect_eq "dfa round trip" "$("$bin" compile --dfa d.json --format json)" "$(cat d.json)"
"$bin" compile --format json 'P(b & Y<=2 a) | H(a -> Y b)' -o out.json || fail "-o"
expect_eq "-o file" "$(cat out.json)" "$(cat d.json)"
ls out.json.tmp.* >/dev/null 2>&1 && fail "temporary file left behind"
# A DFA file read over a larger alphabet gets a rejecting sink for the new symbol.
expect_eq "dfa with alphabet" "$("$bin" compile --dfa d.json --alphabet a,b,c --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["alphabet"]))')" 3

# --no-minimize: the reachable monitor is larger but equivalent.
"$bin" compile --format json --no-minimize 'P(a & Y<=3 b) & !Y a' > raw.json || fail "no-minimize"
"$bin" compile --format json 'P(a & Y<=3 b) & !Y a' > min.json || fail "minimize"
nraw=$(python3 -c 'import json; print(len(json.load(open("raw.json"))["transitions"]))')
nmin=$(python3 -c 'import json; print(len(json.load(open("min.json"))["transitions"]))')
[[ $nraw -gt $nmin ]] || fail "no-minimize should have more states ($nraw vs $nmin)"
"$bin" equiv dfa:raw.json 'P(a & Y<=3 b) & !Y a' > /dev/null; expect_rc "raw ≡ formula" $? 0

# Text and DOT formats.
text=$("$bin" compile 'P(a & !P true)' --alphabet a,b)
expect_eq "text header" "$(head -n 2 <<< "$text")" $'alphabet: a b\nstates: 3 (initial 0, 1 accepting, rejecting sink 2)'
dot=$("$bin" compile --format dot 'Y a' --alphabet a,b)
grep -q '__start -> 0' <<< "$dot" || fail "dot initial arrow"
grep -q '1 \[shape=doublecircle\]' <<< "$dot" || fail "dot accepting state"
dot=$("$bin" compile --format dot 'P(a & !P true)' --alphabet a,b --hide-sink)
grep -q 'grey' <<< "$dot" && fail "hidden sink still drawn"
dot=$("$bin" compile --format dot 'P(a & !P true)' --alphabet a,b)
grep -q 'color=grey' <<< "$dot" || fail "sink not grey"
if command -v dot > /dev/null; then
    "$bin" compile --format dot 'P(b & Y a)' | dot -Tsvg > g.svg || fail "dot -Tsvg"
fi

# --json on compile: one object with the fragment.
j=$("$bin" compile --json 'Y<=3 a' --alphabet a,b)
expect_eq "compile --json" "$(python3 -c 'import json,sys; o=json.loads(sys.argv[1]); print(o["fragment"], o["states"], o["kind"], o["minimal"])' "$j")" "LTL[Y<=3] 4 formula True"

# Batch: one output per line, in order.
printf 'Y a\n# comment\n\nH a\nP(b & Y a)\n' > batch.txt
expect_eq "batch json" "$("$bin" compile --input batch.txt --format json --alphabet a,b | wc -l)" 3
expect_eq "batch stdin" "$(printf 'Y a\nH a\n' | "$bin" compile --input - --json --alphabet a | python3 -c 'import json,sys; print([json.loads(l)["states"] for l in sys.stdin])')" "[2, 1]"  # H a over {a} is Σ*

# accepts: WORD<TAB>1|0, with --check, words letter by letter or space-separated.
expect_eq "accepts" "$("$bin" accepts 'P(b & Y a)' ab ba '' abab --check)" $'ab\t1\nba\t0\n\t0\nabab\t1'
expect_eq "accepts spaced" "$("$bin" accepts 'P(b & Y a)' 'a b')" $'ab\t1'
expect_eq "accepts multi-char" "$("$bin" accepts 'P(b1 & Y a0)' 'a0 b1' 'b1 a0' --check)" $'a0 b1\t1\nb1 a0\t0'
expect_eq "accepts since" "$("$bin" accepts --check 'a S b' --alphabet a,b,c abaa bca b '')" $'abaa\t1\nbca\t0\nb\t1\n\t0'
expect_eq "accepts regex" "$("$bin" accepts --regex '(ab)*' abab aba '' --check)" $'abab\t1\naba\t0\n\t1'
expect_eq "accepts dfa" "$("$bin" accepts --dfa d.json ab b --check | cut -f1)" $'ab\nb'
printf 'ab\n\nba\n' > words.txt
expect_eq "accepts --words" "$("$bin" accepts 'Y a' --alphabet a,b --words words.txt)" $'ab\t0\n\t0\nba\t1'
expect_eq "accepts --json" "$("$bin" accepts --json 'Y a' --alphabet a aa | python3 -c 'import json,sys; o=json.load(sys.stdin); print(o["results"][0]["accepted"], o["alphabet"])')" "True ['a']"
printf 'Y a\nH a\n' > fs.txt
expect_eq "accepts batch" "$("$bin" accepts --input fs.txt --alphabet a a)" $'Y a\ta\t1\nH a\ta\t1'

# equiv: 0 equivalent, 1 not (with a shortest word and the side that accepts it).
"$bin" equiv 'H a' '!P !a' --alphabet a,b > eq.txt; expect_rc "equiv H" $? 0
expect_eq "equiv text" "$(cat eq.txt)" "equivalent"
"$bin" equiv 'P(b & Y a)' 'regex:.*ab.*' > /dev/null; expect_rc "equiv regex" $? 0
"$bin" equiv 'Y a' dfa:d.json --alphabet a,b > /dev/null; expect_rc "equiv dfa" $? 1
out=$("$bin" equiv 'Y<=2 a' 'Y a' --alphabet a,b); expect_rc "equiv differs" $? 1
expect_eq "equiv word" "$out" "not equivalent: 'ab' is accepted by A and rejected by B (a shortest such word)"
out=$("$bin" equiv --json 'Y a' '!P true' --alphabet a,b); expect_rc "equiv json" $? 1
expect_eq "equiv json word" "$(python3 -c 'import json,sys; o=json.loads(sys.argv[1]); print(repr(o["word"]), o["accepted_by"], o["equivalent"])' "$out")" "'' B False"
# Different symbol sets: compared over the union.
out=$("$bin" equiv 'Y a' 'Y b'); expect_rc "equiv union" $? 1
expect_eq "equiv union word" "$out" "not equivalent: 'a' is accepted by A and rejected by B (a shortest such word)"
printf 'H a\t!P !a\nY a\tY b\n' > pairs.txt
"$bin" equiv --input pairs.txt --alphabet a,b > pairs.out; expect_rc "equiv batch" $? 1
expect_eq "equiv batch lines" "$(wc -l < pairs.out)" 2

# --help shows an example.
for cmd in compile accepts equiv; do
    "$bin" $cmd --help | grep -q 'Example' || fail "$cmd --help has no example"
done

if [[ $fails -gt 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "compile.sh: all passed"
