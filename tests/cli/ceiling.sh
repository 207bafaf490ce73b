#!/usr/bin/env bash
# `ltlkit ceiling`: the JSON keys it documents (docs/CEILING.md), checked with python3's json; the
# ceiling on a dataset split equals the one of the same words given to the distribution's route
# where they coincide; bounds over budget; and one-line errors with exit 2 for bad input.
# Usage: bash ceiling.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf data out.json err.txt

"$bin" ceiling --regex '.*a' --alphabet a,b --arch local-2 --layers 2 --json >out.json 2>err.txt ||
    fail "ceiling --json exited $?: $(cat err.txt)"
python3 - out.json <<'PY' || fail "JSON keys or values"
import json, sys
j = json.load(open(sys.argv[1]))
want = ["language", "arch", "window", "layers", "distribution", "lengths", "exact", "value", "lower", "upper",
        "lower_layers", "reason", "constant_accuracy", "constant_label", "types", "states_explored", "seconds",
        "per_length_rows"]
assert list(j.keys()) == want, list(j.keys())
assert j["arch"] == "local-2" and j["window"] == 2 and j["layers"] == 2 and j["distribution"] == "training"
assert j["lengths"] == "1:40" and j["exact"] is True and j["lower"] == j["value"] == j["upper"]
assert 0.5 <= j["constant_accuracy"] <= j["value"] <= 1
assert len(j["per_length_rows"]) == 40
row = j["per_length_rows"][0]
assert list(row.keys()) == ["length", "share", "positive_share", "accuracy", "optimum", "optimum_upper"], row
assert abs(sum(r["share"] for r in j["per_length_rows"]) - 1) < 1e-9
PY

# The test distribution defaults to 41:500 and records the words per length.
"$bin" ceiling --regex '.*ab' --alphabet a,b --arch local-1 --layers 2 --distribution test --json >out.json ||
    fail "ceiling test distribution"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['lengths'] == '41:500' and j['per_length'] == 512 and len(j['per_length_rows']) == 460, j['lengths']
assert j['value'] == 1.0, j['value']   # k = 1, two layers: the last two symbols exactly
" || fail "test distribution"

# Over a tiny state budget: bounds, not an error.
"$bin" ceiling --regex '(a(ab)*b)*' --alphabet a,b --arch local-2 --layers 4 --max-dp-states 20 --json >out.json ||
    fail "ceiling over budget exited $?"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['exact'] is False and j['value'] is None and j['reason'], j
assert j['constant_accuracy'] <= j['lower'] <= j['upper'] <= 1, j
" || fail "bounds over budget"

# A dataset split: its words, grouped by EOS type; the text output names the split.
"$bin" generate --regex '.*a' --alphabet a,b --out data --train-lengths 1:8 --test-lengths 9:12 --per-length 16 --no-adversarial \
    >/dev/null 2>err.txt || fail "generate: $(cat err.txt)"
"$bin" ceiling --arch local-1 --layers 1 --dataset data --split train --json >out.json 2>err.txt ||
    fail "ceiling --dataset: $(cat err.txt)"
python3 -c "
import json; j = json.load(open('out.json'))
assert j['distribution'] == 'empirical' and j['weighting'] == 'words' and j['value'] == 1.0, j
" || fail "dataset ceiling"
"$bin" ceiling --arch local-1 --layers 1 --dataset data >out.txt 2>err.txt || fail "ceiling --dataset text"
grep -q "split test" out.txt || fail "text output names the split"
grep -q "weighting lengths" out.txt || fail "test split weighs lengths"

# Errors: one line, exit 2.
check_error() {
    local want=$1 pattern=$2
    shift 2
    "$bin" "$@" >/dev/null 2>err.txt
    local code=$?
    [ "$code" = "$want" ] || fail "'$*' exited $code, expected $want"
    [ "$(wc -l <err.txt)" -le 1 ] || fail "'$*' printed more than one line: $(cat err.txt)"
    grep -q -- "$pattern" err.txt || fail "'$*': no '$pattern' in: $(cat err.txt)"
}
check_error 2 "no receptive-field ceiling" ceiling --regex '.*a' --alphabet a,b --arch global
check_error 2 "no receptive-field ceiling" ceiling --regex '.*a' --alphabet a,b --arch hybrid-2
check_error 2 "no receptive-field ceiling" ceiling --regex '.*a' --alphabet a,b --arch lstm
check_error 2 "local-K" ceiling --regex '.*a' --alphabet a,b --arch local-x
check_error 2 "unknown architecture" ceiling --regex '.*a' --alphabet a,b --arch bogus
check_error 2 "L >= 1" ceiling --regex '.*a' --alphabet a,b --arch local-2 --layers 0
check_error 2 "bad length range" ceiling --regex '.*a' --alphabet a,b --arch local-2 --lengths 9:3
check_error 2 "distribution" ceiling --regex '.*a' --alphabet a,b --arch local-2 --distribution bogus
check_error 2 "no accepted word" ceiling --regex '(ab)*' --alphabet a,b --arch local-2 --lengths 3:3
check_error 2 "no language given" ceiling --arch local-2
check_error 2 "arch" ceiling --regex '.*a' --alphabet a,b
check_error 2 "no split" ceiling --arch local-2 --dataset data --split nosuch
check_error 2 "does not apply" ceiling --arch local-2 --dataset data --lengths 1:3

# --distribution lc25: the best accuracy on exactly the LC25 near-miss words verify draws (a finite
# sample, weighted by length). A wider window refines the EOS types, so the ceiling cannot fall as k
# grows; every even length of (ab)* has its one accepted word, so 40 lengths in 41..120, each with
# 16 words (8 copies of the accepted word, 8 near misses).
for k in 1 2 4; do
    "$bin" ceiling --regex '(ab)*' --alphabet a,b --arch local-$k --layers 3 --distribution lc25 --name '(AB)*' \
        --lengths 41:120 --per-length 16 --json >lc25-$k.json 2>err.txt || fail "lc25 local-$k exited $?: $(cat err.txt)"
done
python3 - lc25-1.json lc25-2.json lc25-4.json <<'PY' || fail "lc25 ceilings"
import json, sys
js = [json.load(open(p)) for p in sys.argv[1:]]
for j in js:
    assert j["distribution"] == "empirical" and j["weighting"] == "lengths", j
    assert j["words"] == 40 * 16 and j["lengths"] == "42:120", (j["words"], j["lengths"])
    assert j["exact"] and 0.5 <= j["constant_accuracy"] <= j["value"] <= 1, j
    assert all(r["positive_share"] == 0.5 for r in j["per_length_rows"])
vals = [j["value"] for j in js]
assert vals[0] <= vals[1] <= vals[2] and vals[0] < vals[2], vals
PY
# Same name, same words: the sample is seeded by the suite's name (as verify seeds it), so reruns agree.
"$bin" ceiling --regex '(ab)*' --alphabet a,b --arch local-1 --layers 3 --distribution lc25 --name '(AB)*' \
    --lengths 41:120 --per-length 16 --json >lc25-again.json 2>/dev/null
cmp -s <(grep -v seconds lc25-1.json) <(grep -v seconds lc25-again.json) || fail "lc25 sample not reproducible"
check_error 2 "--name applies to --distribution lc25 only" ceiling --regex '.*a' --alphabet a,b --arch local-2 --name x
check_error 2 "--weighting applies to --dataset only" ceiling --regex '.*a' --alphabet a,b --arch local-2 \
    --distribution lc25 --weighting words

"$bin" ceiling --help >out.txt || fail "--help"
grep -q "Examples:" out.txt || fail "--help has no example"

[[ $fails == 0 ]] && echo "ceiling.sh: all passed"
exit $((fails > 0))
