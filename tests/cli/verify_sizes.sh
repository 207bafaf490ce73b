#!/usr/bin/env bash
# verify sized by the user and its cost said before it runs: a CPU grid over --max-hours is refused
# (exit 3, nothing written); sizes given as options and as a --profile-file give the same plan and
# run identities, recorded in plan.json; bad sizes are one clear line.
# Usage: bash verify_sizes.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
[[ -x $(dirname "$bin")/ltlkit-neural ]] || { echo "skip: no ltlkit-neural"; exit 0; }
rm -rf big a b p.json bad.json

# The issue's stumble: standard on a CPU is refused before anything is written, with the estimate.
"$bin" verify --suite "$src/examples/lc26.suite" --profile standard --device cpu --out big >out.txt 2>err.txt
rc=$?
[[ $rc == 3 ]] || fail "standard on a CPU: exit $rc, want 3"
grep -q '^verify: 120 run(s), profile standard' err.txt || fail "no estimate line: $(head -n 1 err.txt)"
grep -q 'over --max-hours 4' err.txt && grep -q -- '--accept-cost' err.txt || fail "refusal: $(tail -n 1 err.txt)"
[[ ! -e big ]] || fail "a refused verify wrote big/"
# a bound high enough lets --estimate-like planning through: --max-hours is what decides
"$bin" verify --suite "$src/examples/lc26.suite" --profile first --device cpu --max-hours 0.0001 --out big 2>err.txt
[[ $? == 3 ]] || fail "first under --max-hours 0.0001 was not refused"

# Options and a profile file: the same sizes, the same plan.
sizes=(--steps 5 --layers 1 --d-model 8 --heads 2 --test-lengths 41:43 --per-length 2)
"$bin" verify 'Y a' --alphabet a,b --archs global --profile first "${sizes[@]}" --device cpu -q --out a >/dev/null 2>err.txt ||
    fail "sized verify: $(head -n 1 err.txt)"
[[ ! -s err.txt ]] || fail "-q printed: $(head -n 1 err.txt)"
printf '{"profile": "first", "steps": 5, "layers": 1, "d_model": 8, "heads": 2, "test_lengths": "41:43", "per_length": 2}\n' >p.json
"$bin" verify 'Y a' --alphabet a,b --archs global --profile-file p.json --device cpu --out b >/dev/null 2>err.txt ||
    fail "profile file: $(head -n 1 err.txt)"
grep -q '^verify: 1 run(s), profile first (1 layers × d 8 × 2 heads, 5 steps' err.txt || fail "estimate: $(head -n 1 err.txt)"
python3 - a/plan.json b/plan.json <<'PY' || fail "plans differ or miss the sizes"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
c = a["config"]
assert (c["layers"], c["d_model"], c["heads"], c["steps"]) == (1, 8, 2, 5), c
assert (c["test_min"], c["test_max"], c["per_length"]) == (41, 43, 2), c
assert a["config"] == b["config"] and a["profile"] == b["profile"] == "first"
assert [r["identity"] for r in a["runs"]] == [r["identity"] for r in b["runs"]]
PY
# Another size, another identity.
"$bin" verify 'Y a' --alphabet a,b --archs global --profile-file p.json --per-length 4 --device cpu --max-hours 1 \
    --estimate 1 >est.txt 2>&1 || fail "--estimate with a profile file"
grep -q '^runs=1$' est.txt || fail "estimate: $(cat est.txt)"

# Bad sizes: one line each, exit 2, nothing written.
printf '{"steps": 5, "bogus": 1}\n' >bad.json
for args in "--profile-file bad.json" "--d-model 10 --heads 4" "--test-lengths 9:3" "--profile-file missing.json"; do
    eval "set -- $args"
    "$bin" verify 'Y a' --alphabet a,b --out c "$@" >/dev/null 2>err.txt
    rc=$?
    [[ $rc == 2 || $rc == 4 ]] || fail "$args: exit $rc"
    [[ $(wc -l <err.txt) == 1 ]] || fail "$args: $(cat err.txt)"
    [[ ! -e c ]] || fail "$args wrote c/"
done
grep -q 'unknown key "bogus"' < <("$bin" verify 'Y a' --alphabet a,b --out c --profile-file bad.json 2>&1) || fail "bogus key not named"

[[ $fails == 0 ]] && echo "verify_sizes: all passed"
exit $((fails > 0))
