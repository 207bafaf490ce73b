#!/usr/bin/env bash
# The subregular classes of docs/SUBREGULAR.md through the CLI: `classify --json` shows them under
# their stable names with parameters, `--certificates` writes one file per class that
# `check-certificate` re-verifies (exit 0), and a tampered certificate is rejected (exit 1).
# Usage: bash subregular.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf certs out.json

# "no two adjacent a": SL-2 (forbidden factor aa), not SP, TSL on the tier {a, b}.
"$bin" classify --regex '(b|ab)*(a|ε)' --alphabet a,b --max-k 2 --certificates certs --json >out.json 2>err.txt ||
    fail "classify exited $?: $(cat err.txt)"
python3 - out.json <<'PY' || fail "subregular JSON"
import json, sys
j = json.load(open(sys.argv[1]))
s = j["subregular"]
for c in ["finite", "cofinite", "SL", "SP", "LT", "PT", "LTT", "TSL", "DA", "aperiodic_commutative"]:
    assert c in s, c
assert s["SL"]["member"] is True and s["SL"]["params"] == {"k": 2}, s["SL"]
assert s["SP"]["member"] is False, s["SP"]
assert s["LT"]["member"] is True and s["LT"]["params"]["k"] == 2, s["LT"]
assert s["finite"]["member"] is False and s["cofinite"]["member"] is False
assert "hybrid" in s["SL"]["prediction"], s["SL"]
PY
for f in certs/SL.json certs/SP.json certs/LT.json certs/TSL.json certs/DA.json certs/finite.json; do
    "$bin" check-certificate "$f" >check.txt 2>&1 || fail "check-certificate $f exited $?: $(cat check.txt)"
done
# The forbidden factor removed: another language, so the certificate does not hold.
python3 - certs/SL.json tampered.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert ["a", "a"] in c["forbidden"], c["forbidden"]
c["forbidden"].remove(["a", "a"])
json.dump(c, open(sys.argv[2], "w"))
PY
"$bin" check-certificate tampered.json >check.txt 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "a tampered SL certificate: exit $rc, expected 1: $(cat check.txt)"
# A malformed factor is bad input (exit 2) with one line naming it.
python3 - certs/SL.json bad.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["forbidden"].append(["z"])
json.dump(c, open(sys.argv[2], "w"))
PY
"$bin" check-certificate bad.json >check.txt 2>&1
rc=$?
[[ $rc -eq 2 ]] || fail "a factor outside the alphabet: exit $rc, expected 2: $(cat check.txt)"
grep -q "'z'" check.txt || fail "the error does not name the symbol: $(cat check.txt)"

# "at most one a": SP-2 (forbidden subsequence aa), PT, global attention recognizes it.
"$bin" classify --regex 'b*(a|ε)b*' --alphabet a,b --max-k 2 --json >out.json 2>err.txt || fail "classify exited $?"
python3 - out.json <<'PY' || fail "SP JSON"
import json, sys
s = json.load(open(sys.argv[1]))["subregular"]
assert s["SP"]["member"] is True and s["SP"]["params"] == {"k": 2}, s["SP"]
assert s["SL"]["member"] is False, s["SL"]
assert s["PT"]["member"] is True and "global" in s["SP"]["prediction"], s["PT"]
PY
# Text output has the section; --no-subregular drops it.
"$bin" classify --regex 'b*(a|ε)b*' --alphabet a,b --max-k 2 >out.txt 2>&1 || fail "classify text exited $?"
grep -q "subregular classes" out.txt || fail "no subregular section in the text output"
"$bin" classify --regex 'b*(a|ε)b*' --alphabet a,b --max-k 2 --no-subregular >out.txt 2>&1 || fail "classify --no-subregular exited $?"
grep -q "subregular classes" out.txt && fail "--no-subregular still prints the section"

# Suites by class: reproducible from the seed, every DFA of the class with the least k asked for,
# and readable as a suite by generate.
rm -rf s1 s2 gen && mkdir -p s1 s2
"$bin" suite --class SP --k 2 --alphabet a,b --count 5 --seed 7 --out s1/sp.suite >/dev/null 2>err.txt || fail "suite exited $?: $(cat err.txt)"
"$bin" suite --class SP --k 2 --alphabet a,b --count 5 --seed 7 --out s2/sp.suite >/dev/null 2>err.txt || fail "suite (again) exited $?"
diff -r s1 s2 >/dev/null || fail "the same seed gave another suite"
"$bin" suite --class SL --k 1 --alphabet a,b --count 2 --seed 3 --out s3.suite --json >out.json 2>err.txt || fail "suite --json exited $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["count"]==2 and all(l["params"]["k"]==1 for l in j["languages"]), j' out.json ||
    fail "suite --json"
[[ $(grep -c $'\tdfa\t' s1/sp.suite) -eq 5 ]] || fail "the suite does not have 5 dfa lines: $(cat s1/sp.suite)"
for f in s1/sp-dfa/*.json; do
    "$bin" classify --dfa "$f" --max-k 1 --json >out.json 2>err.txt || fail "classify $f exited $?"
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["subregular"]["SP"]; assert s["member"] and s["params"]["k"]==2, s' out.json ||
        fail "$f is not SP with least k 2"
done
"$bin" generate --suite s1/sp.suite --out gen --per-length 2 --boundary-per-length 1 --train-lengths 1:3 --test-lengths 4:5 \
    --no-adversarial --quiet >/dev/null 2>err.txt || fail "generate --suite on the drawn suite exited $?: $(cat err.txt)"
"$bin" suite --class DA --k 2 --out bad.suite >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "--k for DA should be bad input"
grep -q 'not a parameter' err.txt || fail "no reason for --k on DA: $(cat err.txt)"
# Forged certificates (issue 44): LT / PT claimed with k = 1 for a language that is not LT / PT,
# and a wrong k for an LT language, do not hold (exit 1; 2 is kept for malformed input).
"$bin" classify --regex '(ab)*' --alphabet a,b --max-k 1 --certificates forge >/dev/null 2>err.txt || fail "classify (ab)* exited $?"
"$bin" classify --regex '(b|ab)*(a|ε)' --alphabet a,b --max-k 1 --certificates forge2 >/dev/null 2>err.txt || fail "classify no-aa exited $?"
python3 - forge forge2 <<'PY' || fail "forging"
import json, sys
for c in ["LT", "PT"]:
    j = json.load(open(f"{sys.argv[1]}/{c}.json"))
    if j["member"] is False:
        j.update({"member": True, "k": 1, "params": {"k": 1}})
        json.dump(j, open(f"forged-{c}.json", "w"))
j = json.load(open(f"{sys.argv[2]}/LT.json"))
assert j["params"] == {"k": 2}, j["params"]
j["params"]["k"] = 3
j["k"] = 3
json.dump(j, open("forged-LTk.json", "w"))
PY
for f in forged-*.json; do
    "$bin" check-certificate "$f" >check.txt 2>&1
    rc=$?
    [[ $rc -eq 1 ]] || fail "forged $f: exit $rc, expected 1 (does not hold): $(cat check.txt)"
done
[[ $(ls forged-*.json | wc -l) -ge 2 ]] || fail "nothing was forged"
# Inclusions (issue 42): Y<=3 a is SL-4, so LT is reported with k <= 4, never "not known".
"$bin" classify 'Y<=3 a' --alphabet a,b --max-k 1 --json >out.json 2>err.txt || fail "classify Y<=3 a exited $?"
python3 - out.json <<'PY' || fail "LT bounded by SL"
import json, sys
s = json.load(open(sys.argv[1]))["subregular"]
k = s["SL"]["params"]["k"]
lt = s["LT"]["params"]
assert s["LT"]["member"] is True and (lt.get("k", 99) <= k or lt.get("k_at_most", 99) <= k), (s["SL"], s["LT"])
assert "not known" not in s["LT"]["fact"], s["LT"]
PY
# The pair-graph limit is an option: at 1 live state SL is left open (null) and says how to raise it.
"$bin" classify 'Y<=3 a' --alphabet a,b --max-k 1 --json --sl-max-states 1 >out.json 2>err.txt || fail "classify --sl-max-states exited $?"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["subregular"]["SL"]; assert s["member"] is None and "--sl-max-states" in s["fact"], s' out.json ||
    fail "--sl-max-states 1 does not leave SL open"
# TSL suites on a proper tier.
"$bin" suite --class TSL --k 2 --alphabet a,b,c --count 4 --seed 3 --proper-tier --out tsl.suite --json >out.json 2>err.txt || fail "suite --proper-tier exited $?: $(cat err.txt)"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert all(len(l["params"]["tier"]) < 3 for l in j["languages"]), j' out.json ||
    fail "--proper-tier drew a tier of the whole alphabet"
"$bin" suite --class SL --proper-tier --out bad.suite >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "--proper-tier for SL should be bad input"
[[ $fails -eq 0 ]] || exit 1
echo "subregular: ok"
