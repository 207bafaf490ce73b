#!/usr/bin/env bash
# A window answer says why (docs/WINDOWS.md "Why a window fails, in classify's words"): for 'Y a'
# over {a,b}, local-1 recognizes and local-2 fails, and the local-2 reason names the witness family
# and two concrete words. Checked with `ltlkit accepts`, not with classify's own DFA: the words are
# labelled as the reason says by the language, and every LTL[Y<=2] formula of temporal depth ≤ 2
# of a list (windows of the letters, nested, negated) gives both words the same answer (the
# family's bound r·|p| ≥ d·k with r = 2, |p| = 2, k = 2); the reason says membership is not
# monotone in k. The same text in `classify` without --json.
# Usage: bash window_reasons.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -f out.json out.txt err.txt words.txt

"$bin" classify 'Y a' --alphabet a,b --max-k 2 --json >out.json 2>err.txt || fail "classify --json exited $?: $(cat err.txt)"
"$bin" classify 'Y a' --alphabet a,b --max-k 2 >out.txt 2>err.txt || fail "classify exited $?: $(cat err.txt)"
read -r accepted rejected < <(python3 - out.json <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
assert j["predictions"]["local-1"] == "recognizes" and j["predictions"]["local-2"] == "fails", j["predictions"]
reason = j["prediction_reasons"]["local-2"]
m = re.search(r"r = 2: (\w+) is accepted, (\w+) rejected", reason)
assert m, reason
for part in ("(ab)^r·a and (ab)^r", "their last 2 symbols, " + m.group(1)[-2:] + " and " + m.group(2)[-2:],
             "the same set {a, b}", "not monotone in k", "local-1 recognizes the language"):
    assert part in reason, f"{part!r} not in {reason!r}"
assert j["witnesses"]["local-2"] == {"accepted": m.group(1), "rejected": m.group(2)}, j["witnesses"]["local-2"]
print(m.group(1), m.group(2))
PY
) || fail "the local-2 reason in --json"
[[ -n ${accepted:-} && -n ${rejected:-} ]] || fail "no witness words in the reason"
tr -s ' \n' ' ' <out.txt | grep -qF "r = 2: $accepted is accepted, $rejected rejected" || fail "classify's text lacks the words"
tr -s ' \n' ' ' <out.txt | grep -qF "Membership is not monotone in k: local-1 recognizes" || fail "classify's text lacks the non-monotonicity"

# The language labels the words as the reason says.
printf '%s\n%s\n' "$accepted" "$rejected" >words.txt
[[ $("$bin" accepts 'Y a' --alphabet a,b --words words.txt) == "$(printf '%s\t1\n%s\t0' "$accepted" "$rejected")" ]] ||
    fail "'Y a' does not accept $accepted and reject $rejected"
# Formulas of depth ≤ 2 with windows of 2 answer alike on both words (and some answer 1, some 0,
# so the check can tell).
answers=""
for f in 'Y<=2 a' 'Y<=2 b' '!Y<=2 a' 'Y<=2 (a & Y<=2 b)' 'Y<=2 (b & Y<=2 a)' 'Y<=2 !Y<=2 a' 'Y<=2 Y<=2 true' \
    'Y<=2 (a & !Y<=2 a)' 'Y<=2 (b & !Y<=2 b)' 'Y<=2 a & Y<=2 b' 'Y<=2 (a & !Y<=2 true)'; do
    out=$("$bin" accepts "$f" --alphabet a,b --words words.txt | cut -f2 | tr -d '\n')
    [[ $out == 11 || $out == 00 ]] || fail "'$f' tells $accepted from $rejected ($out)"
    answers+=${out:0:1}
done
[[ $answers == *1* && $answers == *0* ]] || fail "the formulas all answer $answers"
# A depth-1 formula of window 1 does tell them apart (the reason's contrast with local-1).
[[ $("$bin" accepts 'Y<=1 a' --alphabet a,b --words words.txt | cut -f2 | tr -d '\n') == 10 ]] || fail "Y<=1 a"

[[ $fails == 0 ]] && echo "window_reasons: all checks passed"
exit $((fails > 0))
