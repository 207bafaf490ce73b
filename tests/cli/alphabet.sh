#!/usr/bin/env bash
# The alphabet rule of docs/SYNTAX.md §5, through every command that takes a language:
# - a single inferred symbol is refused (exit 2, one error line, nothing on stdout, nothing written)
#   unless --alphabet confirms it; an empty --alphabet is an error;
# - an inferred alphabet of two or more symbols works, with one note on stderr and
#   "alphabet_inferred": true in JSON, and gives the same answer as that alphabet given explicitly;
# - a given alphabet (or a DFA file's) prints no note.
# Also: unknown command names are errors that list the commands.
# Usage: bash alphabet.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf out-* d-* r-* v-*
neural=0
[[ -x $(dirname "$bin")/ltlkit-neural ]] && neural=1

# refused WHAT ARGS...: exit 2, nothing on stdout, one stderr line that starts as WHAT.
refused() {
    local what=$1 out rc
    shift
    out=$("$bin" "$@" 2>err.txt </dev/null)
    rc=$?
    [[ $rc == 2 ]] || fail "[$*]: exit $rc, want 2"
    [[ -z $out ]] || fail "[$*]: stdout not empty"
    # (main adds "Run with --help ..." after a command-line usage error)
    [[ $(grep -vc '^Run with --help' err.txt) == 1 ]] || fail "[$*]: $(wc -l <err.txt) stderr lines: $(cat err.txt)"
    [[ $(head -n 1 err.txt) == "$what"* ]] || fail "[$*]: $(head -n 1 err.txt)"
}
one="ltlkit: error: the alphabet inferred from the formula is {a}, a single symbol"
one_regex="ltlkit: error: the alphabet inferred from the regex is {a}, a single symbol"
empty="ltlkit: error: --alphabet: empty alphabet"

refused "$one" compile 'Y a'
refused "$one_regex" compile --regex '.*a'
refused "$one" accepts 'P a' aa
refused "$one" classify 'Y a'
refused "$one_regex" classify --regex '.*a'
refused "$one" monoid 'H a'
refused "$one" generate 'Y a' --out d-one
[[ ! -e d-one ]] || fail "a refused generate created its folder"
refused "ltlkit: error: the alphabet inferred from the two languages is {a}" equiv 'H a' '!P !a'
printf 'Y a | b\nP a\n' >batch.txt
refused "ltlkit: error: batch.txt:2: the alphabet inferred from the formula on line 2 is {a}" compile --input batch.txt
refused "ltlkit: error: batch.txt:2: " classify --input batch.txt
for cmd in compile classify monoid; do refused "$empty" $cmd 'Y a' --alphabet ''; done
refused "$empty" accepts 'Y a' --alphabet ' ' ab
refused "$empty" equiv 'Y a' 'Y b' --alphabet ''
refused "$empty" generate 'Y a' --alphabet '' --out d-empty
if ((neural)); then
    refused "$one" train 'Y a' --out r-one
    [[ ! -e r-one ]] || fail "a refused train created its run folder"
    refused "$one" verify 'Y a' --archs global --out v-one
    refused "$empty" train 'Y a' --alphabet '' --out r-empty
fi

# Confirmed with --alphabet a: the one-letter language is what the user asked for.
[[ $("$bin" accepts 'Y a' --alphabet a '' aa) == $'\t0\naa\t1' ]] || fail "--alphabet a does not confirm {a}"

# Inferred alphabets of two symbols: one note each, JSON says so, and the answers equal those of
# the same alphabet given explicitly.
note="ltlkit: note: alphabet inferred from the formula: {a,b}; pass --alphabet to set it"
for cmd in compile classify monoid; do
    inferred=$("$bin" $cmd 'P(b & Y a)' --json 2>err.txt) || fail "$cmd inferred: exit $?"
    [[ $(cat err.txt) == "$note" ]] || fail "$cmd: stderr '$(cat err.txt)'"
    given=$("$bin" $cmd 'P(b & Y a)' --alphabet a,b --json 2>err.txt) || fail "$cmd given: exit $?"
    [[ ! -s err.txt ]] || fail "$cmd with --alphabet: stderr '$(cat err.txt)'"
    python3 - "$inferred" "$given" <<'PY' || fail "$cmd: inferred and given JSON differ beyond alphabet_inferred"
import json, sys
i, g = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert i.pop("alphabet_inferred") is True and g.pop("alphabet_inferred") is False
assert i == g
PY
done
[[ $("$bin" accepts --json 'P(b & Y a)' ab 2>err.txt | python3 -c 'import json,sys; print(json.load(sys.stdin)["alphabet_inferred"])') == True ]] \
    || fail "accepts --json alphabet_inferred"
[[ $(cat err.txt) == "$note" ]] || fail "accepts note: $(cat err.txt)"
[[ $("$bin" equiv --json 'Y a' 'Y b' 2>err.txt | python3 -c 'import json,sys; print(json.load(sys.stdin)["alphabet_inferred"])') == True ]] \
    || fail "equiv --json alphabet_inferred"
[[ $(cat err.txt) == "ltlkit: note: alphabet inferred from the two languages: {a,b}; pass --alphabet to set it" ]] \
    || fail "equiv note: $(cat err.txt)"
[[ $("$bin" compile --regex '(ab)*' 2>&1 >/dev/null) == "ltlkit: note: alphabet inferred from the regex: {a,b}; pass --alphabet to set it" ]] \
    || fail "regex note"
"$bin" generate 'P(b & Y a)' --out d-two --train-lengths 1:4 --test-lengths 5:6 --per-length 4 --json >out-gen.json 2>err.txt \
    || fail "generate inferred: exit $?"
[[ $(cat err.txt) == "$note" ]] || fail "generate note: $(cat err.txt)"
grep -q '"alphabet_inferred":true' out-gen.json || fail "generate --json alphabet_inferred"
# A DFA file carries its alphabet: no note.
"$bin" compile 'Y a' --alphabet a,b --format json >lang.json
"$bin" classify --dfa lang.json --json 2>err.txt | grep -q '"alphabet_inferred": false' || fail "--dfa alphabet_inferred"
[[ ! -s err.txt ]] || fail "--dfa note: $(cat err.txt)"

# Unknown commands: an error naming the commands, exit 2 (never the main help with exit 0).
for args in "frobnicate --help" "frobnicate" "Compile 'Y a'"; do
    eval "set -- $args"
    out=$("$bin" "$@" 2>err.txt)
    rc=$?
    [[ $rc == 2 && -z $out ]] || fail "ltlkit $args: exit $rc, stdout $(wc -c <<<"$out") bytes"
    grep -q "^ltlkit: error: unknown command '$1' (commands: .*classify, compile,.*generate" err.txt || fail "ltlkit $args: $(cat err.txt)"
done

[[ $fails == 0 ]] && echo "alphabet: all passed"
exit $((fails > 0))
