#!/usr/bin/env bash
# `ltlkit classify`, `monoid`, `check-certificate`: the JSON keys of issue 3, classes of known
# languages (checked with python3's json, independently of the C++ writer), certificate files
# that re-verify, a tampered certificate rejected, and bad input / limits exit codes.
# Usage: bash classify.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf certs out.json

# JSON has exactly the keys of issue 3 item 5.
"$bin" classify 'P(b & Y a)' --alphabet a,b,c --max-k 1 --json >out.json 2>err.txt || fail "classify --json exited $?: $(cat err.txt)"
python3 - out.json <<'PY' || fail "JSON keys or values"
import json, sys
j = json.load(open(sys.argv[1]))
want = ["alphabet", "fragment", "states", "classes", "definite_degree", "local_k", "hybrid_k", "predictions", "certificates"]
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
"$bin" monoid 'Y a' --eggbox >out.txt || fail "monoid"
grep -q 'D-class' out.txt || fail "egg-box missing"
"$bin" monoid --regex '(ab)*' --json >out.json || fail "monoid --json"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['size'] == 6, j['size']   # 1, a, b, ab, ba, 0
" || fail "syntactic monoid of (ab)* has 6 elements"

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
    "$bin" classify --dfa "$name.json" --max-k 2 --window-time 0 "$@" --certificates "$name.certs" --json >out.json \
        || { fail "classify $name.json"; return; }
    python3 -c "import json; j = json.load(open('out.json')); c = json.load(open('$name.certs/hybrid_k-2.json'))
$asserts" || fail "hybrid_k:2 of $name.json: $asserts"
}

# The unknown path (docs/WINDOWS.md §5) on a 5-state DFA of the random sample of §7 (a yes of the
# extended sink route with the default bounds): with tiny search bounds it is unknown, with a depth
# lower bound that check-certificate re-verifies (exit 0).
window_case open5 '{"alphabet": ["a","b"], "initial": 0, "accepting": [1,4], "transitions": [[0,1],[1,2],[3,2],[1,4],[4,4]]}' "
assert j['hybrid_k']['2'] == 'unknown', j['hybrid_k']
assert c['kind'] == 'search_exhausted' and c['depth_lower_bound'] == 1, c
assert c['pairs'][0] == ['b', 'bb'], c['pairs']" --window-budget 200 --probe-states 20
"$bin" check-certificate open5.certs/hybrid_k-2.json >/dev/null || fail "the depth lower bound of an unknown re-verifies"
sed -i 's/"depth_lower_bound": 1/"depth_lower_bound": 2/' open5.certs/hybrid_k-2.json
"$bin" check-certificate open5.certs/hybrid_k-2.json >/dev/null; rc=$?
[[ $rc == 1 ]] || fail "a raised depth lower bound must not hold: exit $rc"

# A yes of the sink route (§3c): "the word leaves (ba(a|b))*" (δ=12,11,31,00 F={1}), the open case
# of earlier versions, even with small bounds; the formula compiles back in check-certificate.
window_case p3 '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,2],[1,1],[3,1],[0,0]]}' "
assert j['hybrid_k']['2'] == 'yes', j['hybrid_k']
assert c['kind'] == 'formula' and c['route'] == 'sink', c" --window-budget 2000 --probe-states 5000
"$bin" check-certificate p3.certs/hybrid_k-2.json >/dev/null || fail "the sink route's formula re-verifies"

# A yes of the typed route (§3b) with ordered pairs: δ=12,31,02,33 F={3} ("aa occurred, or an a after
# a b whose window holds only a's") has the sink route fail and needs P(a & P(...)).
window_case typed '{"alphabet": ["a","b"], "initial": 0, "accepting": [3], "transitions": [[1,2],[3,1],[0,2],[3,3]]}' "
assert j['hybrid_k']['2'] == 'yes', j['hybrid_k']
assert c['kind'] == 'formula' and 'route' not in c and c['type_depth'] == 1 and c['past_depth'] == 2, c"
"$bin" check-certificate typed.certs/hybrid_k-2.json >/dev/null || fail "the typed route's formula compiles back"

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

# Y<=5 a over {a,b,c}, k = 3: every search fails, the depth probe (after the searches' half of the
# question's time) separates at depth 3; the hybrid answer is the local one, its certificate re-runs
# the window-type exploration.
rm -rf y5.certs
"$bin" classify 'Y<=5 a' --alphabet a,b,c --max-k 3 --window-time 20 --json --certificates y5.certs >out.json 2>/dev/null || fail "classify Y<=5 a"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['local_k']['3'] == 'yes' and j['hybrid_k']['3'] == 'yes', (j['local_k'], j['hybrid_k'])
c = j['certificates']['hybrid_k:3']
assert c['kind'] == 'depth_types' and c['types'] == 'window' and 'formula_omitted' in c, c
" || fail "Y<=5 a: local_k:3 by the depth probe, hybrid_k:3 by inclusion"
for f in y5.certs/local_k-3.json y5.certs/hybrid_k-3.json; do
    "$bin" check-certificate "$f" >/dev/null || fail "certificate $f does not re-verify"
done

# The window budget: with 0.3 s for all questions a hard language answers unknown, names the bound
# and the option in the fact and in JSON, and writes "member": null (neither member nor not).
"$bin" classify 'H(Y a -> P(b & Y Y c))' --alphabet a,b,c --window-time 0.3 --json --certificates budget.certs >out.json 2>err.txt \
    || fail "classify under a small budget"
python3 -c "
import json; j = json.load(open('out.json'))
unknown = [c for c in j['certificates'].values() if c.get('kind') == 'search_exhausted']
assert unknown, j['hybrid_k']
assert all(c['member'] is None for c in unknown), unknown
timed = [c for c in unknown if c.get('budget', {}).get('bound') == 'time']
assert timed and all(c['budget']['option'] == '--window-time' and '--window-time' in c['fact'] for c in timed), unknown
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

[[ $fails == 0 ]] && echo "classify.sh: all passed"
exit $((fails > 0))
