#!/usr/bin/env bash
# `ltlkit classify`, `monoid`, `check-certificate`: the JSON keys `classify --json` documents, classes of known
# languages (checked with python3's json, independently of the C++ writer), certificate files
# that re-verify, a tampered certificate rejected, and bad input / limits exit codes.
# Usage: bash classify.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf certs out.json

# JSON has exactly the keys `classify --json` writes (README, docs/SYNTAX.md), in this order.
"$bin" classify 'P(b & Y a)' --alphabet a,b,c --max-k 1 --json >out.json 2>err.txt || fail "classify --json exited $?: $(cat err.txt)"
python3 - out.json <<'PY' || fail "JSON keys or values"
import json, sys
j = json.load(open(sys.argv[1]))
want = ["alphabet", "alphabet_inferred", "fragment", "states", "classes", "definite_degree", "local_k", "hybrid_k",
        "predictions", "prediction_reasons", "witnesses", "certificates", "subregular"]
assert j["alphabet_inferred"] is False
assert list(j.keys()) == want, list(j.keys())
assert set(j["classes"]) == {"definite", "r_trivial", "locally_r_trivial", "locally_testable", "piecewise_testable",
                             "star_free", "reverse_definite", "generalized_definite", "l_trivial"}
c = j["classes"]
assert c["locally_r_trivial"] is True and c["r_trivial"] is False and c["definite"] is False, c
assert c["locally_testable"] is True and c["star_free"] is True, c
assert j["fragment"] == "LTL[P,Y]" and j["alphabet"] == ["a", "b", "c"], j
assert j["predictions"]["global"] == "fails" and j["predictions"]["hybrid-1"] == "recognizes", j["predictions"]
assert j["local_k"] == {} and j["hybrid_k"] == {}
assert j["definite_degree"] is None
PY

# Σ*a: definite of degree 1, every architecture recognizes it up to local-1.
"$bin" classify 'Y a' --alphabet a,b --json --max-k 2 >out.json || fail "classify Y a"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['classes']['definite'] and j['definite_degree'] == 1, j
assert j['predictions']['local-1'] == 'recognizes' and j['predictions']['global'] == 'fails', j['predictions']
assert list(j['predictions']) == ['global', 'local-1', 'local-2', 'hybrid-1', 'hybrid-2'], list(j['predictions'])
" || fail "Y a classes"

# Regex input: parity is not star-free; fragment is null.
"$bin" classify --regex 'a*(ba*ba*)*' --alphabet a,b --json >out.json || fail "classify parity"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['fragment'] is None and j['classes']['star_free'] is False, j['classes']
" || fail "parity"

# Human output: a table with marks and the predictions.
"$bin" classify 'P(b & P a)' --max-k 1 >out.txt || fail "human output"
grep -q '✓ r_trivial' out.txt || fail "human table lacks ✓ r_trivial"
grep -q '✗ definite' out.txt || fail "human table lacks ✗ definite"
grep -q '^predictions:' out.txt || fail "no predictions section"
grep -q 'global *recognizes' out.txt || fail "global prediction"

# Certificates: one file per class, each re-verifies; a tampered one does not.
"$bin" classify 'P(b & Y a)' --alphabet a,b,c --max-k 1 --certificates certs >/dev/null || fail "--certificates"
# Not locally R-trivial: the window answers are "no" by the necessary conditions (no search).
"$bin" classify --regex '(a(ab)*b)*' --alphabet a,b --max-k 2 --certificates certs/dyck >/dev/null || fail "--certificates dyck"
[[ -f certs/dyck/local_k-2.json && -f certs/dyck/hybrid_k-2.json ]] || fail "window certificate files missing"
n=0
for f in certs/*.json certs/dyck/*.json; do
    n=$((n + 1))
    grep -q '"kind": "search_exhausted"' "$f" && continue  # an "unknown" answer proves nothing
    "$bin" check-certificate "$f" >/dev/null; rc=$?
    [[ $rc == 0 ]] || fail "certificate $f does not re-verify (exit $rc)"
done
[[ $n -ge 20 ]] || fail "only $n certificate files"
# check-certificate --json says what the text says, with the same exit code.
for f in certs/definite.json certs/r_trivial.json; do
    text=$("$bin" check-certificate "$f"); rc_text=$?
    json=$("$bin" check-certificate "$f" --json); rc_json=$?
    [[ $rc_text == "$rc_json" ]] || fail "check-certificate --json exit $rc_json, text $rc_text"
    python3 - "$json" "$text" "$f" <<'PY' || fail "check-certificate --json on $f: $json"
import json, sys
j, text, f = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
cert = json.load(open(f))
assert j["file"] == f and j["class"] == cert["class"] and j["member"] == cert["member"], j
assert j["holds"] == text.startswith("holds: ") and text.endswith(j["explanation"]), (j, text)
PY
done
python3 -c "
import json; j = json.load(open('certs/r_trivial.json')); j['member'] = True
json.dump(j, open('tampered.json', 'w'))
"
"$bin" check-certificate tampered.json >/dev/null; rc=$?
[[ $rc == 1 ]] || fail "tampered certificate: exit $rc, want 1"
echo '{"dfa": 3}' >bad.json
"$bin" check-certificate bad.json >/dev/null 2>err.txt; rc=$?
[[ $rc == 2 ]] || fail "malformed certificate: exit $rc, want 2"
grep -q '^ltlkit: error:' err.txt || fail "malformed certificate: no error line"

# monoid: sizes and egg-box; JSON.
"$bin" monoid 'Y a' --alphabet a,b --eggbox >out.txt || fail "monoid"
grep -q 'D-class' out.txt || fail "egg-box missing"
"$bin" monoid --regex '(ab)*' --json >out.json || fail "monoid --json"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['size'] == 6, j['size']   # 1, a, b, ab, ba, 0
" || fail "syntactic monoid of (ab)* has 6 elements"

# Reasons and witnesses: one "because" per prediction naming the class and its logic; every witness
# pair is labelled, and `accepts` (the DFA route) agrees with the labels.
"$bin" classify 'P(b & Y a)' --alphabet a,b --max-k 2 --json >out.json || fail "classify reasons"
python3 - out.json <<'PY' || fail "prediction reasons"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["prediction_reasons"]
assert set(r) == set(j["predictions"]), r
assert r["global"] == "the language is R-trivial (LTL[P])", r["global"]
assert r["local-1"].startswith("the language is not definite") and "LTL[Y]" in r["local-1"], r["local-1"]
assert r["hybrid-1"] == "the language is locally R-trivial (LTL[P,Y])", r["hybrid-1"]
assert "LTL[Y<=2]" in r["local-2"] and "local_k:2: no" in r["local-2"], r["local-2"]
w = j["witnesses"]
assert set(w) == {a for a, p in j["predictions"].items() if p == "fails"}, (w, j["predictions"])
with open("witnesses.txt", "w") as f:
    for pair in w.values():
        f.write(pair["accepted"] + "\t1\n" + pair["rejected"] + "\t0\n")
PY
while IFS=$'\t' read -r word want; do
    got=$("$bin" accepts 'P(b & Y a)' --alphabet a,b "$word" | cut -f2)
    [[ $got == "$want" ]] || fail "witness '$word' labelled $want, accepts says $got"
done <witnesses.txt

# Text layout: lines fit the width ($COLUMNS, else 80 in a pipe), the "because" of every prediction
# starts in one column, and witnesses are labelled.
COLUMNS=60 "$bin" classify 'P(b & Y a)' --alphabet a,b --max-k 2 >out.txt || fail "text output"
python3 - out.txt 60 <<'PY' || fail "text layout at 60 columns"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert all(len(l) <= int(sys.argv[2]) for l in lines), [l for l in lines if len(l) > int(sys.argv[2])]
preds = lines[lines.index("predictions:") + 1:]
starts = {l.index("because") for l in preds if "because" in l}
assert len(starts) == 1 and sum("because" in l for l in preds) == 5, preds
assert any(l.strip().startswith("accepted: ") and ", rejected: " in l for l in preds), preds
cls = lines[lines.index("classes:") + 1:lines.index("predictions:") - 1]
firsts = [l for l in cls if l[2] in "✓✗?"]
assert len({len(l) - len(l[4:].split("  ", 1)[1].lstrip()) for l in firsts}) == 1, firsts  # one evidence column
PY
env -u COLUMNS "$bin" classify 'P(b & Y a)' --alphabet a,b --max-k 2 \
    | python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in sys.stdin))' \
    || fail "lines longer than 80 columns in a pipe"
grep -q 'alphabet: a,b   fragment' out.txt || fail "given alphabet shown as inferred"
"$bin" classify 'P(b & Y a)' --max-k 1 2>err.txt | grep -q '^alphabet: a,b (inferred)' || fail "inferred alphabet not marked"

# Batch input: one classification (or monoid) per formula line, the same as one call each.
printf 'Y a\n# comment\nP(b & Y a)\n' >batch.txt
"$bin" classify --input batch.txt --alphabet a,b --max-k 1 --json >batch.jsonl || fail "classify --input"
"$bin" classify 'P(b & Y a)' --alphabet a,b --max-k 1 --json >single.json || fail "classify single"
python3 - <<'PY' || fail "classify --input agrees with single calls"
import json
rows = [json.loads(l) for l in open("batch.jsonl")]
assert [r["input"] for r in rows] == ["Y a", "P(b & Y a)"], rows
single = json.load(open("single.json"))
assert rows[1]["classes"] == single["classes"] and rows[1]["predictions"] == single["predictions"]
assert rows[0]["classes"]["definite"] is True
PY
"$bin" monoid --input batch.txt --alphabet a,b --json >batch.jsonl || fail "monoid --input"
[[ $(python3 -c 'import json; print([json.loads(l)["size"] for l in open("batch.jsonl")])') == \
   "[$("$bin" monoid 'Y a' --alphabet a,b --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["size"])'), $("$bin" monoid 'P(b & Y a)' --alphabet a,b --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["size"])')]" ]] \
    || fail "monoid --input sizes differ from single calls"
rm -rf certs-batch
"$bin" classify --input batch.txt --alphabet a,b --max-k 1 --certificates certs-batch >/dev/null || fail "classify --input --certificates"
[[ -f certs-batch/1/definite.json && -f certs-batch/2/r_trivial.json ]] || fail "batch certificates not in DIR/N"
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["member"])' certs-batch/2/r_trivial.json) <(echo True) \
    || fail "the second formula's r_trivial certificate"
printf 'Y a\nP(b &\n' >bad.txt
"$bin" classify --input bad.txt --alphabet a,b >out.txt 2>err.txt; rc=$?
[[ $rc == 2 && ! -s out.txt ]] || fail "classify --input with a bad line: exit $rc, stdout $(wc -c <out.txt) bytes"
grep -q '^ltlkit: error: bad.txt:2:' err.txt || fail "classify --input error names the line: $(head -1 err.txt)"

# Bad input and limits.
"$bin" classify 'P(b &' >/dev/null 2>err.txt; rc=$?
[[ $rc == 2 ]] || fail "parse error: exit $rc"
"$bin" monoid --regex 'a*(ba*ba*)*(c|d)*abcd' --max-elements 5 >/dev/null 2>err.txt; rc=$?
[[ $rc == 3 ]] || fail "--max-elements: exit $rc, want 3"
grep -q -- '--max-elements' err.txt || fail "limit message does not name --max-elements"
# Star-free and not locally R-trivial, no letter permutes states (depth-2 Dyck): only the semigroup
# (15 elements) decides star_free and l_trivial.
"$bin" classify --regex '(a(ab)*b)*' --alphabet a,b --max-k 1 --max-elements 5 --json >out.json || fail "classify above --max-elements must still answer"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['classes']['star_free'] is None and j['classes']['l_trivial'] is None, j['classes']
assert 'reason' in j['certificates']['star_free']
" || fail "semigroup-only classes are null above --max-elements"
# A letter that permutes states refutes star_free (and l_trivial) without the semigroup.
"$bin" classify --regex 'a*(ba*ba*)*(c|d)*abcd' --max-k 1 --max-elements 5 --json --certificates perm.certs >out.json || fail "classify parity-like"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['classes']['star_free'] is False and j['classes']['l_trivial'] is False, j['classes']
assert j['certificates']['star_free']['identity'] == 'aperiodic', j['certificates']['star_free']
" || fail "a permuting letter refutes star_free"
for f in perm.certs/star_free.json perm.certs/l_trivial.json; do
    "$bin" check-certificate "$f" >/dev/null || fail "certificate $f does not re-verify"
done

# window_case NAME DFA_JSON ASSERTS [classify options]: classify the DFA with --max-k 2, no time budget
# (each case names the route that answers it, whatever the machine's load) and certificates
# into NAME.certs, then check the Python ASSERTS with j = the JSON output and c = the hybrid_k:2
# certificate.
window_case() {
    local name=$1 dfa=$2 asserts=$3
    shift 3
    printf '%s\n' "$dfa" >"$name.json"
    rm -rf "$name.certs"
    "$bin" classify --dfa "$name.json" --max-k 2 --window-work 0 "$@" --certificates "$name.certs" --json >out.json \
        || { fail "classify $name.json"; return; }
    python3 -c "import json; j = json.load(open('out.json')); c = json.load(open('$name.certs/hybrid_k-2.json'))
$asserts" || fail "hybrid_k:2 of $name.json: $asserts"
}

# The unknown path (docs/WINDOWS.md §5) on a 5-state DFA of the random sample of §7 (a yes of the
# extended sink-state strategy with the default bounds): with tiny search bounds it is unknown, with a depth
# lower bound that check-certificate re-verifies (exit 0).
window_case open5 '{"alphabet": ["a","b"], "initial": 0, "accepting": [1,4], "transitions": [[0,1],[1,2],[3,2],[1,4],[4,4]]}' "
assert j['hybrid_k']['2'] == 'unknown', j['hybrid_k']
assert c['kind'] == 'search_exhausted' and c['depth_lower_bound'] == 1, c
assert c['pairs'][0] == ['b', 'bb'], c['pairs']" --window-budget 200 --probe-states 20
"$bin" check-certificate open5.certs/hybrid_k-2.json >/dev/null || fail "the depth lower bound of an unknown re-verifies"
sed -i 's/"depth_lower_bound": 1/"depth_lower_bound": 2/' open5.certs/hybrid_k-2.json
"$bin" check-certificate open5.certs/hybrid_k-2.json >/dev/null; rc=$?
[[ $rc == 1 ]] || fail "a raised depth lower bound must not hold: exit $rc"

# A yes of the sink-state strategy (§3c): "the word leaves (ba(a|b))*" (δ=12,11,31,00 F={1}), the open case
# of earlier versions, even with small bounds; the formula compiles back in check-certificate.
window_case p3 '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,2],[1,1],[3,1],[0,0]]}' "
assert j['hybrid_k']['2'] == 'yes', j['hybrid_k']
assert c['kind'] == 'formula' and c['route'] == 'sink', c" --window-budget 2000 --probe-states 5000
"$bin" check-certificate p3.certs/hybrid_k-2.json >/dev/null || fail "the sink-state formula re-verifies"

# A yes of the window-type strategy (§3b) with ordered pairs: δ=12,31,02,33 F={3} ("aa occurred, or an a after
# a b whose window holds only a's") has the sink-state strategy fail and needs P(a & P(...)).
window_case typed '{"alphabet": ["a","b"], "initial": 0, "accepting": [3], "transitions": [[1,2],[3,1],[0,2],[3,3]]}' "
assert j['hybrid_k']['2'] == 'yes', j['hybrid_k']
assert c['kind'] == 'formula' and 'route' not in c and c['type_depth'] == 1 and c['past_depth'] == 2, c"
"$bin" check-certificate typed.certs/hybrid_k-2.json >/dev/null || fail "the window-type formula compiles back"

# A formula written in LTL[Y<=2] is its own certificate, for local_k:2 and (by inclusion) hybrid_k:2;
# Y<=100 is 50 nested Y<=2 and 25 nested Y<=4. Every such certificate compiles back.
rm -rf own.certs
"$bin" classify 'Y<=2 Y<=2 Y<=2 a' --alphabet a,b,c --max-k 2 --json --certificates own.certs >out.json || fail "classify own formula"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['local_k']['2'] == 'yes' and j['hybrid_k']['2'] == 'yes', (j['local_k'], j['hybrid_k'])
assert j['certificates']['local_k:2']['route'] == 'input_formula', j['certificates']['local_k:2']
" || fail "own formula is the certificate"
"$bin" classify 'Y<=100 a' --alphabet a,b --max-k 4 --window-time 2 --json --certificates own.certs/w100 >out.json || fail "classify Y<=100 a"
python3 -c "
import json; j = json.load(open('out.json'))
for k in ('2', '4'): assert j['local_k'][k] == 'yes' and j['hybrid_k'][k] == 'yes', (k, j['local_k'], j['hybrid_k'])
" || fail "Y<=100 a unfolded"
for f in own.certs/*.json own.certs/w100/local_k-2.json own.certs/w100/local_k-4.json own.certs/w100/hybrid_k-4.json; do
    "$bin" check-certificate "$f" >/dev/null || fail "certificate $f does not re-verify"
done

# Y<=5 a & !Y<=5 b over {a,b,c}, k = 3 (no two letters act alike): every search fails, the depth
# probe (after the searches' three quarters of the question's budget) separates at depth 3; the hybrid answer
# is the local one, its certificate re-runs the window-type exploration. Decided with the default
# budget, which is counted in work, so on a loaded machine too.
rm -rf y5.certs
"$bin" classify 'Y<=5 a & !Y<=5 b' --alphabet a,b,c --max-k 3 --json --certificates y5.certs >out.json 2>/dev/null || fail "classify Y<=5 a & !Y<=5 b"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['local_k']['3'] == 'yes' and j['hybrid_k']['3'] == 'yes', (j['local_k'], j['hybrid_k'])
c = j['certificates']['hybrid_k:3']
assert c['kind'] == 'depth_types' and c['types'] == 'window' and 'formula_omitted' in c, c
" || fail "Y<=5 a & !Y<=5 b: local_k:3 by the depth probe, hybrid_k:3 by inclusion"
for f in y5.certs/local_k-3.json y5.certs/hybrid_k-3.json; do
    "$bin" check-certificate "$f" >/dev/null || fail "certificate $f does not re-verify"
done

# Y<=5 a over {a,b,c}: b and c act alike (equal columns), so each window question is asked over
# {a,b} (Proposition 10.9 of docs/WINDOWS.md): the formula found there is widened (b -> b | c) and
# compiled back, and the answer is complete by Corollary 10.5 counting b, c once (|Σ| = 2).
rm -rf y5m.certs
"$bin" classify 'Y<=5 a' --alphabet a,b,c --max-k 3 --json --certificates y5m.certs >out.json 2>/dev/null || fail "classify Y<=5 a"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['local_k']['3'] == 'yes', j['local_k']
c = j['certificates']['local_k:3']
assert c['route'].startswith('merged_letters:') and 'c acts as b' in c['fact'], c
assert '(b | c)' in c['formula'], c['formula'][:200]
assert c['complete']['sigma'] == 2, c['complete']
" || fail "Y<=5 a: the question asked over {a,b}"
for f in y5m.certs/local_k-*.json y5m.certs/hybrid_k-*.json; do
    "$bin" check-certificate "$f" >/dev/null || fail "certificate $f does not re-verify"
done

"$bin" classify 'Y<=3 Y<=2 a' --alphabet a,b,c --max-k 3 --json >out.json 2>/dev/null || fail "classify Y<=3 Y<=2 a"
python3 -c "
import json; j = json.load(open('out.json'))
assert 'unknown' not in j['local_k'].values() and 'unknown' not in j['hybrid_k'].values(), (j['local_k'], j['hybrid_k'])
" || fail "Y<=3 Y<=2 a: a window answer is unknown at the default budget"

# The window budget: with 20000 steps for all questions a hard language answers unknown, names the
# bound and the option in the fact and in JSON, and writes "member": null (neither member nor not).
"$bin" classify 'H(Y a -> P(b & Y Y c))' --alphabet a,b,c --window-work 20000 --json --certificates budget.certs >out.json 2>err.txt \
    || fail "classify under a small budget"
python3 -c "
import json; j = json.load(open('out.json'))
unknown = [c for c in j['certificates'].values() if c.get('kind') == 'search_exhausted']
assert unknown, j['hybrid_k']
assert all(c['member'] is None for c in unknown), unknown
timed = [c for c in unknown if c.get('budget', {}).get('bound') == 'work']
assert timed and all(c['budget']['option'] == '--window-work' and '--window-work' in c['fact'] for c in timed), unknown
" || fail "budget-bound unknown answers"
for f in budget.certs/hybrid_k-*.json; do
    "$bin" check-certificate "$f" >/dev/null 2>err.txt; rc=$?
    [[ $rc != 2 ]] || fail "an unknown certificate is well-formed: $(cat err.txt)"
done

# The suites classify.
for s in lc25 lc26; do
    while IFS=$'\t' read -r name alpha kind text; do
        [[ -z $name || $name == \#* ]] && continue
        case $kind in
            regex) "$bin" classify --regex "$text" --alphabet "$alpha" --max-k 1 --json >/dev/null || fail "$s $name" ;;
            formula) "$bin" classify "$text" --alphabet "$alpha" --max-k 1 --json >/dev/null || fail "$s $name" ;;
        esac
    done <"$src/examples/$s.suite"
done

# --window-clock: both clocks give the same answers where the budget does not bind (these questions
# take milliseconds of the default 4 s),
# and an unknown clock is refused with exit 2 naming the option.
"$bin" classify --regex '(a(ab)*b)*' --alphabet a,b --max-k 3 --json --window-clock wall >wall.json || fail "--window-clock wall"
"$bin" classify --regex '(a(ab)*b)*' --alphabet a,b --max-k 3 --json --window-clock cpu >cpu.json || fail "--window-clock cpu"
cmp -s wall.json cpu.json || fail "--window-clock cpu answers differ from wall"
"$bin" classify 'Y a' --alphabet a,b --window-clock gpu >out.txt 2>err.txt; rc=$?
[[ $rc == 2 && ! -s out.txt ]] && grep -q -- '--window-clock' err.txt || fail "--window-clock gpu: exit $rc, $(cat err.txt)"

[[ $fails == 0 ]] && echo "classify.sh: all passed"
exit $((fails > 0))
